"""``scopa simulate --duplicate``: the same deals in every seating, whatever the strategies."""

from __future__ import annotations

import json

import pytest

from scopa.engine.duplicate import play_seating, seatings, simulate_duplicate
from scopa.engine.simulate import Simulation, deal_seed
from scopa.engine.state import State
from scopa.engine.variants import VARIANTS
from tests.conftest import run


def dealt(state: State) -> tuple[int, ...]:
    """The cards each seat was dealt (and played) over the whole deal, read from its plays."""
    hands = [0] * state.players
    for i, (card, _) in enumerate(state.history):
        hands[(state.dealer + 1 + i) % state.players] |= 1 << card
    return tuple(hands)


@pytest.mark.parametrize(
    ("variant", "players", "a", "b"),
    [
        ("scopa", 2, "random", "greedy"),
        ("scopone", 4, "greedy", "random"),
        ("escoba", 3, "random", "ai:1it"),
    ],
)
def test_same_deals_whatever_the_strategies(variant: str, players: int, a: str, b: str) -> None:
    one = Simulation(VARIANTS[variant], players, (a, b), seed=5)
    other = Simulation(VARIANTS[variant], players, ("random", "random"), seed=5)
    for k in range(4):
        seed = deal_seed(5, k)
        first = [dealt(play_seating(one, seed, k % players, s)) for s in range(len(seatings(one)))]
        assert len(set(first)) == 1
        assert dealt(play_seating(other, seed, k % players, 0)) == first[0]


def test_seatings_rotate() -> None:
    sim = Simulation(VARIANTS["scopa"], 3, ("ai", "greedy"))
    assert seatings(sim) == (
        ("ai", "greedy", "ai"),
        ("ai", "ai", "greedy"),
        ("greedy", "ai", "ai"),
    )


def test_margin_is_the_paired_difference() -> None:
    result = simulate_duplicate(Simulation(VARIANTS["scopa"], 2, ("greedy", "random"), seed=2), 60)
    data = result.to_json()
    by = data["by_strategy"]
    margin = data["margin"]
    assert margin["of"] == "greedy"
    assert margin["over"] == "random"
    assert margin["deals"] == 60
    assert data["deals"] == 120
    assert margin["mean"] == pytest.approx(
        by["greedy"]["points_per_deal"] - by["random"]["points_per_deal"], abs=1e-3
    )
    assert 0 < margin["stderr"] < 0.5


def test_matches_in_every_seating() -> None:
    result = simulate_duplicate(
        Simulation(VARIANTS["scopa"], 2, ("greedy", "random"), seed=1), 3, matches=True
    )
    assert result.stats.matches == 6
    rates = result.to_json()["by_strategy"]
    assert rates["greedy"]["match_win_rate"] + rates["random"]["match_win_rate"] == 1.0


def test_cli_duplicate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--duplicate", "--deals", "40", "--seed", "9", "--json"]
    args += ["--strategy", "ai", "--strategy", "greedy", "--think-ms", "1"]
    code, out, err = run(capsys, *args[:-6], "--strategy", "random", "--strategy", "greedy")
    assert code == 0, err
    first = json.loads(out)
    code, out, _ = run(
        capsys, *args[:-6], "--strategy", "random", "--strategy", "greedy", "--workers", "2"
    )
    second = json.loads(out)
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    assert set(first["by_strategy"]) == {"random", "greedy"}
    assert first["margin"]["over"] == "greedy"
    assert first["seatings"] == 2


def test_cli_duplicate_with_the_ai_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--duplicate", "--deals", "2", "--seed", "4", "--json"]
    args += ["--strategy", "ai:2it", "--strategy", "greedy"]
    outs = []
    for _ in range(2):
        code, out, err = run(capsys, *args)
        assert code == 0, err
        data = json.loads(out)
        data.pop("seconds")
        outs.append(data)
    assert outs[0] == outs[1]
    assert outs[0]["margin"]["of"] == "ai:2it"


def test_cli_think_ms_names_the_ai(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "simulate",
        "--duplicate",
        "--deals",
        "1",
        "--strategy",
        "ai",
        "--strategy",
        "greedy",
        "--think-ms",
        "3",
    )
    assert code == 0, err
    assert "margin of ai:3ms over greedy" in out


def test_cli_duplicate_refuses_a_side_of_two_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys,
        "simulate",
        "--duplicate",
        "--variant",
        "scopone",
        "--deals",
        "1",
        "--strategy",
        "greedy",
        "--strategy",
        "greedy",
        "--strategy",
        "random",
        "--strategy",
        "random",
    )
    assert code == 2
    assert "mixes strategies" in err
