"""Both engines give the same deals: the same plays, the same statistics, for every variant,
player count and seat strategy (the kernel reproduces CPython's generator number for number)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from scopa.cli_engine import simulation_json
from scopa.engine import VARIANTS, State, apply, deal, legal_plays, native
from scopa.engine.players import play_out_random
from scopa.engine.simulate import Simulation, deal_seed, simulate

CONFIGS = [
    (name, players)
    for name, variant in VARIANTS.items()
    for players in variant.players
    if players * variant.hand_size + variant.table_size <= 40
    and variant.capture in native.NATIVE_CAPTURES
]
"""Every variant the kernel plays with every number of players it is dealt for."""


def both(sim: Simulation) -> tuple[Simulation, Simulation]:
    return dataclasses.replace(sim, engine="python"), dataclasses.replace(sim, engine="native")


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_thousand_deals_same_plays_and_statistics(name: str, players: int) -> None:
    variant = VARIANTS[name]
    python, kernel = both(Simulation(variant, players, ("random",), seed=2026))
    assert kernel.native
    assert not python.native
    for k in range(200):
        seed = deal_seed(2026, k)
        assert kernel.play(seed, k % players) == python.play(seed, k % players), k
    count = 1000
    expected = simulation_json(python, simulate(python, count), 0.0)
    assert simulation_json(kernel, simulate(kernel, count), 0.0) == expected
    assert expected["deals"] == count


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@pytest.mark.parametrize("strategies", [("greedy", "random"), ("mixed", "greedy")])
def test_greedy_and_mixed_seats(name: str, players: int, strategies: tuple[str, str]) -> None:
    variant = VARIANTS[name]
    python, kernel = both(Simulation(variant, players, strategies, seed=77))
    for k in range(40):
        seed = deal_seed(77, k)
        assert kernel.play(seed, k % players) == python.play(seed, k % players), k
    count = 150 if "random" in strategies else 60
    assert simulation_json(kernel, simulate(kernel, count), 0.0) == simulation_json(
        python, simulate(python, count), 0.0
    )


def test_mixed_seats_are_neither_greedy_nor_random() -> None:
    """The mixed strategy plays greedily most of the time: its deals are not the greedy
    player's, and it scores between the random player and the greedy one."""
    variant = VARIANTS["scopa"]
    points = {}
    for name in ("random", "mixed", "greedy"):
        sim = Simulation(variant, 2, (name, "greedy"), seed=3, engine="native")
        points[name] = simulation_json(sim, simulate(sim, 4000), 0.0)["points_per_deal"]["P1"]
    assert points["random"]["total"] + 0.3 < points["mixed"]["total"]
    assert points["mixed"]["total"] < points["greedy"]["total"] - 0.05


@pytest.mark.parametrize(
    ("name", "players", "partnerships", "options"),
    [
        ("scopa", 4, True, {}),
        ("scopa", 6, True, {"sum_choice": "fewest", "capture_optional": "on"}),
        ("scopone", 4, True, {"last_play_sweep": "on"}),
        ("assi", 3, False, {"ace_sweep": "on", "kings_redeal": "off"}),
        ("escoba", 2, False, {"capture_optional": "off", "dealer_sweeps": "off"}),
        ("cirulla", 4, True, {"matta_play": "declared", "low_table": "on"}),
        ("cirulla", 3, False, {"capture_optional": "on", "aces_redeal": "off"}),
    ],
)
def test_matches_options_and_teams(
    name: str, players: int, partnerships: bool, options: dict[str, str]
) -> None:
    variant = VARIANTS[name].with_options(options)
    settings = variant.settings.replace(partnerships=partnerships, last_capture_sweep=True)
    python, kernel = both(Simulation(variant, players, ("random",), 5, settings))
    assert simulation_json(kernel, simulate(kernel, 4, matches=True), 0.0) == simulation_json(
        python, simulate(python, 4, matches=True), 0.0
    )
    assert simulation_json(kernel, simulate(kernel, 300), 0.0) == simulation_json(
        python, simulate(python, 300), 0.0
    )


def test_workers_do_not_change_the_figures() -> None:
    sim = Simulation(VARIANTS["scopa"], 2, ("random",), seed=8, engine="native")
    one = simulation_json(sim, simulate(sim, 3000), 0.0)
    assert simulation_json(sim, simulate(sim, 3000, workers=2), 0.0) == one


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 3 << 64 | 5, 2**159 + 12345])
def test_seeds_of_any_size(seed: int) -> None:
    variant = VARIANTS["scopa"]
    rng = random.Random(seed)
    expected = play_out_random(deal(variant, 2, seed=seed, rng=rng), rng)
    assert native.play(variant, 2, seed, 0, ("random", "random")) == expected


def test_playout_leaves_the_generator_where_python_does() -> None:
    variant = VARIANTS["escoba"]
    state = deal(variant, 3, seed=4)
    for _ in range(5):
        state = state_after_first_play(state)
    for seed in range(30):
        mine, theirs = random.Random(seed), random.Random(seed)
        for _ in range(seed % 3):  # the generator part-way through its words
            mine.random(), theirs.random()
        mine.getrandbits(32 * (seed * 37 % 700)), theirs.getrandbits(32 * (seed * 37 % 700))
        assert native.playout(state, mine) == play_out_random(state, theirs)
        assert mine.getstate() == theirs.getstate()
        assert mine.random() == theirs.random()


def test_cirulla_playouts_with_a_declared_matta() -> None:
    """Mid-deal Cirulla states with a declared matta (shown cards, matta_as) play out alike."""
    variant = VARIANTS["cirulla"].with_options({"matta_play": "declared"})
    seen = 0
    for seed in range(400):
        state = deal(variant, 2, seed=seed)
        if state.matta_as is None:
            continue
        seen += 1
        assert native.playout(state, seed) == play_out_random(state, random.Random(seed))
    assert seen >= 3


def test_playout_from_an_int_seed() -> None:
    state = deal(VARIANTS["assi"], 2, seed=12)
    assert native.playout(state, 99) == play_out_random(state, random.Random(99))
    finished = native.playout(state, 99, ("greedy", "random"))
    assert finished.finished
    assert finished.cards_in_play() == 40


def state_after_first_play(state: State) -> State:
    return apply(state, legal_plays(state)[0])


def test_unknown_strategy_plays_in_python() -> None:
    sim = Simulation(VARIANTS["scopa"], 2, ("random",), 1, engine="native")
    assert sim.native
    assert not native.plays_natively(("random", "search"))
    assert not dataclasses.replace(sim, engine="python").native
