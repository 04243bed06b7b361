"""Deal facts: piles in full and tally form, pooling, and the checks of docs/formats.md."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa.cards import Card, CardSet, Rank
from scopa.deal import Deal, Pile
from scopa.errors import InvalidDealError
from scopa.i18n import using
from scopa.words import CardWords, card_name, using_deck
from tests.strategies import deals, player_lists, tally_of

# The worked example of docs/rules.md section 5.
A_CARDS = CardSet.parse("Ad 2d 3d 5d 7d Kd Ac 2c 6c 7c Hc 2s 4s 7s Js Ks 2b 3b 5b 6b Hb Kb")
B_CARDS = CardSet.full() - A_CARDS


def test_full_pile_facts() -> None:
    pile = Pile.of_cards(A_CARDS)
    assert pile.count == 22
    assert pile.coin_count == 6
    assert pile.settebello is True
    assert pile.primiera == 81
    assert pile.primiera_values == (21, 21, 21, 18)
    assert pile.napola == 3
    assert pile.is_full
    b = Pile.of_cards(B_CARDS)
    assert (b.count, b.coin_count, b.settebello, b.primiera, b.napola) == (18, 4, False, 72, 0)
    assert b.primiera_values == (18, 15, 18, 21)


def test_best_face_is_the_king_then_horse_then_jack() -> None:
    assert Pile.of_cards(CardSet.parse("Jc Hc Kc")).best[0] == Rank.KING
    assert Pile.of_cards(CardSet.parse("Jc Hc")).best[0] == Rank.HORSE
    assert Pile.of_cards(CardSet.parse("Jc 2c")).best[0] == Rank.TWO


def test_missing_suit_has_no_primiera() -> None:
    three_sevens = Pile.of_cards(CardSet.parse("7d 7c 7s 6d 6c 6s"))
    assert three_sevens.primiera == 0
    assert three_sevens.primiera_values == (21, 21, 21, 0)


def test_tally_pile_facts() -> None:
    pile = Pile.tally(
        18, [Rank.FOUR, Rank.SIX, Rank.JACK, Rank.HORSE], [Rank.FIVE, Rank.SIX, Rank.SEVEN]
    )
    assert (pile.count, pile.coin_count, pile.settebello, pile.primiera) == (18, 4, False, 72)
    assert not pile.is_full
    faces = Pile.tally(5, [Rank.KING], [Rank.JACK, None, Rank.HORSE])
    assert faces.primiera == 0  # no swords
    assert faces.primiera_values == (10, 10, 0, 10)


def test_tally_of_full_pile_has_the_same_facts() -> None:
    full = Pile.of_cards(A_CARDS)
    tally = tally_of(full)
    assert tally.cards is None
    for name in ("count", "coin_count", "settebello", "primiera", "napola", "primiera_values"):
        assert getattr(tally, name) == getattr(full, name)


def test_pool_partners() -> None:
    anna = Pile.of_cards(CardSet.parse("7d Jd Ac 2s"))
    carla = Pile.of_cards(CardSet.parse("Ad 2d 3d 7c 6b"))
    team = Pile.pool([anna, carla])
    assert team.count == 9
    assert team.coin_count == 5
    assert team.settebello
    assert team.napola == 3
    assert team.primiera == 21 + 21 + 12 + 18
    assert team.cards == CardSet.parse("7d Jd Ac 2s Ad 2d 3d 7c 6b")
    assert Pile.pool([anna]) is anna


def test_pool_with_a_tally_pile_is_a_tally() -> None:
    anna = Pile.of_cards(CardSet.parse("7d 7c"))
    carla = Pile.tally(3, [Rank.ACE], [None, Rank.SIX, Rank.KING])
    team = Pile.pool([anna, carla])
    assert team.cards is None
    assert team.count == 5
    assert team.best == (Rank.SEVEN, Rank.SIX, Rank.KING)
    assert team.primiera == 21 + 21 + 18 + 10


def test_claimed_cards_of_a_tally() -> None:
    pile = Pile.tally(6, [Rank.ACE, Rank.SEVEN], [Rank.SEVEN, Rank.KING, None])
    assert str(CardSet(pile.claimed())) == "Ad 7d 7c"  # a face names no single card


def worked_example(sweeps: tuple[int, int] = (1, 2), last: str | None = None) -> Deal:
    return Deal(("A", "B"), (Pile.of_cards(A_CARDS), Pile.of_cards(B_CARDS)), sweeps, last)


def test_worked_example_is_valid() -> None:
    deal = worked_example()
    deal.check()
    assert deal.pile("B").count == 18
    assert deal.last_index is None
    assert worked_example(last="B").last_index == 1


def test_owners_piles_and_sweeps_line_up() -> None:
    with pytest.raises(InvalidDealError, match="do not line up"):
        Deal(("A", "B"), (Pile.of_cards(A_CARDS),), (0, 0))


def check_message(deal: Deal) -> str:
    with pytest.raises(InvalidDealError) as info:
        deal.check()
    return str(info.value)


def test_full_piles_must_be_disjoint() -> None:
    deal = Deal(
        ("A", "B"),
        (Pile.of_cards(A_CARDS), Pile.of_cards(B_CARDS | CardSet.parse("7d Kb"))),
        (0, 0),
    )
    assert check_message(deal) == "piles.B: 7 of coins, king of clubs already in another pile"


def test_piles_must_hold_forty_cards() -> None:
    short = A_CARDS - CardSet.parse("Kb")
    deal = Deal(("A", "B"), (Pile.of_cards(short), Pile.of_cards(B_CARDS)), (0, 0))
    assert check_message(deal) == "piles: the piles hold 39 cards (A 21, B 18), not 40"


def test_tally_counts_must_sum_to_forty() -> None:
    a = tally_of(Pile.of_cards(A_CARDS))
    b = Pile.tally(
        17, [Rank.FOUR, Rank.SIX, Rank.JACK, Rank.HORSE], [Rank.FIVE, Rank.SIX, Rank.SEVEN]
    )
    assert check_message(Deal(("A", "B"), (a, b), (0, 0))) == (
        "piles: the piles hold 39 cards (A 22, B 17), not 40"
    )


def test_coins_must_be_split() -> None:
    a = tally_of(Pile.of_cards(A_CARDS))
    b = Pile.tally(18, [Rank.FOUR, Rank.SIX, Rank.JACK], [Rank.FIVE, Rank.SIX, Rank.SEVEN])
    assert check_message(Deal(("A", "B"), (a, b), (0, 0))) == (
        "piles: the coins H are in nobody's pile (all 10 coins must be split)"
    )


def test_coin_in_two_tallies() -> None:
    a = tally_of(Pile.of_cards(A_CARDS))
    b = Pile.tally(
        18,
        [Rank.ACE, Rank.FOUR, Rank.SIX, Rank.JACK, Rank.HORSE],
        [Rank.FIVE, Rank.SIX, Rank.SEVEN],
    )
    assert (
        check_message(Deal(("A", "B"), (a, b), (0, 0)))
        == "piles.B: ace of coins already in another pile"
    )
    # said as a sentence at the table, with its verb
    with pytest.raises(InvalidDealError) as info:
        Deal(("A", "B"), (a, b), (0, 0)).check()
    for language, said in (
        ("it", "asso di denari è già in un altro mazzetto"),
        ("es", "as de oros ya está en otro montón"),
    ):
        with using(language):
            assert info.value.text() == said


def test_the_seven_of_each_suit_must_be_somebodys_best() -> None:
    a = tally_of(Pile.of_cards(A_CARDS))  # holds 7c 7s, not 7b
    b = Pile.tally(
        18, [Rank.FOUR, Rank.SIX, Rank.JACK, Rank.HORSE], [Rank.FIVE, Rank.SIX, Rank.ACE]
    )
    deal = Deal(("A", "B"), (a, b), (0, 0))
    assert check_message(deal) == (
        "piles: nobody holds the 7 of clubs (it must be somebody's best card)"
    )
    # said in the reader's words, as the phone's live check shows it (it said "il 7c (il 7
    # di cups ...)": the notation's code and the English suit)
    with pytest.raises(InvalidDealError) as info:
        deal.check()
    with using("it"):
        said = info.value.text()
    assert said == "nessuno ha il sette di bastoni (deve essere la carta migliore di qualcuno)"
    with using("es"), using_deck("french"):
        said = CardWords([Card.parse("7b"), Card.parse("Hd")]).text()
    assert said == "siete de tréboles, reina de diamantes"


def test_count_at_least_what_the_tally_implies() -> None:
    a = Pile.tally(3, [Rank.ACE, Rank.TWO, Rank.THREE], [Rank.SEVEN, None, None])
    b = Pile.tally(
        37,
        [Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.JACK, Rank.HORSE, Rank.KING],
        [Rank.SIX, Rank.SEVEN, Rank.SEVEN],
    )
    assert check_message(Deal(("A", "B"), (a, b), (0, 0))) == (
        "piles.A.count: 3 cards is fewer than the 4 that its coins and best cards imply"
    )


def test_sweeps_at_most_half_the_cards() -> None:
    assert check_message(worked_example((1, 10))) == (
        "sweeps.B: 10 sweeps with 18 cards captured (at most 9: every sweep takes at least 2 cards)"
    )
    worked_example((11, 9)).check()


@given(player_lists().flatmap(lambda players: deals(players, "mixed")))
def test_random_deals_validate_and_conserve_forty_cards(deal: Deal) -> None:
    deal.check()
    assert sum(p.count for p in deal.piles) == 40
    assert sum(p.coin_count for p in deal.piles) == 10
    full = [p.cards for p in deal.piles if p.cards is not None]
    union = 0
    for cards in full:
        assert union & cards.mask == 0
        union |= cards.mask
    if len(full) == len(deal.piles):
        assert union == CardSet.full().mask


@given(player_lists().flatmap(lambda players: deals(players, "full")), st.data())
def test_moving_a_card_into_two_piles_is_caught(deal: Deal, data: st.DataObject) -> None:
    owner = data.draw(st.sampled_from([i for i, p in enumerate(deal.piles) if p.count]))
    other = data.draw(st.sampled_from([i for i in range(len(deal.piles)) if i != owner]))
    source = deal.piles[owner].cards
    target = deal.piles[other].cards
    assert source is not None
    assert target is not None
    card = data.draw(st.sampled_from(list(source)))
    piles = list(deal.piles)
    piles[other] = Pile.of_cards(target | CardSet([card]))
    with pytest.raises(
        InvalidDealError, match=f"{card_name(card)} already in another pile|hold 41"
    ):
        Deal(deal.owners, tuple(piles), deal.sweeps).check()


# Mutants that survived (issue 8): an ace as a tally's best card, several missing coins ------


def test_an_ace_as_a_tally_piles_best_card_is_held() -> None:
    ace_best = Pile.tally(1, [], [Rank.ACE, None, None])
    assert str(CardSet(ace_best.claimed())) == "Ac"
    assert ace_best.primiera_values == (0, 16, 0, 0)
    full = Pile.tally(4, [Rank.TWO], [Rank.ACE, Rank.ACE, Rank.ACE])
    assert full.primiera == 12 + 16 * 3
    # Another pile holding the ace of cups clashes with it.
    rest = Pile.of_cards(CardSet.full() - CardSet.parse("2d"))
    clash = Deal(("A", "B"), (Pile.tally(2, [Rank.TWO], [Rank.ACE, None, None]), rest), (0, 0))
    assert check_message(clash) == "piles.B: ace of cups already in another pile"
    # The ace counts among the cards its best card implies.
    short = Pile.tally(0, [], [Rank.ACE, None, None])
    others = Pile.of_cards(CardSet.full() - CardSet.parse("Ac"))
    assert check_message(Deal(("A", "B"), (short, others), (0, 0))) == (
        "piles.A.count: 0 cards is fewer than the 1 that its coins and best cards imply"
    )


def test_every_missing_coin_is_named() -> None:
    a = tally_of(Pile.of_cards(A_CARDS))
    b = Pile.tally(18, [Rank.FOUR, Rank.JACK], [Rank.FIVE, Rank.SIX, Rank.SEVEN])
    assert check_message(Deal(("A", "B"), (a, b), (0, 0))) == (
        "piles: the coins 6 H are in nobody's pile (all 10 coins must be split)"
    )
