"""Simulation on the native kernel: the same statistics as :mod:`scopa.engine.simulate`.

Deal ``k`` of a run is seeded exactly as the Python engine seeds it, played in C, and reduced
to the packed facts the one scorer reads (:func:`scopa.scoring.pack_sides`, partners pooled as
:meth:`scopa.match.Match.side_deal` pools them). Each distinct side's facts is scored once,
through the scorer's points table, however many deals share it, and the kernel sums the
statistics itself, so no Python object is made per deal. (Whole matches go through the
scorer's sheet deal by deal: there the kernel plays each deal through
:meth:`~scopa.engine.simulate.Simulation.play`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from scopa import cards, scoring
from scopa.engine.native import STRATEGIES, rules, seed_words
from scopa.engine.variants import Variant
from scopa.rules import Settings
from scopa.scoring import Points, points_table


class Seats(Protocol):
    """What is read of a :class:`scopa.engine.simulate.Simulation`."""

    @property
    def variant(self) -> Variant: ...

    @property
    def players(self) -> int: ...

    @property
    def seed(self) -> int: ...

    def seat_strategies(self) -> tuple[str, ...]: ...


class Sides(Protocol):
    """What is read of a :class:`scopa.engine.simulate.Scorer`."""

    @property
    def settings(self) -> Settings: ...

    def side_of(self, seat: int) -> int: ...


class Totals(Protocol):
    """What is added to in a :class:`scopa.engine.simulate.Stats`."""

    sides: tuple[str, ...]
    keys: tuple[str, ...]
    deals: int
    points: dict[str, list[int]]
    sweeps: int
    leader_points: int
    other_points: int
    deal_wins: list[int]
    deal_ties: int
    redeals: int


CHUNK = 50_000
"""Deals per batch handed to the kernel."""


def scoring_tables() -> tuple[tuple[int, ...], ...]:
    """The scorer's tables and key layout as the kernel's ``set_scoring`` takes them."""
    return (
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


_SCORED: list[object] = []
"""The kernel module the scorer's tables were handed to (the C extension's or, after
:func:`scopa.engine.native.use_kernel`, another one)."""


def _scoring_ready() -> bool:
    """Hand the kernel in use the scorer's tables and key layout (once per kernel)."""
    from scopa.engine import native

    module = native.kernel()
    if not _SCORED or _SCORED[0] is not module:
        module.set_scoring(*scoring_tables())
        _SCORED[:] = [module]
    return True


def prefix(seed: int) -> tuple[int, ...]:
    """The generator key of deal ``k`` is ``(k, *prefix(seed))``: ``deal_seed``'s words.

    >>> from scopa.engine.simulate import deal_seed
    >>> seed_words(deal_seed(7, 3)) == (3, *prefix(7)), prefix(0)
    (True, ())
    """
    return () if seed == 0 else seed_words(seed)


def fields(keys: Sequence[str]) -> tuple[int, ...]:
    """The positions in :class:`scopa.scoring.Points` the kernel reads: ``total``,
    ``sweeps``, then the sheet's ``keys`` (what ``Points.to_dict(keys)`` gives).

    >>> fields(("cards", "total"))
    (6, 4, 0, 6)
    """
    names = Points._fields
    return tuple(names.index(name) for name in ("total", "sweeps", *keys))


def run_deals(sim: Seats, start: int, count: int, scorer: Sides, stats: Totals) -> None:
    """:func:`scopa.engine.simulate.run_deals` on the kernel: the same statistics, added to
    ``stats`` (``scorer`` says the sides and the settings).

    The kernel sums what :meth:`scopa.engine.simulate.Stats.add_deal` adds, reading each
    side's points from the scorer's table (:func:`scopa.scoring.points_table`) once per
    distinct packed facts."""
    _scoring_ready()
    team_of = tuple(scorer.side_of(k) for k in range(sim.players))
    codes = tuple(STRATEGIES[s] for s in sim.seat_strategies())
    table = points_table(scorer.settings)
    kernel = rules(sim.variant)
    wanted = fields(stats.keys)
    for first in range(start, start + count, CHUNK):
        n = min(CHUNK, start + count - first)
        deals, redeals, points, sweeps, leader, other, wins, ties = kernel.run_deals(
            sim.players,
            prefix(sim.seed),
            first,
            n,
            codes,
            team_of,
            len(stats.sides),
            table,
            wanted,
        )
        for i, row in enumerate(points):
            for name, value in zip(stats.keys, row, strict=True):
                stats.points[name][i] += value
            stats.deal_wins[i] += wins[i]
        stats.deals += deals
        stats.redeals += redeals
        stats.sweeps += sweeps
        stats.leader_points += leader
        stats.other_points += other
        stats.deal_ties += ties
