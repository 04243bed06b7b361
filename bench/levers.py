"""Benchmark: a change to the search player (a lever) against the player as it is, each
against the reference on the same duplicate deals, so that the two leads differ by the
lever alone (a paired difference, with its standard error).

Every deal is played in both seatings by the baseline against the reference and by each lever
against the reference: the same cards, the same dealer, the reference drawing from the same
random streams. Each deal gives every level its margin over the reference (its points less the
reference's, the mean of the two seatings) and each lever its difference from the baseline's
margin on that deal; the figures printed are the means over the deals with their standard
errors. A deal is counted once every level has played it, so the figures so far (``--log``,
a line a played deal) can be read before the run ends.

The issue's 200 ms study (docs/ai.md, "The 200 ms study"): levers screened at 20 ms of CPU
a move against the baseline itself (``--head-to-head``: a margin some 1.2 points a deal, where
the difference of two leads over the reference is some 1.9), then the best one at 200 ms:

    .venv/bin/python bench/levers.py --head-to-head --baseline ai:20cpu+tree+playouts \
        --levers ai:20cpu+tree+playouts+mixed --deals 300 --seed 6100 --workers 2

Thinking time is counted on each worker's CPU clock (``cpu`` levels), so a busy machine gives
the same strength, only later; a number of iterations (``ai:4000it+tree+playouts``,
``ismcts:400it``) plays the same moves on any machine.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from math import sqrt
from pathlib import Path

from scopa.engine.duplicate import player_seed
from scopa.engine.players import make_player, play_out
from scopa.engine.simulate import Scorer, Simulation, deal_seed
from scopa.engine.state import deal
from scopa.engine.variants import VARIANTS


def margin(level: str, against: str, seed: int, number: int) -> float:
    """``level``'s margin over ``against`` on deal ``number`` of the run ``seed`` (2-player
    Scopa): its points less the other's, the mean of the two seatings."""
    sim = Simulation(VARIANTS["scopa"], 2, (level, against), seed=seed)
    scorer = Scorer(sim)
    dealer = number % 2
    cards = deal_seed(seed, number)
    total = 0.0
    for seating, names in enumerate(((level, against), (against, level))):
        state = deal(sim.variant, 2, seed=cards, dealer=dealer)
        players = [
            make_player(name, random.Random(player_seed(cards, seating, seat)))
            for seat, name in enumerate(names)
        ]
        points = scorer.points(scorer.record(play_out(state, players)))
        ours = names.index(level)
        total += points[ours].total - points[1 - ours].total
    return total / 2


def mean_se(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error.

    >>> mean_se([1.0, 2.0, 3.0])
    (2.0, 0.5773502691896257)
    """
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, sqrt(variance / n)


def report(levels: list[str], against: str, rows: dict[int, dict[int, float]]) -> list[str]:
    """The lines printed: each level's lead over ``against`` and each lever's paired
    difference from the baseline (``levels[0]``), over the deals every level has played."""
    done = sorted(k for k, row in rows.items() if len(row) == len(levels))
    if not done:
        return ["no deal played by every level yet"]
    lines = []
    for i, level in enumerate(levels):
        lead, lead_se = mean_se([rows[k][i] for k in done])
        line = f"{level:>34} vs {against}: {lead:+.3f} ± {lead_se:.3f} over {len(done)} deals"
        if i:
            diff, diff_se = mean_se([rows[k][i] - rows[k][0] for k in done])
            line += f"; against the baseline {diff:+.3f} ± {diff_se:.3f}"
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="ai:20cpu+tree+playouts", help="the player as it is")
    parser.add_argument(
        "--levers",
        default="ai:20cpu+tree+playouts+mixed",
        help="the changed players, a comma apart",
    )
    parser.add_argument("--against", default="ismcts:20cpu", help="the reference at its budget")
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals")
    parser.add_argument("--seed", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=1, help="processes (one core each)")
    parser.add_argument(
        "--head-to-head",
        action="store_true",
        help="each lever plays the baseline itself instead (half the games a deal, and a "
        "margin about half as noisy as a difference of two leads)",
    )
    parser.add_argument("--log", type=Path, help="append each deal's margins here (JSON lines)")
    parser.add_argument(
        "--quick", action="store_true", help="a few seconds: two deals at 2 ms, no target judged"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.baseline, args.levers = "ai:2cpu+tree+playouts", "ai:2cpu+tree+playouts+mixed"
        args.against, args.deals = "ismcts:2cpu", 2
    levels = [args.baseline, *args.levers.split(",")]
    print(
        f"{len(levels) - 1} lever(s) against the baseline {args.baseline}, each against "
        f"{args.against}: {args.deals} duplicate deals of 2-player Scopa (seed {args.seed}), "
        f"{args.workers} workers"
    )
    rows: dict[int, dict[int, float]] = {}
    started = time.perf_counter()
    if args.head_to_head:  # each lever against the baseline: levels[0]'s margin is 0
        opponents = [args.baseline] * len(levels)
        tasks = [(i, k) for k in range(args.deals) for i in range(1, len(levels))]
        for k in range(args.deals):
            rows[k] = {0: 0.0}
    else:
        opponents = [args.against] * len(levels)
        tasks = [(i, k) for k in range(args.deals) for i in range(len(levels))]
    with ProcessPoolExecutor(max_workers=max(args.workers, 1)) as pool:
        futures = {
            pool.submit(margin, levels[i], opponents[i], args.seed, k): (i, k) for i, k in tasks
        }
        for future in as_completed(futures):
            i, k = futures[future]
            rows.setdefault(k, {})[i] = future.result()
            if args.log and len(rows[k]) == len(levels):
                with args.log.open("a") as log:
                    log.write(
                        json.dumps({"deal": k, "margins": [rows[k][j] for j in range(len(levels))]})
                        + "\n"
                    )
    for line in report(levels, args.baseline if args.head_to_head else args.against, rows):
        print(line)
    print(f"[{time.perf_counter() - started:.0f} s]")


if __name__ == "__main__":
    main()
