"""The capture examples of docs/rules.md section 3, through the engine's capture rules."""

from __future__ import annotations

import pytest

from scopa.cards import Card, CardSet
from scopa.engine.captures import (
    ACE_SWEEP,
    LAST_CLEAR,
    SWEEP,
    rank_key,
    rules_for,
    sum_patterns,
)
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


def clear(variant: str, card: str, capture: str, last_play: bool = False, **options: str) -> int:
    rules = rules_for(get_variant(variant, options))
    return rules.clear_kind(Card.parse(card).index, CardSet.parse(capture).mask, last_play)


def is_sweep(
    variant: str, card: str, capture: str, left: str = "", last: bool = False, **options: str
) -> bool:
    rules = rules_for(get_variant(variant, options))
    index, taken, after = Card.parse(card).index, CardSet.parse(capture), CardSet.parse(left)
    return rules.is_sweep(index, taken.mask, after.mask, last)


def test_a_capture_that_clears_the_table_is_a_sweep() -> None:
    """docs/rules.md 4: a capture that leaves the table empty is a sweep; not a capture that leaves
    cards, nor a card laid on the table."""
    assert clear("scopa", "5d", "5s") == SWEEP
    assert is_sweep("scopa", "5d", "5s") is True
    assert is_sweep("scopa", "Hd", "4c 5c") is True
    assert is_sweep("scopa", "5d", "5s", left="3c") is False
    assert is_sweep("scopa", "5d", "", left="5d 3c") is False  # a trail


def test_the_deals_last_card_never_sweeps_unless_last_play_sweep() -> None:
    """docs/rules.md 4: not the very last card of the deal; ``last_play_sweep`` (9.3) makes it
    one."""
    assert clear("scopa", "5d", "5s", last_play=True) == 0
    assert is_sweep("scopa", "5d", "5s", last=True) is False
    assert clear("scopa", "5d", "5s", last_play=True, last_play_sweep="on") == SWEEP
    assert is_sweep("scopa", "5d", "5s", last=True, last_play_sweep="on") is True
    assert is_sweep("scopa", "5d", "5s", left="Kc", last=True, last_play_sweep="on") is False


@pytest.mark.parametrize("variant", ["scopone", "scopone-10"])
def test_scopone_records_the_last_clear_apart(variant: str) -> None:
    """docs/rules.md 9.4: Scopone records the last play's clear in ``last_play_cleared``; it scores
    a sweep only with ``last_play_sweep``."""
    assert clear(variant, "5d", "5s", last_play=True) == LAST_CLEAR
    assert is_sweep(variant, "5d", "5s", last=True) is False
    assert is_sweep(variant, "5d", "5s", last=True, last_play_sweep="on") is True
    assert clear(variant, "5d", "5s") == SWEEP  # before the last card, an ordinary sweep
    assert is_sweep(variant, "5d", "5s") is True


def test_the_aces_take_all_is_recorded_apart_in_scopa_d_assi() -> None:
    """docs/rules.md 9.4: the ace's take-all is an ace sweep, a sweep only with ``ace_sweep``;
    taking a lone ace with an ace is an ordinary sweep; with the last card, nothing."""
    assert clear("assi", "Ad", "5s 3c Kb") == ACE_SWEEP
    assert is_sweep("assi", "Ad", "5s 3c Kb") is False
    assert is_sweep("assi", "Ad", "5s 3c Kb", ace_sweep="on") is True
    assert clear("assi", "Ad", "Ac") == SWEEP
    assert is_sweep("assi", "Ad", "Ac") is True
    assert clear("assi", "4d", "As 3c") == SWEEP
    assert clear("assi", "Ad", "5s 3c Kb", last_play=True) == 0
    assert is_sweep("assi", "Ad", "5s 3c Kb", last=True, ace_sweep="on") is False
    # In plain Scopa an ace has no take-all: taking a lone ace is a sweep like any other.
    assert clear("scopa", "Ad", "Ac") == SWEEP


def test_cirullas_take_all_is_a_sweep() -> None:
    """docs/rules.md 9.8.7: in Cirulla the ace's take-all is a sweep (not recorded apart)."""
    assert clear("cirulla", "Ad", "5s 3c Kb") == SWEEP
    assert is_sweep("cirulla", "Ad", "5s 3c Kb") is True
    assert is_sweep("cirulla", "Ad", "5s 3c Kb", last=True) is False


def test_assi_keeps_each_cards_captures_in_the_fixed_order() -> None:
    """An ace in the hand does not reorder the other cards' captures: the horse's sums stay in
    the rulebook's order (fewest cards first, then by rank), as in plain Scopa."""
    hand = CardSet.parse("Ad Hd").mask
    table = CardSet.parse("As 3c 4b 5c Jb").mask
    plays = rules_for(VARIANTS["assi"]).plays(hand, table)
    shown = [f"{Card(i)}:{CardSet(c)}" for i, c in plays]
    assert shown == ["Ad:As", "Hd:As Jb", "Hd:5c 4b", "Hd:3c 5c As"]
    assert plays[1:] == rules_for(VARIANTS["scopa"]).plays(CardSet.parse("Hd").mask, table)
