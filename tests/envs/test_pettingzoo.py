"""The PettingZoo AEC environment passes PettingZoo's own api_test and shows each agent only
what its seat may know."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'scopa[rl]') is not installed")

from pettingzoo.test import api_test

from scopa.envs import pettingzoo_env
from scopa.errors import InputError


@pytest.mark.parametrize(
    ("variant", "players", "reward"),
    [
        ("scopa", 2, "points"),
        ("scopa", 3, "match"),
        ("scopone", 4, "points"),
        ("assi", 2, "match"),
        ("escoba", 6, "points"),
        ("cirulla", 2, "points"),
        ("cirulla", 4, "match"),
    ],
)
def test_api_test(variant: str, players: int, reward: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a Dict observation with a mask, as PettingZoo's chess
        api_test(pettingzoo_env(variant=variant, players=players, reward=reward), num_cycles=400)


def test_each_agent_sees_its_hand_never_the_others() -> None:
    env = pettingzoo_env(variant="scopa", players=3)
    env.reset(seed=4)
    steps = 0
    for agent in env.agent_iter():
        observation, _reward, done, _truncated, _info = env.last()
        seat = env.possible_agents.index(agent)
        game = env.game
        for k, other in enumerate(env.possible_agents):
            seen = env.observe(other)["observation"]
            hand = sum(1 << i for i in range(40) if seen[i])
            assert hand == game.hands[k]
            hidden = sum(game.hands[j] for j in range(3) if j != k)
            public = sum(1 << i for i in range(40) if seen[40:200].reshape(4, 40)[:, i].any())
            assert not hidden & public
            assert seen[200 : 200 + 6 : 2].sum() == sum(h.bit_count() for h in game.hands)
        if done:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() == len(game.legal())
        assert seat == game.turn
        env.step(int(mask.nonzero()[0][steps % int(mask.sum())]))
        steps += 1
    assert steps == 36


def test_rewards_are_the_deal_points() -> None:
    env = pettingzoo_env(variant="scopone", players=4)
    env.reset(seed=11)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, done, _truncated, _info = env.last()
        totals[agent] += reward
        env.step(None if done else int(observation["action_mask"].nonzero()[0][0]))
    points = env.game.points()
    assert [totals[a] for a in env.possible_agents] == [points[0], points[1], points[0], points[1]]
    assert sum(points) >= 1  # the settebello always goes to someone


def test_illegal_action_loses() -> None:
    env = pettingzoo_env()
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int((mask == 0).nonzero()[0][0]))
    assert env.rewards[agent] == -1.0
    assert all(env.terminations.values())
    assert "not a legal play" in env.infos[agent]["illegal_action"]


def test_bad_options() -> None:
    with pytest.raises(InputError, match="reward: 'money' is not one of 'points', 'match'"):
        pettingzoo_env(reward="money")


@pytest.mark.parametrize(("variant", "players"), [("scopa", 2), ("scopone", 4), ("cirulla", 2)])
def test_the_variants_own_player_count_by_default(variant: str, players: int) -> None:
    env = pettingzoo_env(variant=variant)
    assert env.possible_agents == [f"player_{k}" for k in range(players)]
    env.reset(seed=0)
    assert env.game.players == players


def episode(seed: int, variant: str = "cirulla") -> list[tuple[str, list[int], float]]:
    """Who played what, seeing what, and the rewards: every agent takes its last legal action."""
    env = pettingzoo_env(variant=variant, reward="match")
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter(max_iter=2000):
        observation, reward, done, _truncated, _info = env.last()
        seen.append((agent, observation["observation"].tolist(), reward))
        env.step(None if done else int(observation["action_mask"].nonzero()[0][-1]))
    return seen


def test_the_same_seed_plays_the_same_episode() -> None:
    first = episode(7)
    assert first == episode(7)
    assert first != episode(8)
