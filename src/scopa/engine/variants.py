"""The variants the engine plays (docs/rules.md section 8): named rule sets of flags.

A variant is a frozen record. Its ``capture`` names how a played card captures (``scopa``,
``fifteen`` or ``cirulla``, read by :class:`scopa.engine.captures.Rules`); the other fields
are flags read by the deal and the play.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, get_args

from scopa import variants as sheet_variants
from scopa.errors import UnknownVariantError, one_of
from scopa.i18n import N_
from scopa.rules import Settings

CaptureRule = Literal["scopa", "fifteen", "cirulla"]
MattaPlay = Literal["seven", "declared"]
SumChoice = Literal["free", "fewest"]
CAPTURES: tuple[CaptureRule, ...] = get_args(CaptureRule)
MATTA_PLAYS: tuple[MattaPlay, ...] = get_args(MattaPlay)
SUM_CHOICES: tuple[SumChoice, ...] = get_args(SumChoice)


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """How a deal is dealt and played; every field has the rulebook's default (Scopa).

    >>> VARIANTS["scopone"].hand_size, VARIANTS["scopone-10"].table_size
    (9, 0)
    """

    name: str = "scopa"
    capture: CaptureRule = "scopa"
    """``scopa``: rank match first, else a sum of 2+ cards; ``fifteen``: with the played card
    the taken cards make 15 (Escoba); ``cirulla``: Scopa's captures and the fifteens freely,
    and the ace takes all (docs/rules.md 9.5)."""
    sum_choice: SumChoice = "free"
    """Among several sums: ``free`` (any) or ``fewest`` (only those with fewest cards)."""
    ace_takes_all: bool = False
    """Scopa d'Assi: a played ace takes the whole table (only an ace, if one lies there)."""
    ace_sweep: bool = False
    """Scopa d'Assi: whether the ace's take-all counts as a sweep (default no, UIGC)."""
    capture_optional: bool = False
    """Escoba: a card that can capture may still be laid on the table."""
    dealer_sweeps: bool = False
    """The dealer's opening table: Escoba's 15 (or 30 as two fifteens) for one (or two)
    sweeps; Cirulla's total 15 or 30 (the matta any value) for one or two."""
    low_table: bool = False
    """Cirulla: an opening table totalling 9 or less goes to the dealer for 3 sweeps."""
    aces_redeal: bool = False
    """Cirulla: deal again when 2 or more aces lie among the starting table cards (unless the
    dealer takes the table)."""
    matta_play: MattaPlay = "seven"
    """Cirulla: the matta (7 of cups) is played as a 7, or (``declared``) in a declared hand as
    the rank it was declared as."""
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
    partners_at: tuple[int, ...] = ()
    """The numbers of players at which the variant is played in two fixed partnerships
    (partners opposite): the piles are pooled when scored."""

    def __post_init__(self) -> None:
        for where, value, allowed, code in (
            ("capture", self.capture, CAPTURES, "variant.capture_rule_not_scopa"),
            ("sum_choice", self.sum_choice, SUM_CHOICES, "variant.sum_choice_not_one"),
            ("matta_play", self.matta_play, MATTA_PLAYS, "variant.matta_play_not_one"),
        ):
            if value not in allowed:
                raise one_of(where, value, allowed, code=code, error=UnknownVariantError)
        dealt = sum(-p if p < 0 else 0 for p in self.packets)
        each = sum(p for p in self.packets if p > 0)
        if dealt != self.table_size or each != self.hand_size:
            raise UnknownVariantError(
                N_(
                    "packets {packets} do not deal {hand_size} per hand and {table_size} to the "
                    "table"
                ),
                code="variant.packets_do_not_deal",
                packets=self.packets,
                hand_size=self.hand_size,
                table_size=self.table_size,
            )

    @property
    def sheet(self) -> str:
        """The variant's name on the score sheet (``scopone-10`` is ``scopone``)."""
        return sheet_variants.variant_name(self.name)

    @property
    def settings(self) -> Settings:
        """The house rules a simulated match is scored with, for the first player count."""
        return self.settings_for(self.players[0])

    def settings_for(self, players: int) -> Settings:
        """The sheet's defaults of the variant (:func:`scopa.variants.get`), in partnerships
        where it is played so, and with the engine options that only decide how recorded facts
        score (Scopa d'Assi's ``ace_sweep``, Scopone's ``last_play_sweep``) carried over.

        >>> VARIANTS["assi"].settings_for(2).napola, VARIANTS["cirulla"].settings_for(4).partnerships
        ('run', True)
        """  # noqa: E501
        return _settings_for(self, players)

    def check_players(self, players: int) -> None:
        """Refuse a number of players the variant is not dealt for (5 in Scopa)."""
        if players not in self.players:
            allowed = ", ".join(str(n) for n in self.players)
            raise UnknownVariantError(
                N_("{name} is not dealt for {players} players (it is for {allowed})"),
                code="variant.not_dealt_players",
                name=self.name,
                players=players,
                allowed=allowed,
            )
        if self.table_size + self.hand_size * players > 40 or (
            (40 - self.table_size) % (self.hand_size * players)
        ):
            raise UnknownVariantError(
                N_("{name}: {players} hands of {hand_size} do not share out the pack"),
                code="variant.hands_do_not_share",
                name=self.name,
                players=players,
                hand_size=self.hand_size,
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
                    N_("unknown variant option {key!r} (the options are {names})"),
                    code="variant.unknown_variant_option",
                    key=key,
                    names=", ".join(OPTIONS),
                )
            value: Any = text.strip().lower()
            if name in _FLAGS:
                if value not in _ON_OFF:
                    raise UnknownVariantError(
                        N_("{name}={text!r}: expected on or off"),
                        code="variant.expected_off",
                        name=name,
                        text=text,
                    )
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


