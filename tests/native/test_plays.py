"""The kernel's legal plays equal the Python engine's, state by state (Hypothesis), and a
playout from any reachable state ends where the Python engine's ends."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.engine import VARIANTS, Variant, apply, deal, legal_plays, native
from scopa.engine.captures import rules_for
from scopa.engine.players import play_out_random
from tests.examples import examples

OPTIONS = [
    {},
    {"sum_choice": "fewest"},
    {"capture_optional": "on"},
    {"ace_sweep": "on", "last_play_sweep": "on"},
    {"capture_optional": "on", "sum_choice": "fewest"},
]
variants = st.builds(
    lambda name, options: VARIANTS[name].with_options(options),
    st.sampled_from(sorted(n for n, v in VARIANTS.items() if v.capture in native.NATIVE_CAPTURES)),
    st.sampled_from(OPTIONS),
)


@st.composite
def hands_and_tables(draw: st.DrawFn) -> tuple[int, int]:
    """A hand of 0-10 cards and a table of 0-16 other cards (more than play usually leaves)."""
    cards = draw(st.permutations(range(40)))
    on_table = draw(st.integers(0, 16))
    in_hand = draw(st.integers(0, 10))
    table = sum(1 << c for c in cards[:on_table])
    hand = sum(1 << c for c in cards[on_table : on_table + in_hand])
    return hand, table


@settings(max_examples=examples(1500), deadline=None)
@given(variants, hands_and_tables())
def test_same_plays_in_the_same_order(variant: Variant, position: tuple[int, int]) -> None:
    hand, table = position
    assert native.legal_pairs(variant, hand, table) == rules_for(variant).plays(hand, table)


def test_a_crowded_table() -> None:
    """Every ace, two and three on the table: many sums, each listed once, in order."""
    table = sum(1 << (suit * 10 + rank) for suit in range(4) for rank in range(3))
    hand = sum(1 << (suit * 10 + 9) for suit in range(4))
    for name in ("scopa", "escoba"):
        variant = VARIANTS[name]
        plays = native.legal_pairs(variant, hand, table)
        assert plays == rules_for(variant).plays(hand, table)
        assert len(plays) == len(set(plays)) > 100


@settings(max_examples=examples(200), deadline=None)
@given(
    variants,
    st.sampled_from([2, 3, 4, 6]),
    st.integers(0, 2**64),
    st.integers(0, 39),
    st.randoms(use_true_random=False),
)
def test_playout_from_any_state(
    variant: Variant, players: int, seed: int, steps: int, chooser: random.Random
) -> None:
    if players not in variant.players:
        players = variant.players[0]
    state = deal(variant, players, seed=seed, dealer=seed % players)
    for _ in range(steps):
        if state.finished:
            break
        plays = legal_plays(state)
        assert [p.pair for p in plays] == native.legal_pairs(
            variant, state.hands[state.turn], state.table
        )
        state = apply(state, chooser.choice(plays))
    assert native.playout(state, seed) == play_out_random(state, random.Random(seed))
