"""Cirulla conformance: properties of random games (docs/rules.md 9.5-9.8), with Hypothesis.

Every game: the 40 cards are conserved at every step; each hand received is declared exactly
as an independent oracle says (9.5 declarations, the matta wild); every sweep clears the
table and none is made with the last card (9.8.8); the finished deal passes the sheet's checks
and is scored by the one scorer without error (9.6), points adding up to their total.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import variants as sheet_variants
from scopa.cards import CARDS, CardSet, Rank, Suit
from scopa.engine.players import RandomPlayer, play_out, play_out_random
from scopa.engine.simulate import Scorer, Simulation
from scopa.engine.state import State, apply, deal, legal_plays, to_deal
from scopa.engine.variants import VARIANTS, Variant
from scopa.match import score_match
from tests.engine.test_properties import check_position
from tests.examples import examples

MATTA = CARDS[Suit.CUPS * 10 + Rank.SEVEN]
SHEET = sheet_variants.get("cirulla")

options = st.fixed_dictionaries(
    {
        "low_table": st.sampled_from(["on", "off"]),
        "matta_play": st.sampled_from(["seven", "declared"]),
        "sum_choice": st.sampled_from(["free", "fewest"]),
    }
)


def oracle(hand: int) -> str:
    """The declaration of a hand, by trying every value of the matta (9.5; default points:
    a decino is worth more than a cirulla)."""
    cards = list(CardSet(hand))
    assert len(cards) == 3
    others = [c for c in cards if c != MATTA]
    wild = range(1, 11) if len(others) < 3 else [None]
    decino = cirulla = False
    for value in wild:
        values = [c.value for c in others] + ([value] if value is not None else [])
        cirulla |= sum(values) <= 9
        decino |= len(set(values)) == 1  # one value = one rank: values are ranks + 1
    return "decino" if decino else "cirulla" if cirulla else ""


def play_game(variant: Variant, players: int, seed: int, pick: st.DataObject) -> State:
    state = deal(variant, players, seed=seed, dealer=seed % players)
    expected: list[list[str]] = [[] for _ in range(players)]

    def received(hands: tuple[int, ...]) -> None:
        for seat, hand in enumerate(hands):
            kind = oracle(hand)
            if kind:
                expected[seat].append(kind)

    received(state.hands)
    while not state.finished:
        check_position(state)
        assert state.declarations == tuple(tuple(e) for e in expected)
        plays = legal_plays(state)
        before = state
        state = apply(state, plays[pick.draw(st.integers(0, len(plays) - 1))])
        swept = sum(state.sweeps) - sum(before.sweeps)
        if swept:
            assert before.table == state.history[-1][1], "a sweep clears the table"
            assert not state.finished, "no sweep with the deal's last card (9.8.8)"
        if state.stock != before.stock:
            received(state.hands)
    check_position(state)
    assert state.declarations == tuple(tuple(e) for e in expected)
    assert state.ace_sweeps == (), "Cirulla's take-alls are sweeps"
    assert state.last_capturer is not None, "every deal has a capture (9.5)"
    return state


@settings(max_examples=examples(40), deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32),
    chosen=options,
    pick=st.data(),
)
def test_random_cirulla_games(
    players: int, seed: int, chosen: dict[str, str], pick: st.DataObject
) -> None:
    variant = VARIANTS["cirulla"].with_options(chosen)
    state = play_game(variant, players, seed, pick)
    assert len(state.history) == 36
    record = to_deal(state)
    received = [SHEET.hands_received(players)] * players
    record.check(SHEET, received)
    sim = Simulation(variant, players)
    scorer = Scorer(sim)
    points = scorer.points(record)
    assert len(points) == (2 if players == 4 else players)
    for p in points:
        assert p.total == sum(p.to_dict(SHEET.categories).values())
        assert p.napola == 0
    sheet = score_match(scorer.match.with_deals([record]))
    assert sheet.deals[0].points == points
    coins = [CardSet(pile) for pile in state.piles]
    holder = [k for k, pile in enumerate(coins) if len(pile.suit(Suit.COINS)) == 10]
    if holder and players != 4:
        assert sheet.winner == sim.names[holder[0]], "a cappotto wins (9.7)"


@settings(max_examples=examples(20), deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), chosen=options)
def test_the_random_playout_is_the_general_path(
    players: int, seed: int, chosen: dict[str, str]
) -> None:
    """Issue 8: the simulator's random playout makes the plays legal_plays/apply make."""
    variant = VARIANTS["cirulla"].with_options(chosen)
    a_rng, b_rng = random.Random(seed), random.Random(seed)
    fast = play_out_random(deal(variant, players, rng=a_rng), a_rng)
    general = play_out(deal(variant, players, rng=b_rng), [RandomPlayer(b_rng)] * players)
    assert fast == general


def test_the_oracle_agrees_with_the_rulebook_examples() -> None:
    """The oracle itself, on 9.5's matta examples (a test of the test)."""
    hands = {"7c 4s 4b": "decino", "7c As 2b": "cirulla", "7c 4s 5b": "", "Ad As Ab": "decino"}
    for hand, kind in hands.items():
        assert oracle(CardSet.parse(hand).mask) == kind
    every = sum(
        1 for combo in itertools.combinations(range(40), 3) if oracle(sum(1 << c for c in combo))
    )
    assert 0 < every < 9880
