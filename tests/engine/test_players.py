"""Players, the fast random loop, and the simulator's statistics."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from scopa.engine.players import (
    GreedyPlayer,
    Player,
    RandomPlayer,
    make_player,
    play_out,
    play_out_random,
)
from scopa.engine.simulate import Simulation, Stats, run_deals, simulate
from scopa.engine.state import Play, State, deal
from scopa.engine.variants import VARIANTS, get_variant
from scopa.errors import ScopaError, UnknownStrategyError, UnknownVariantError
from tests.engine.helpers import position


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_fast_loop_plays_exactly_as_the_random_players(name: str) -> None:
    variant = VARIANTS[name]
    for players in variant.players:
        for seed in range(15):
            a_rng, b_rng = random.Random(seed), random.Random(seed)
            a = play_out_random(deal(variant, players, seed=seed, rng=a_rng), a_rng)
            start = deal(variant, players, seed=seed, rng=b_rng)
            b = play_out(start, [RandomPlayer(b_rng) for _ in range(players)])
            assert a == b


class FirstPlay:
    """A player of the protocol, for the test: always the first legal play."""

    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        return plays[0]


def test_any_object_with_choose_is_a_player() -> None:
    players: list[Player] = [FirstPlay(), GreedyPlayer()]
    state = play_out(deal(VARIANTS["scopa"], 2, seed=1), players)
    assert state.finished
    assert state.cards_in_play() == 40


def test_greedy_takes_the_sweep_and_the_settebello() -> None:
    greedy = GreedyPlayer()
    state = position(["5d 7c Kb", "Ad 2d 3d"], "5s", stock=(0,) * 0)
    plays = [Play.parse("5d x 5s"), Play.parse("7c"), Play.parse("Kb")]
    assert str(greedy.choose(state, plays)) == "5d x 5s"
    state = position(["7d 7c", "Ad 2d"], "7s 4b 3b")
    plays = [Play.parse("7d x 7s"), Play.parse("7c x 7s")]
    assert str(greedy.choose(state, plays)) == "7d x 7s"


def test_greedy_avoids_leaving_a_sweepable_table() -> None:
    # Trailing the 2 leaves 3 + 2 = 5 for a 5 still unseen; trailing the king leaves 13.
    state = position(["2c Kc", "4d 4s"], "3b")
    choice = GreedyPlayer().choose(state, [Play.parse("2c"), Play.parse("Kc")])
    assert str(choice) == "Kc"


def test_unknown_strategy() -> None:
    with pytest.raises(UnknownStrategyError, match="unknown strategy 'minimax'"):
        make_player("minimax", random.Random(0))


def test_figures_do_not_depend_on_the_number_of_workers() -> None:
    sim = Simulation(VARIANTS["scopa"], 2, ("random", "greedy"), seed=3)
    one = simulate(sim, 120, workers=1)
    two = simulate(sim, 120, workers=2)
    assert one.to_json() == two.to_json()
    seen: list[int] = []
    simulate(sim, 50, progress=seen.append)
    assert sum(seen) == 50


def test_stats_merge_and_json() -> None:
    sim = Simulation(VARIANTS["scopone"], 4, seed=1)
    whole = run_deals(sim, 0, 40)
    parts = Stats(whole.sides)
    parts.merge(run_deals(sim, 0, 25))
    parts.merge(run_deals(sim, 25, 15))
    assert parts.to_json() == whole.to_json()
    data = whole.to_json()
    assert data["sides"] == ["P1 & P3", "P2 & P4"]
    assert data["deals"] == 40
    assert sum(data["deal_wins"].values()) + data["deal_ties"] == 40


def test_the_engine_errors_share_the_one_root() -> None:
    """Issue 8: unknown variants and strategies are ScopaErrors (and ValueErrors)."""
    with pytest.raises(UnknownVariantError) as variant:
        get_variant("briscola")
    with pytest.raises(UnknownStrategyError) as strategy:
        make_player("minimax", random.Random(0))
    for error in (variant.value, strategy.value):
        assert isinstance(error, ScopaError)
        assert isinstance(error, ValueError)
