"""The search player (strategy ``ai``): sampled deals searched with alpha-beta.

For each move the player looks only at what its seat knows (:func:`observe`). It deals the
unknown cards out at random many times (each a deal that agrees with what it saw), searches
every such deal with alpha-beta (:class:`Solver`) as deep as its budget of leaves allows, and
plays the move worth most on average. Once the stock is empty and the hidden hands can lie in
only a few ways, it searches every one of those deals to the end (an exact answer for each),
each deal counting as much as the others' plays of the round make it likely.

Its strength is its thinking time (``think_ms``, 200 ms a move by default) or, for results
that repeat exactly, a fixed number of sampled deals (``iterations``). Named levels: easy,
normal and strong.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from math import exp

from scopa.engine.ai.evaluate import Evaluator
from scopa.engine.ai.inference import Inference
from scopa.engine.ai.ismcts import TREE_BATCH, KernelTree, KernelTrees, Search
from scopa.engine.ai.knowledge import Dealer, Knowledge, Thinker, every_deal
from scopa.engine.ai.levels import Level
from scopa.engine.ai.playouts import Playouts, native_ready, playout_code
from scopa.engine.ai.solver import Solver, side_of_seats
from scopa.engine.board import options
from scopa.engine.captures import rules_for
from scopa.engine.state import State
from scopa.rules import Settings

MIN_SAMPLES = 4
"""Sampled deals searched whatever the time (one alone would play as if it saw every card);
a level with a number of deals may ask for fewer."""
EXACT_DEALS = 60
"""Search every hidden deal to the end when there are at most this many (stock empty)."""
EXACT_LEAVES = 20_000
"""... and all of them to the end stay within this many leaves (a raw count)."""


class SearchPlayer(Thinker):
    """The ``ai`` strategy: a :class:`~scopa.engine.players.Player` that searches.

    ``settings`` are the house rules it plays to win (default: the variant's). ``clock``
    measures the thinking time (seconds).
    """

    def __init__(
        self,
        rng: random.Random,
        level: Level | None = None,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(rng, level or Level(), settings, clock)
        self.searched = 0
        """Sampled (or enumerated) deals searched for the last move."""
        self.visits: list[int] = []

    def decide(self, k: Knowledge) -> tuple[int, int]:
        values = self.values(k)
        if self.visits:  # a tree: the play tried most is the robust choice
            return max(zip(values, self.visits, strict=True), key=lambda x: (x[1], x[0][1]))[0][0]
        if self.level.temperature > 0 and len(values) > 1:
            top = max(v for _, v in values)
            weights = [exp((v - top) / self.level.temperature) for _, v in values]
            return self.rng.choices([p for p, _ in values], weights)[0]
        best = max(range(len(values)), key=lambda i: (values[i][1], -i))
        return values[best][0]

    def values(self, k: Knowledge) -> list[tuple[tuple[int, int], float]]:
        """Each legal play of the seat to move with its expected margin: our side's points
        less the others' (their mean) at the end of the deal, averaged over the deals
        searched (0.0 for a play that is the only one)."""
        plays = options(rules_for(k.variant), k.hand, k.table, k.matta_as)
        self.searched = 0
        self.visits = []
        """With a tree (``+tree``): how often each play was tried, in the order of the values."""
        if len(plays) == 1:
            return [(plays[0], 0.0)]
        settings = self.settings if self.settings is not None else k.variant.settings_for(k.players)
        side_of = side_of_seats(k.players, settings.partnerships)
        evaluator = Evaluator(settings, max(side_of) + 1, side_of[k.seat])
        totals = [0.0] * len(plays)
        deals, depth = self._deals(k)
        if self.level.tree and deals.every is None:
            if native_ready(k.variant):
                return self._tree_values(self._kernel_tree(k, settings, deals), plays)
            if not self.level.playouts:  # +tree+playouts with no kernel: alpha-beta, below
                return self._tree_values(self._python_tree(k, settings, deals), plays)
        mass = 0.0  # the deals' weights added up: 1 each, but for every hidden deal of the endgame
        if self.level.playouts and deals.every is None and native_ready(k.variant):
            playouts = Playouts(k.variant, settings, side_of, evaluator, self.level.mixed)
            for deal in deals:
                seed = self.rng.getrandbits(32)
                for i, value in enumerate(playouts.values(deal, plays, seed)):
                    totals[i] += value
                self.searched += 1
                mass += 1.0
        else:
            known: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
            weigh = deals.inference.weight if deals.every and deals.inference else None
            for deal in deals:
                solver = Solver(deal, side_of, evaluator, known)
                weight = 1.0 if weigh is None else weigh(deal)
                for i, value in enumerate(solver.root_values(plays, depth)):
                    totals[i] += weight * value
                self.searched += 1
                mass += weight
        count = mass or 1.0
        return [(play, total / count) for play, total in zip(plays, totals, strict=True)]

    def _python_tree(self, k: Knowledge, settings: Settings, deals: _Sampler) -> Search:
        """One ISMCTS tree grown in Python on ``deals``."""
        search = Search(k, settings, self.rng, playouts=self.level.playouts, mixed=self.level.mixed)
        for deal in deals:
            search.iterate(deal)
            self.searched += 1
        return search

    def _kernel_tree(
        self, k: Knowledge, settings: Settings, deals: _Sampler
    ) -> KernelTree | KernelTrees:
        """The same tree grown in the native kernel, for the level's deals or time; the kernel
        draws its deals as ``deals`` would (the same inference). With :attr:`Level.trees`,
        that many trees share the deals or the time."""
        level = self.level
        code = playout_code(level.playouts, level.mixed)

        def grown() -> KernelTree:
            return KernelTree(k, settings, self.rng, code=code, inference=deals.inference)

        tree = grown() if level.trees == 1 else KernelTrees([grown() for _ in range(level.trees)])
        if level.iterations is not None:
            tree.run(-(-level.iterations // level.trees))
        else:
            start = self.clock()
            think = (level.tree_ms or level.think_ms or 0.0) / 1000.0
            tree.run(TREE_BATCH)
            while self.clock() - start < think:
                tree.run(TREE_BATCH)
        self.searched = tree.iterations
        return tree

    def _tree_values(
        self, tree: Search | KernelTree | KernelTrees, plays: list[tuple[int, int]]
    ) -> list[tuple[tuple[int, int], float]]:
        """The root plays' mean margins in a grown tree (:attr:`visits`: how often each was
        tried)."""
        stats = tree.stats()
        out = []
        for play in plays:
            visits, mean = stats.get(play, (0, -99.0))  # never tried: the budget ran out
            self.visits.append(visits)
            out.append((play, mean))
        return out

    def _deals(self, k: Knowledge) -> tuple[_Sampler, int]:
        """The deals to search and how deep: every hidden deal to the end when few, else
        sampled deals to the depth the level's leaves allow."""
        total = total_plies(k)
        deals = k.deals() if not k.stock_size else EXACT_DEALS + 1
        if deals <= EXACT_DEALS and leaves_within(k, total) * deals <= EXACT_LEAVES:
            every = list(every_deal(k))
            self.rng.shuffle(every)
            return _Sampler(k, self.rng, self.level, self.clock, every), total
        return _Sampler(k, self.rng, self.level, self.clock), plies_within(k, self.level.leaves)