_FLAGS = (
    "ace_sweep",
    "capture_optional",
    "last_play_sweep",
    "kings_redeal",
    "dealer_sweeps",
    "low_table",
    "aces_redeal",
)
OPTIONS: tuple[str, ...] = ("sum_choice", "matta_play", *_FLAGS)
"""The options a user may change on a named variant (``--rule NAME=VALUE``)."""
_ON_OFF = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}


@cache
def _settings_for(variant: Variant, players: int) -> Settings:
    sheet = sheet_variants.get(variant.sheet)
    changes: dict[str, Any] = {}
    if players in variant.partners_at:
        changes["partnerships"] = True
    if "ace_sweep" in sheet.setting_names:
        changes["ace_sweep"] = variant.ace_sweep
    if "last_play_sweep" in sheet.setting_names:
        changes["last_play_sweep"] = variant.last_play_sweep
    return Settings.of(sheet.name, **changes)


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
        partners_at=(4,),
    ),
    "scopone-10": Variant(
        name="scopone-10",
        hand_size=10,
        table_size=0,
        packets=(5, 5),
        kings_redeal=False,
        players=(4,),
        partners_at=(4,),
    ),
    "assi": Variant(name="assi", ace_takes_all=True),
    "escoba": Variant(
        name="escoba",
        capture="fifteen",
        capture_optional=True,
        dealer_sweeps=True,
        kings_redeal=False,
    ),
    "cirulla": Variant(
        name="cirulla",
        capture="cirulla",
        dealer_sweeps=True,
        kings_redeal=False,
        aces_redeal=True,
        players=(2, 3, 4),
        partners_at=(4,),
    ),
}
"""The named rule sets, by the name the command line uses."""


def get_variant(name: str, options: Mapping[str, str] | None = None) -> Variant:
    """A named variant, with options changed.

    >>> get_variant("scopa", {"sum_choice": "fewest"}).sum_choice
    'fewest'
    >>> get_variant("briscola")
    Traceback (most recent call last):
    ...
    scopa.errors.UnknownVariantError: unknown variant 'briscola' (the variants are scopa, scopone, scopone-10, assi, escoba, cirulla)
    """  # noqa: E501
    variant = VARIANTS.get(name.strip().lower())
    if variant is None:
        raise UnknownVariantError(
            N_("unknown variant {name!r} (the variants are {names})"),
            code="variant.unknown_variant",
            name=name,
            names=", ".join(VARIANTS),
        )
    return variant.with_options(options) if options else variant
