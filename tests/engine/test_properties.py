"""A Hypothesis-driven random game: the invariants of docs/rules.md sections 2-4 at every step."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import variants as sheet_variants
from scopa.cards import FULL_MASK
from scopa.engine.captures import rules_for
from scopa.engine.simulate import Scorer, Simulation
from scopa.engine.state import State, apply, deal, legal_plays, to_deal
from scopa.engine.variants import VARIANTS
from tests.examples import examples

variants = st.sampled_from(sorted(VARIANTS))


def check_position(state: State) -> None:
    masks = [*state.hands, state.table, *state.piles]
    union = 0
    for m in masks:
        assert union & m == 0, "a card is in two places"
        union |= m
    stock = 0
    for index in state.stock:
        stock |= 1 << index
    assert union & stock == 0
    assert union | stock == FULL_MASK
    assert state.cards_in_play() == 40


@settings(max_examples=examples(60), deadline=None)
@given(name=variants, seed=st.integers(0, 2**32), data=st.data())
def test_random_game_keeps_the_invariants(name: str, seed: int, data: st.DataObject) -> None:
    variant = VARIANTS[name]
    players = data.draw(st.sampled_from(variant.players), label="players")
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    state = deal(variant, players, seed=seed, dealer=dealer)
    rules = rules_for(variant)
    check_position(state)
    steps = 0
    while not state.finished:
        plays = legal_plays(state)
        assert plays, "a player with cards always has a legal play"
        assert len(set(plays)) == len(plays)
        play = plays[data.draw(st.integers(0, len(plays) - 1))]
        before = state
        state = apply(state, play)
        steps += 1
        check_position(state)
        seat = before.turn
        swept = state.sweeps[seat] - before.sweeps[seat]
        assert swept in (0, 1)
        if swept:
            assert play.capture, "a sweep is a capture"
            assert before.table == play.capture.mask, "a sweep clears the table"
            assert not state.finished or variant.last_play_sweep, "no sweep on the last play"
        if not play.capture and not variant.capture_optional:
            assert not rules.captures(play.card.index, before.table), "a forced capture"
        for other in range(players):
            if other != seat:
                assert state.sweeps[other] == before.sweeps[other]
    assert steps == 40 - variant.table_size
    assert state.table == 0
    record = to_deal(state)
    record.check()
    if state.leftovers_to is None:
        assert record.last_capture is None
    sim = Simulation(variant, players)
    points = Scorer(sim).points(record)
    assert len(points) == (2 if players in variant.partners_at else players)
    categories = sheet_variants.get(variant.sheet).categories
    for p in points:
        assert p.total == sum(p.to_dict(categories).values())
