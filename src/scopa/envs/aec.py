"""A PettingZoo AEC environment: every seat an agent (``player_0``...), turn by turn.

Rewards come at the end: each agent gets its side's points for the deal (``reward="points"``,
one deal per episode), or +1 to the winning side and -1 to the others at the end of a whole
match (``reward="match"``). An illegal action ends the episode: -1 to the agent that took it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pettingzoo import AECEnv

from scopa.engine.variants import get_variant
from scopa.envs import spaces
from scopa.envs.game import Game
from scopa.errors import ScopaError, one_of

REWARDS = ("points", "match")


class ScopaAEC(AECEnv):  # type: ignore[misc]
    """Scopa (or a family member) for several learning agents."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "scopa_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "scopa",
        players: int | None = None,
        reward: str = "points",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise one_of("reward", reward, REWARDS, code="env.not_one")
        rules = get_variant(variant)
        players = rules.players[0] if players is None else players
        self.game = Game(rules, players)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{k}" for k in range(players)]
        self._observation_space = spaces.observation_space(players)
        self._action_space = spaces.action_space()
        self._rng = random.Random()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> Any:
        return self._observation_space

    def action_space(self, agent: str) -> Any:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.game.begin(self._rng)
        self.agent_selection = self.possible_agents[self.game.turn]

    def observe(self, agent: str) -> dict[str, Any]:
        return spaces.observe(self.game, self.possible_agents.index(agent))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        try:
            self.game.play(int(action) if action is not None else -1)
        except ScopaError as error:
            self.rewards[agent] = -1.0
            self.infos[agent] = {"illegal_action": str(error)}
            self._finish()
        else:
            if self.game.over:
                self._deal_over()
            if not self.game.over:
                self.agent_selection = self.possible_agents[self.game.turn]
        self._accumulate_rewards()

    def _deal_over(self) -> None:
        end = self.game.deal_over(self._rng, self.reward_mode)
        if not end.over:
            return
        for k, agent in enumerate(self.possible_agents):
            side = self.game.side_of[k]
            if self.reward_mode == "points":
                self.rewards[agent] = float(end.points[side])
            else:
                self.rewards[agent] = (
                    0.0 if end.winner is None else (1.0 if side == end.winner else -1.0)
                )
        self._finish()

    def _finish(self) -> None:
        for agent in self.agents:
            self.terminations[agent] = True
            self.infos[agent].setdefault("totals", list(self.game.totals))

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from scopa.cards import CardSet

        g = self.game
        lines = [f"table: {CardSet(g.table) or '-'}"]
        for k, agent in enumerate(self.possible_agents):
            mark = ">" if k == g.turn and not g.over else " "
            lines.append(f"{mark}{agent}: {CardSet(g.hands[k]) or '-'}  sweeps {g.sweeps[k]}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
