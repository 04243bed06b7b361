"""One definition per variant (docs/rules.md section 9): the one record of all it is.

A :class:`VariantDef` says everything the project knows of a variant but its play rules: its
name and title, its settings and their defaults, its target range, the points keys of a deal
row and their labels, how many players may play it, which extra facts a deal records, its
preset on the new-match page, and what it does differently (partnerships always on, one more
sweep from a low table, Cirulla's categories and cappotto). Settings, the scorer, the sheet,
the match format, the API, the pages and the CLI all read it from the registry here; nothing
else compares a variant's name. The engine's play rules (:mod:`scopa.engine.variants`) are
keyed by the same names.

A new variant is one :func:`register` call (python-chess's variant classes are the model):

>>> get("Cirulla").default_target, get("scopone-10").name
(51, 'scopone')
>>> [get("escoba").labels[k] for k in get("escoba").categories]
['Cartas', 'Oros', 'Siete de velo', 'Setenta', 'Escobas']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scopa.errors import InputError, InvalidMatchError, UnknownVariantError, describe, either
from scopa.i18n import N_, NP_, _, pgettext
from scopa.reading import expect_string

DEFAULT = "scopa"
"""The variant of a match that names none (the match format omits it)."""
TARGET_MIN = 5
TARGET_MAX = 61

SCOPA_SETTINGS = ("target", "primiera", "napola", "partnerships", "last_capture_sweep", "ties")
ESCOBA_SETTINGS: tuple[str, ...] = (
    *("target", "primiera", "primiera_mode", "partnerships", "last_capture_sweep", "ties"),
)
CIRULLA_SETTINGS = (*ESCOBA_SETTINGS, "cirulla_points", "decino_points", "piccola_cap", "cappotto")

SCOPA_CATEGORIES = ("cards", "coins", "settebello", "primiera", "sweeps", "napola")
"""Scopa's categories, written once: the rest of the project reads them from the variant
(:attr:`VariantDef.categories`, :attr:`VariantDef.points_keys`)."""
PILE_CATEGORIES = SCOPA_CATEGORIES[:4]
"""The categories that go to whoever's pile wins them (the category form names the taker)."""
ESCOBA_CATEGORIES = SCOPA_CATEGORIES[:5]
CIRULLA_CATEGORIES = (*ESCOBA_CATEGORIES, "declarations", "piccola", "grande")

HANDS_PER_DEAL = 12
"""A player receives ``12 // players`` three-card hands a deal (2 players 6, 4 players 3)."""

