"""A Gymnasium environment: one seat learns, the others are played by engine players.

The opponents are any strategy :func:`scopa.engine.players.make_player` knows (``random``,
``greedy``, and the search player where it is installed), one name for all or one per seat.
The reward is the learner's side's points for the deal at its end (``reward="points"``), or
+1 / -1 / 0 for the match won, lost or undecided (``reward="match"``). An illegal action ends
the episode with -1.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium

from scopa.engine.players import Player, RandomPlayer, make_player
from scopa.engine.state import Play, State
from scopa.engine.variants import get_variant
from scopa.envs import register as _ids  # noqa: F401 (the Gymnasium ids of this environment)
from scopa.envs import spaces
from scopa.envs.game import Game
from scopa.errors import InputError, ScopaError, one_of
from scopa.i18n import N_

REWARDS = ("points", "match")


class ScopaEnv(gymnasium.Env[dict[str, Any], Any]):
    """Scopa (or a family member) for one learning agent at seat ``seat``."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium.Env declares it)

    def __init__(
        self,
        variant: str = "scopa",
        players: int | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        reward: str = "points",
        render_mode: str | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise one_of("reward", reward, REWARDS, code="env.not_one")
        rules = get_variant(variant)
        players = rules.players[0] if players is None else players
        self.game = Game(rules, players)
        if not 0 <= seat < players:
            raise InputError(
                "seat",
                N_("{seat} is not one of the seats 0-{value}"),
                code="env.not_one_seats",
                seat=seat,
                value=players - 1,
            )
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(names) not in (1, players - 1):
            raise InputError(
                "opponents",
                N_("{count} names for {value} opponents"),
                code="env.names_opponents",
                count=len(names),
                value=players - 1,
            )
        others = iter(names * (players - 1) if len(names) == 1 else names)
        self.strategies = ["random" if k == seat else next(others) for k in range(players)]
        for name in self.strategies:
            make_player(name, random.Random(0))  # refuses an unknown strategy now
        self.seat = seat
        self.reward_mode = reward
        self.render_mode = render_mode
        self.observation_space = spaces.observation_space(players)
        self.action_space = spaces.action_space()
        self._rng = random.Random()
        self._players: list[Player] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._players = [make_player(name, self._rng) for name in self.strategies]
        self.game.begin(self._rng)
        reward = self._others()
        return spaces.observe(self.game, self.seat), {"reward_before": reward}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        info: dict[str, Any] = {}
        try:
            self.game.play(int(action))
        except ScopaError as error:
            info["illegal_action"] = str(error)
            return spaces.observe(self.game, self.seat), -1.0, True, False, info
        reward = self._others()
        done = self.game.over
        if done:
            info["totals"] = list(self.game.totals)
        return spaces.observe(self.game, self.seat), reward, done, False, info

    def _others(self) -> float:
        """Let the other seats play until it is the learner's turn or the episode is over;
        the learner's reward for what happened."""
        game = self.game
        while True:
            if game.over:
                reward = self._deal_over()
                if game.over:
                    return reward
                continue
            if game.turn == self.seat:
                return 0.0
            legal = game.legal()
            actions = list(legal)
            player = self._players[game.turn]
            if isinstance(player, RandomPlayer):  # the same draw, without building a State
                game.play(actions[int(player.rng.random() * len(actions))])
                continue
            pairs = [legal[a] for a in actions]
            chosen = player.choose(self._state(), [Play.of(*pair) for pair in pairs])
            game.play(actions[pairs.index(chosen.pair)])

    def _deal_over(self) -> float:
        game = self.game
        end = game.deal_over(self._rng, self.reward_mode)
        side = game.side_of[self.seat]
        if self.reward_mode == "points":
            return float(end.points[side])
        if not end.over or end.winner is None:
            return 0.0
        return 1.0 if end.winner == side else -1.0

    def _state(self) -> State:
        """The engine's state of the deal, for the opponents' players."""
        return self.game.board.freeze()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from scopa.cards import CardSet

        g = self.game
        return f"table: {CardSet(g.table) or '-'}  hand: {CardSet(g.hands[self.seat]) or '-'}"
