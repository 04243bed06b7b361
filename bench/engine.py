"""Benchmark: complete 2-player Scopa deals per second, native kernel and pure Python side by side.

Each deal is shuffled and dealt, played to the end by random players and scored through
``scopa.scoring``: what ``scopa simulate --deals N`` waits for (``simulate()``: the batches,
the scoring, the merged statistics; not the interpreter's start or the printing), on one core,
for both engines in the same run, so the ratio holds whatever the machine. Each figure is the
best of repeated runs (the machine may be shared). Two more figures: the same deals
through the general ``legal_plays``/``apply`` path (what a search player walks, one new state
per play), and 2-player Cirulla on the simulator's path. ``--workers 2`` also times the
native run over two processes; ``--env`` adds the research environments' steps per second.

    .venv/bin/python bench/engine.py [--deals N] [--seconds S] [--workers 2] [--env] [--cpu]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Callable

from scopa.engine import native
from scopa.engine.players import RandomPlayer, play_out
from scopa.engine.simulate import Simulation, deal_seed, simulate
from scopa.engine.state import deal
from scopa.engine.variants import VARIANTS

CLOCK = time.perf_counter
"""What a run is timed with: the wall clock, or this process's CPU time (``--cpu``)."""


def rate(run: Callable[[int], object], count: int, seconds: float) -> float:
    """Best deals per second of a few runs of ``count`` deals within about ``seconds``."""
    best = 0.0
    stop = time.perf_counter() + seconds
    while True:
        start = CLOCK()
        run(count)
        elapsed = CLOCK() - start
        best = max(best, count / elapsed)
        if time.perf_counter() > stop:
            return best


def general_path(deals: int) -> None:
    """Deals through ``legal_plays``/``apply`` (a new state per play), unscored."""
    variant = VARIANTS["scopa"]
    for k in range(deals):
        rng = random.Random(deal_seed(2024, k))
        state = deal(variant, 2, rng=rng)
        play_out(state, [RandomPlayer(rng), RandomPlayer(rng)])


def env_steps(seconds: float) -> tuple[float, float]:
    """Steps per second of the PettingZoo and Gymnasium environments (masked random moves)."""
    from scopa.envs import gymnasium_env, pettingzoo_env

    rng = random.Random(0)
    aec = pettingzoo_env()
    aec.reset(seed=1)
    steps = 0
    start, stop = CLOCK(), time.perf_counter() + seconds
    while time.perf_counter() < stop:
        for _agent in aec.agent_iter():
            observation, _, done, _, _ = aec.last()
            if done:
                aec.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            aec.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        aec.reset()
    aec_rate = steps / (CLOCK() - start)
    gym = gymnasium_env(opponents="random")
    observation, _ = gym.reset(seed=1)
    steps = 0
    start, stop = CLOCK(), time.perf_counter() + seconds
    while time.perf_counter() < stop:
        legal = observation["action_mask"].nonzero()[0]
        observation, _, done, _, _ = gym.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if done:
            observation, _ = gym.reset()
    return aec_rate, steps / (CLOCK() - start)


def main() -> None:
    global CLOCK
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000, help="deals per native run")
    parser.add_argument("--seconds", type=float, default=4.0, help="time per measurement")
    parser.add_argument("--workers", type=int, default=1, help="also time N processes")
    parser.add_argument("--env", action="store_true", help="also time the environments")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time with this process's CPU time, not the wall clock (a shared machine; "
        "--workers is still timed on the wall clock)",
    )
    args = parser.parse_args()
    if args.quick:
        args.deals, args.seconds = 2000, 0.1
    if args.cpu:
        CLOCK = time.process_time

    sim = Simulation(VARIANTS["scopa"], players=2, strategies=("random",), seed=2024)
    python = dataclasses.replace(sim, engine="python")
    kernel = dataclasses.replace(sim, engine="native")
    simulate(python, 200)  # warm the caches of sum patterns and points
    py_rate = rate(lambda n: simulate(python, n), max(args.deals // 40, 500), args.seconds)
    print(f"pure Python     {py_rate:>11,.0f} deals/s (2-player Scopa, random play, scored)")
    general = rate(general_path, max(args.deals // 160, 200), args.seconds / 2)
    print(f"legal_plays/apply {general:>9,.0f} deals/s (the same, one state per play, unscored)")
    cirulla = Simulation(VARIANTS["cirulla"], players=2, strategies=("random",), seed=2024)
    simulate(cirulla, 200)
    cirulla_rate = rate(lambda n: simulate(cirulla, n), max(args.deals // 40, 500), 1.0)
    engine = "native" if cirulla.native else "pure Python"
    print(f"Cirulla         {cirulla_rate:>11,.0f} deals/s (2 players, scored, {engine})")
    if not kernel.native:
        print(f"native          not available: {native.REASON}")
        return
    simulate(kernel, 2000)
    c_rate = rate(lambda n: simulate(kernel, n), args.deals, args.seconds)
    print(f"native kernel   {c_rate:>11,.0f} deals/s   {c_rate / py_rate:,.1f}x pure Python")
    if args.workers > 1:
        count = args.deals * args.workers * 2
        CLOCK = time.perf_counter  # the workers' time is not this process's
        one = rate(lambda n: simulate(kernel, n, workers=1), count, args.seconds)
        many = rate(lambda n: simulate(kernel, n, workers=args.workers), count, args.seconds)
        print(
            f"simulate        {one:>11,.0f} deals/s on 1 worker, {many:,.0f} on {args.workers}"
            f" ({many / one:.2f}x)"
        )
    if args.env:
        aec, gym = env_steps(args.seconds)
        print(f"PettingZoo AEC  {aec:>11,.0f} steps/s (2 seats, masked random actions)")
        print(f"Gymnasium       {gym:>11,.0f} steps/s (1 seat; a random opponent plays between)")


if __name__ == "__main__":
    main()
