"""Duplicate simulation: every deal played once per seating of the strategies.

Deal ``k`` is shuffled from its own seed alone (:func:`deal_seed`); the players draw from
other generators, so the same ``--seed`` gives the same deals whatever the strategies. The
strategies are seated round the table as :class:`Simulation` seats them, then rotated one
seat at a time (each distinct seating once), and every seating plays the same deal from the
same dealer. Comparing two strategies on the same cards removes most of the luck of the deal:
the margin's standard error comes from the per-deal differences.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from math import sqrt
from typing import Any

from scopa.engine.players import make_player, play_out
from scopa.engine.simulate import (
    MAX_MATCH_DEALS,
    Scorer,
    Simulation,
    Stats,
    batch_size,
    deal_seed,
    run_batches,
)
from scopa.engine.state import State, deal
from scopa.errors import InputError
from scopa.i18n import N_
from scopa.match import decide


def seatings(sim: Simulation) -> tuple[tuple[str, ...], ...]:
    """The distinct rotations of the seats' strategies, the given seating first.

    >>> from scopa.engine.variants import VARIANTS
    >>> seatings(Simulation(VARIANTS["scopone"], 4, ("ai", "greedy")))
    (('ai', 'greedy', 'ai', 'greedy'), ('greedy', 'ai', 'greedy', 'ai'))
    """
    seats = sim.seat_strategies()
    out: list[tuple[str, ...]] = []
    for k in range(len(seats)):
        rotated = seats[-k:] + seats[:-k] if k else seats
        if rotated not in out:
            out.append(rotated)
    return tuple(out)


def player_seed(seed: int, seating: int, seat: int) -> int:
    """The seed of one seat's player in one seating of a deal (apart from the shuffle's)."""
    return deal_seed(deal_seed(seed, seating + 1), seat) ^ 0x5EED


def play_seating(sim: Simulation, seed: int, dealer: int, seating: int) -> State:
    """One finished deal of one seating: dealt from ``seed`` alone, the same in every seating."""
    state = deal(sim.variant, sim.players, seed=seed, dealer=dealer)
    strategies = seatings(sim)[seating]
    players = [
        make_player(name, random.Random(player_seed(seed, seating, seat)))
        for seat, name in enumerate(strategies)
    ]
    return play_out(state, players)


@dataclass(slots=True)
class DuplicateStats:
    """The usual statistics over every seating, and the points by strategy."""

    stats: Stats
    strategies: tuple[str, ...]
    """The distinct strategies, in seating order."""
    seatings: int = 1
    """How many times each deal is played (its distinct seatings)."""
    points: dict[str, int] = field(default_factory=dict)
    side_deals: dict[str, int] = field(default_factory=dict)
    match_wins: dict[str, int] = field(default_factory=dict)
    side_matches: dict[str, int] = field(default_factory=dict)
    margin_sum: float = 0.0
    margin_squares: float = 0.0
    margin_count: int = 0

    def __post_init__(self) -> None:
        for name in self.strategies:
            for table in (self.points, self.side_deals, self.match_wins, self.side_matches):
                table.setdefault(name, 0)

    def merge(self, other: DuplicateStats) -> None:
        self.stats.merge(other.stats)
        for name in self.strategies:
            self.points[name] += other.points[name]
            self.side_deals[name] += other.side_deals[name]
            self.match_wins[name] += other.match_wins[name]
            self.side_matches[name] += other.side_matches[name]
        self.margin_sum += other.margin_sum
        self.margin_squares += other.margin_squares
        self.margin_count += other.margin_count

    def add_margin(self, value: float) -> None:
        self.margin_sum += value
        self.margin_squares += value * value
        self.margin_count += 1

    def margin(self) -> dict[str, Any] | None:
        """The first strategy's mean lead over the second per deal (paired deals), with its
        standard error; ``None`` unless exactly two strategies play."""
        if len(self.strategies) != 2 or not self.margin_count:
            return None
        n = self.margin_count
        mean = self.margin_sum / n
        variance = (self.margin_squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
        return {
            "of": self.strategies[0],
            "over": self.strategies[1],
            "mean": round(mean, 4),
            "stderr": round(sqrt(max(variance, 0.0) / n), 4),
            "deals": n,
        }

    def to_json(self) -> dict[str, Any]:
        result = self.stats.to_json()
        by: dict[str, dict[str, Any]] = {}
        for name in self.strategies:
            row: dict[str, Any] = {
                "points_per_deal": round(self.points[name] / max(self.side_deals[name], 1), 4)
            }
            if self.side_matches[name]:
                row["match_win_rate"] = round(self.match_wins[name] / self.side_matches[name], 4)
            by[name] = row
        result["by_strategy"] = by
        margin = self.margin()
        if margin is not None:
            result["margin"] = margin
        return result


def _side_strategies(sim: Simulation, scorer: Scorer) -> list[tuple[str | None, ...]]:
    """For each seating, the strategy of each scoring side (all its seats play it)."""
    out = []
    for seating in seatings(sim):
        sides: list[str | None] = [None] * len(scorer.match.sides)
        for seat, name in enumerate(seating):
            side = scorer.side_of(seat)
            if sides[side] not in (None, name):
                raise InputError(
                    "strategy",
                    N_("side {sides} mixes strategies"),
                    code="engine.side_mixes_strategies",
                    sides=scorer.match.sides[side],
                )
            sides[side] = name
        out.append(tuple(sides))
    return out


def _empty(sim: Simulation, scorer: Scorer) -> DuplicateStats:
    names = tuple(dict.fromkeys(sim.seat_strategies()))
    return DuplicateStats(scorer.stats(), names, len(seatings(sim)))


def _margin(
    totals_by_seating: list[list[int]], sides: list[tuple[str | None, ...]], names: tuple[str, ...]
) -> float:
    """Mean over the seatings of (mean points of the first strategy's sides) less (the
    second's)."""
    diffs = []
    for totals, owners in zip(totals_by_seating, sides, strict=True):
        mine = [t for t, o in zip(totals, owners, strict=True) if o == names[0]]
        theirs = [t for t, o in zip(totals, owners, strict=True) if o == names[1]]
        diffs.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
    return sum(diffs) / len(diffs)


def run_duplicate_deals(sim: Simulation, start: int, count: int) -> DuplicateStats:
    """Deals ``start`` to ``start + count - 1``, each in every seating."""
    scorer = Scorer(sim)
    result = _empty(sim, scorer)
    sides = _side_strategies(sim, scorer)
    n = sim.players
    for k in range(start, start + count):
        dealer = k % n
        seed = deal_seed(sim.seed, k)
        totals_by_seating = []
        for seating in range(len(sides)):
            state = play_seating(sim, seed, dealer, seating)
            points = scorer.points(scorer.record(state))
            result.stats.add_deal(points, scorer.side_of((dealer + 1) % n), state.redeals)
            totals = [p.total for p in points]
            totals_by_seating.append(totals)
            for total, owner in zip(totals, sides[seating], strict=True):
                if owner is not None:
                    result.points[owner] += total
                    result.side_deals[owner] += 1
        if len(result.strategies) == 2:
            result.add_margin(_margin(totals_by_seating, sides, result.strategies))
    return result


def run_duplicate_matches(sim: Simulation, start: int, count: int) -> DuplicateStats:
    """Whole matches, each in every seating on the same deals."""
    scorer = Scorer(sim)
    result = _empty(sim, scorer)
    sides = _side_strategies(sim, scorer)
    n = sim.players
    target = scorer.settings.target
    for m in range(start, start + count):
        for seating in range(len(sides)):
            totals = [0] * len(scorer.match.sides)
            winner = None
            number = 0
            while winner is None and number < MAX_MATCH_DEALS:
                dealer = (m + number) % n
                seed = deal_seed(deal_seed(sim.seed, m), number)
                state = play_seating(sim, seed, dealer, seating)
                points = scorer.points(scorer.record(state))
                result.stats.add_deal(points, scorer.side_of((dealer + 1) % n), state.redeals)
                for i, p in enumerate(points):
                    totals[i] += p.total
                    owner = sides[seating][i]
                    if owner is not None:
                        result.points[owner] += p.total
                        result.side_deals[owner] += 1
                winner = decide(totals, target)
                number += 1
            result.stats.matches += 1
            result.stats.match_deals += number
            for i, owner in enumerate(sides[seating]):
                if owner is not None:
                    result.side_matches[owner] += 1
                    if i == winner:
                        result.match_wins[owner] += 1
            if winner is not None:
                result.stats.match_wins[winner] += 1
    return result


def simulate_duplicate(
    sim: Simulation,
    count: int,
    matches: bool = False,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> DuplicateStats:
    """Play ``count`` deals (or matches), each in every seating; the figures are the same
    whatever the number of ``workers``."""
    run = run_duplicate_matches if matches else run_duplicate_deals
    scorer = Scorer(sim)
    _side_strategies(sim, scorer)
    total = _empty(sim, scorer)
    size = batch_size(count, workers, 5 if matches else 50, 4)
    return run_batches(run, sim, count, size, total, workers, progress)
