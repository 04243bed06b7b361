"""The Gymnasium environment passes Gymnasium's own check_env; opponents play by strategy."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (pip install 'scopa[rl]') is not installed")

from gymnasium.utils.env_checker import check_env

from scopa.engine.players import UnknownStrategyError
from scopa.envs import gymnasium_env
from scopa.errors import InputError


@pytest.mark.parametrize(
    ("variant", "players", "opponents", "reward"),
    [
        ("scopa", 2, "random", "points"),
        ("scopa", 4, "greedy", "match"),
        ("scopone", 4, ("greedy", "random", "greedy"), "points"),
        ("escoba", 3, "greedy", "points"),
        ("assi", 2, "random", "match"),
    ],
)
def test_check_env(variant: str, players: int, opponents: str, reward: str) -> None:
    check_env(
        gymnasium_env(variant=variant, players=players, opponents=opponents, reward=reward),
        skip_render_check=True,
    )


def test_masked_episode_rewards_the_side_points() -> None:
    env = gymnasium_env(variant="scopa", players=2, opponents="greedy", seat=1)
    observation, info = env.reset(seed=3)
    done, total, steps = False, 0.0, 0
    while not done:
        action = int(observation["action_mask"].nonzero()[0][-1])
        observation, reward, done, _truncated, info = env.step(action)
        total += reward
        steps += 1
    assert steps == 18
    assert total == env.unwrapped.game.points()[1]
    assert info["totals"] == list(env.unwrapped.game.points())


def test_illegal_action_ends_the_episode() -> None:
    env = gymnasium_env()
    observation, _ = env.reset(seed=2)
    illegal = int((observation["action_mask"] == 0).nonzero()[0][0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done) == (-1.0, True)
    assert "not a legal play" in info["illegal_action"]


def test_bad_options() -> None:
    with pytest.raises(UnknownStrategyError, match="unknown strategy 'oracle'"):
        gymnasium_env(opponents="oracle")
    with pytest.raises(InputError, match="seat: 2 is not one of the seats 0-1"):
        gymnasium_env(seat=2)
    with pytest.raises(InputError, match="opponents: 2 names for 1 opponents"):
        gymnasium_env(opponents=("random", "greedy"))
