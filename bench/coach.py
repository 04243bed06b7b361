"""Benchmark: how near the coach's hint is to a long search of the same method.

The coach (:func:`scopa.engine.ai.coach.advise`) grows the player's tree (``normal`` and
``strong``'s method: the kernel's tree with greedy playouts) for a fixed number of iterations
(:data:`~scopa.engine.ai.coach.COACH_LEVEL`). For each position the same tree is grown again
for 2 s of CPU (another seed), and the coach's figure for its best play is compared with that
search's figure for the same play: the issue's target is within 0.25 points in at least 80% of
positions, with each hint under a second.

The positions come from real games of the project's players: the search player (the tree,
2,000 iterations a move) against the reference (``ismcts``, 300 iterations a move), both
seatings, dealt from ``--seed``; every position where the seat to move has a choice and the
hidden cards are sampled (not few enough to search every hidden deal to the end, which is
exact) is a candidate, and ``--positions`` of them are drawn per variant. Per variant it prints the
positions, how often the hint's best play is the long search's, how often its figure is
within 0.25 points, the mean gap, how often the two figures fall on different sides of zero,
and the hint's CPU and wall time (median and largest). ``--light`` adds the phone's lighter
search (no kernel: :data:`~scopa.engine.ai.coach.LIGHT_LEVEL`) against the same 2 s tree.

    .venv/bin/python bench/coach.py                 # 20 positions a variant, some 4 CPU-minutes
    .venv/bin/python bench/coach.py --quick         # a few seconds: 2 positions, a 0.2 s search
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections.abc import Iterator
from unittest import mock

import scopa.engine.ai.player as search_player
from scopa.engine import VARIANTS, deal
from scopa.engine.ai.coach import COACH_LEVEL, LIGHT_LEVEL, Advice, advise
from scopa.engine.ai.ismcts import ISMCTSPlayer
from scopa.engine.ai.knowledge import observe
from scopa.engine.ai.levels import Level
from scopa.engine.ai.player import (
    EXACT_DEALS,
    EXACT_LEAVES,
    SearchPlayer,
    leaves_within,
    total_plies,
)
from scopa.engine.state import State, apply, legal_plays

TABLES = {"scopa": 2, "scopone": 4, "escoba": 2}
NEAR = 0.25
"""The issue's margin: the hint's figure within this many points of the long search's."""


def positions(variant: str, count: int, seed: int) -> list[State]:
    """``count`` positions drawn from games of the search player against the reference."""
    players = TABLES[variant]
    found: list[State] = []
    game = 0
    while len(found) < count * 6 and game < 200:
        state = deal(VARIANTS[variant], players, seed=seed + game)
        rng = random.Random(seed + game)
        tree = SearchPlayer(rng, Level(think_ms=None, iterations=2000, playouts=True, tree=True))
        reference = ISMCTSPlayer(rng, Level(think_ms=None, iterations=300))
        seats = [tree if (seat + game) % 2 == 0 else reference for seat in range(players)]
        while not state.finished:
            plays = legal_plays(state)
            if len(plays) > 1 and sampled(state):
                found.append(state)
            state = apply(state, seats[state.turn].choose(state, plays))
        game += 1
    return random.Random(seed).sample(found, min(count, len(found)))


def sampled(state: State) -> bool:
    """Whether the search samples the hidden cards here (the tree), not every hidden deal
    to the end (the exact endgame, the same answer however long it searches)."""
    k = observe(state, state.turn)
    if k.stock_size:
        return True
    deals = k.deals()
    exact = deals <= EXACT_DEALS and leaves_within(k, total_plies(k)) * deals <= EXACT_LEAVES
    return not exact


def long_values(state: State, seconds: float, seed: int) -> dict[tuple[int, int], float]:
    """Each legal play's figure after a tree of ``seconds`` of CPU (the coach's method)."""
    level = Level(
        think_ms=seconds * 1000, cpu=True, playouts=True, tree=True, tree_ms=seconds * 1000
    )
    return dict(SearchPlayer(random.Random(seed), level).values(observe(state, state.turn)))


@contextlib.contextmanager
def no_kernel() -> Iterator[None]:
    """The search player as the phone runs it: no native kernel."""
    with mock.patch.object(search_player, "native_ready", return_value=False):
        yield


def timed(state: State, seed: int, level: Level) -> tuple[list[Advice], float, float]:
    cpu, wall = time.thread_time(), time.perf_counter()
    advice = advise(state, seed, level)
    return advice, time.thread_time() - cpu, time.perf_counter() - wall


def row(
    name: str,
    pairs: list[tuple[Advice, dict[tuple[int, int], float]]],
    cpu: list[float],
    wall: list[float],
) -> str:
    n = len(pairs)
    same = sum(a.play.pair == max(v, key=lambda p: v[p]) for a, v in pairs)
    gaps = [abs(a.expected - v[a.play.pair]) for a, v in pairs]
    near = sum(g <= NEAR for g in gaps)
    sides = sum((a.expected >= 0) != (v[a.play.pair] >= 0) for a, v in pairs)
    return (
        f"{name:<18} {n:>4} {same / n:>7.0%} {near / n:>9.0%} {statistics.mean(gaps):>8.3f}"
        f" {sides:>6} {statistics.median(cpu):>8.3f} {max(cpu):>7.3f} {max(wall):>8.3f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20, help="positions per variant")
    parser.add_argument("--seconds", type=float, default=2.0, help="the long search's CPU time")
    parser.add_argument("--seed", type=int, default=4700)
    parser.add_argument("--variants", default="scopa,scopone,escoba")
    parser.add_argument("--light", action="store_true", help="the phone's search as well")
    parser.add_argument(
        "--quick", action="store_true", help="2 positions of Scopa, a 0.2 s search (seconds)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.positions, args.seconds, args.variants = 2, 0.2, "scopa"
    print(
        f"coach: {COACH_LEVEL.iterations} iterations of the player's tree; the long search: "
        f"{args.seconds:g} s of CPU of the same tree; seed {args.seed}"
    )
    print(
        f"{'variant':<18} {'pos':>4} {'same':>7} {'within':>9} {'mean gap':>8} {'sides':>6}"
        f" {'cpu med':>8} {'cpu max':>7} {'wall max':>8}"
    )
    everything: list[tuple[Advice, dict[tuple[int, int], float]]] = []
    for variant in args.variants.split(","):
        found = positions(variant, args.positions, args.seed)
        pairs, light, cpu, wall, light_cpu, light_wall = [], [], [], [], [], []
        for k, state in enumerate(found):
            advice, c, w = timed(state, k, COACH_LEVEL)
            values = long_values(state, args.seconds, 10_000 + k)
            pairs.append((advice[0], values))
            cpu.append(c)
            wall.append(w)
            if args.light:
                with no_kernel():
                    advice, c, w = timed(state, k, LIGHT_LEVEL)
                light.append((advice[0], values))
                light_cpu.append(c)
                light_wall.append(w)
        if not pairs:
            print(f"{variant:<18} {0:>4}  (no position found)")
            continue
        everything += pairs
        print(row(variant, pairs, cpu, wall))
        if light:
            print(row(variant + " (light)", light, light_cpu, light_wall))
    near = sum(abs(a.expected - v[a.play.pair]) <= NEAR for a, v in everything)
    if not everything:
        raise SystemExit("no position to measure")
    print(
        f"all: {near}/{len(everything)} within {NEAR} points ({near / len(everything):.0%}; "
        f"target 80%)"
    )


if __name__ == "__main__":
    main()
