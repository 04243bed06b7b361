"""Cards: the notation of docs/formats.md (every alias, canonical output), Card and CardSet."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa.cards import (
    CARDS,
    SETTEBELLO,
    Card,
    CardSet,
    Rank,
    Suit,
    napola_run,
)
from scopa.errors import InvalidCardError, ScopaError

RANK_ALIASES = {
    Rank.ACE: ["A", "1"],
    Rank.TWO: ["2"],
    Rank.THREE: ["3"],
    Rank.FOUR: ["4"],
    Rank.FIVE: ["5"],
    Rank.SIX: ["6"],
    Rank.SEVEN: ["7"],
    Rank.JACK: ["J", "8", "F"],
    Rank.HORSE: ["H", "9", "Q", "C"],
    Rank.KING: ["K", "10", "R"],
}
SUIT_ALIASES = {
    Suit.COINS: ["d", "♦"],
    Suit.CUPS: ["c", "♥"],
    Suit.SWORDS: ["s", "♠"],
    Suit.CLUBS: ["b", "♣"],
}
ALIASES = [
    (rank_alias, suit_alias, Card.of(rank, suit))
    for rank, rank_aliases in RANK_ALIASES.items()
    for suit, suit_aliases in SUIT_ALIASES.items()
    for rank_alias, suit_alias in itertools.product(rank_aliases, suit_aliases)
]


def test_deck_has_forty_cards_in_index_order() -> None:
    assert len(CARDS) == 40
    assert [str(c) for c in CARDS[:10]] == [
        "Ad",
        "2d",
        "3d",
        "4d",
        "5d",
        "6d",
        "7d",
        "Jd",
        "Hd",
        "Kd",
    ]
    assert str(CARDS[10]) == "Ac"
    assert str(CARDS[20]) == "As"
    assert str(CARDS[39]) == "Kb"
    assert str(SETTEBELLO) == "7d"


def test_capture_and_primiera_values() -> None:
    assert [r.capture_value for r in Rank] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert [r.primiera for r in Rank] == [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]
    assert Card.parse("Kb").value == 10
    assert Card.parse("Jc").value == 8


@pytest.mark.parametrize(("rank_alias", "suit_alias", "card"), ALIASES)
def test_every_alias_reads_and_formats_canonically(
    rank_alias: str, suit_alias: str, card: Card
) -> None:
    for text in (
        rank_alias + suit_alias,
        (rank_alias + suit_alias).upper(),
        rank_alias.lower() + suit_alias,
    ):
        parsed = Card.parse(text)
        assert parsed == card
        assert Card.parse(str(parsed)) == card


@given(st.sampled_from(ALIASES), st.sampled_from([str.upper, str.lower, str.strip]))
def test_alias_round_trip(alias: tuple[str, str, Card], case: object) -> None:
    rank_alias, suit_alias, card = alias
    assert callable(case)
    text = case(f" {rank_alias}{suit_alias} ")
    parsed = Card.parse(text)
    assert parsed is card
    assert Card.parse(str(parsed)) is card
    assert eval(repr(parsed)) == card


def test_canonical_form_examples() -> None:
    assert str(Card.parse("7D")) == "7d"
    assert str(Card.parse("1d")) == "Ad"
    assert str(Card.parse("qc")) == "Hc"
    assert str(Card.parse("Cc")) == "Hc"
    assert str(Card.parse("10♣")) == "Kb"
    assert str(Card.parse("R♣")) == "Kb"
    assert str(Card.parse("F♠")) == "Js"
    assert str(Card.parse("9♦️")) == "Hd"  # the emoji form of the suit symbol
    assert repr(Card.parse("7d")) == "Card.parse('7d')"


def test_rank_alone() -> None:
    assert Rank.parse("A") is Rank.ACE
    assert Rank.parse("1") is Rank.ACE
    assert Rank.parse("k") is Rank.KING
    assert Rank.parse("Q") is Rank.HORSE
    assert Rank.parse("8") is Rank.JACK
    assert Rank.HORSE.symbol == "H"
    assert [r.symbol for r in Rank] == ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"]


@pytest.mark.parametrize("text", ["Xd", "7x", "", "7", "d", "11d", "0c", "7dd", "ace of coins"])
def test_bad_card_names_the_place_and_the_notation(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text, "deals[3].piles.Bruno.cards[2]")
    message = str(info.value)
    assert message.startswith(f"deals[3].piles.Bruno.cards[2]: {text!r} is not a card")
    assert "expected a rank A-7, J, H, K and a suit d c s b" in message
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, ScopaError)


def test_non_string_card_is_refused() -> None:
    with pytest.raises(InvalidCardError, match=r"^x: 7 is not a card"):
        Card.parse(7, "x")
    # in JSON's words, not Python's ("NoneType None")
    with pytest.raises(InvalidCardError, match=r"^x: null is not a card"):
        Card.parse(None, "x")


@pytest.mark.parametrize("text", ["X", "0", "11", "", "7d"])
def test_bad_rank(text: str) -> None:
    with pytest.raises(InvalidCardError, match=r"is not a rank \(expected A-7, J, H, K"):
        Rank.parse(text, "coins[0]")


def test_card_index_outside_the_deck() -> None:
    with pytest.raises(InvalidCardError, match="card index 40 is outside 0-39"):
        Card(40)


def test_cardset_behaves_like_a_set() -> None:
    hand = CardSet.parse("7d 3c Kb")
    assert len(hand) == 3
    assert Card.parse("7d") in hand
    assert Card.parse("7c") not in hand
    assert "7d" not in hand  # only cards are members
    assert str(hand | CardSet.parse("Ad")) == "Ad 7d 3c Kb"
    assert str(hand & CardSet.parse("3c, Kb, Ks")) == "3c Kb"
    assert str(hand - CardSet.parse("3c")) == "7d Kb"
    assert str(hand ^ CardSet.parse("3c Ks")) == "7d Ks Kb"
    assert CardSet.parse("Kb") <= hand
    assert not hand <= CardSet.parse("Kb")
    assert hand == CardSet.parse(["Kb", "3c", "7D"])
    assert hash(hand) == hash(CardSet.parse("Kb 3c 7d"))
    assert hand.to_list() == ["7d", "3c", "Kb"]
    assert repr(hand) == "CardSet.parse('7d 3c Kb')"
    assert str(hand.suit(Suit.CUPS)) == "3c"
    assert hand.ranks_of(Suit.COINS) == 1 << Rank.SEVEN
    assert len(CardSet.full()) == 40
    assert not CardSet()
    with pytest.raises(AttributeError):
        hand.mask = 0


def test_cardset_duplicate_names_its_place() -> None:
    with pytest.raises(InvalidCardError, match=r"^cards\[2\]: '7d' is listed twice$"):
        CardSet.parse(["7d", "3c", "7D"], "cards")


def test_cardset_bad_card_names_its_index() -> None:
    with pytest.raises(InvalidCardError, match=r"^p\.cards\[1\]: 'Zz' is not a card"):
        CardSet.parse(["7d", "Zz"], "p.cards")


def test_cardset_mask_out_of_range() -> None:
    with pytest.raises(InvalidCardError):
        CardSet(1 << 40)


@given(st.integers(0, (1 << 40) - 1))
def test_cardset_round_trip(mask: int) -> None:
    cards = CardSet(mask)
    assert CardSet.parse(str(cards)) == cards
    assert CardSet.parse(cards.to_list()) == cards
    assert len(cards) == len(list(cards)) == mask.bit_count()


def test_napola_run() -> None:
    assert napola_run(0b111) == 3
    assert napola_run(0b1101111) == 4  # A 2 3 4 6 7: the run breaks at the missing 5
    assert napola_run(0b110) == 0  # no ace
    assert napola_run(0x3FF) == 10


# CardSet as a frozen set (issue 8): the frozenset API, __index__, subsets() -----------------

card_sets = st.integers(0, (1 << 40) - 1).map(CardSet)


@given(card_sets, card_sets, card_sets)
def test_cardset_behaves_as_a_frozenset_of_cards(a: CardSet, b: CardSet, c: CardSet) -> None:
    fa, fb, fc = frozenset(a), frozenset(b), frozenset(c)
    assert frozenset(a.union(b, c)) == fa.union(fb, fc)
    assert frozenset(a.intersection(b, c)) == fa.intersection(fb, fc)
    assert frozenset(a.difference(b, c)) == fa.difference(fb, fc)
    assert frozenset(a.symmetric_difference(b)) == fa.symmetric_difference(fb)
    assert a.issubset(b) == fa.issubset(fb) == (a <= b)
    assert a.issuperset(b) == fa.issuperset(fb) == (a >= b)
    assert a.isdisjoint(b) == fa.isdisjoint(fb)
    assert (a < b) == (fa < fb)
    assert (a > b) == (fa > fb)
    # The named methods take any iterable of cards, as frozenset's do.
    assert a.union(list(b)) == a | b
    assert a.issubset(iter(list(a | b)))
    assert frozenset(~a) == frozenset(CARDS) - fa
    assert a.copy() == a
    assert list(reversed(a)) == sorted(fa, reverse=True)


@given(card_sets)
def test_cardset_is_its_mask_where_an_int_is_wanted(cards: CardSet) -> None:
    assert int(cards) == cards.__index__() == cards.mask
    assert bin(cards) == bin(cards.mask)
    assert hex(cards) == hex(cards.mask)
    assert [c for c in CARDS if cards.mask >> c.index & 1] == list(cards)


@given(st.integers(0, (1 << 40) - 1).filter(lambda m: m.bit_count() <= 6).map(CardSet))
def test_subsets_are_every_subset_once(cards: CardSet) -> None:
    subsets = list(cards.subsets())
    expected = {
        frozenset(combo)
        for size in range(len(cards) + 1)
        for combo in itertools.combinations(cards, size)
    }
    assert len(subsets) == 2 ** len(cards)
    assert {frozenset(s) for s in subsets} == expected
    assert subsets[0] == CardSet()
    assert subsets[-1] == cards
    assert [s.mask for s in subsets] == sorted(s.mask for s in subsets)
