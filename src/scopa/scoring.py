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


def award(values: Sequence[int], share: bool) -> list[int]:
    """The point of a majority category: 1 for a unique highest value.

    When the top is tied, nobody scores it (``share=False``, the default rule) or every
    side tied at the top does. A value of 0 never wins (a primiera missing a suit).

    >>> award([22, 18], share=False)
    [1, 0]
    >>> award([14, 14, 12], share=False), award([14, 14, 12], share=True)
    ([0, 0, 0], [1, 1, 0])
    """
    top = max(values)
    if top <= 0:
        return [0] * len(values)
    winners = [1 if v == top else 0 for v in values]
    if share or sum(winners) == 1:
        return winners
    return [0] * len(values)


def napola_points(pile: Pile, mode: str) -> int:
    """Napola (ace, 2 and 3 of coins): ``flat`` 3, ``run`` 1 per card of the run, else 0.

    >>> from scopa.cards import CardSet
    >>> pile = Pile.of_cards(CardSet.parse("Ad 2d 3d 4d 6d 7d"))
    >>> napola_points(pile, "flat"), napola_points(pile, "run"), napola_points(pile, "off")
    (3, 4, 0)
    """
    if mode == "off" or pile.napola < 3:
        return 0
    return 3 if mode == "flat" else pile.napola


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
        cards = 1 if key & KEY_CARDS_TOP and (share or key & KEY_CARDS_ALONE) else 0
        coins = 1 if key & KEY_COINS_TOP and (share or key & KEY_COINS_ALONE) else 0
        primiera = 0
        if self.primiera and key & KEY_PRIMIERA_TOP and (share or key & KEY_PRIMIERA_ALONE):
            primiera = 1
        settebello = key & KEY_SETTEBELLO
        run = key >> KEY_NAPOLA_SHIFT & 0xF
        napola = 0 if self.napola == "off" or run < 3 else 3 if self.napola == "flat" else run
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
