"""Dealing, applying plays, sweeps, the end of the deal (docs/rules.md sections 2 and 4)."""

from __future__ import annotations

import random

import pytest

from scopa.cards import Card, CardSet
from scopa.engine.captures import KING_MASK
from scopa.engine.state import Play, apply, deal, legal_plays, replay, to_deal
from scopa.engine.variants import VARIANTS
from scopa.errors import IllegalPlayError, UnknownVariantError
from scopa.rules import Settings
from scopa.scoring import score_deal
from tests.engine.helpers import mask, position

SCOPA = VARIANTS["scopa"]


@pytest.mark.parametrize(("players", "stock"), [(2, 30), (3, 27), (4, 24), (6, 18)])
def test_deal_shapes(players: int, stock: int) -> None:
    state = deal(SCOPA, players, seed=5, dealer=players - 1)
    assert [h.bit_count() for h in state.hands] == [3] * players
    assert state.table.bit_count() == 4
    assert len(state.stock) == stock
    assert state.cards_in_play() == 40
    assert state.turn == 0  # the player after the dealer leads


def test_five_players_are_refused() -> None:
    with pytest.raises(UnknownVariantError, match="not dealt for 5 players"):
        deal(SCOPA, 5, seed=1)


def test_scopone_deals_the_whole_pack() -> None:
    nine = deal(VARIANTS["scopone"], 4, seed=3)
    assert [h.bit_count() for h in nine.hands] == [9, 9, 9, 9]
    assert nine.table.bit_count() == 4
    assert nine.stock == ()
    ten = deal(VARIANTS["scopone-10"], 4, seed=3)
    assert [h.bit_count() for h in ten.hands] == [10, 10, 10, 10]
    assert ten.table == 0
    assert ten.stock == ()
    with pytest.raises(UnknownVariantError):
        deal(VARIANTS["scopone"], 2, seed=3)


def test_three_kings_on_the_table_deal_again() -> None:
    # Seed 203's first shuffle lays three kings on the table.
    rng = random.Random(203)
    deck = list(range(40))
    rng.shuffle(deck)
    first_table = sum(1 << c for c in deck[6:10])
    assert (first_table & KING_MASK).bit_count() >= 3
    state = deal(SCOPA, 2, seed=203)
    assert state.redeals == 1
    assert (state.table & KING_MASK).bit_count() < 3
    assert state.cards_in_play() == 40
    assert deal(VARIANTS["escoba"], 2, seed=203).redeals == 0  # no such rule in Escoba


def test_apply_moves_cards_and_passes_the_turn() -> None:
    state = position(["5d 2c 7s", "Kb 3d 4s"], "5s 3c 2b", stock=tuple(range(0, 0)))
    after = apply(state, Play.parse("5d x 5s"))
    assert after.table == mask("3c 2b")
    assert after.piles[0] == mask("5d 5s")
    assert after.hands[0] == mask("2c 7s")
    assert after.turn == 1
    assert after.last_capturer == 0
    assert after.sweeps == (0, 0)
    assert after.history == ((Card.parse("5d").index, mask("5s")),)


@pytest.mark.parametrize(
    ("play", "message"),
    [
        ("5d x 3c 2b", "5d cannot take 3c 2b from the table 3c 5s 2b (legal: 5s)"),
        ("5d", "5d cannot trail on the table 3c 5s 2b: a card that can capture must capture"),
        ("Kb", "Kb is not in the hand of seat 1 (5d 2c 7s)"),
        ("7s x 5s 2c", "2c is not on the table"),
    ],
)
def test_illegal_plays_name_the_card_and_the_table(play: str, message: str) -> None:
    state = position(["5d 2c 7s", "Kb 3d 4s"], "5s 3c 2b")
    with pytest.raises(IllegalPlayError) as info:
        apply(state, Play.parse(play))
    assert message in str(info.value)


def test_a_sweep_is_marked_at_once() -> None:
    state = position(["5d Kc", "3d Kb"], "5s", stock=())
    after = apply(state, Play.parse("5d x 5s"))
    assert after.sweeps == (1, 0)
    assert after.table == 0


