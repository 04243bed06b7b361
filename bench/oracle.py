"""Benchmark: how far ahead of the reference (``ismcts``) a player could be at all.

The oracle is the search player (its kernel tree with greedy playouts, ``normal``'s method)
that sees the others' hands: only the stock's order is hidden from it. It is not a strategy
of the project (it peeks; every real player is held never to), only a measure: the gap
between it and the real player is what better reasoning about the hidden hands could still
win. The same duplicate deals as ``bench/ai.py``, both seatings, on the CPU clock:

    .venv/bin/python bench/oracle.py --deals 300 --seed 3100 --workers 2
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Sequence

import scopa.engine.ai.player as search
import scopa.engine.players as players
from scopa.engine.ai.ismcts import KernelTree
from scopa.engine.ai.knowledge import Knowledge
from scopa.engine.ai.levels import parse_level
from scopa.engine.duplicate import simulate_duplicate
from scopa.engine.records import State
from scopa.engine.simulate import Simulation
from scopa.engine.state import Play
from scopa.engine.variants import VARIANTS

SEEN: list[State] = []
"""The deal as it is, for the oracle's tree (set at each of its moves)."""


class SeeingTree(KernelTree):
    """The kernel's tree grown on the true deal with the others' hands face up: each
    iteration deals only the stock again."""

    def position(self, k: Knowledge, rng: random.Random) -> State:
        deal = SEEN[-1]
        others = 0
        for seat, hand in enumerate(deal.hands):
            if seat != k.seat:
                others |= hand
        return dataclasses.replace(deal, shown=deal.shown | others)


class Oracle(search.SearchPlayer):
    """The search player, its tree grown on the deal as it is."""

    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        SEEN[:] = [state]
        vars(search)["KernelTree"] = SeeingTree  # the name the search player grows its tree by
        try:
            return super().choose(state, plays)
        finally:
            vars(search)["KernelTree"] = KernelTree


players.LEVELLED["oracle"] = lambda rng, level: Oracle(rng, parse_level(level))
players.STRATEGIES["oracle"] = lambda rng: Oracle(rng, parse_level("50cpu+tree+playouts"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals")
    parser.add_argument("--think-ms", type=int, default=50, help="CPU time per move, both sides")
    parser.add_argument("--workers", type=int, default=1, help="processes (one core each)")
    parser.add_argument("--seed", type=int, default=3100)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.think_ms = 2, 5
    oracle, reference = f"oracle:{args.think_ms}cpu+tree+playouts", f"ismcts:{args.think_ms}cpu"
    sim = Simulation(VARIANTS["scopa"], 2, (oracle, reference), seed=args.seed)
    started = time.perf_counter()
    margin = simulate_duplicate(sim, args.deals, workers=args.workers).margin()
    assert margin is not None
    print(
        f"scopa {oracle} (sees the others' hands) vs {reference}: margin "
        f"{margin['mean']:+.3f} ± {margin['stderr']:.3f} points/deal over {margin['deals']} "
        f"deals  [{time.perf_counter() - started:.0f} s]"
    )


if __name__ == "__main__":
    main()
