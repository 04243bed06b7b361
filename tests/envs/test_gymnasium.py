"""The Gymnasium environment passes Gymnasium's own check_env; opponents play by strategy."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (pip install 'scopa[rl]') is not installed")

import gymnasium
from gymnasium.utils.env_checker import check_env

from scopa.engine.variants import VARIANTS
from scopa.envs import gymnasium_env
from scopa.envs.single import ScopaEnv
from scopa.errors import InputError, UnknownStrategyError


@pytest.mark.parametrize(
    ("variant", "players", "opponents", "reward"),
    [
        ("scopa", 2, "random", "points"),
        ("scopa", 4, "greedy", "match"),
        ("scopone", 4, ("greedy", "random", "greedy"), "points"),
        ("escoba", 3, "greedy", "points"),
        ("assi", 2, "random", "match"),
        ("cirulla", 2, "greedy", "points"),
        ("cirulla", 3, "random", "match"),
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


def test_the_search_player_as_opponent() -> None:
    env = gymnasium_env(players=3, opponents=("ai:easy", "greedy"))
    observation, _ = env.reset(seed=5)
    done, steps = False, 0
    while not done:
        action = int(observation["action_mask"].nonzero()[0][0])
        observation, _, done, _, info = env.step(action)
        steps += 1
    assert steps == 12
    assert sum(info["totals"]) >= 1


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_registered_with_gymnasium(variant: str) -> None:
    """``gymnasium.make`` knows every variant (the module named in the id registers them),
    dealt at the variant's own first player count unless told."""
    env = gymnasium.make(f"scopa.envs.register:scopa/{variant}-v0")
    assert isinstance(env.unwrapped, ScopaEnv)
    assert env.unwrapped.game.players == VARIANTS[variant].players[0]
    assert env.spec is not None
    assert env.spec.id == f"scopa/{variant}-v0"
    observation, _ = env.reset(seed=1)
    assert observation["action_mask"].sum() >= 1
    four = gymnasium.make(f"scopa/{variant}-v0", players=4, opponents="greedy").unwrapped
    assert isinstance(four, ScopaEnv)
    assert four.game.players == 4


def episode(seed: int, variant: str = "cirulla") -> list[tuple[list[int], float]]:
    """What the learner saw and got: it takes its first legal action, the others play at
    random (drawing from the seed)."""
    env = gymnasium_env(variant=variant, players=3, opponents="random", reward="match")
    observation, _ = env.reset(seed=seed)
    seen, done, steps = [], False, 0
    while not done and steps < 2000:
        action = int(observation["action_mask"].nonzero()[0][0])
        observation, reward, done, _, _ = env.step(action)
        seen.append((observation["observation"].tolist(), float(reward)))
        steps += 1
    return seen


def test_the_same_seed_plays_the_same_episode() -> None:
    first = episode(7)
    assert first == episode(7)
    assert first != episode(8)
