"""Every variant's legal plays of a whole hand against a plain subset enumeration.

The oracle shares no code with :mod:`scopa.engine.captures`: it lists every subset of the table
and keeps what the rulebook allows (docs/rules.md 3, 8, 9.5). Whole hands matter: a capture forced
on one card must not drop the plays of the cards after it (Escoba's ``continue`` vs ``break``),
and an optional capture adds exactly one trail per capturing card.
"""

from __future__ import annotations

import random
from itertools import groupby

import pytest

from scopa.engine.captures import Rules, rules_for
from scopa.engine.variants import get_variant


def value(card: int) -> int:
    return card % 10 + 1


def oracle_captures(capture: str, ace_takes_all: bool, card: int, table: list[int]) -> set[int]:
    subsets = []
    for pick in range(1, 1 << len(table)):
        chosen = [c for k, c in enumerate(table) if pick >> k & 1]
        subsets.append((sum(value(c) for c in chosen), len(chosen), sum(1 << c for c in chosen)))
    v = value(card)
    aces = [c for c in table if value(c) == 1]
    everything = sum(1 << c for c in table)
    if capture == "fifteen":
        return {m for total, _, m in subsets if total + v == 15}
    if v == 1 and (ace_takes_all or capture == "cirulla"):
        if not aces:
            return {everything} if table else set()
        if capture != "cirulla":
            return {1 << c for c in aces}
    same = {1 << c for c in table if value(c) == v}
    simple = same or {m for total, n, m in subsets if n >= 2 and total == v}
    if capture == "cirulla":
        return simple | {m for total, _, m in subsets if total + v == 15}
    return simple


CASES = [
    ("scopa", {}),
    ("scopa", {"capture_optional": "on"}),
    ("assi", {}),
    ("assi", {"capture_optional": "on"}),
    ("escoba", {}),
    ("escoba", {"capture_optional": "off"}),
    ("cirulla", {}),
    ("cirulla", {"capture_optional": "on"}),
]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_whole_hands_against_the_oracle(name: str, options: dict[str, str]) -> None:
    variant = get_variant(name, options)
    rules = Rules(variant)  # built here: the cached rules may have been built before
    cached = rules_for(variant)
    rng = random.Random(8)
    for _ in range(300):
        cards = rng.sample(range(40), rng.randint(4, 10))
        hand, table = sorted(cards[:3]), cards[3:]
        got = rules.plays(sum(1 << c for c in hand), sum(1 << c for c in table))
        assert cached.plays(sum(1 << c for c in hand), sum(1 << c for c in table)) == got
        assert [c for c, _ in got] == sorted(c for c, _ in got), "plays come card by card"
        by_card = {c: [m for _, m in plays] for c, plays in groupby(got, key=lambda p: p[0])}
        assert sorted(by_card) == hand, "every card of the hand has its plays"
        for card in hand:
            want = oracle_captures(variant.capture, variant.ace_takes_all, card, table)
            listed = by_card[card]
            assert len(listed) == len(set(listed)), "no play twice"
            captures = {m for m in listed if m}
            assert captures == want
            trails = listed.count(0)
            assert trails == (1 if not want or variant.capture_optional else 0)
