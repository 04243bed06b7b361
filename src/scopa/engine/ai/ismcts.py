"""The reference opponent (strategy ``ismcts``): information-set Monte Carlo tree search.

Written from the literature (Cowling, Powley and Whitehouse, *Information Set Monte Carlo
Tree Search*, IEEE TCIAIG 4(2), 2012: "single-observer" ISMCTS, the approach its authors and
later work found strongest for hidden-card games such as Scopone). One tree is grown over the
plays seen from this seat's information set, and every iteration:

1. deals the unknown cards out at random (a *determinization* agreeing with what the seat
   knows: :func:`~scopa.engine.ai.knowledge.sample`), so statistics are shared across samples
   instead of each sampled deal being solved alone;
2. descends the tree with UCB, counting for each play how often it was *available* (a play
   legal in this determinization), the subset-armed bandit of the paper;
3. adds one new play, then finishes the deal with random plays (the native kernel's random
   playout where it is built, or ``+playouts``: its greedy playout);
4. scores the finished deal with the one scorer's points table and backs each side's margin
   up the path, each node judged from the side that made its play.

The play made is the root play visited most. It is a player of the same family as the
App-Store bot's "Esperto", so that ``bench/ai.py`` compares the ``ai`` player with a like
opponent at equal CPU time (``ismcts:50cpu``). It never peeks: it reasons from a
:class:`~scopa.engine.ai.knowledge.Knowledge` only.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from math import log, sqrt

from scopa.engine.ai.evaluate import Evaluator
from scopa.engine.ai.inference import Inference
from scopa.engine.ai.knowledge import Knowledge, Thinker, sample
from scopa.engine.ai.levels import Level
from scopa.engine.ai.playouts import kernel_playouts, native_ready, playout_code
from scopa.engine.ai.solver import side_of_seats
from scopa.engine.board import Board, options
from scopa.engine.captures import rules_for
from scopa.engine.state import State
from scopa.rules import Settings
from scopa.scoring import points_table

EXPLORATION = 0.7
"""UCB's constant, for rewards in points per deal divided by :data:`REWARD_SCALE`."""
REWARD_SCALE = 4.0
"""A margin of this many points counts as a reward of 1 in UCB (a deal's margins mostly lie
within ±4)."""

Action = tuple[int, int]


class Node:
    """One play in the tree: its visits, how often it was available, its total reward (from
    the view of the side that made it) and the plays after it."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 1
        self.total = 0.0
        self.children: dict[Action, Node] = {}


class ISMCTSPlayer(Thinker):
    """The ``ismcts`` strategy: a :class:`~scopa.engine.players.Player` that grows one
    information-set tree per move (a time budget, or a number of iterations)."""

    def __init__(
        self,
        rng: random.Random,
        level: Level | None = None,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.perf_counter,
        exploration: float = EXPLORATION,
        informed: bool = False,
    ) -> None:
        super().__init__(rng, level or Level(think_ms=50.0), settings, clock)
        self.informed = informed
        """Deal the hidden cards by what the others' plays reveal
        (:class:`~scopa.engine.ai.inference.Inference`) instead of uniformly, as the
        literature's ISMCTS does."""
        self.exploration = exploration
        self.iterations = 0
        """The iterations run for the last move."""

    def decide(self, k: Knowledge) -> Action:
        stats = self.root_stats(k)
        return max(stats, key=lambda s: (s[1], s[2]))[0]

    def root_stats(self, k: Knowledge) -> list[tuple[Action, int, float]]:
        """Each root play with its visits and mean margin (points per deal, our side's)."""
        plays = options(rules_for(k.variant), k.hand, k.table, k.matta_as)
        self.iterations = 0
        if len(plays) == 1:
            return [(plays[0], 1, 0.0)]
        settings = self.settings if self.settings is not None else k.variant.settings_for(k.players)
        search = Search(
            k, settings, self.rng, self.exploration, self.level.playouts, self.level.mixed
        )
        draw = Inference(k).sample if self.informed else functools.partial(sample, k)
        level = self.level
        start = self.clock()
        count = 0
        while True:
            if level.iterations is not None:
                if count >= level.iterations:
                    break
            elif count and (self.clock() - start) * 1000.0 >= (level.think_ms or 0.0):
                break
            search.iterate(draw(self.rng))
            count += 1
        self.iterations = count
        stats = search.stats()
        return [(play, *stats.get(play, (0, float("-inf")))) for play in plays]


