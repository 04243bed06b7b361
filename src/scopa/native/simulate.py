"""Simulation on the native kernel: the same statistics as :mod:`scopa.engine.simulate`.

Deal ``k`` of a run is seeded exactly as the Python engine seeds it, played in C, and reduced
to the packed facts the one scorer reads (:func:`scopa.scoring.pack_sides`, partners pooled as
:meth:`scopa.match.Match.side_deal` pools them). A batch of deals comes back counted by those
facts, so each distinct outcome is scored once, through the scorer's points table, however
many deals share it. (Whole matches go through the scorer's sheet deal by deal: there the
kernel plays each deal through :meth:`~scopa.engine.simulate.Simulation.play`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from scopa import cards, scoring
from scopa.engine.simulate import Scorer, Simulation, Stats
from scopa.native import STRATEGIES, rules, seed_words
from scopa.scoring import Points, points_table

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


def add_deals(stats: Stats, points: Sequence[Points], leader: int, times: int) -> None:
    """``stats.add_deal(points, leader, 0)`` done ``times`` times at once."""
    stats.deals += times
    totals = [p.total for p in points]
    for i, p in enumerate(points):
        for name, value in p.to_dict(stats.keys).items():
            if value:
                stats.points[name][i] += value * times
        stats.sweeps += p.sweeps * times
    stats.leader_points += totals[leader] * times
    stats.other_points += (sum(totals) - totals[leader]) * times
    top = max(totals)
    if totals.count(top) == 1:
        stats.deal_wins[totals.index(top)] += times
    else:
        stats.deal_ties += times


def run_deals(sim: Simulation, start: int, count: int) -> Stats:
    """:func:`scopa.engine.simulate.run_deals` on the kernel: the same statistics."""
    _scoring_ready()
    scorer = Scorer(sim)
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
        for (keys, leader), times in tallies.items():
            add_deals(stats, [table[key] for key in keys], leader, times)
        stats.redeals += redeals
    return stats
