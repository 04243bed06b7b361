"""Scoring one deal (docs/rules.md section 5): every category and setting, ties, many sides."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scopa import scoring
from scopa.cards import CardSet
from scopa.deal import Deal, Pile
from scopa.rules import Settings
from scopa.scoring import (
    CATEGORIES,
    COIN_BITS,
    KEY_GRANDE,
    KEY_RUN_SHIFT,
    KEY_SETTEBELLO,
    Points,
    PointsTable,
    _coin_bits,
    clear_points_tables,
    ignored_facts,
    points_table,
    score_deal,
    top_bits,
)
from tests import oracle
from tests.strategies import deals, player_lists, settings, tally_of

WORKED_A = "Ad 2d 3d 5d 7d Kd Ac 2c 6c 7c Hc 2s 4s 7s Js Ks 2b 3b 5b 6b Hb Kb"


def piles(*hands: str) -> list[Pile]:
    """Piles from card lists; the last pile takes every card not listed."""
    listed = [CardSet.parse(h) for h in hands]
    rest = CardSet.full()
    for cards in listed:
        rest = rest - cards
    return [Pile.of_cards(c) for c in [*listed, rest]]


def score(
    sides: Sequence[Pile],
    sweeps: Sequence[int] | None = None,
    last: int | None = None,
    **rules: object,
) -> tuple[Points, ...]:
    return score_deal(sides, sweeps or [0] * len(sides), last, Settings(**rules))  # type: ignore[arg-type]


def test_worked_example_of_section_5() -> None:
    a, b = score(piles(WORKED_A), [1, 2])
    assert a == Points(cards=1, coins=1, settebello=1, primiera=1, sweeps=1, napola=0, total=5)
    assert b == Points(cards=0, coins=0, settebello=0, primiera=0, sweeps=2, napola=0, total=2)
    assert a.to_dict() == {
        "cards": 1,
        "coins": 1,
        "settebello": 1,
        "primiera": 1,
        "sweeps": 1,
        "napola": 0,
        "total": 5,
    }
    assert tuple(a.to_dict()) == (*CATEGORIES, "total")


def test_worked_example_with_napola() -> None:
    # A holds A 2 3 5 of coins: the run is A-2-3.
    a, b = score(piles(WORKED_A), [1, 2], napola="flat")
    assert (a.napola, a.total, b.total) == (3, 8, 2)
    a, _ = score(piles(WORKED_A), [1, 2], napola="run")
    assert (a.napola, a.total) == (3, 8)


def test_cards_21_wins_and_20_20_ties() -> None:
    # 21 cards, but only 4 coins and no settebello, so only the cards point moves.
    a, b = score(piles("Ad 2d 3d 4d Ac 2c 3c 4c 5c As 2s 3s 4s 5s Ab 2b 3b 4b 5b Jc Js"))
    assert (a.cards, b.cards) == (1, 0)
    twenty = "Ad 2d 3d 4d Ac 2c 3c 4c 5c As 2s 3s 4s 5s Ab 2b 3b 4b 5b Jc"
    a, b = score(piles(twenty))
    assert (a.cards, b.cards) == (0, 0)
    a, b = score(piles(twenty), ties="share")
    assert (a.cards, b.cards) == (1, 1)


def test_coins_6_wins_and_5_5_ties() -> None:
    a, b = score(piles("Ad 2d 3d 4d 5d 6d"))
    assert (a.coins, b.coins) == (1, 0)
    a, b = score(piles("Ad 2d 3d 4d 5d"))
    assert (a.coins, b.coins) == (0, 0)
    a, b = score(piles("Ad 2d 3d 4d 5d"), ties="share")
    assert (a.coins, b.coins) == (1, 1)


def test_settebello_is_never_tied() -> None:
    a, b = score(piles("7d"), ties="share")
    assert (a.settebello, b.settebello) == (1, 0)
    a, b = score(piles("6d"))
    assert (a.settebello, b.settebello) == (0, 1)


def test_primiera_highest_complete_side_wins() -> None:
    # A: 7 7 7 in three suits and a 6 of clubs = 81; B's best is 6 6 6 7 = 75.
    a, b = score(piles("7d 7c 7s 6b"))
    assert (a.primiera, b.primiera) == (1, 0)
    a, b = score(piles("7d 7c 7s 6b"), primiera=False)
    assert (a.primiera, b.primiera) == (0, 0)


def test_three_sevens_do_not_beat_a_complete_primiera() -> None:
    # A has three sevens and the sixes, no clubs: it cannot win against B's complete 4-suit set.
    a, b = score(piles("7d 7c 7s 6d 6c 6s"))
    assert (a.primiera, b.primiera) == (0, 1)


def test_nobody_complete_nobody_scores_primiera() -> None:
    # A holds every coin and every cup; B holds every sword and club: neither is complete.
    coins_cups = " ".join(f"{r}{s}" for s in "dc" for r in "A234567JHK")
    a, b = score(piles(coins_cups), ties="share")
    assert (a.primiera, b.primiera) == (0, 0)
    assert (a.cards, b.cards) == (1, 1)  # 20-20 shared


def test_primiera_tie_withheld_or_shared() -> None:
    # Both sides hold a 7 and a 6 of ... : A 7d 7c 6s 6b = 78, B 7s 7b 6d 6c = 78.
    hands = piles("7d 7c 6s 6b Jd")
    a, b = score(hands)
    assert (a.primiera, b.primiera) == (0, 0)
    a, b = score(hands, ties="share")
    assert (a.primiera, b.primiera) == (1, 1)


def test_sevens_mode_one_seven_each_is_a_tie_at_the_top() -> None:
    # Four players, one seven each: all four share the top of the sevens with a top of one.
    hands = piles("7d", "7c", "7s")
    assert [p.sevens for p in hands] == [1, 1, 1, 1]
    shared = score(hands, variant="escoba", primiera_mode="sevens", ties="share")
    assert [p.primiera for p in shared] == [1, 1, 1, 1]
    withheld = score(hands, variant="escoba", primiera_mode="sevens")
    assert [p.primiera for p in withheld] == [0, 0, 0, 0]


def test_sevens_mode_scores_without_a_complete_primiera() -> None:
    # A holds every coin and cup and the 7 of swords, B the rest: neither has all four suits,
    # so nobody tops the primiera, yet A's three sevens take the point in the sevens mode.
    coins_cups = " ".join(f"{r}{s}" for s in "dc" for r in "A234567JHK")
    hands = piles(f"{coins_cups} 7s")
    assert [p.primiera for p in hands] == [0, 0]
    assert [p.sevens for p in hands] == [3, 1]
    a, b = score(hands, variant="escoba", primiera_mode="sevens")
    assert (a.primiera, b.primiera) == (1, 0)
    a, b = score(hands, variant="escoba")
    assert (a.primiera, b.primiera) == (0, 0)


CIRULLA_ONLY = KEY_GRANDE | 0xF << scoring.KEY_CIRULLA_SHIFT | 0xF << scoring.KEY_DECINO_SHIFT
RUN = 0xF << KEY_RUN_SHIFT
PRIMIERA = scoring.KEY_PRIMIERA_TOP | scoring.KEY_PRIMIERA_ALONE
SEVENS = scoring.KEY_SEVENS_TOP | scoring.KEY_SEVENS_ALONE
ACES = 0x3F << scoring.KEY_ACES_SHIFT


@pytest.mark.parametrize(
    ("rules", "ignored"),
    [
        (
            Settings(),
            CIRULLA_ONLY | RUN | SEVENS | scoring.KEY_LEFTOVER | scoring.KEY_CLEARED | ACES,
        ),
        (
            Settings(napola="run", primiera=False, last_capture_sweep=True),
            CIRULLA_ONLY | PRIMIERA | SEVENS | scoring.KEY_CLEARED | ACES,
        ),
        (
            Settings.of("escoba", primiera_mode="sevens"),
            CIRULLA_ONLY | RUN | PRIMIERA | scoring.KEY_LEFTOVER | scoring.KEY_CLEARED | ACES,
        ),
        (Settings.of("cirulla"), SEVENS | scoring.KEY_LEFTOVER | scoring.KEY_CLEARED | ACES),
        (
            Settings.of("scopone", last_play_sweep=True),
            CIRULLA_ONLY | RUN | SEVENS | scoring.KEY_LEFTOVER | ACES,
        ),
        (
            Settings.of("assi", ace_sweep=True),
            CIRULLA_ONLY | SEVENS | scoring.KEY_LEFTOVER | scoring.KEY_CLEARED,
        ),
    ],
    ids=["scopa", "napola-no-primiera-leftover", "escoba-sevens", "cirulla", "scopone", "assi"],
)
def test_the_facts_each_rule_set_ignores(rules: Settings, ignored: int) -> None:
    # Exactly the facts that score nothing under the rules: the sweeps and the majorities
    # always count; the rest only where a setting or the variant uses them.
    assert ignored_facts(rules) == ignored
    # Keys that differ only there share one Points: each ignored bit flipped, the same object.
    table = PointsTable(rules)
    key = KEY_SETTEBELLO | 3 << KEY_RUN_SHIFT | 2 * scoring.KEY_SWEEP
    bits = [1 << i for i in range(scoring.KEY_SWEEP.bit_length() - 1) if ignored >> i & 1]
    assert bits
    assert all(table[key ^ bit] is table[key] for bit in bits)


def test_one_points_table_per_rules_whatever_the_target() -> None:
    clear_points_tables()
    to_11 = points_table(Settings())
    assert points_table(Settings(target=21)) is to_11 is points_table(Settings())
    assert points_table(Settings(primiera=False)) is not to_11


def test_sweeps_count_one_each() -> None:
    a, b = score(piles(WORKED_A), [3, 0])
    assert (a.sweeps, b.sweeps) == (3, 0)
    assert a.total == 4 + 3


def test_last_capture_sweep() -> None:
    hands = piles(WORKED_A)
    a, b = score(hands, [1, 2], last=1)
    assert (a.sweeps, b.sweeps) == (1, 2)  # the setting is off
    a, b = score(hands, [1, 2], last=1, last_capture_sweep=True)
    assert (a.sweeps, b.sweeps, b.total) == (1, 3, 3)
    a, b = score(hands, [1, 2], last=None, last_capture_sweep=True)
    assert (a.sweeps, b.sweeps) == (1, 2)  # nothing was left on the table


def test_napola_flat_and_run() -> None:
    run_4 = piles("Ad 2d 3d 4d 6d 7d")
    assert score(run_4, napola="flat")[0].napola == 3
    assert score(run_4, napola="run")[0].napola == 4  # the run breaks at the missing 5
    assert score(run_4, napola="off")[0].napola == 0
    all_coins = piles("Ad 2d 3d 4d 5d 6d 7d Jd Hd Kd")
    assert score(all_coins, napola="run")[0].napola == 10
    assert score(all_coins, napola="flat")[0].napola == 3
    no_three = piles("Ad 2d 4d 5d 6d 7d")
    assert score(no_three, napola="run")[0].napola == 0
    assert score(no_three, napola="flat")[0].napola == 0
    a_2_3 = piles("Ad 2d 3d")
    assert score(a_2_3, napola="run")[0].napola == 3
    assert score(a_2_3, napola="run")[1].napola == 0


def test_three_players_tie_at_the_top() -> None:
    # Cards 14-14-12: a tie at the top, withheld; shared with `share`.
    a_cards = "Ad 2d 3d 4d Ac 2c 3c 4c 5c As 2s 3s 4s 5s"
    b_cards = "5d 6d 7d Jd 6c 7c Jc 6s 7s Js Ab 2b 3b 4b"
    hands = piles(a_cards, b_cards)
    assert [p.count for p in hands] == [14, 14, 12]
    withheld = score(hands)
    assert [p.cards for p in withheld] == [0, 0, 0]
    shared = score(hands, ties="share")
    assert [p.cards for p in shared] == [1, 1, 0]
    # Coins 4-4-2: also tied at the top.
    assert [p.coins for p in withheld] == [0, 0, 0]
    assert [p.coins for p in shared] == [1, 1, 0]
    assert [p.settebello for p in shared] == [0, 1, 0]


def test_three_players_unique_top() -> None:
    hands = piles("Ad 2d 3d 4d 5d 6d 7d Ac 2c 3c 4c 5c As 2s 3s", "Jd Hd Kd Jc")
    assert [p.count for p in hands] == [15, 4, 21]
    a, b, c = score(hands, [0, 1, 2])
    assert (a.cards, a.coins, a.settebello, a.primiera, a.total) == (0, 1, 1, 0, 2)
    assert b.total == 1
    assert (c.cards, c.primiera, c.sweeps, c.total) == (1, 0, 2, 3)  # C has no coins
    assert [p.primiera for p in hands] == [0, 0, 0]


def test_an_empty_pile_scores_nothing() -> None:
    # Capture-free: a side that took no card scores no category; the other takes all four.
    nothing, everything = score([Pile.of_cards(CardSet()), Pile.of_cards(CardSet.full())])
    assert nothing == Points()
    assert everything == Points(1, 1, 1, 1, 0, 0, 4)
    _, everything = score(
        [Pile.of_cards(CardSet()), Pile.of_cards(CardSet.full())], napola="run", primiera=False
    )
    assert everything.total == 3 + 10


def fixed(points: Points) -> int:
    return points.cards + points.coins + points.settebello + points.primiera


def unique_top(values: Sequence[int]) -> bool:
    return max(values) > 0 and list(values).count(max(values)) == 1


@given(player_lists().flatmap(lambda players: deals(players, "full")), settings())
def test_tally_scores_as_the_full_pile(deal: Deal, rules: Settings) -> None:
    last = deal.last_index
    full = score_deal(deal.piles, deal.sweeps, last, rules)
    tally = score_deal([tally_of(p) for p in deal.piles], deal.sweeps, last, rules)
    assert tally == full


@given(player_lists().flatmap(lambda players: deals(players, "mixed")), settings())
def test_points_add_up_and_fixed_points(deal: Deal, rules: Settings) -> None:
    points = score_deal(deal.piles, deal.sweeps, deal.last_index, rules)
    for p in points:
        assert p.total == sum(p.to_dict()[c] for c in CATEGORIES)
    assert sum(p.settebello for p in points) == 1
    leftover = 1 if rules.last_capture_sweep and deal.last_capture is not None else 0
    assert sum(p.sweeps for p in points) == sum(deal.sweeps) + leftover
    no_tie = (
        unique_top([p.count for p in deal.piles])
        and unique_top([p.coin_count for p in deal.piles])
        and unique_top([p.primiera for p in deal.piles])
    )
    if rules.ties == "withhold" and no_tie:
        assert sum(fixed(p) for p in points) == (4 if rules.primiera else 3)
    if rules.ties == "withhold":
        assert sum(fixed(p) for p in points) <= 4


@given(player_lists().flatmap(lambda players: deals(players, "full")), settings())
def test_score_deal_matches_the_oracle(deal: Deal, rules: Settings) -> None:
    """docs/rules.md section 5 read plainly from the card lists (:mod:`tests.oracle`)."""
    cards = [p.cards.to_list() if p.cards is not None else [] for p in deal.piles]
    expected = oracle.score(cards, rules.to_dict(), sweeps=list(deal.sweeps), last=deal.last_index)
    points = score_deal(deal.piles, deal.sweeps, deal.last_index, rules)
    assert [p.to_dict() for p in points] == expected
    clear_points_tables()
    assert score_deal(deal.piles, deal.sweeps, deal.last_index, rules) == points


COIN_NAMES = ("Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Jd", "Hd", "Kd")


@given(st.integers(0, 1023))
@example(0b1110000000)  # the grande alone: J, H and K of coins
@example(0b1111111111)  # all ten coins
def test_the_coin_facts_of_a_pile_against_the_oracle(coins: int) -> None:
    """Settebello, the run of coins from the ace and the grande (J, H, K of coins), as
    packed from a pile's coins alone."""
    cards = [name for i, name in enumerate(COIN_NAMES) if coins >> i & 1]
    assert Pile.of_cards(CardSet.parse(" ".join(cards))).coins == coins
    bits = COIN_BITS[coins]
    assert bits == _coin_bits(coins)
    assert bool(bits & KEY_SETTEBELLO) == ("7d" in cards)
    assert bits >> KEY_RUN_SHIFT & 0xF == oracle.coin_run(cards)
    assert bool(bits & KEY_GRANDE) == ({"Jd", "Hd", "Kd"} <= set(cards))
    assert bits & ~(KEY_SETTEBELLO | KEY_GRANDE | 0xF << KEY_RUN_SHIFT) == 0


@given(st.lists(st.integers(0, 40), min_size=2, max_size=6))
@example([1, 0])  # a top of one card is a top
@example([1, 1, 0])
def test_top_bits_marks_the_top_and_whether_alone(values: list[int]) -> None:
    bits = top_bits(values, 1, 2)
    top = max(values)
    for value, bit in zip(values, bits, strict=True):
        at_top = top > 0 and value == top
        assert bit == (1 | (2 if values.count(top) == 1 else 0) if at_top else 0)
