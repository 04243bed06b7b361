"""Benchmark: re-score a 1,000-deal match of full piles after a settings change.

Builds the match once from seeded random full deals (4 players by default, per-player piles), then
times ``score_match(match.with_settings(new))`` on one core and prints the best and median of
several runs. Target (issue 2): at most 2 ms.

Run: ``.venv/bin/python bench/scoring.py [--deals N] [--runs N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scopa.cards import CardSet
from scopa.deal import Deal, Pile
from scopa.match import Match, score_match
from scopa.rules import Settings
from scopa.scoring import clear_points_tables

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
TARGET_MS = 2.0


def random_deal(rng: random.Random, owners: tuple[str, ...]) -> Deal:
    """A valid deal: the 40 cards shared out at random, sweeps and a last capture."""
    cards = list(range(40))
    rng.shuffle(cards)
    cuts = sorted(rng.sample(range(1, 40), len(owners) - 1))
    masks = []
    for start, end in zip([0, *cuts], [*cuts, 40], strict=True):
        mask = 0
        for index in cards[start:end]:
            mask |= 1 << index
        masks.append(mask)
    piles = tuple(Pile.of_cards(CardSet(m)) for m in masks)
    sweeps = tuple(rng.randint(0, min(3, p.count // 2)) for p in piles)
    last = rng.choice([None, *(o for o, p in zip(owners, piles, strict=True) if p.count)])
    deal = Deal(owners, piles, sweeps, last)
    deal.check()
    return deal


def build_match(deals: int, players: int = 4, seed: int = 2) -> Match:
    """A match of ``deals`` seeded random full deals (target 61, so it runs long)."""
    rng = random.Random(seed)
    names = NAMES[:players]
    return Match(names, Settings(target=61), tuple(random_deal(rng, names) for _ in range(deals)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    match = build_match(args.deals, args.players)
    changes = [
        Settings(target=61, primiera=False),
        Settings(target=61, napola="run", ties="share"),
        Settings(target=61, last_capture_sweep=True),
        Settings(target=21),
    ]
    score_match(match)  # warm up
    for cold in (False, True):
        times = []
        for run in range(args.runs):
            new = changes[run % len(changes)]
            if cold:  # nothing left from earlier runs: the points tables start empty
                clear_points_tables()
            start = time.perf_counter()
            score_match(match.with_settings(new))
            times.append(time.perf_counter() - start)
        best, median = min(times) * 1000, statistics.median(times) * 1000
        verdict = "within" if median <= TARGET_MS else "over"
        print(
            f"re-score {args.deals} deals of full piles ({args.players} players) after a settings "
            f"change{' (cold tables)' if cold else ''}: best {best:.2f} ms, median {median:.2f} ms "
            f"over {args.runs} runs ({verdict} the {TARGET_MS:.0f} ms target)"
        )


if __name__ == "__main__":
    main()