class Search:
    """One move's tree and what an iteration needs."""

    def __init__(
        self,
        k: Knowledge,
        settings: Settings,
        rng: random.Random,
        exploration: float = EXPLORATION,
        playouts: bool = False,
        mixed: bool = False,
    ) -> None:
        self.k = k
        self.rng = rng
        self.c = exploration
        self.side_of = side_of_seats(k.players, settings.partnerships)
        self.sides = max(self.side_of) + 1
        self.root = Node()
        self.evaluator = Evaluator(settings, self.sides, 0)
        self.table = points_table(settings)
        self.kernel = None
        if native_ready(k.variant):
            from scopa.engine.native import rules
            from scopa.engine.native.simulate import _scoring_ready, prefix

            _scoring_ready()
            self.kernel = rules(k.variant)
            self.prefix = prefix
            self.codes = (playout_code(playouts, mixed),) * k.players

    def stats(self) -> dict[Action, tuple[int, float]]:
        """Each root play tried: its visits and mean margin (our side's points per deal)."""
        return {
            play: (node.visits, node.total / node.visits * REWARD_SCALE)
            for play, node in self.root.children.items()
            if node.visits
        }

    def iterate(self, deal: State) -> None:
        """One iteration on ``deal`` (a deal agreeing with what the seat knows)."""
        board = Board(deal)
        node = self.root
        path: list[tuple[Node, int]] = []
        rng = self.rng
        c = self.c
        while board.remaining:
            legal = board.options()
            children = node.children
            untried = [a for a in legal if a not in children]
            side = self.side_of[board.turn]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[int(rng.random() * len(untried))]
                node = children[action] = Node()
                path.append((node, side))
                board.play(*action)
                break
            best = None
            best_value = -1e300
            for a in legal:
                child = children[a]
                value = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
                if value > best_value:
                    best_value = value
                    best = a
            assert best is not None
            node = children[best]
            path.append((node, side))
            board.play(*best)
        points = self._finish(board)
        rewards = self._rewards(points)
        for visited, side in path:
            visited.visits += 1
            visited.total += rewards[side]

    def _rewards(self, points: Sequence[float]) -> list[float]:
        total = sum(points)
        n = self.sides
        return [(p - (total - p) / (n - 1)) / REWARD_SCALE for p in points]

    def _finish(self, b: Board) -> Sequence[float]:
        """Each side's points once the deal is played out from ``b`` (random plays)."""
        if b.remaining and self.kernel is not None:
            tallies = kernel_playouts(
                self.kernel,
                b,
                self.codes,
                self.prefix(self.rng.getrandbits(32)),
                self.side_of,
                self.sides,
            )
            ((keys, _),) = tallies
            return [self.table[key].total for key in keys]
        rng = self.rng
        while b.remaining:
            found = b.options()
            b.play(*found[int(rng.random() * len(found))])
        piles = [0] * self.sides
        sweeps = [0] * self.sides
        for seat, side in enumerate(self.side_of):
            piles[side] |= b.piles[seat]
            sweeps[side] += b.sweeps[seat]
        extra = self.evaluator.extra_keys(b, self.side_of, self.sides)
        leftovers = None if b.leftovers_to is None else self.side_of[b.leftovers_to]
        return self.evaluator.points(piles, sweeps, leftovers, extra)


TREE_BATCH = 32
"""Iterations of a kernel tree between two looks at the clock (some 0.1 ms)."""
ENDGAME = 6
"""The last plays of a deal (with the stock empty) that the kernel's tree solves with
alpha-beta in each sampled deal instead of playing them out (two sides only): the last round
of a two-player deal, where every card is known to both, is played as the players play it,
not by the playouts' rule of thumb. 0: playouts to the end."""
ROUND_ONLY = True
"""Whether the kernel's tree stops at the end of the round being played: it adds no play
past it, and every iteration reaching it is played out from there. Past the round the seats
hold new hands, different in every sampled deal, so a play there (say, "lay down the five")
would pool iterations in which it meant different things, and the tree's choices there,
made on few visits, played worse than the playouts do (docs/ai.md, "The tree stops at the
round's end")."""


TreePosition = tuple[
    tuple[int, ...],
    int,
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    int | None,
    int,
    tuple[int, ...],
    int | None,
]
"""hands, table, stock, piles, sweeps, turn, last capturer, dealer, ace sweeps, cleared."""


