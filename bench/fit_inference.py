"""Fit the inference's model of how a player chooses (``scopa.engine.ai.inference.WEIGHTS``).

The inference weighs a sampled deal by how likely the others' plays were from its hands: a
softmax over each hand's plays, a play's score a weighed sum of its features
(``inference.FEATURES``). This records every choice of the reference (``ismcts``) and of the
search player (``normal``'s method) playing each other at the same thinking time, with the
hand it was made from, and fits the weights by maximum likelihood (Newton's method, a small
L2 penalty), each play's hand and table as it was. It prints, on the last quarter of the
plays held out, the mean log-likelihood of a play under uniform choice, under the greedy
measure of the inference before 2026-12-03 (at its best temperature), under the weights in
the code and under the new fit; then the fit on every play, as ``WEIGHTS``:

    .venv/bin/python bench/fit_inference.py --deals 300 --workers 2

Some 10 minutes on two cores at 50 ms a move (300 deals give some 14,500 choices of two or
more plays).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
from collections.abc import Sequence

import numpy as np

import scopa.engine.players as players
from scopa.cards import COINS_MASK, RANK_MASKS, SETTEBELLO
from scopa.engine.ai.inference import FEATURES, WEIGHTS, features
from scopa.engine.ai.ismcts import ISMCTSPlayer
from scopa.engine.ai.levels import parse_level
from scopa.engine.ai.player import SearchPlayer
from scopa.engine.captures import RANK_OF, Rules, rules_for
from scopa.engine.duplicate import simulate_duplicate
from scopa.engine.simulate import Simulation
from scopa.engine.state import Play, State
from scopa.engine.variants import VARIANTS

Choice = tuple[str, int, tuple[tuple[int, int], ...], int]
"""Who chose, the table, the plays its hand allowed, the index of the one it made."""
CHOICES: list[Choice] = []


class RecordingReference(ISMCTSPlayer):
    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        play = super().choose(state, plays)
        CHOICES.append(("ismcts", state.table, tuple(p.pair for p in plays), plays.index(play)))
        return play


class RecordingSearch(SearchPlayer):
    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        play = super().choose(state, plays)
        CHOICES.append(("ai", state.table, tuple(p.pair for p in plays), plays.index(play)))
        return play


players.LEVELLED["fitref"] = lambda rng, level: RecordingReference(rng, parse_level(level))
players.LEVELLED["fitai"] = lambda rng, level: RecordingSearch(rng, parse_level(level))
players.STRATEGIES.setdefault("fitref", lambda rng: RecordingReference(rng, parse_level("50cpu")))
players.STRATEGIES.setdefault("fitai", lambda rng: RecordingSearch(rng, parse_level("50cpu")))


def collect(job: tuple[int, int, int]) -> list[Choice]:
    """The choices of ``deals`` duplicate deals from ``seed`` (one process)."""
    seed, deals, think = job
    CHOICES.clear()
    sim = Simulation(
        VARIANTS["scopa"],
        2,
        (f"fitai:{think}cpu+tree+playouts", f"fitref:{think}cpu"),
        seed=seed,
    )
    simulate_duplicate(sim, deals, workers=1)
    return list(CHOICES)


def design(choices: list[Choice], rules: Rules) -> list[tuple[np.ndarray, int]]:
    """Each choice of two plays or more: its plays' features, the index of the one made."""
    return [
        (np.array([features(c, x, table, rules) for c, x in plays]), made)
        for _, table, plays, made in choices
        if len(plays) > 1
    ]


def log_likelihood(rows: list[tuple[np.ndarray, int]], w: np.ndarray) -> float:
    total = 0.0
    for x, made in rows:
        s = x @ w
        s -= s.max()
        total += s[made] - math.log(np.exp(s).sum())
    return total / len(rows)


def fit(rows: list[tuple[np.ndarray, int]], l2: float = 0.01, steps: int = 25) -> np.ndarray:
    """The weights of most likelihood (Newton's method; the penalty keeps it defined where
    features move together)."""
    d = rows[0][0].shape[1]
    w = np.zeros(d)
    for _ in range(steps):
        gradient = -l2 * w
        hessian = -l2 * np.eye(d)
        for x, made in rows:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            mean = p @ x
            gradient += x[made] - mean
            hessian -= (x.T * p) @ x - np.outer(mean, mean)
        w = w - np.linalg.solve(hessian, gradient)
    return w


def greedy_measure(card: int, capture: int, table: int) -> float:
    """The inference's measure of a play before 2026-12-03 (the greedy player's, without its
    look at the reply), for the comparison."""
    bit = 1 << card
    if capture:
        taken = capture | bit
        value = 1.0 + 0.25 * taken.bit_count() + 0.8 * (taken & COINS_MASK).bit_count()
        value += 1.2 * (taken & RANK_MASKS[6]).bit_count()
        value += 3.0 if taken & SETTEBELLO.bit else 0.0
        return value + (10.0 if capture == table else 0.0)
    value = -0.3 * (RANK_OF[card] + 1) / 10 - (1.0 if bit & RANK_MASKS[6] else 0.0)
    value -= 2.5 if bit & SETTEBELLO.bit else 0.0
    return value - (0.4 if bit & COINS_MASK else 0.0)


def greedy_log_likelihood(choices: list[Choice], temperature: float) -> float:
    total = 0.0
    count = 0
    for _, table, plays, made in choices:
        if len(plays) < 2:
            continue
        s = np.array([greedy_measure(c, x, table) for c, x in plays]) / temperature
        s -= s.max()
        total += s[made] - math.log(np.exp(s).sum())
        count += 1
    return total / count


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300, help="duplicate deals in all")
    parser.add_argument("--think-ms", type=int, default=50, help="CPU time per move, both")
    parser.add_argument("--workers", type=int, default=1, help="processes (one core each)")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.think_ms = 8, 5
    share = -(-args.deals // args.workers)
    jobs = [(args.seed + k, share, args.think_ms) for k in range(args.workers)]
    with multiprocessing.Pool(args.workers) as pool:
        choices = [c for part in pool.map(collect, jobs) for c in part]
    random.Random(args.seed).shuffle(choices)
    rules = rules_for(VARIANTS["scopa"])
    rows = design(choices, rules)
    cut = len(rows) * 3 // 4
    held = rows[cut:]
    print(f"{len(rows)} choices of two plays or more; the last {len(held)} held out")
    uniform = sum(-math.log(len(x)) for x, _ in held) / len(held)
    print(f"  uniform choice               {uniform:+.4f} a play")
    kept = [c for c in choices if len(c[2]) > 1][cut:]
    best = max((greedy_log_likelihood(kept, t), t) for t in (0.75, 1.0, 1.5, 2.0, 3.0))
    label = f"  the greedy measure, at T={best[1]}"
    print(f"{label:31}{best[0]:+.4f} a play")
    print(f"  the weights in the code      {log_likelihood(held, np.array(WEIGHTS)):+.4f} a play")
    fitted = fit(rows[:cut])
    print(f"  fitted on the rest           {log_likelihood(held, fitted):+.4f} a play")
    kinds = [c[0] for c in choices if len(c[2]) > 1][cut:]
    for who in ("ismcts", "ai"):
        mine = [row for row, kind in zip(held, kinds, strict=True) if kind == who]
        label = f"  {who}'s plays alone"
        print(f"{label:31}{log_likelihood(mine, fitted):+.4f} a play")
    weights = fit(rows)
    print("WEIGHTS = (  # " + ", ".join(FEATURES) + ")")
    print("".join(f"    {w:.3f},\n" for w in weights) + ")")


if __name__ == "__main__":
    main()
