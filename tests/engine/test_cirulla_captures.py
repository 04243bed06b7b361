"""Cirulla conformance: captures (docs/rules.md 9.5 "Captures", 9.8.6-7). One case per rule element
and per example, each naming the section it checks."""

from __future__ import annotations

import random

import pytest

from scopa.cards import Card, CardSet
from scopa.cli import main
from scopa.engine.captures import rules_for
from scopa.engine.state import Play, apply, deal, legal_plays
from scopa.engine.variants import VARIANTS, get_variant
from scopa.errors import IllegalPlayError
from tests.engine.helpers import StackedDeck, position, two_player_deck

CIRULLA = VARIANTS["cirulla"]


def captures(card: str, table: str, **options: str) -> list[str]:
    rules = rules_for(get_variant("cirulla", options))
    found = rules.captures(Card.parse(card).index, CardSet.parse(table).mask)
    return [str(CardSet(c)) for c in found]


CASES = [
    # 9.5 examples (table -> played card -> legal captures)
    pytest.param("Js 6c 2b", "7d", ["Js", "6c 2b"], id="9.5-example-1 fifteens only"),
    pytest.param(
        "5s 2c 3b Kc", "5d", ["5s", "Kc", "2c 5s 3b"], id="9.5-example-2 rank match and fifteens"
    ),
    pytest.param("5s 3c Kb", "Ad", ["3c 5s Kb"], id="9.5-example-3 ace takes all"),
    pytest.param("Ac 6s 7b", "Ad", ["Ac", "Ac 6s 7b"], id="9.5-example-4 ace on ace"),
    pytest.param("", "Ad", [], id="9.5-example-5 ace to an empty table stays"),
    pytest.param("7s Js", "7c", ["7s", "Js"], id="9.5-example-6 the matta plays as a 7"),
    # 9.5 captures 1: the take-all is the ace's only capture (no fifteen with 14, no sum)
    pytest.param("Kd 4c", "As", ["Kd 4c"], id="9.5-captures-1 take-all is the only capture"),
    pytest.param("2d", "Ab", ["2d"], id="9.5-captures-1 take-all of a single card"),
    # 9.5 captures 2: simple = rank match first, sums only without one; fifteens free
    pytest.param("4s 3c Ab", "4d", ["4s"], id="9.5-captures-2 rank match forbids a sum"),
    pytest.param("3c 2b 4s", "5d", ["3c 2b"], id="9.5-captures-2 a sum when no rank match"),
    pytest.param("5s 3c 2b", "5d", ["5s", "3c 5s 2b"], id="9.5-captures-2 a fifteen beside it"),
    pytest.param("3c 5s 6b 7s", "7d", ["7s", "3c 5s"], id="9.5-captures-2 7 on 3 5 6 7 (RDG)"),
    pytest.param("Js", "7d", ["Js"], id="9.5-captures-2 a fifteen of one card"),
    pytest.param(
        "As 3c 4b 5c Jb",
        "Hd",
        ["As Jb", "5c 4b", "3c 5c As", "5c As"],
        id="9.5-captures-2 sums as Scopa, then fifteens",
    ),
    pytest.param("Ks Kc", "Kd", ["Kc", "Ks"], id="9.5-captures-2 one rank match at a time"),
    pytest.param("6s 4c", "3d", [], id="9.5-captures-4 nothing to take: the card trails"),
    # 9.5 captures 3: an ace with an ace on the table
    pytest.param("Ac 5s Kb", "Ad", ["Ac"], id="9.5-captures-3 ace takes the ace, not all"),
    pytest.param("Ac As 4b", "Ad", ["Ac", "As"], id="9.5-captures-3 either ace on the table"),
    pytest.param("Ac Ks 4b", "Ad", ["Ac", "Ks 4b"], id="9.5-captures-3 or a fifteen worth 14"),
]


@pytest.mark.parametrize(("table", "card", "expected"), CASES)
def test_captures(table: str, card: str, expected: list[str]) -> None:
    assert captures(card, table) == expected


def test_fewest_applies_to_sums_only() -> None:
    """9.5 captures 2 / 9.8.6: ``sum_choice=fewest`` keeps the smallest sums, never the
    fifteens (RDG)."""
    # Horse (9) on As 3c 4b 5c Jb: sums As+Jb, 4b+5c, As+3c+5c; fifteens need 6: As+5c, ...
    table = "As 3c 4b 5c Jb Kd"
    free = captures("Hd", table)
    fewest = captures("Hd", table, sum_choice="fewest")
    assert "3c 5c As" in free
    assert "3c 5c As" not in fewest
    fifteens = [c for c in free if sum(x.value for x in CardSet.parse(c)) == 6]
    assert fifteens
    assert all(c in fewest for c in fifteens)


