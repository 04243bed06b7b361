"""Benchmark: complete 2-player Scopa deals per second (random legal play, one core, scored).

Each deal is shuffled and dealt, played to the end by random players, turned into a deal
record and scored by ``scopa.scoring.score_deal``: the simulator's own path.

    .venv/bin/python bench/engine.py [DEALS]
"""

from __future__ import annotations

import sys
import time

from scopa.engine.simulate import Simulation, run_deals
from scopa.engine.variants import VARIANTS


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


if __name__ == "__main__":
    main(sys.argv[1:])
