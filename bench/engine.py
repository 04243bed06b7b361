"""Benchmark: complete 2-player Scopa deals per second (random legal play, one core, scored).

Each deal is shuffled and dealt, played to the end by random players, turned into a deal
record and scored by the one scorer: the simulator's own path. A second figure plays the same
deals through the general ``legal_plays``/``apply`` path (what a search player walks), and a
third the simulator's path for Cirulla.

    .venv/bin/python bench/engine.py [DEALS]
"""

from __future__ import annotations

import random
import sys
import time

from scopa.engine.players import RandomPlayer, play_out
from scopa.engine.simulate import Simulation, deal_seed, run_deals
from scopa.engine.state import deal
from scopa.engine.variants import VARIANTS


def general_path(deals: int) -> float:
    """Deals per second through ``legal_plays``/``apply`` (a new state per play), unscored."""
    variant = VARIANTS["scopa"]
    start = time.perf_counter()
    for k in range(deals):
        rng = random.Random(deal_seed(2024, k))
        state = deal(variant, 2, rng=rng)
        play_out(state, [RandomPlayer(rng), RandomPlayer(rng)])
    return deals / (time.perf_counter() - start)


def main(argv: list[str]) -> None:
    deals = int(argv[0]) if argv else 20_000
    sim = Simulation(VARIANTS["scopa"], players=2, strategies=("random",), seed=2024)
    run_deals(sim, 0, 500)  # warm the caches of sum patterns
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        stats = run_deals(sim, 0, deals)
        elapsed = time.perf_counter() - start
        assert stats.deals == deals
        best = max(best, deals / elapsed)
    print(f"{best:,.0f} deals/s (2-player Scopa, random play, scored; best of 3 x {deals})")
    general = max(general_path(deals // 4) for _ in range(3))
    print(f"{general:,.0f} deals/s (the same through legal_plays/apply, unscored; x {deals // 4})")
    cirulla = Simulation(VARIANTS["cirulla"], players=2, strategies=("random",), seed=2024)
    run_deals(cirulla, 0, 500)
    start = time.perf_counter()
    run_deals(cirulla, 0, deals // 4)
    rate = deals // 4 / (time.perf_counter() - start)
    print(f"{rate:,.0f} deals/s (2-player Cirulla, random play, scored; x {deals // 4})")


if __name__ == "__main__":
    main(sys.argv[1:])
