"""Simulating many deals (or whole matches) and gathering statistics, optionally in processes.

Deal ``k`` of a run is dealt and played from its own generator, seeded from the run's seed
and ``k``, so the figures are the same whatever the number of workers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from scopa import variants as sheet_variants
from scopa.deal import Deal
from scopa.engine.native import choose, plays_natively
from scopa.engine.players import make_player, play_out, play_out_random
from scopa.engine.state import State, deal, seat_names, to_deal
from scopa.engine.variants import Variant
from scopa.match import Match, score_match
from scopa.rules import Settings
from scopa.scoring import Points

MAX_MATCH_DEALS = 1000
"""A safety stop for a match whose totals keep tying (never reached in practice)."""


def deal_seed(seed: int, number: int) -> int:
    """The seed of deal (or match) ``number`` of a run.

    >>> deal_seed(1, 0) != deal_seed(1, 1) != deal_seed(2, 0)
    True
    """
    return (seed << 32) ^ number


@dataclass(frozen=True, slots=True)
class Simulation:
    """What to simulate: the variant, the seats and their strategies, the scoring rules."""

    variant: Variant
    players: int = 2
    strategies: tuple[str, ...] = ("random",)
    """One strategy per seat, repeated round the table when fewer are given."""
    seed: int = 0
    settings: Settings | None = None
    """The house rules to score with (default: the variant's)."""
    engine: str | None = None
    """``native`` (the C kernel, the default where it is built) or ``python``: the same
    results either way (seats of other strategies always play in Python)."""

    def __post_init__(self) -> None:
        self.variant.check_players(self.players)
        for name in self.strategies:
            make_player(name, random.Random(0))
        choose(self.engine)

    @property
    def native(self) -> bool:
        """Whether the deals are played by the native kernel."""
        return (
            choose(self.engine) == "native"
            and self.seed >= 0
            and plays_natively(self.seat_strategies(), self.seed, self.variant)
        )

    @property
    def rules(self) -> Settings:
        return (
            self.settings if self.settings is not None else self.variant.settings_for(self.players)
        )

    @property
    def names(self) -> tuple[str, ...]:
        return seat_names(self.players)

    def seat_strategies(self) -> tuple[str, ...]:
        return tuple(self.strategies[k % len(self.strategies)] for k in range(self.players))

    def match(self) -> Match:
        """An empty match of the seats under the scoring rules (pools partners' piles)."""
        return Match(players=self.names, settings=self.rules)

    def play(self, seed: int, dealer: int) -> State:
        """One finished deal."""
        if self.native:
            from scopa.engine.native import play

            return play(self.variant, self.players, seed, dealer, self.seat_strategies())
        rng = random.Random(seed)
        state = deal(self.variant, self.players, seed=seed, dealer=dealer, rng=rng)
        strategies = self.seat_strategies()
        if all(s == "random" for s in strategies):
            return play_out_random(state, rng)
        return play_out(state, [make_player(s, rng) for s in strategies])


@dataclass(slots=True)
class Stats:
    """Totals over simulated deals; two of them add up (``merge``), so workers can share."""

    sides: tuple[str, ...]
    keys: tuple[str, ...] = sheet_variants.get(sheet_variants.DEFAULT).points_keys
    """The variant's points keys (its sheet's), ``total`` last."""
    deals: int = 0
    matches: int = 0
    points: dict[str, list[int]] = field(default_factory=dict)
    """Per category (and ``total``), the points per side summed over the deals."""
    sweeps: int = 0
    leader_points: int = 0
    """Points of the side of the player who led (the one after the dealer)."""
    other_points: int = 0
    """Points of the other sides."""
    deal_wins: list[int] = field(default_factory=list)
    deal_ties: int = 0
    match_wins: list[int] = field(default_factory=list)
    match_deals: int = 0
    redeals: int = 0
    cappotto_wins: int = 0
    """Matches won by a cappotto (Cirulla: all ten coins in one deal)."""

    def __post_init__(self) -> None:
        n = len(self.sides)
        for name in self.keys:
            self.points.setdefault(name, [0] * n)
        if not self.deal_wins:
            self.deal_wins = [0] * n
        if not self.match_wins:
            self.match_wins = [0] * n

    def add_deal(self, points: Sequence[Points], leader_side: int, redeals: int) -> None:
        self.deals += 1
        self.redeals += redeals
        totals = []
        for i, p in enumerate(points):
            row = p.to_dict(self.keys)
            for name, value in row.items():
                self.points[name][i] += value
            totals.append(p.total)
            self.sweeps += p.sweeps
        self.leader_points += totals[leader_side]
        self.other_points += sum(totals) - totals[leader_side]
        top = max(totals)
        if totals.count(top) == 1:
            self.deal_wins[totals.index(top)] += 1
        else:
            self.deal_ties += 1

    def merge(self, other: Stats) -> None:
        self.deals += other.deals
        self.matches += other.matches
        for name, values in other.points.items():
            mine = self.points[name]
            for i, value in enumerate(values):
                mine[i] += value
        self.sweeps += other.sweeps
        self.leader_points += other.leader_points
        self.other_points += other.other_points
        self.deal_ties += other.deal_ties
        self.match_deals += other.match_deals
        self.redeals += other.redeals
        self.cappotto_wins += other.cappotto_wins
        for i in range(len(self.sides)):
            self.deal_wins[i] += other.deal_wins[i]
            self.match_wins[i] += other.match_wins[i]

    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON: means per deal, counts, and the first player's advantage."""
        n = max(self.deals, 1)
        others = max(len(self.sides) - 1, 1)
        result: dict[str, Any] = {
            "deals": self.deals,
            "sides": list(self.sides),
            "points_per_deal": {
                side: {name: round(self.points[name][i] / n, 4) for name in self.points}
                for i, side in enumerate(self.sides)
            },
            "sweeps_per_deal": round(self.sweeps / n, 4),
            "first_player": {
                "leader_points_per_deal": round(self.leader_points / n, 4),
                "other_points_per_deal": round(self.other_points / n / others, 4),
                "advantage": round((self.leader_points - self.other_points / others) / n, 4),
            },
            "deal_wins": dict(zip(self.sides, self.deal_wins, strict=True)),
            "deal_ties": self.deal_ties,
            "redeals": self.redeals,
        }
        if self.matches:
            result["matches"] = self.matches
            result["match_wins"] = dict(zip(self.sides, self.match_wins, strict=True))
            result["deals_per_match"] = round(self.match_deals / self.matches, 4)
            if "piccola" in self.keys:
                result["cappotto_wins"] = self.cappotto_wins
        return result


class Scorer:
    """Turns finished deals into records and points, through the one scorer (the match's)."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        self.match = sim.match()
        self.settings = sim.rules
        self.names = sim.names
        self.keys = sheet_variants.get(self.settings.variant).points_keys
        teams = self.match.team_members()
        self.team_of = [
            k
            if self.match.sides == self.names
            else next(t for t, m in enumerate(teams) if name in m)
            for k, name in enumerate(self.names)
        ]

    def stats(self) -> Stats:
        """Empty statistics for the scoring sides and the variant's points keys."""
        return Stats(self.match.sides, self.keys)

    def record(self, state: State) -> Deal:
        return to_deal(state, self.names)

    def points(self, deal: Deal) -> tuple[Points, ...]:
        """Per side (partners' piles pooled): :meth:`scopa.match.Match.points`."""
        return self.match.points(deal)

    def side_of(self, seat: int) -> int:
        return self.team_of[seat]


def run_deals(sim: Simulation, start: int, count: int) -> Stats:
    """Deals ``start`` to ``start + count - 1`` of a run (deal ``k`` is dealt by seat
    ``k mod players``)."""
    if sim.native:
        from scopa.engine.native import simulate as native

        scorer = Scorer(sim)
        stats = scorer.stats()
        native.run_deals(sim, start, count, scorer, stats)
        return stats
    scorer = Scorer(sim)
    stats = scorer.stats()
    n = sim.players
    for k in range(start, start + count):
        dealer = k % n
        state = sim.play(deal_seed(sim.seed, k), dealer)
        points = scorer.points(scorer.record(state))
        stats.add_deal(points, scorer.side_of((dealer + 1) % n), state.redeals)
    return stats


def run_matches(sim: Simulation, start: int, count: int) -> Stats:
    """Whole matches ``start`` to ``start + count - 1``: deals until a side has won, as the
    match's own sheet (:func:`scopa.match.score_match`) says: the target, a tied top, and
    Cirulla's cappotto."""
    scorer = Scorer(sim)
    stats = scorer.stats()
    n = sim.players
    sides = stats.sides
    for m in range(start, start + count):
        deals: list[Deal] = []
        winner = None
        sheet = None
        while winner is None and len(deals) < MAX_MATCH_DEALS:
            number = len(deals)
            dealer = (m + number) % n
            state = sim.play(deal_seed(deal_seed(sim.seed, m), number), dealer)
            deals.append(scorer.record(state))
            sheet = score_match(scorer.match.with_deals(deals))
            stats.add_deal(sheet.deals[-1].points, scorer.side_of((dealer + 1) % n), state.redeals)
            winner = sheet.winner
        stats.matches += 1
        stats.match_deals += len(deals)
        if winner is not None and sheet is not None:
            stats.match_wins[sides.index(winner)] += 1
            stats.cappotto_wins += sheet.by_cappotto
    return stats


def chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    """``(start, count)`` batches of a run (also the duplicate run's)."""
    for start in range(0, total, size):
        yield start, min(size, total - start)


def batch_size(count: int, workers: int, most: int, spread: int) -> int:
    """How many deals (or matches) a batch runs: ``count`` shared out in about ``spread``
    batches a worker (so that the workers end together), at most ``most``, at least 1.

    >>> batch_size(10_000, 2, 2000, 8), batch_size(10_000, 1, 50, 4), batch_size(3, 4, 50, 4)
    (625, 50, 1)
    """
    return max(1, min(most, count // max(workers * spread, 1) or 1))


def simulate(
    sim: Simulation,
    count: int,
    matches: bool = False,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Stats:
    """Play ``count`` deals (or matches) and return their statistics.

    ``workers`` > 1 spreads chunks over processes; ``progress`` is called with the number of
    deals (or matches) finished since its last call.
    """
    run = run_matches if matches else run_deals
    total = Scorer(sim).stats()
    limit = (50_000 if sim.native else 2000) if not matches else 20
    size = batch_size(count, workers, limit, 8)
    return run_batches(run, sim, count, size, total, workers, progress)


class Mergeable(Protocol):
    def merge(self, other: Any, /) -> None: ...


Total = TypeVar("Total", bound=Mergeable)
IN_FLIGHT = 4
"""Batches a worker has queued at once in a run on several processes."""


def run_batches(
    run: Callable[[Simulation, int, int], Total],
    sim: Simulation,
    count: int,
    size: int,
    total: Total,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Total:
    """Run ``count`` deals (or matches) in batches of ``size``, on ``workers`` processes,
    merging each batch's figures into ``total``; ``progress`` hears of each finished batch."""
    batches = chunks(count, size)  # lazily: a long run never holds its list of batches
    if workers <= 1:
        for start, n in batches:
            total.merge(run(sim, start, n))
            if progress is not None:
                progress(n)
        return total
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[Total], int] = {}
        for start, n in batches:  # a few batches a worker in flight, the next sent as one ends
            pending[pool.submit(run, sim, start, n)] = n
            if len(pending) >= IN_FLIGHT * workers:
                _collect(pending, total, progress, FIRST_COMPLETED)
        _collect(pending, total, progress, ALL_COMPLETED)
    return total


def _collect(
    pending: dict[Future[Total], int],
    total: Total,
    progress: Callable[[int], None] | None,
    until: str,
) -> None:
    """Merge the finished batches of ``pending`` into ``total`` (waiting for one or all)."""
    done, _ = wait(pending, return_when=until)
    for future in done:
        total.merge(future.result())
        n = pending.pop(future)
        if progress is not None:
            progress(n)
