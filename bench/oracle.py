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
import random
import time
from collections.abc import Sequence
from typing import Any

import scopa.engine.ai.player as search
import scopa.engine.players as players
from scopa.engine.ai.inference import TEMPERATURE, TRIES
from scopa.engine.ai.ismcts import (
    EXPLORATION,
    REWARD_SCALE,
    KernelTree,
    side_of_seats,
    tree_position,
)
from scopa.engine.ai.levels import parse_level
from scopa.engine.duplicate import simulate_duplicate
from scopa.engine.native import rules
from scopa.engine.native.simulate import _scoring_ready
from scopa.engine.records import State
from scopa.engine.simulate import Simulation
from scopa.engine.state import Play
from scopa.engine.variants import VARIANTS
from scopa.scoring import points_table

SEEN: list[State] = []
"""The deal as it is, for the oracle's tree (set at each of its moves)."""


class SeeingTree(KernelTree):
    """The kernel's tree grown on the true deal with the others' hands face up: each
    iteration deals only the stock again."""

    def __init__(
        self,
        k: Any,
        settings: Any,
        rng: random.Random,
        exploration: float = EXPLORATION,
        code: int = 0,
        inference: Any = None,
    ) -> None:
        _scoring_ready()
        deal = SEEN[-1]
        self.kernel = rules(k.variant)
        side_of = side_of_seats(k.players, settings.partnerships)
        table = points_table(settings)
        others = 0
        for seat, hand in enumerate(deal.hands):
            if seat != k.seat:
                others |= hand
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
            (),
            TEMPERATURE,
            TRIES,
            shown=others | deal.shown,
            matta_as=k.matta_as,
        )
        self.iterations = 0


class Oracle(search.SearchPlayer):
    """The search player, its tree grown on the deal as it is."""

    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        SEEN[:] = [state]
        search.KernelTree = SeeingTree  # type: ignore[misc]
        try:
            return super().choose(state, plays)
        finally:
            search.KernelTree = KernelTree  # type: ignore[misc]


players.LEVELLED["oracle"] = lambda rng, level: Oracle(rng, parse_level(level))
players.STRATEGIES["oracle"] = lambda rng: Oracle(rng, parse_level("50cpu+tree+playouts"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals")
    parser.add_argument("--think-ms", type=int, default=50, help="CPU time per move, both sides")
    parser.add_argument("--workers", type=int, default=1, help="processes (one core each)")
    parser.add_argument("--seed", type=int, default=3100)
    args = parser.parse_args(argv)
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
