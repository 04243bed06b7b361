"""Benchmark: how much stronger the search player (``ai``) is than the reference ISMCTS
player (``ismcts``, at the same thinking time on the CPU clock) and than the greedy player.

For each variant (2-player Scopa, Scopone with an AI partnership against the other pair,
2-player Escoba), each thinking time and each opponent, the same deals are played in both
seatings (``simulate --duplicate``) and the AI's margin in points per deal is printed with its
standard error from the paired deals. Then whole matches (to the variant's target, both
seatings on the same deals) give the AI's match win rate against greedy with its 95% (Wilson)
interval.

The issue's target: at least +0.4 points per deal over the reference at 50 ms and at 200 ms
a move, with a standard error under 0.05 (some 2,000 duplicate deals). That run takes hours of
CPU; spread it over processes (``--workers``, each one a core), on a quiet machine:

    .venv/bin/python bench/ai.py --deals 2000 --think-ms 50,200 --matches 0 --workers 8 \
        --playouts on --variants scopa,scopone

The thinking time is counted on each worker's CPU clock (``--clock cpu``, the default), so a
busy machine gives the same strength, only later; ``--clock wall`` counts what a person waits.
The time a move takes on a phone (Pyodide, offline) is measured by ``bench/play_offline.py``.

``--flags`` adds options to the AI's level (``--flags +tree``: one search tree over the
informed samples). A short look (a few minutes):

    .venv/bin/python bench/ai.py --deals 100 --think-ms 20,50 --matches 0 --workers 2

``--levels easy --against ismcts:1cpu`` measures a named level against the reference at a
budget of its own choosing (``easy`` thinks about half a millisecond a move). A level that
names its strategy (``--levels ismcts:200cpu``) plays as it is named: the reference against
itself at another budget, to say what more time is worth to it.

``--no-kernel`` plays as a phone with no signal does, where the native kernel is not built:
``normal`` and ``strong`` search sampled deals with the pure-Python alpha-beta. On the CPU
clock, the phone's two levels against each other (some 25 minutes on two cores):

    .venv/bin/python bench/ai.py --no-kernel --levels 1000cpu/20000 --against ai:200cpu/1600 \
        --deals 60 --seed 3950 --matches 0 --variants scopa --workers 2
"""

from __future__ import annotations

import argparse
import time
from math import sqrt

from scopa.engine.duplicate import simulate_duplicate
from scopa.engine.simulate import Simulation
from scopa.engine.variants import VARIANTS

TABLES = {"scopa": 2, "scopone": 4, "escoba": 2}
"""The variants measured and their number of players."""


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``wins / n``.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def opponent_of(against: str, think: str) -> str:
    """The opponent's strategy: ``greedy``, or the reference ``ismcts`` at the same thinking
    time as the AI (equal CPU time, without the AI's own flags such as ``+playouts``)."""
    if against == "ismcts":  # the budget alone (``ismcts:200cpu`` as a level names one too)
        return f"ismcts:{think.split(':')[-1].split('+')[0].split('/')[0]}"
    return against


def margin_row(
    variant: str, think: str, deals: int, workers: int, seed: int, against: str = "greedy"
) -> str:
    ai = think if ":" in think else f"ai:{think}"
    other = opponent_of(against, think)
    sim = Simulation(VARIANTS[variant], TABLES[variant], (ai, other), seed=seed)
    started = time.perf_counter()
    result = simulate_duplicate(sim, deals, workers=workers)
    elapsed = time.perf_counter() - started
    margin = result.margin()
    assert margin is not None
    by = result.to_json()["by_strategy"]
    return (
        f"{variant:8} {think:>14} vs {other:<14} margin {margin['mean']:+.3f} ± "
        f"{margin['stderr']:.3f} points/deal over {margin['deals']} deals "
        f"(ai {by[ai]['points_per_deal']:.3f}, {other} {by[other]['points_per_deal']:.3f})  "
        f"[{elapsed:.0f} s]"
    )


def match_row(variant: str, think: str, matches: int, workers: int, seed: int) -> str:
    ai = f"ai:{think}"
    sim = Simulation(VARIANTS[variant], TABLES[variant], (ai, "greedy"), seed=seed)
    started = time.perf_counter()
    result = simulate_duplicate(sim, matches, matches=True, workers=workers)
    elapsed = time.perf_counter() - started
    wins, played = result.match_wins[ai], result.side_matches[ai]
    low, high = wilson(wins, played)
    target = sim.rules.target
    return (
        f"{variant:8} {think:>14}  wins {wins}/{played} matches to {target} = {wins / played:.1%} "
        f"(95% interval {low:.1%} to {high:.1%})  [{elapsed:.0f} s]"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per row")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    parser.add_argument("--matches", type=int, default=20, help="duplicate matches (0: none)")
    parser.add_argument("--think-ms", default="20,50,200", help="thinking times per move (ms)")
    parser.add_argument(
        "--iterations", default="", help="sampled deals per move instead (e.g. 10,40)"
    )
    parser.add_argument(
        "--levels",
        default="",
        help="named levels instead (e.g. easy), each on its own clock; name the reference's "
        "budget with --against (ismcts:1cpu)",
    )
    parser.add_argument("--variants", default=",".join(TABLES), help="scopa,scopone,escoba")
    parser.add_argument("--workers", type=int, default=1, help="processes (one core each)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--against",
        default="ismcts,greedy",
        help="the opponents, each a row: ismcts (the reference, at the same thinking time) "
        "and/or greedy",
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="count the thinking time on each worker's CPU clock (the same strength on a busy "
        "machine) or on the wall clock",
    )
    parser.add_argument(
        "--playouts",
        choices=("off", "on", "both"),
        default="off",
        help="judge sampled deals by the native kernel's greedy playouts (+playouts)",
    )
    parser.add_argument(
        "--flags",
        default="",
        help="the AI level's other options, added to each level (e.g. +tree, +uniform)",
    )
    parser.add_argument(
        "--no-kernel",
        action="store_true",
        help="play without the native kernel, as the phone does (the workers are forked and "
        "inherit it)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.matches, args.think_ms, args.variants = 2, 0, "5", "scopa"
    if args.no_kernel:
        import scopa.engine.native

        scopa.engine.native.AVAILABLE = False
    if args.levels:
        levels = args.levels.split(",")
    elif args.iterations:
        levels = [f"{n}it" for n in args.iterations.split(",")]
    else:
        unit = "cpu" if args.clock == "cpu" else "ms"
        levels = [f"{ms}{unit}" for ms in args.think_ms.split(",")]
    if args.playouts == "on":
        levels = [f"{level}+playouts" for level in levels]
    elif args.playouts == "both":
        levels = [x for level in levels for x in (level, f"{level}+playouts")]
    levels = [level + args.flags for level in levels]
    variants = args.variants.split(",")
    opponents = args.against.split(",")
    print(
        f"ai against {' and '.join(opponents)}: {args.deals} duplicate deals per row, "
        f"{args.workers} workers, thinking time on the {args.clock} clock (Scopone: a pair "
        f"against a pair){', without the native kernel' if args.no_kernel else ''}"
    )
    for variant in variants if args.deals else ():
        for level in levels:
            for against in opponents:
                row = margin_row(variant, level, args.deals, args.workers, args.seed, against)
                print(row, flush=True)
    if args.matches:
        for variant in variants:
            print(match_row(variant, levels[-1], args.matches, args.workers, args.seed), flush=True)


if __name__ == "__main__":
    main()