def tree_position(deal: State) -> TreePosition:
    """A deal's fields as the kernel's ``tree`` takes them first (hands to cleared)."""
    return (
        deal.hands,
        deal.table,
        deal.stock,
        deal.piles,
        deal.sweeps,
        deal.turn,
        deal.last_capturer,
        deal.dealer,
        deal.ace_sweeps if any(deal.ace_sweeps) else (),
        deal.last_play_cleared,
    )


class KernelTree:
    """:class:`Search` in the native kernel (``scopa.engine.native.tree.h``): one tree for
    the seat to move, every iteration a deal drawn again in C, uniformly or by what the
    others' plays reveal (``inference``'s tables, as :meth:`Inference.sample` draws), the
    tree grown no further than the round being played (:data:`ROUND_ONLY`), and finished by
    the kernel's playouts, the last ``endgame`` plays solved (:data:`ENDGAME`); the scorer's
    points table scores each finished deal (asked once per distinct key). Some twenty times
    as many iterations as :class:`Search` in the same time."""

    def __init__(
        self,
        k: Knowledge,
        settings: Settings,
        rng: random.Random,
        exploration: float = EXPLORATION,
        code: int = 0,
        inference: Inference | None = None,
        endgame: int = ENDGAME,
        round_only: bool = ROUND_ONLY,
    ) -> None:
        from scopa.engine.ai.inference import TRIES
        from scopa.engine.native import rules
        from scopa.engine.native.simulate import _scoring_ready

        _scoring_ready()
        self.kernel = rules(k.variant)
        side_of = side_of_seats(k.players, settings.partnerships)
        table = points_table(settings)
        deal = self.position(k, rng)
        self.tree = self.kernel.tree(
            *tree_position(deal),
            k.seat,
            (code,) * k.players,
            (rng.getrandbits(32),),
            side_of,
            max(side_of) + 1,
            exploration,
            REWARD_SCALE,
            lambda key: table[key].total,
            inference.rows if inference is not None else (),
            TRIES,
            shown=deal.shown,
            matta_as=k.matta_as,
            endgame=endgame,
            round_only=round_only,
        )
        self.iterations = 0

    def position(self, k: Knowledge, rng: random.Random) -> State:
        """The deal the tree grows from: one that agrees with what the seat knows (the
        cards it cannot see, neither face up nor its own, are dealt again every iteration)."""
        return sample(k, rng)

    def run(self, count: int) -> None:
        """``count`` more iterations."""
        self.iterations = self.kernel.tree_run(self.tree, count)

    def stats(self) -> dict[Action, tuple[int, float]]:
        """Each root play tried: its visits and mean margin (our side's points per deal)."""
        return {play: (visits, mean) for play, visits, mean in self.kernel.tree_stats(self.tree)}

    def size(self) -> int:
        """The plays the tree holds (its nodes but the root)."""
        return self.kernel.tree_size(self.tree)


class KernelTrees:
    """Several :class:`KernelTree` grown apart (root parallelisation): each from its own deal
    and random stream, each as many iterations; a root play's visits are added up over the
    trees and its mean margin weighed by them, so the player's choice (the play tried most)
    is the trees' vote weighed by their visits. Four trees for 200 ms grow about what one tree
    grows in 50 ms each, past which one tree gains nothing (docs/ai.md)."""

    def __init__(self, trees: Sequence[KernelTree]) -> None:
        self.trees = tuple(trees)

    @property
    def iterations(self) -> int:
        """The iterations grown in all the trees."""
        return sum(tree.iterations for tree in self.trees)

    def run(self, count: int) -> None:
        """``count`` more iterations in each tree."""
        for tree in self.trees:
            tree.run(count)

    def stats(self) -> dict[Action, tuple[int, float]]:
        """Each root play tried in any tree: its visits added up, its mean weighed by them."""
        added: dict[Action, tuple[int, float]] = {}
        for tree in self.trees:
            for play, (visits, mean) in tree.stats().items():
                before, sum_before = added.get(play, (0, 0.0))
                added[play] = (before + visits, sum_before + visits * mean)
        return {play: (visits, total / visits) for play, (visits, total) in added.items()}

    def size(self) -> int:
        """The plays the trees hold."""
        return sum(tree.size() for tree in self.trees)
