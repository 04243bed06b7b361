"""Benchmark: what a user waits for when a house rule changes on a long match.

A 500-deal match (the app's limit) of seeded random full deals is written to its stored JSON
form once. Each run reads it back (``parse_match``, timed apart: that is the store's load) and
then times ``rescore(match, change)``: the sheet before and after and what changed. Three
cases: the match just read (its deals' packed facts are worked out inside the timer, the points
tables are empty); a match read and scored once, as the store does when it loads one (facts
packed, tables empty); and the same again with the tables filled (the server holding the match).
Target (issue 8): at most 1 ms for 500 deals. A sheet makes its rows (itemised points per
deal) when they are first read, so a last line times the re-score with every row read, as the
sheet page and the API's JSON do.

Run: ``PYTHONPATH=src .venv/bin/python bench/scoring.py [--deals N] [--runs N] [--variant V]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from scopa.cards import CardSet
from scopa.deal import Deal, Pile
from scopa.formats import match_to_json, parse_match
from scopa.match import Match, rescore, score_match
from scopa.rules import Settings
from scopa.scoring import clear_points_tables

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
TARGET_MS = 1.0


def random_deal(rng: random.Random, owners: tuple[str, ...], variant: str) -> Deal:
    """A valid deal: the 40 cards shared out at random, sweeps, a last capture, and the
    variant's facts (a few declarations, ace take-alls)."""
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
    facts: dict[str, Any] = {}
    if variant == "cirulla":
        kinds = ("cirulla", "decino")
        facts["declarations"] = tuple(
            tuple(rng.choice(kinds) for _ in range(rng.randint(0, 1))) for _ in owners
        )
    if variant == "assi":
        facts["ace_sweeps"] = tuple(
            rng.randint(0, min(1, p.count // 2 - s)) for p, s in zip(piles, sweeps, strict=True)
        )
    deal = Deal(owners, piles, sweeps, last, **facts)
    deal.check()
    return deal


def build_match(deals: int, players: int = 4, variant: str = "scopa", seed: int = 2) -> Match:
    """A match of ``deals`` seeded random full deals (a high target, so it runs long)."""
    rng = random.Random(seed)
    names = NAMES[:players]
    settings = Settings.of(variant, target=61, partnerships=variant == "scopone")
    recorded = tuple(random_deal(rng, names, variant) for _ in range(deals))
    return Match(names, settings, recorded)


def changes_for(variant: str) -> list[dict[str, Any]]:
    """Rule changes a user makes, as the API's ``PATCH .../rules`` bodies."""
    changes: list[dict[str, Any]] = [
        {"primiera": False},
        {"ties": "share", "target": 31},
        {"last_capture_sweep": True},
        {"target": 21},
    ]
    if variant in ("scopa", "scopone", "assi"):
        changes[1]["napola"] = "run"
    if variant == "cirulla":
        changes.append({"piccola_cap": 10, "decino_points": 2})
    return changes


def timed(action: Callable[[], object]) -> float:
    """Milliseconds for one call, the garbage collector quiet (as ``serve`` freezes it)."""
    gc.collect()
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def report(label: str, times: list[float], target: float | None = None) -> None:
    best, median = min(times), statistics.median(times)
    verdict = ""
    if target is not None:
        verdict = f" ({'within' if median <= target else 'over'} the {target:g} ms target)"
    print(f"{label}: best {best:.2f} ms, median {median:.2f} ms over {len(times)} runs{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--variant", default="scopa")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.deals, args.runs = 20, 2
    stored = json.dumps(match_to_json(build_match(args.deals, args.players, args.variant)))
    changes = changes_for(args.variant)
    what = f"{args.deals} deals of full piles, {args.players} players, {args.variant}"
    loads: list[float] = []
    firsts: list[float] = []
    cold: list[float] = []
    cold_tables: list[float] = []
    warm: list[float] = []
    with_rows: list[float] = []
    for run in range(args.runs):
        change = changes[run % len(changes)]
        holder: list[Match] = []
        loads.append(timed(lambda: holder.append(parse_match(json.loads(stored)))))  # noqa: B023
        fresh = holder[0]
        clear_points_tables()
        cold.append(timed(lambda: rescore(fresh, change)))  # noqa: B023
        loaded = parse_match(json.loads(stored))
        clear_points_tables()
        firsts.append(timed(lambda: score_match(loaded)))  # noqa: B023
        clear_points_tables()
        cold_tables.append(timed(lambda: rescore(loaded, change)))  # noqa: B023
        warm.append(timed(lambda: rescore(loaded, change)))  # noqa: B023
        clear_points_tables()
        with_rows.append(timed(lambda: rescore(loaded, change)[1].deals))  # noqa: B023
    report(f"read the stored JSON ({what})", loads)
    report("first sheet after reading (packs the facts, cold tables)", firsts)
    report("rescore of a match just read: facts packed in the timer, cold tables", cold, TARGET_MS)
    report("rescore of a match read and scored: cold tables", cold_tables, TARGET_MS)
    report("rescore of a match read and scored: warm tables", warm, TARGET_MS)
    report(
        "the same, cold tables, and every row of the new sheet read (as a page does)",
        with_rows,
    )


if __name__ == "__main__":
    main()
