"""One definition per variant for the score sheet (docs/rules.md section 9).

A :class:`VariantDef` says what the sheet of a match of that variant looks like: its title and
default target, its settings and their defaults, the points keys of a deal row and their display
labels, how many players may play it, and which extra facts a deal records. The sheet, the API,
the CLI and the pages all read it from here; the engine's own rule sets name the same variants.

>>> get("Cirulla").default_target, get("scopone-10").name
(51, 'scopone')
>>> [get("escoba").labels[k] for k in get("escoba").categories]
['Cartas', 'Oros', 'Siete de velo', 'Setenta', 'Escobas']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scopa.i18n import NP_, pgettext
from scopa.rules import (
    VARIANT_NAMES,
    VARIANT_SETTINGS,
    VARIANT_TITLES,
    Settings,
    target_range,
    variant_name,
)

SCOPA_CATEGORIES = ("cards", "coins", "settebello", "primiera", "sweeps", "napola")
ESCOBA_CATEGORIES = ("cards", "coins", "settebello", "primiera", "sweeps")
CIRULLA_CATEGORIES = (*ESCOBA_CATEGORIES, "declarations", "piccola", "grande")

HANDS_PER_DEAL = 12
"""A player receives ``12 // players`` three-card hands a deal (2 players 6, 4 players 3)."""

_LABELS = {
    "cards": NP_("category", "Cards"),
    "coins": NP_("category", "Coins"),
    "settebello": NP_("category", "Settebello"),
    "primiera": NP_("category", "Primiera"),
    "sweeps": NP_("category", "Sweeps"),
    "napola": NP_("category", "Napola"),
    "declarations": NP_("category", "Declarations"),
    "piccola": NP_("category", "Piccola"),
    "grande": NP_("category", "Grande"),
    "cappotto": NP_("category", "Cappotto"),
    "total": NP_("category", "Total"),
}
_ESCOBA_LABELS = {
    **_LABELS,
    "cards": NP_("category", "Cartas"),
    "coins": NP_("category", "Oros"),
    "settebello": NP_("category", "Siete de velo"),
    "primiera": NP_("category", "Setenta"),
    "sweeps": NP_("category", "Escobas"),
}
"""Escoba's own words, in every language (no "Sweeps" on an Escoba sheet)."""


@dataclass(frozen=True, slots=True)
class VariantDef:
    """What the score sheet knows of one variant."""

    name: str
    """The name in the match format (``cirulla``)."""
    title: str
    """For people (``Scopa d'Assi``)."""
    default_target: int
    defaults: Settings
    """The variant's default settings (its ``variant`` set)."""
    setting_names: tuple[str, ...]
    """The settings that exist in this variant, in the order they are listed."""
    categories: tuple[str, ...]
    """The points keys of a deal row without ``total``."""
    labels: dict[str, str] = field(compare=False, hash=False)
    """The display label of each points key (and ``total``, ``cappotto``)."""
    players: tuple[int, ...]
    """The numbers of players the sheet allows."""
    deal_facts: tuple[str, ...]
    """The keys a deal of this variant adds to ``piles``, ``sweeps`` and ``last_capture``."""
    description: str

    @property
    def points_keys(self) -> tuple[str, ...]:
        """The keys of a side's points in a deal row, in order, ``total`` last."""
        return (*self.categories, "total")

    @property
    def target_range(self) -> tuple[int, int]:
        return target_range(self.name)

    @property
    def partnerships_forced(self) -> bool:
        """Scopone is always played in partnerships."""
        return self.name == "scopone"

    @property
    def deal_keys(self) -> tuple[str, ...]:
        """Every key a deal of this variant may have."""
        return ("piles", "sweeps", "last_capture", *self.deal_facts)

    def label(self, key: str) -> str:
        """A points key's label for people, in the language in force."""
        label = self.labels.get(key)
        if label is None:
            return key.replace("_", " ").capitalize()
        return pgettext("category", label)

    def settings(self, **changes: Any) -> Settings:
        """The variant's defaults with some settings changed."""
        return self.defaults.replace(**changes) if changes else self.defaults

    @staticmethod
    def hands_received(players: int) -> int:
        """How many hands each player receives in a deal of ``players`` players.

        >>> [VariantDef.hands_received(n) for n in range(2, 7)]
        [6, 4, 3, 2, 2]
        """
        return HANDS_PER_DEAL // players

    def max_sweeps(self, count: int) -> int:
        """The most sweeps a pile of ``count`` cards can hold: half its cards (Cirulla: plus
        one from 4 cards, for the dealer's low table).

        >>> get("scopa").max_sweeps(4), get("cirulla").max_sweeps(4), get("cirulla").max_sweeps(3)
        (2, 3, 1)
        """
        extra = 1 if self.name == "cirulla" and count >= 4 else 0
        return count // 2 + extra


_DESCRIPTIONS = {
    "scopa": "The classic game: cards, coins, settebello, primiera, sweeps; napola by choice.",
    "scopone": "Four players in two fixed partnerships; scored as Scopa on pooled piles.",
    "assi": "The ace takes the whole table; napola counts (the run), to 21.",
    "escoba": "Spanish Escoba de quince: cartas, oros, siete de velo, setenta, escobas; to 15.",
    "cirulla": "Ligurian Cirulla: declarations, piccola, grande, and the cappotto; to 51.",
}
_CATEGORIES = {
    "scopa": SCOPA_CATEGORIES,
    "scopone": SCOPA_CATEGORIES,
    "assi": SCOPA_CATEGORIES,
    "escoba": ESCOBA_CATEGORIES,
    "cirulla": CIRULLA_CATEGORIES,
}
_FACTS = {
    "scopa": (),
    "scopone": ("last_play_cleared",),
    "assi": ("ace_sweeps",),
    "escoba": (),
    "cirulla": ("declarations",),
}


def _define(name: str) -> VariantDef:
    defaults = Settings.of(name)
    return VariantDef(
        name=name,
        title=VARIANT_TITLES[name],
        default_target=defaults.target,
        defaults=defaults,
        setting_names=VARIANT_SETTINGS[name],
        categories=_CATEGORIES[name],
        labels=dict(_ESCOBA_LABELS if name == "escoba" else _LABELS),
        players=(4,) if name == "scopone" else (2, 3, 4, 5, 6),
        deal_facts=_FACTS[name],
        description=_DESCRIPTIONS[name],
    )


VARIANTS: dict[str, VariantDef] = {name: _define(name) for name in VARIANT_NAMES}
"""Every variant of the sheet, by name, in the order of :data:`VARIANT_NAMES`."""


def get(name: object, where: str = "variant") -> VariantDef:
    """A variant by name (any case; ``scopone-10`` is Scopone), or
    :class:`~scopa.errors.UnknownVariantError` naming the place."""
    return VARIANTS[variant_name(name, where)]


def all_variants() -> tuple[VariantDef, ...]:
    return tuple(VARIANTS.values())


__all__ = ["VARIANTS", "VARIANT_NAMES", "VariantDef", "all_variants", "get"]