@pytest.mark.parametrize(
    ("hand", "table", "card"),
    [
        pytest.param("7d 4c", "Js", "7d", id="9.5-captures-4 a card that can capture must"),
        pytest.param("Ad 4c", "5s 3c", "Ad", id="9.5-captures-4 the ace must take all"),
    ],
)
def test_must_capture(hand: str, table: str, card: str) -> None:
    """9.5 captures 4: the capturing card cannot trail; another card that cannot capture may."""
    state = position([hand, ""], table, variant=CIRULLA, stock=(39, 38, 37))
    with pytest.raises(IllegalPlayError, match="a card that can capture must capture"):
        apply(state, Play.parse(card))
    trails = [p for p in legal_plays(state) if p.trails]
    assert [str(p) for p in trails] == ["4c"]


def test_declared_matta_plays_as_its_rank() -> None:
    """9.5 the matta, ``matta_play=declared`` (9.8.4): the matta of a declared hand is played
    as the rank it was declared as, as an ace it takes all; by default it plays as a 7."""
    deck = two_player_deck("7c As 2b", "4d 4c 6d", "5s 3c Kb 6b")
    matta = Card.parse("7c")
    declared = get_variant("cirulla", {"matta_play": "declared"})
    state = deal(declared, 2, rng=StackedDeck(deck))
    assert state.declarations == ((), ("cirulla",))
    assert state.matta_as == 0
    assert [str(p) for p in legal_plays(state) if p.card == matta] == ["7c x 3c 5s 6b Kb"]
    seven = deal(CIRULLA, 2, rng=StackedDeck(deck))
    assert seven.matta_as is None
    assert [str(p) for p in legal_plays(seven) if p.card == matta] == ["7c x 3c 5s"]
    # As a 4 (a decino 7c 4s 4b), the matta takes no 7 and makes 15 with 5s 6b.
    deck = two_player_deck("7c 4s 4b", "4d 2c 6d", "5s 3c Kb 6b")
    as_four = deal(declared, 2, rng=StackedDeck(deck))
    assert as_four.declarations == ((), ("decino",))
    assert as_four.matta_as == 3
    assert [str(p) for p in legal_plays(as_four) if p.card == matta] == ["7c x 5s 6b"]
    after = apply(as_four, Play.parse("7c x 5s 6b"))
    assert after.matta_as is None
    assert after.shown == CardSet.parse("4s 4b").mask


def test_captures_match_a_plain_enumeration() -> None:
    """9.5 captures 1-4 against an independent subset enumeration over random tables."""
    rng = random.Random(95)
    rules = rules_for(CIRULLA)
    for _ in range(500):
        cards = rng.sample(range(40), rng.randint(1, 8))
        played, on_table = cards[0], cards[1:]
        table = sum(1 << c for c in on_table)
        value = played % 10 + 1
        got = sorted(rules.captures(played, table))
        aces = [c for c in on_table if c % 10 == 0]
        if value == 1 and not aces:
            assert got == ([table] if table else [])
            continue
        simple = [1 << c for c in on_table if c % 10 + 1 == value]
        subsets = []
        for pick in range(1, 1 << len(on_table)):
            chosen = [c for k, c in enumerate(on_table) if pick >> k & 1]
            subsets.append(
                (sum(c % 10 + 1 for c in chosen), len(chosen), sum(1 << c for c in chosen))
            )
        if not simple:
            simple = [m for total, n, m in subsets if n >= 2 and total == value]
        fifteens = [m for total, _, m in subsets if total + value == 15]
        assert got == sorted(simple + fifteens)


@pytest.mark.parametrize(
    ("args", "out"),
    [
        (["Ad", "5s", "3c", "Kb"], "3c 5s Kb\n"),
        (["5d", "5s", "2c", "3b", "Kc"], "5s\nKc\n2c 5s 3b\n"),
        (["7c", "7s", "Js"], "7s\nJs\n"),
    ],
)
def test_the_captures_command(
    capsys: pytest.CaptureFixture[str], args: list[str], out: str
) -> None:
    """docs/formats.md: ``scopa captures CARD TABLE... --variant cirulla``."""
    assert main(["captures", *args, "--variant", "cirulla"]) == 0
    assert capsys.readouterr().out == out


def test_a_declared_matta_may_trail_when_capturing_is_optional() -> None:
    """With ``capture_optional`` on, the matta played as its declared rank may also trail,
    and may not trail twice: one trail after its captures."""
    deck = two_player_deck("7c 4s 4b", "4d 2c 6d", "5s 3c Kb 6b")
    optional = get_variant("cirulla", {"matta_play": "declared", "capture_optional": "on"})
    state = deal(optional, 2, rng=StackedDeck(deck))
    assert state.matta_as == 3
    matta = Card.parse("7c")
    assert [str(p) for p in legal_plays(state) if p.card == matta] == ["7c x 5s 6b", "7c"]
    compulsory = deal(get_variant("cirulla", {"matta_play": "declared"}), 2, rng=StackedDeck(deck))
    assert [str(p) for p in legal_plays(compulsory) if p.card == matta] == ["7c x 5s 6b"]
