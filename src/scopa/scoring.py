"""Scoring one deal (RULES.md section 5): itemised points per side.

The one place where points are worked out; the sheet, the engine and the web app all call
:func:`score_deal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scopa.deal import (
    KEY_CARDS_ALONE,
    KEY_CARDS_TOP,
    KEY_COINS_ALONE,
    KEY_COINS_TOP,
    KEY_NAPOLA_SHIFT,
    KEY_PRIMIERA_ALONE,
    KEY_PRIMIERA_TOP,
    KEY_SETTEBELLO,
    KEY_SWEEPS_SHIFT,
    Pile,
    side_keys,
    top_bits,
    with_leftover_sweep,
)
from scopa.rules import Settings

CATEGORIES = ("cards", "coins", "settebello", "primiera", "sweeps", "napola")


@dataclass(frozen=True, slots=True)
class Points:
    """One side's points in one deal, by category, and their total."""

    cards: int = 0
    coins: int = 0
    settebello: int = 0
    primiera: int = 0
    sweeps: int = 0
    napola: int = 0
    total: int = 0

    def to_dict(self) -> dict[str, int]:
        return {
            "cards": self.cards,
            "coins": self.coins,
            "settebello": self.settebello,
            "primiera": self.primiera,
            "sweeps": self.sweeps,
            "napola": self.napola,
            "total": self.total,
        }


def majority_point(top: bool, alone: bool, share: bool) -> int:
    """The one tie rule of cards, coins and primiera: the side at the top scores the point
    if it is alone there, or, with ``ties`` = ``share``, even when others share the top."""
    return 1 if top and (alone or share) else 0


def award(values: Sequence[int], share: bool) -> list[int]:
    """The point of a majority category for each side: 1 for a unique highest value.

    When the top is tied, nobody scores it (``share=False``, the default rule) or every
    side tied at the top does. A value of 0 never wins (a primiera missing a suit).

    >>> award([22, 18], share=False)
    [1, 0]
    >>> award([14, 14, 12], share=False), award([14, 14, 12], share=True)
    ([0, 0, 0], [1, 1, 0])
    """
    bits = top_bits(values, 1, 2)
    return [majority_point(bool(b & 1), bool(b & 2), share) for b in bits]


def napola_for(run: int, mode: str) -> int:
    """Napola for an unbroken run of coins from the ace of length ``run``: ``flat`` 3,
    ``run`` 1 per card, nothing without the ace, 2 and 3 or with napola ``off``."""
    if mode == "off" or run < 3:
        return 0
    return 3 if mode == "flat" else run


def napola_points(pile: Pile, mode: str) -> int:
    """Napola (ace, 2 and 3 of coins) of a pile.

    >>> from scopa.cards import CardSet
    >>> pile = Pile.of_cards(CardSet.parse("Ad 2d 3d 4d 6d 7d"))
    >>> napola_points(pile, "flat"), napola_points(pile, "run"), napola_points(pile, "off")
    (3, 4, 0)
    """
    return napola_for(pile.napola, mode)


class PointsTable(dict[int, Points]):
    """A side's :class:`Points` by its packed facts (``Deal.keys``), under one set of rules.

    Filled as keys are met; a key is a handful of small facts, so the table stays small and
    every side with the same facts shares one (immutable) :class:`Points`.
    """

    def __init__(self, share: bool, primiera: bool, napola: str) -> None:
        super().__init__()
        self.share = share
        self.primiera = primiera
        self.napola = napola

    def __missing__(self, key: int) -> Points:
        share = self.share
        cards = majority_point(bool(key & KEY_CARDS_TOP), bool(key & KEY_CARDS_ALONE), share)
        coins = majority_point(bool(key & KEY_COINS_TOP), bool(key & KEY_COINS_ALONE), share)
        primiera = 0
        if self.primiera:
            top, alone = bool(key & KEY_PRIMIERA_TOP), bool(key & KEY_PRIMIERA_ALONE)
            primiera = majority_point(top, alone, share)
        settebello = key & KEY_SETTEBELLO
        run = key >> KEY_NAPOLA_SHIFT & 0xF
        napola = napola_for(run, self.napola)
        sweeps = key >> KEY_SWEEPS_SHIFT
        total = cards + coins + settebello + primiera + sweeps + napola
        points = Points(cards, coins, settebello, primiera, sweeps, napola, total)
        self[key] = points
        return points


_TABLES: dict[tuple[bool, bool, str], PointsTable] = {}


def clear_points_tables() -> None:
    """Forget the tables of points (for benchmarks and tests: they refill as needed)."""
    _TABLES.clear()


def points_table(settings: Settings) -> PointsTable:
    """The table of points by packed facts for these settings (one per distinct rules)."""
    rules = (settings.ties == "share", settings.primiera, settings.napola)
    table = _TABLES.get(rules)
    if table is None:
        table = _TABLES[rules] = PointsTable(*rules)
    return table


def score_deal(
    piles: Sequence[Pile],
    sweeps: Sequence[int],
    last: int | None,
    settings: Settings,
) -> tuple[Points, ...]:
    """Score one deal: per side (in the order of ``piles``) the points by category.

    ``sweeps`` are the sweeps made during play; ``last`` is the index of the side that took
    the cards left on the table (``None`` when none were left), which earns a sweep only with
    ``last_capture_sweep``.

    The worked example of RULES.md section 5:

    >>> from scopa.cards import CardSet
    >>> a = CardSet.parse("Ad 2d 3d 5d 7d Kd Ac 2c 6c 7c Hc 2s 4s 7s Js Ks 2b 3b 5b 6b Hb Kb")
    >>> b = CardSet.full() - a
    >>> pa, pb = score_deal([Pile.of_cards(a), Pile.of_cards(b)], [1, 2], None, Settings())
    >>> pa.total, pb.total, pa.primiera
    (5, 2, 1)
    """
    if not piles:
        return ()
    keys = side_keys(piles, sweeps)
    if settings.last_capture_sweep:
        keys = with_leftover_sweep(keys, last)
    table = points_table(settings)
    return tuple([table[key] for key in keys])
