"""The worth of a deal's piles to one side: exact at the end, estimated before it.

At the end of a deal the points come from the scorer's own table of points
(:func:`scopa.scoring.points_table`), looked up by the same packed facts the scorer reads
(:func:`scopa.deal.side_keys`), here worked out straight from the pile masks. Before the end,
:meth:`Evaluator.estimate` turns each majority still open (cards, coins, primiera) into an
expected point from the lead and the cards still to be taken.
"""

from __future__ import annotations

from collections.abc import Callable
from math import sqrt, tanh

from scopa.cards import BEST_PRIMIERA, COINS_MASK, NAPOLA_RUN, RANK_MASKS, SETTEBELLO
from scopa.engine.board import Board
from scopa.rules import Settings
from scopa.scoring import (
    KEY_ACES_SHIFT,
    KEY_CARDS_ALONE,
    KEY_CARDS_TOP,
    KEY_CIRULLA_SHIFT,
    KEY_CLEARED,
    KEY_COINS_ALONE,
    KEY_COINS_TOP,
    KEY_DECINO_SHIFT,
    KEY_GRANDE,
    KEY_LEFTOVER,
    KEY_PRIMIERA_ALONE,
    KEY_PRIMIERA_TOP,
    KEY_RUN_SHIFT,
    KEY_SETTEBELLO,
    KEY_SEVENS_ALONE,
    KEY_SEVENS_TOP,
    KEY_SWEEPS_SHIFT,
    napola_for,
    points_table,
    top_bits,
)

SETTEBELLO_BIT = SETTEBELLO.bit
SEVENS = RANK_MASKS[6]
GRANDE = sum(1 << r for r in (7, 8, 9))
"""The jack, horse and king of coins."""


def primiera_of(mask: int) -> int:
    """The primiera of a pile (0 when a suit is missing), as the scorer counts it."""
    a = BEST_PRIMIERA[mask & 1023]
    b = BEST_PRIMIERA[mask >> 10 & 1023]
    c = BEST_PRIMIERA[mask >> 20 & 1023]
    d = BEST_PRIMIERA[mask >> 30]
    return a + b + c + d if a and b and c and d else 0


def primiera_so_far(mask: int) -> int:
    """The best card per suit summed, a missing suit counting 0 (a pile still growing)."""
    return (
        BEST_PRIMIERA[mask & 1023]
        + BEST_PRIMIERA[mask >> 10 & 1023]
        + BEST_PRIMIERA[mask >> 20 & 1023]
        + BEST_PRIMIERA[mask >> 30]
    )


def _leads(values: list[int], scale: float, left: int) -> list[float]:
    """An expected point per side for a majority still open: the leader's lead, squashed by
    how much the ``left`` cards may still change (a lead larger than ``left`` is certain)."""
    out = []
    for i, value in enumerate(values):
        lead = value - max(v for j, v in enumerate(values) if j != i)
        if lead <= 0:
            out.append(0.0)
        elif lead > left:
            out.append(1.0)
        else:
            out.append(tanh(lead / scale))
    return out


def _lead_table(span: int, scale: Callable[[int], float], certain: bool) -> list[list[float]]:
    """``table[left][lead + span]``: the expected point of a two-side lead with ``left``
    cards to go (:func:`_leads` for two sides, worked out once)."""
    rows = []
    for left in range(span + 1):
        row = []
        for lead in range(-span, span + 1):
            size = abs(lead)
            value = 0.0
            if size:
                value = 1.0 if certain and size > left else tanh(size / scale(left))
            row.append(value if lead > 0 else -value)
        rows.append(row)
    return rows


CARDS_LEAD = _lead_table(40, lambda left: 1.0 + 1.4 * sqrt(left), True)
COINS_LEAD = _lead_table(10, lambda left: 0.8 + sqrt(left), True)
PRIMIERA_SPAN = 84
PRIMIERA_LEAD = [
    [tanh(lead / (6.0 + 2.5 * sqrt(left))) for lead in range(-PRIMIERA_SPAN, PRIMIERA_SPAN + 1)]
    for left in range(41)
]


