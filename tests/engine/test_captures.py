"""The capture examples of RULES.md section 3, through the engine's capture rules."""

from __future__ import annotations

import pytest

from scopa.cards import Card, CardSet
from scopa.engine.captures import rank_key, rules_for, sum_patterns
from scopa.engine.variants import VARIANTS, get_variant


def captures(card: str, table: str, variant: str = "scopa", **options: str) -> list[str]:
    rules = rules_for(get_variant(variant, options))
    found = rules.captures(Card.parse(card).index, CardSet.parse(table).mask)
    return [str(CardSet(c)) for c in found]


@pytest.mark.parametrize(
    ("table", "card", "expected"),
    [
        ("5s 3c 2b", "5d", ["5s"]),
        ("5s 5c 3b", "5d", ["5c", "5s"]),
        ("2s 5c 7b 4c", "Hd", ["2s 7b", "4c 5c"]),
        ("As 3c 4b 5c Jb", "Hd", ["As Jb", "5c 4b", "3c 5c As"]),
        ("Ks Kc Kb", "Kd", ["Kc", "Ks", "Kb"]),
        ("6s", "3d", []),
        ("Js 5c 3b", "Jd", ["Js"]),
        ("", "7d", []),
        ("Ad Ac 2s", "4b", ["Ad Ac 2s"]),
        ("Ad Ac 2s 2c", "4b", ["2c 2s", "Ad Ac 2c", "Ad Ac 2s"]),
        ("Ad As 3c", "4b", ["Ad 3c", "3c As"]),
    ],
)
def test_rulebook_captures(table: str, card: str, expected: list[str]) -> None:
    assert captures(card, table) == expected


def test_fewest_keeps_only_the_smallest_sums() -> None:
    assert captures("Hd", "As 3c 4b 5c Jb", sum_choice="fewest") == ["As Jb", "5c 4b"]


def test_a_sum_is_never_a_single_card_in_scopa() -> None:
    # 3 + 3 takes both threes; a lone 3 never answers a 6 (that would be a rank match).
    assert captures("6d", "3c 3s 4b") == ["3c 3s"]


def test_every_capture_adds_up_and_rank_match_comes_first() -> None:
    """Checked over many tables against a plain subset enumeration."""
    import random

    rng = random.Random(11)
    rules = rules_for(VARIANTS["scopa"])
    for _ in range(400):
        cards = rng.sample(range(40), rng.randint(1, 9))
        played, table = cards[0], sum(1 << c for c in cards[1:])
        value = played % 10 + 1
        got = sorted(rules.captures(played, table))
        on_table = list(cards[1:])
        same = sorted(1 << c for c in on_table if c % 10 + 1 == value)
        if same:
            assert got == same
            continue
        want = []
        for pick in range(1, 1 << len(on_table)):
            chosen = [c for k, c in enumerate(on_table) if pick >> k & 1]
            if len(chosen) >= 2 and sum(c % 10 + 1 for c in chosen) == value:
                want.append(sum(1 << c for c in chosen))
        assert got == sorted(want)


def test_sum_patterns_are_cached_by_rank_count() -> None:
    a, b = CardSet.parse("2s 5c 7b 4c").mask, CardSet.parse("2d 5s 7c 4b").mask
    assert rank_key(a) == rank_key(b)
    rules = rules_for(VARIANTS["scopa"])
    first = rules.plays(CardSet.parse("Hd").mask, a)
    before = sum_patterns.cache_info()
    second = rules.plays(CardSet.parse("Hd").mask, b)
    assert sum_patterns.cache_info() == before  # the second table's sums came from the cache
    assert len(first) == len(second) == 2


def test_escoba_takes_fifteen_with_the_played_card() -> None:
    assert captures("7d", "5s 3c Jb", "escoba") == ["Jb", "3c 5s"]
    assert captures("Kd", "5s", "escoba") == ["5s"]
    assert captures("Kd", "6s", "escoba") == []
    # No rank match in Escoba: a 5 does not take a 5 (5 + 5 is not 15).
    assert captures("5d", "5s Kc", "escoba") == ["Kc"]


def test_escoba_capture_is_optional() -> None:
    rules = rules_for(VARIANTS["escoba"])
    plays = rules.plays(CardSet.parse("7d").mask, CardSet.parse("Jb").mask)
    assert plays == [(Card.parse("7d").index, CardSet.parse("Jb").mask), (6, 0)]


def test_assi_ace_takes_all_or_only_the_ace() -> None:
    assert captures("Ad", "5s 3c Kb", "assi") == ["3c 5s Kb"]
    assert captures("Ad", "5s Ac Kb", "assi") == ["Ac"]
    assert captures("Ad", "", "assi") == []
    # Other cards play by the ordinary rules.
    assert captures("4d", "As 3c", "assi") == ["3c As"]
    # In plain Scopa the ace is an ordinary card.
    assert captures("Ad", "5s 3c Kb") == []


def test_capture_optional_on_scopa_and_forced_on_escoba() -> None:
    hand = CardSet.parse("5d 2c Kb").mask
    table = CardSet.parse("5s 3c").mask
    optional = rules_for(get_variant("scopa", {"capture_optional": "on"}))
    shown = [f"{Card(i)}:{CardSet(c)}" for i, c in optional.plays(hand, table)]
    assert shown == ["5d:5s", "5d:", "2c:", "Kb:"]
    forced = rules_for(get_variant("escoba", {"capture_optional": "off"}))
    shown = [f"{Card(i)}:{CardSet(c)}" for i, c in forced.plays(hand, table)]
    # Only the king makes 15 (with 5s); with the capture forced it cannot trail.
    assert shown == ["5d:", "2c:", "Kb:5s"]