def test_no_sweep_on_the_very_last_play_but_earlier_in_the_last_round() -> None:
    # Last round: seat 0 sweeps with its last card, seat 1 then plays the deal's last card.
    state = position(["5d", "3d"], "5s", stock=(), piles=["", ""])
    state = apply(state, Play.parse("5d x 5s"))
    assert state.sweeps == (1, 0)
    state = apply(state, Play.parse("3d"))
    assert state.finished
    assert state.leftovers_to == 0  # the 3 left on the table goes to the last capturer
    assert state.piles[0] == mask("5d 5s 3d")
    final = position(["", "3d"], "3s", turn=1, stock=())
    done = apply(final, Play.parse("3d x 3s"))
    assert done.finished
    assert done.sweeps == (0, 0)
    assert done.leftovers_to is None


def test_last_play_sweep_option() -> None:
    variant = VARIANTS["scopa"].with_options({"last_play_sweep": "on"})
    final = position(["", "3d"], "3s", turn=1, stock=(), variant=variant)
    assert apply(final, Play.parse("3d x 3s")).sweeps == (0, 1)


def test_a_new_round_is_dealt_when_the_hands_are_empty() -> None:
    stock = tuple(Card.parse(c).index for c in ["Ad", "2d", "3d", "Ac", "2c", "3c"])
    state = position(["", "7b"], "Kb", turn=1, stock=stock)
    after = apply(state, Play.parse("7b"))
    # The dealer (seat 2 of 2) deals to seat 1 first.
    assert after.hands == (mask("Ad 2d 3d"), mask("Ac 2c 3c"))
    assert after.stock == ()
    assert after.turn == 0


def test_finished_deal_is_a_valid_record_and_scores() -> None:
    state = deal(SCOPA, 2, seed=42)
    while not state.finished:
        state = apply(state, legal_plays(state)[-1])
    record = to_deal(state, ["Anna", "Bruno"])
    record.check()
    points = score_deal(record.piles, record.sweeps, record.last_index, Settings())
    assert sum(p.total for p in points) >= 2
    assert record.owners == ("Anna", "Bruno")
    with pytest.raises(IllegalPlayError, match="deal is over"):
        apply(state, (0, 0))


def test_replay_from_seed_and_plays_is_exact() -> None:
    rng = random.Random(9)
    state = deal(SCOPA, 3, seed=77, dealer=2)
    while not state.finished:
        plays = legal_plays(state)
        state = apply(state, plays[rng.randrange(len(plays))])
    again = replay(SCOPA, 3, 77, [str(p) for p in state.plays], dealer=2)
    assert again == state
    assert replay(SCOPA, 3, 77, state.history, dealer=2) == state


def test_escoba_dealer_takes_a_starting_fifteen() -> None:
    for seed in range(2000):
        state = deal(VARIANTS["escoba"], 2, seed=seed, dealer=1)
        if state.sweeps[1]:
            break
    else:
        pytest.fail("no starting fifteen in 2000 deals")
    taken = CardSet(state.piles[1])
    total = sum(card.value for card in taken)
    assert len(taken) == 4
    assert total in (15, 30)
    assert state.table == 0
    assert state.sweeps[1] == total // 15
    assert state.last_capturer == 1


def test_assi_ace_take_all_is_recorded_apart() -> None:
    """docs/rules.md 9.4: every take-all goes to ``ace_sweeps``, whatever the ``ace_sweep`` option
    (which only sets how simulations score); a lone ace taken by an ace is a sweep."""
    assi = VARIANTS["assi"]
    for option in ("off", "on"):
        variant = assi.with_options({"ace_sweep": option})
        state = position(["Ad Kc", "3d Kb"], "5s 3c", variant=variant)
        after = apply(state, Play.parse("Ad x 5s 3c"))
        assert after.table == 0
        assert (after.sweeps, after.ace_sweeps) == ((0, 0), (1, 0))
    lone = apply(position(["Ad Kc", "3d Kb"], "As", variant=assi), Play.parse("Ad x As"))
    assert (lone.sweeps, lone.ace_sweeps) == ((1, 0), ())
    # The deal's last card: a take-all is never counted.
    last = apply(position(["Ad", ""], "5s 3c", variant=assi), Play.parse("Ad x 5s 3c"))
    assert last.finished
    assert (last.sweeps, last.ace_sweeps) == ((0, 0), ())
    empty = position(["Ad Kc", "3d Kb"], "", variant=assi)
    assert apply(empty, Play.parse("Ad")).table == mask("Ad")