class Evaluator:
    """Scores side piles for one set of house rules, from the view of ``side``."""

    def __init__(self, settings: Settings, sides: int, side: int) -> None:
        self.table = points_table(settings)
        self.primiera = settings.primiera
        self.napola = settings.napola
        self.sides = sides
        self.side = side
        self._exact: dict[
            tuple[tuple[int, ...], tuple[int, ...], int | None, tuple[int, ...]], float
        ] = {}

    def points(
        self,
        piles: list[int],
        sweeps: list[int],
        leftovers: int | None,
        extra: list[int] | None = None,
    ) -> tuple[int, ...]:
        """Each side's points of a finished deal (piles and sweeps per side, the side that
        took the cards left on the table, if any, and the other facts packed by side:
        :meth:`extra_keys`)."""
        counts = [p.bit_count() for p in piles]
        coins = [(p & COINS_MASK).bit_count() for p in piles]
        prim = [primiera_of(p) for p in piles]
        sevens = [(p & SEVENS).bit_count() for p in piles]
        cards_bits = top_bits(counts, KEY_CARDS_TOP, KEY_CARDS_ALONE)
        coins_bits = top_bits(coins, KEY_COINS_TOP, KEY_COINS_ALONE)
        prim_bits = top_bits(prim, KEY_PRIMIERA_TOP, KEY_PRIMIERA_ALONE)
        sevens_bits = top_bits(sevens, KEY_SEVENS_TOP, KEY_SEVENS_ALONE)
        keys = [
            (sweeps[i] << KEY_SWEEPS_SHIFT)
            | (NAPOLA_RUN[p & 1023] << KEY_RUN_SHIFT)
            | (KEY_SETTEBELLO if p & SETTEBELLO_BIT else 0)
            | (KEY_GRANDE if p & GRANDE == GRANDE else 0)
            | cards_bits[i]
            | coins_bits[i]
            | prim_bits[i]
            | sevens_bits[i]
            for i, p in enumerate(piles)
        ]
        if leftovers is not None:
            keys[leftovers] |= KEY_LEFTOVER
        if extra is not None:
            keys = [key | more for key, more in zip(keys, extra, strict=True)]
        table = self.table
        return tuple(table[key].total for key in keys)

    def final(
        self, piles: list[int], sweeps: list[int], leftovers: int | None, extra: list[int]
    ) -> float:
        """The worth of a finished deal: our points less the others' mean."""
        key = (tuple(piles), tuple(sweeps), leftovers, tuple(extra))
        found = self._exact.get(key)
        if found is None:
            found = self._exact[key] = self.margin(self.points(piles, sweeps, leftovers, extra))
        return found

    @staticmethod
    def extra_keys(board: Board, side_of: tuple[int, ...], sides: int) -> list[int]:
        """The facts of a finished board besides piles and sweeps, packed per side: the
        last play's clear (Scopone), the ace's take-alls (Scopa d'Assi), the declarations
        (Cirulla)."""
        extra = [0] * sides
        if board.last_cleared is not None:
            extra[side_of[board.last_cleared]] |= KEY_CLEARED
        for seat, aces in enumerate(board.ace_sweeps):
            extra[side_of[seat]] += aces << KEY_ACES_SHIFT
        for seat, declared in enumerate(board.declarations):
            cirullas = declared.count("cirulla")
            decini = len(declared) - cirullas
            extra[side_of[seat]] += cirullas << KEY_CIRULLA_SHIFT | decini << KEY_DECINO_SHIFT
        return extra

    def margin(self, points: tuple[int, ...] | list[float]) -> float:
        mine = points[self.side]
        return mine - (sum(points) - mine) / (self.sides - 1)

    def estimate(self, piles: list[int], sweeps: list[int]) -> float:
        """The expected worth of a deal in progress, from its piles and sweeps so far."""
        if self.sides == 2 and self.napola == "off":
            return self._estimate_two(piles[0], piles[1], sweeps[0] - sweeps[1])
        return self._estimate_many(piles, sweeps)

    def _estimate_two(self, a: int, b: int, sweeps: int) -> float:
        left = 40 - (a | b).bit_count()
        coins_a = (a & COINS_MASK).bit_count()
        coins_b = (b & COINS_MASK).bit_count()
        value = (
            sweeps
            + CARDS_LEAD[left][a.bit_count() - b.bit_count() + 40]
            + COINS_LEAD[10 - coins_a - coins_b][coins_a - coins_b + 10]
        )
        if a & SETTEBELLO_BIT:
            value += 1.0
        elif b & SETTEBELLO_BIT:
            value -= 1.0
        if self.primiera:
            value += PRIMIERA_LEAD[left][primiera_so_far(a) - primiera_so_far(b) + PRIMIERA_SPAN]
        return value if self.side == 0 else -value

    def _estimate_many(self, piles: list[int], sweeps: list[int]) -> float:
        taken = 0
        for p in piles:
            taken |= p
        left = 40 - taken.bit_count()
        coins_left = 10 - (taken & COINS_MASK).bit_count()
        root = sqrt(left)
        expected = [float(s) for s in sweeps]
        cards = _leads([p.bit_count() for p in piles], 1.0 + 1.4 * root, left)
        coins = _leads(
            [(p & COINS_MASK).bit_count() for p in piles], 0.8 + sqrt(coins_left), coins_left
        )
        for i, p in enumerate(piles):
            expected[i] += cards[i] + coins[i]
            if p & SETTEBELLO_BIT:
                expected[i] += 1.0
            if self.napola != "off":
                expected[i] += napola_for(NAPOLA_RUN[p & 1023], self.napola)
        if self.primiera:
            prim = _leads([primiera_so_far(p) for p in piles], 6.0 + 2.5 * root, 84 if left else 0)
            for i in range(len(piles)):
                expected[i] += prim[i]
        return self.margin(expected)
