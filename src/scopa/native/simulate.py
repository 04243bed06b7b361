"""Simulation on the native kernel: the same statistics as :mod:`scopa.engine.simulate`.

Deal ``k`` of a run is seeded exactly as the Python engine seeds it, played in C, and reduced
to the packed facts the scorer reads (:func:`scopa.deal.side_keys`). A batch of deals comes
back counted by those facts, so each distinct outcome is scored once, through the one points
table of :mod:`scopa.scoring`, however many deals share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from scopa import cards
from scopa import deal as facts
from scopa.engine.simulate import MAX_MATCH_DEALS, Scorer, Simulation, Stats, deal_seed
from scopa.match import decide
from scopa.native import STRATEGIES, rules, seed_words
from scopa.rules import Settings
from scopa.scoring import Points, points_table

CHUNK = 50_000
"""Deals per batch handed to the kernel (the Python engine's batches are smaller)."""


@cache
def _scoring_ready() -> bool:
    """Hand the kernel the scorer's tables and key layout (once)."""
    from scopa.native import _kernel

    _kernel.set_scoring(
        cards.BEST_PRIMIERA,
        cards.BEST_RANK,
        cards.NAPOLA_RUN,
        cards.PRIMIERA_VALUES,
        (
            facts.KEY_SETTEBELLO,
            facts.KEY_CARDS_TOP,
            facts.KEY_CARDS_ALONE,
            facts.KEY_COINS_TOP,
            facts.KEY_COINS_ALONE,
            facts.KEY_PRIMIERA_TOP,
            facts.KEY_PRIMIERA_ALONE,
            facts.KEY_NAPOLA_SHIFT,
            facts.KEY_SWEEPS_SHIFT,
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


def points_of(keys: Sequence[int], last: int | None, settings: Settings) -> tuple[Points, ...]:
    """The points per side of a deal's packed facts: :func:`scopa.scoring.score_deal`'s last
    step (the piles are already reduced to keys)."""
    if settings.last_capture_sweep:
        keys = facts.with_leftover_sweep(tuple(keys), last)
    table = points_table(settings)
    return tuple([table[key] for key in keys])


def add_deals(stats: Stats, points: Sequence[Points], leader: int, times: int) -> None:
    """``stats.add_deal(points, leader, 0)`` done ``times`` times at once."""
    stats.deals += times
    totals = [p.total for p in points]
    for i, p in enumerate(points):
        for name, value in p.to_dict().items():
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


def _setup(sim: Simulation) -> tuple[Scorer, Stats, tuple[int, ...], tuple[int, ...]]:
    _scoring_ready()
    scorer = Scorer(sim)
    stats = Stats(scorer.match.sides)
    team_of = tuple(scorer.side_of(k) for k in range(sim.players))
    codes = tuple(STRATEGIES[s] for s in sim.seat_strategies())
    return scorer, stats, team_of, codes


def run_deals(sim: Simulation, start: int, count: int) -> Stats:
    """:func:`scopa.engine.simulate.run_deals` on the kernel: the same statistics."""
    scorer, stats, team_of, codes = _setup(sim)
    settings = scorer.settings
    kernel = rules(sim.variant)
    for first in range(start, start + count, CHUNK):
        n = min(CHUNK, start + count - first)
        tallies, redeals = kernel.run_deals(
            sim.players,
            prefix(sim.seed),
            first,
            n,
            codes,
            team_of,
            len(stats.sides),
            settings.last_capture_sweep,
        )
        for (keys, last, leader), times in tallies.items():
            add_deals(stats, points_of(keys, last, settings), leader, times)
        stats.redeals += redeals
    return stats


def run_matches(sim: Simulation, start: int, count: int) -> Stats:
    """:func:`scopa.engine.simulate.run_matches` on the kernel: the same statistics."""
    scorer, stats, team_of, codes = _setup(sim)
    settings = scorer.settings
    kernel = rules(sim.variant)
    n = sim.players
    sides = len(stats.sides)
    for m in range(start, start + count):
        totals = [0] * sides
        winner = None
        number = 0
        while winner is None and number < MAX_MATCH_DEALS:
            dealer = (m + number) % n
            key = seed_words(deal_seed(deal_seed(sim.seed, m), number))
            keys, last, redeals = kernel.deal_facts(n, dealer, codes, team_of, sides, key)
            points = points_of(keys, last, settings)
            stats.add_deal(points, scorer.side_of((dealer + 1) % n), redeals)
            for i, p in enumerate(points):
                totals[i] += p.total
            winner = decide(totals, scorer.settings.target)
            number += 1
        stats.matches += 1
        stats.match_deals += number
        if winner is not None:
            stats.match_wins[winner] += 1
    return stats
