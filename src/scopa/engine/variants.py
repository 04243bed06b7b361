"""The variants the engine plays (RULES.md section 8): named rule sets of flags.

A variant is a frozen record. Its ``capture`` names how a played card captures (a key of
:data:`scopa.engine.captures.CAPTURE_RULES`); the other fields are flags read by the deal and
the play. A new family member (Cirulla) adds a capture rule and its own flags without touching
the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from scopa.errors import ScopaError
from scopa.rules import Settings

CaptureRule = Literal["scopa", "fifteen"]
SumChoice = Literal["free", "fewest"]


class UnknownVariantError(ScopaError, ValueError):
    """A variant name or a variant option that the engine does not know."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """How a deal is dealt and played; every field has the rulebook's default (Scopa).

    >>> VARIANTS["scopone"].hand_size, VARIANTS["scopone-10"].table_size
    (9, 0)
    """

    name: str = "scopa"
    capture: CaptureRule = "scopa"
    """``scopa``: rank match first, else a sum of 2+ cards; ``fifteen``: with the played card
    the taken cards make 15 (Escoba)."""
    sum_choice: SumChoice = "free"
    """Among several sums: ``free`` (any) or ``fewest`` (only those with fewest cards)."""
    ace_takes_all: bool = False
    """Scopa d'Assi: a played ace takes the whole table (only an ace, if one lies there)."""
    ace_sweep: bool = False
    """Scopa d'Assi: whether the ace's take-all counts as a sweep (default no, UIGC)."""
    capture_optional: bool = False
    """Escoba: a card that can capture may still be laid on the table."""
    dealer_sweeps: bool = False
    """Escoba: starting table cards totalling 15 (or 30 as two fifteens) go to the dealer as
    one (or two) sweeps."""
    last_play_sweep: bool = False
    """Whether a capture that clears the table with the deal's very last card is a sweep."""
    kings_redeal: bool = True
    """Deal again when 3 or 4 kings lie among the starting table cards."""
    hand_size: int = 3
    """Cards per player per round (9 or 10 in Scopone: the whole pack in one round)."""
    table_size: int = 4
    """Cards laid face up on the table at the start."""
    packets: tuple[int, ...] = (3, -4)
    """The first round's deal in packets: ``n`` = n cards to each player in turn, ``-n`` = n
    cards to the table. Later rounds give ``hand_size`` cards to each player."""
    players: tuple[int, ...] = (2, 3, 4, 6)
    """The numbers of players the variant is dealt for."""
    partnerships: bool = False
    """Fixed partnerships (partners opposite): the piles are pooled when scored."""
    settings: Settings = dataclasses.field(default_factory=Settings)
    """The house rules a simulated match of this variant is scored with."""

    def __post_init__(self) -> None:
        if self.capture not in ("scopa", "fifteen"):
            raise UnknownVariantError(f"capture rule {self.capture!r} is not 'scopa' or 'fifteen'")
        if self.sum_choice not in ("free", "fewest"):
            raise UnknownVariantError(
                f"sum_choice {self.sum_choice!r} is not one of the allowed values (free, fewest)"
            )
        dealt = sum(-p if p < 0 else 0 for p in self.packets)
        each = sum(p for p in self.packets if p > 0)
        if dealt != self.table_size or each != self.hand_size:
            raise UnknownVariantError(
                f"packets {self.packets} do not deal {self.hand_size} per hand "
                f"and {self.table_size} to the table"
            )

    def check_players(self, players: int) -> None:
        """Refuse a number of players the variant is not dealt for (5 in Scopa)."""
        if players not in self.players:
            allowed = ", ".join(str(n) for n in self.players)
            raise UnknownVariantError(
                f"{self.name} is not dealt for {players} players (it is for {allowed})"
            )
        if self.table_size + self.hand_size * players > 40 or (
            (40 - self.table_size) % (self.hand_size * players)
        ):
            raise UnknownVariantError(
                f"{self.name}: {players} hands of {self.hand_size} do not share out the pack"
            )

    def with_options(self, options: Mapping[str, str]) -> Variant:
        """The variant with some options changed, given as text (``sum_choice=fewest``).

        >>> VARIANTS["assi"].with_options({"ace_sweep": "on"}).ace_sweep
        True
        """
        changes: dict[str, Any] = {}
        for key, text in options.items():
            name = key.strip().replace("-", "_")
            if name not in OPTIONS:
                raise UnknownVariantError(
                    f"unknown variant option {key!r} (the options are {', '.join(OPTIONS)})"
                )
            value: Any = text.strip().lower()
            if name in _FLAGS:
                if value not in _ON_OFF:
                    raise UnknownVariantError(f"{name}={text!r}: expected on or off")
                value = _ON_OFF[value]
            changes[name] = value
        return dataclasses.replace(self, **changes)

    def describe(self) -> str:
        """One line: the variant's name and the options that differ from its definition."""
        base = VARIANTS.get(self.name)
        if base is None:
            return self.name
        changed = [
            f"{name}={_show(getattr(self, name))}"
            for name in OPTIONS
            if getattr(self, name) != getattr(base, name)
        ]
        return self.name + (f" ({', '.join(changed)})" if changed else "")


_FLAGS = ("ace_sweep", "capture_optional", "last_play_sweep", "kings_redeal", "dealer_sweeps")
OPTIONS: tuple[str, ...] = ("sum_choice", *_FLAGS)
"""The options a user may change on a named variant (``--rule NAME=VALUE``)."""
_ON_OFF = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


VARIANTS: dict[str, Variant] = {
    "scopa": Variant(),
    "scopone": Variant(
        name="scopone",
        hand_size=9,
        table_size=4,
        packets=(3, -2, 3, -2, 3),
        players=(4,),
        partnerships=True,
        settings=Settings(partnerships=True),
    ),
    "scopone-10": Variant(
        name="scopone-10",
        hand_size=10,
        table_size=0,
        packets=(5, 5),
        kings_redeal=False,
        players=(4,),
        partnerships=True,
        settings=Settings(partnerships=True),
    ),
    "assi": Variant(
        name="assi",
        ace_takes_all=True,
        settings=Settings(napola="run", target=21),
    ),
    "escoba": Variant(
        name="escoba",
        capture="fifteen",
        capture_optional=True,
        dealer_sweeps=True,
        kings_redeal=False,
        settings=Settings(target=15),
    ),
}
"""The named rule sets, by the name the command line uses."""


def get_variant(name: str, options: Mapping[str, str] | None = None) -> Variant:
    """A named variant, with options changed.

    >>> get_variant("scopa", {"sum_choice": "fewest"}).sum_choice
    'fewest'
    >>> get_variant("cirulla")
    Traceback (most recent call last):
    ...
    scopa.engine.variants.UnknownVariantError: unknown variant 'cirulla' (the variants are scopa, scopone, scopone-10, assi, escoba)
    """  # noqa: E501
    variant = VARIANTS.get(name.strip().lower())
    if variant is None:
        raise UnknownVariantError(
            f"unknown variant {name!r} (the variants are {', '.join(VARIANTS)})"
        )
    return variant.with_options(options) if options else variant