LABELS: Mapping[str, str] = MappingProxyType(
    {
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
)
ESCOBA_LABELS: Mapping[str, str] = MappingProxyType(
    {
        **LABELS,
        "cards": NP_("category", "Cartas"),
        "coins": NP_("category", "Oros"),
        "settebello": NP_("category", "Siete de velo"),
        "primiera": NP_("category", "Setenta"),
        "sweeps": NP_("category", "Escobas"),
    }
)
"""Escoba's own words, in every language (no "Sweeps" on an Escoba sheet)."""


@dataclass(frozen=True, slots=True)
class VariantDef:
    """Everything the project knows of one variant but its play rules."""

    name: str
    """The name in the match format (``cirulla``)."""
    title: str
    """For people (``Scopa d'Assi``)."""
    description: str
    setting_names: tuple[str, ...] = SCOPA_SETTINGS
    """The settings that exist in this variant, in the order they are listed and written
    (fields of :class:`~scopa.rules.Settings`)."""
    default_target: int = 11
    default_rules: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """The variant's other defaults where they differ from the rulebook's Scopa (the class
    defaults of :class:`~scopa.rules.Settings`); :meth:`Settings.of <scopa.rules.Settings.of>`
    gives them as settings."""
    target_range: tuple[int, int] = (TARGET_MIN, TARGET_MAX)
    """The allowed targets."""
    categories: tuple[str, ...] = SCOPA_CATEGORIES
    """The points keys of a deal row without ``total``."""
    labels: Mapping[str, str] = field(default_factory=lambda: LABELS, compare=False, hash=False)
    """The display label of each points key (and ``total``, ``cappotto``)."""
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    """The numbers of players the sheet allows."""
    deal_facts: tuple[str, ...] = ()
    """The keys a deal of this variant adds to ``piles``, ``sweeps`` and ``last_capture``."""
    preset: str = ""
    """Its preset's label on the new-match page (``Cirulla (to 51)``; empty: the title and
    the target)."""
    partnerships_forced: bool = False
    """Always played in partnerships (Scopone): the setting cannot be turned off."""
    low_table_sweep: bool = False
    """Cirulla: a pile of 4 cards or more may hold one sweep more than half its cards (the
    dealer's sweep on a low table)."""
    aliases: tuple[str, ...] = ()
    """Other names read as this variant (the engine's 10 + 0 deal ``scopone-10``)."""
    category_run: str = "napola"
    """The category form's key for the run of coins from the ace (``napola``; Cirulla's
    ``piccola``; empty when the variant scores no such run)."""

    @property
    def points_keys(self) -> tuple[str, ...]:
        """The keys of a side's points in a deal row, in order, ``total`` last."""
        return (*self.categories, "total")

    @property
    def cirulla_scoring(self) -> bool:
        """Whether deals score Cirulla's categories (declarations, piccola, grande)."""
        return "declarations" in self.categories

    @property
    def cappotto(self) -> bool:
        """Whether all ten coins in one pile are marked (and, with the setting, win)."""
        return "cappotto" in self.setting_names

    @property
    def preset_label(self) -> str:
        """The new-match page's button for this variant, in the language in force."""
        if self.preset:
            return _(self.preset)
        return _("{title} (to {points})").format(title=self.title, points=self.default_target)

    def check_players(self, count: int, where: str = "players") -> None:
        """Refuse a match of this variant for ``count`` players when it is not played by
        that many (:func:`wrong_players`)."""
        if count not in self.players:
            raise wrong_players(where, self.name, self.players, count)

    @property
    def deal_keys(self) -> tuple[str, ...]:
        """Every key a deal of this variant may have."""
        return ("piles", "sweeps", "last_capture", *self.deal_facts)

    @property
    def category_form(self) -> tuple[str, ...]:
        """The categories the category form names a taker for (docs/formats.md, "A deal: the
        category form"): those of the sheet that depend on the piles.

        >>> get("escoba").category_form
        ('cards', 'coins', 'settebello', 'primiera')
        """
        return tuple(c for c in self.categories if c in PILE_CATEGORIES)

    @property
    def category_facts(self) -> tuple[str, ...]:
        """The keys the category form adds to ``categories``: the run of coins (``napola``,
        Cirulla's ``piccola``) and Cirulla's ``grande``.

        >>> get("scopa").category_facts, get("escoba").category_facts, get("cirulla").category_facts
        (('napola',), (), ('piccola', 'grande'))
        """
        run = (self.category_run,) if self.category_run else ()
        return (*run, "grande") if "grande" in self.categories else run

    @property
    def category_deal_keys(self) -> tuple[str, ...]:
        """Every key a deal of this variant recorded in the category form may have."""
        return ("categories", *self.category_facts, "sweeps", "last_capture", *self.deal_facts)

    def label(self, key: str) -> str:
        """A points key's label for people, in the language in force."""
        label = self.labels.get(key)
        if label is None:
            return key.replace("_", " ").capitalize()
        return pgettext("category", label)

    @staticmethod
    def hands_received(players: int) -> int:
        """How many hands each player receives in a deal of ``players`` players.

        >>> [VariantDef.hands_received(n) for n in range(2, 7)]
        [6, 4, 3, 2, 2]
        """
        return HANDS_PER_DEAL // players

    def max_sweeps(self, count: int) -> int:
        """The most sweeps a pile of ``count`` cards can hold: half its cards (with
        :attr:`low_table_sweep`: plus one from 4 cards).

        >>> get("scopa").max_sweeps(4), get("cirulla").max_sweeps(4), get("cirulla").max_sweeps(3)
        (2, 3, 1)
        """
        extra = 1 if self.low_table_sweep and count >= 4 else 0
        return count // 2 + extra


_REGISTRY: dict[str, VariantDef] = {}
_ALIASES: dict[str, str] = {}

VARIANTS: Mapping[str, VariantDef] = MappingProxyType(_REGISTRY)
"""Every variant, by name, in the order registered (a read-only view of the registry)."""


def register(variant: VariantDef) -> VariantDef:
    """Add a variant: from then on the settings, the sheet, the match format, the API, the
    pages and the CLI know it. A name (or alias) already taken is refused."""
    taken = {*_REGISTRY, *_ALIASES}
    for name in (variant.name, *variant.aliases):
        if name in taken or name != name.strip().lower() or not name:
            raise ValueError(f"cannot register the variant name {name!r}")
    _REGISTRY[variant.name] = variant
    _ALIASES.update(dict.fromkeys(variant.aliases, variant.name))
    return variant


def unregister(name: str) -> None:
    """Take a registered variant away again (tests)."""
    variant = _REGISTRY.pop(name)
    for alias in variant.aliases:
        del _ALIASES[alias]


@contextmanager
def registered(variant: VariantDef) -> Iterator[VariantDef]:
    """A variant registered for the time of a ``with`` block."""
    register(variant)
    try:
        yield variant
    finally:
        unregister(variant.name)


def wrong_players(
    where: str,
    variant: str,
    allowed: Sequence[int],
    count: int,
    *,
    code: str = "match.played_players",
    error: type[InputError] = InvalidMatchError,
) -> InputError:
    """The refusal of a game of ``variant`` for ``count`` players, played by one of the
    numbers ``allowed``: one sentence for the sheet's matches and the engine's games.

    >>> str(wrong_players("players", "scopone", (4,), 3))
    'players: scopone is played by 4 players (3 given)'
    """
    return error(
        where,
        N_("{variant} is played by {allowed} players ({count} given)"),
        code=code,
        variant=variant,
        allowed=either(allowed),
        count=count,
    )


def names() -> tuple[str, ...]:
    """Every variant's name, in the order registered."""
    return tuple(_REGISTRY)


def variant_name(value: object, where: str = "variant") -> str:
    """A variant's name read from JSON: any case, an alias (``scopone-10``) as its variant.

    >>> variant_name("Cirulla"), variant_name("scopone-10")
    ('cirulla', 'scopone')
    >>> variant_name("briscola")
    Traceback (most recent call last):
    ...
    scopa.errors.UnknownVariantError: variant: 'briscola' is not a variant (the variants are scopa, scopone, assi, escoba, cirulla)
    """  # noqa: E501
    wrong = N_("expected a variant's name (a string), found {value}")
    text = expect_string(value, where, wrong, "variant.expected_variant_name", UnknownVariantError)
    name = text.strip().lower()
    name = _ALIASES.get(name, name)
    if name not in _REGISTRY:
        raise UnknownVariantError(
            where,
            N_("{value} is not a variant (the variants are {names})"),
            code="variant.not_variant",
            value=describe(value),
            names=", ".join(_REGISTRY),
        )
    return name


def get(name: object, where: str = "variant") -> VariantDef:
    """A variant by name (any case; ``scopone-10`` is Scopone), or
    :class:`~scopa.errors.UnknownVariantError` naming the place."""
    found = _REGISTRY.get(name) if isinstance(name, str) else None
    return found if found is not None else _REGISTRY[variant_name(name, where)]


def all_variants() -> tuple[VariantDef, ...]:
    return tuple(_REGISTRY.values())


def with_setting(setting: str) -> tuple[str, ...]:
    """The variants that have a setting, in the order registered."""
    return tuple(v.name for v in _REGISTRY.values() if setting in v.setting_names)


register(
    VariantDef(
        "scopa",
        "Scopa",
        "The classic game: cards, coins, settebello, primiera, sweeps; napola by choice.",
        preset=N_("Scopa to 11"),
    )
)
register(
    VariantDef(
        "scopone",
        "Scopone",
        "Four players in two fixed partnerships; scored as Scopa on pooled piles.",
        setting_names=(*SCOPA_SETTINGS, "last_play_sweep"),
        default_rules={"partnerships": True},
        players=(4,),
        deal_facts=("last_play_cleared",),
        preset=N_("Scopone (4 players, partners)"),
        partnerships_forced=True,
        aliases=("scopone-10",),
    )
)
register(
    VariantDef(
        "assi",
        "Scopa d'Assi",
        "The ace takes the whole table; napola counts (the run), to 21.",
        setting_names=(*SCOPA_SETTINGS, "ace_sweep"),
        default_target=21,
        default_rules={"napola": "run"},
        deal_facts=("ace_sweeps",),
        preset=N_("Scopa d'Assi (napola run, to 21)"),
    )
)
register(
    VariantDef(
        "escoba",
        "Escoba",
        "Spanish Escoba de quince: cartas, oros, siete de velo, setenta, escobas; to 15.",
        setting_names=ESCOBA_SETTINGS,
        default_target=15,
        categories=ESCOBA_CATEGORIES,
        labels=ESCOBA_LABELS,
        category_run="",
    )
)
register(
    VariantDef(
        "cirulla",
        "Cirulla",
        "Ligurian Cirulla: declarations, piccola, grande, and the cappotto; to 51.",
        setting_names=CIRULLA_SETTINGS,
        default_target=51,
        target_range=(TARGET_MIN, 151),
        categories=CIRULLA_CATEGORIES,
        deal_facts=("declarations",),
        low_table_sweep=True,
        category_run="piccola",
    )
)


def deal_points(variant: VariantDef, points: Sequence[Any]) -> dict[str, Any]:
    """A deal's points as a page script draws them (the Play page, a table): the variant's
    keys in order (``total`` last), those of a category nobody scored left out unless it is
    always there (the piles' categories and the sweeps), each key's words (English, said in
    the page's language by the script: ``pgettext("category", ...)``), and each side's points
    (``points``: one :class:`~scopa.scoring.Points` per side).

    >>> from scopa.scoring import Points
    >>> shown = deal_points(get("escoba"), [Points(cards=1, total=1), Points()])
    >>> shown["keys"], shown["labels"]["primiera"]
    (['cards', 'coins', 'settebello', 'primiera', 'sweeps', 'total'], 'Setenta')
    >>> deal_points(get("cirulla"), [Points(piccola=3, total=3), Points()])["keys"][-2:]
    ['piccola', 'total']
    """
    rows = [p.to_dict(variant.points_keys) for p in points]
    always = (*PILE_CATEGORIES, "sweeps", "total")
    keys = [k for k in variant.points_keys if k in always or any(row[k] for row in rows)]
    labels = {k: variant.labels.get(k, k) for k in keys}
    return {"keys": keys, "labels": labels, "points": [{k: row[k] for k in keys} for row in rows]}


VARIANT_NAMES: tuple[str, ...] = names()
"""The variants the project ships (a throwaway one registered later is in :func:`names`)."""


__all__ = [
    "DEFAULT",
    "VARIANTS",
    "VARIANT_NAMES",
    "VariantDef",
    "all_variants",
    "deal_points",
    "get",
    "names",
    "register",
    "registered",
    "unregister",
    "variant_name",
    "with_setting",
]
