"""Simulation on the native kernel: the same statistics as :mod:`scopa.engine.simulate`.

Deal ``k`` of a run is seeded exactly as the Python engine seeds it, played in C, and reduced
to the packed facts the one scorer reads (:func:`scopa.scoring.pack_sides`, partners pooled as
:meth:`scopa.match.Match.side_deal` pools them). A batch of deals comes back counted by those
facts, so each distinct outcome is scored once, through the scorer's points table, however
many deals share it. (Whole matches go through the scorer's sheet deal by deal: there the
kernel plays each deal through :meth:`~scopa.engine.simulate.Simulation.play`.)
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import TYPE_CHECKING

from scopa import cards, scoring
from scopa.native import STRATEGIES, rules, seed_words
from scopa.scoring import PointsTable, points_table

if TYPE_CHECKING:  # the engine hands its records in: no import circle with the engine
    from scopa.engine.simulate import Scorer, Simulation, Stats

CHUNK = 50_000
"""Deals per batch handed to the kernel."""


@cache
def _scoring_ready() -> bool:
    """Hand the kernel the scorer's tables and key layout (once)."""
    from scopa.native import _kernel

    _kernel.set_scoring(
        scoring.COIN_BITS,
        cards.BEST_PRIMIERA,
        cards.BEST_RANK,
        cards.PRIMIERA_VALUES,
        (
            scoring.KEY_CARDS_TOP,
            scoring.KEY_CARDS_TOP | scoring.KEY_CARDS_ALONE,
            scoring.KEY_COINS_TOP,
            scoring.KEY_COINS_TOP | scoring.KEY_COINS_ALONE,
            scoring.KEY_PRIMIERA_TOP,
            scoring.KEY_PRIMIERA_TOP | scoring.KEY_PRIMIERA_ALONE,
            scoring.KEY_SEVENS_TOP,
            scoring.KEY_SEVENS_TOP | scoring.KEY_SEVENS_ALONE,
            scoring.KEY_LEFTOVER,
            scoring.KEY_CLEARED,
            scoring.KEY_ACES_SHIFT,
            scoring.KEY_SWEEPS_SHIFT,
            scoring.KEY_CIRULLA_SHIFT,
            scoring.KEY_DECINO_SHIFT,
        ),
    )
    return True


def prefix(seed: int) -> tuple[int, ...]:
    """The generator key of deal ``k`` is ``(k, *prefix(seed))``: ``deal_seed``'s words.

    >>> from scopa.engine.simulate import deal_seed
    >>> seed_words(deal_seed(7, 3)) == (3, *prefix(7)), prefix(0)
    (True, ())
    """
    return () if seed == 0 else seed_words(seed)


def add_tallies(
    stats: Stats, tallies: dict[tuple[tuple[int, ...], int], int], table: PointsTable
) -> None:
    """Add deals counted by (packed facts per side, leader side): what ``stats.add_deal``
    adds for each, summed first per side's facts and per outcome (each side's total and the
    leader), so the work grows with the distinct facts, not with the deals."""
    per_side: list[Counter[int]] = [Counter() for _ in stats.sides]
    outcomes: Counter[tuple[tuple[int, ...], int]] = Counter()
    total_of: dict[int, int] = {}
    for (keys, leader), times in tallies.items():
        totals = []
        for i, key in enumerate(keys):
            per_side[i][key] += times
            total = total_of.get(key)
            if total is None:
                total = total_of[key] = table[key].total
            totals.append(total)
        outcomes[tuple(totals), leader] += times
    for i, counts in enumerate(per_side):
        for key, times in counts.items():
            points = table[key]
            for name, value in points.to_dict(stats.keys).items():
                stats.points[name][i] += value * times
            stats.sweeps += points.sweeps * times
    for (outcome, leader), times in outcomes.items():
        stats.deals += times
        stats.leader_points += outcome[leader] * times
        stats.other_points += (sum(outcome) - outcome[leader]) * times
        top = max(outcome)
        if outcome.count(top) == 1:
            stats.deal_wins[outcome.index(top)] += times
        else:
            stats.deal_ties += times


def run_deals(sim: Simulation, scorer: Scorer, start: int, count: int) -> Stats:
    """:func:`scopa.engine.simulate.run_deals` on the kernel: the same statistics (``scorer``
    is the engine's for ``sim``)."""
    _scoring_ready()
    stats = scorer.stats()
    team_of = tuple(scorer.side_of(k) for k in range(sim.players))
    codes = tuple(STRATEGIES[s] for s in sim.seat_strategies())
    table = points_table(scorer.settings)
    kernel = rules(sim.variant)
    for first in range(start, start + count, CHUNK):
        n = min(CHUNK, start + count - first)
        tallies, redeals = kernel.run_deals(
            sim.players, prefix(sim.seed), first, n, codes, team_of, len(stats.sides)
        )
        add_tallies(stats, tallies, table)
        stats.redeals += redeals
    return stats