class _Sampler:
    """Sampled deals until the budget is spent (at least one)."""

    def __init__(
        self,
        k: Knowledge,
        rng: random.Random,
        level: Level,
        clock: Callable[[], float],
        every: list[State] | None = None,
    ) -> None:
        self.k = k
        self.rng = rng
        self.level = level
        self.clock = clock
        self.every = every
        """Every hidden deal (in a random order) instead of samples: searched until they are
        all done or the time is up, each one's values weighed by how likely the others' plays
        of the round make it (the same :attr:`inference` as the samples)."""
        self.inference = Inference(k) if level.infer else None
        """What the others' plays reveal, which the samples follow (none: uniform)."""
        self.draw = Dealer(k).sample if self.inference is None else self.inference.sample

    def __iter__(self) -> _Sampler:
        self.count = 0
        self.start = self.clock()
        return self

    def __next__(self) -> State:
        level = self.level
        every = self.every
        if every is not None:
            if self.count == len(every) or (self.count and self._late()):
                raise StopIteration
            self.count += 1
            return every[self.count - 1]
        if level.iterations is not None:
            if self.count >= level.iterations:
                raise StopIteration
        elif self.count >= MIN_SAMPLES and self._late():
            raise StopIteration
        self.count += 1
        return self.draw(self.rng)

    def _late(self) -> bool:
        """Whether the thinking time (if the level has one) is up."""
        think = self.level.think_ms
        return think is not None and (self.clock() - self.start) * 1000.0 >= think


def total_plies(k: Knowledge) -> int:
    """The plays left in the deal."""
    return sum(k.hand_sizes) + k.stock_size


def _branching(k: Knowledge) -> list[int]:
    """The number of cards in hand of the player to move at each ply to the deal's end."""
    sizes = list(k.hand_sizes)
    stock = k.stock_size
    turn = k.turn
    n = k.players
    out: list[int] = []
    while True:
        if not sizes[turn]:
            if not stock:
                return out
            size = k.variant.hand_size
            sizes = [size] * n
            stock -= size * n
        out.append(sizes[turn])
        sizes[turn] -= 1
        turn = (turn + 1) % n


def leaves_within(k: Knowledge, plies: int) -> int:
    """The raw number of leaves of a search ``plies`` deep (cards in hand multiplied, twice
    over when a card that can capture may also be laid down)."""
    leaves = 1
    each = 2 if k.variant.capture_optional else 1
    for b in _branching(k)[:plies]:
        leaves *= b * each
    return leaves


def plies_within(k: Knowledge, leaves: int) -> int:
    """How many plies deep a search stays within ``leaves`` raw leaves (at least one)."""
    count = 1
    depth = 0
    each = 2 if k.variant.capture_optional else 1
    for b in _branching(k):
        count *= b * each
        if count > leaves and depth:
            break
        depth += 1
    return max(depth, 1)
