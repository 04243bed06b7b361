"""What a seat sees: the observation vector and the mask of legal actions (numpy).

The observation (``int8``, relative to the seat that observes):

=========  ==============================================================
0-39       the seat's hand (1 = the card with that index is held)
40-79      the table
80-119     every card played from a hand so far, by anyone
120-159    the cards captured by the seat's side
160-199    the cards captured by the other sides
200-...    per seat, starting with the observer and going round the table:
           cards in hand, sweeps (2 numbers each)
last 3     cards left to deal, 1 if it is the observer's turn, 1 if the
           observer dealt
=========  ==============================================================

Card index ``suit * 10 + rank`` (coins, cups, swords, clubs; ace ... king), as everywhere in
:mod:`scopa.cards`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from scopa.envs.game import ACTIONS, Game


def observation_size(players: int) -> int:
    return 200 + 2 * players + 3


def observation_space(players: int) -> spaces.Dict:
    """``{"observation": Box(int8), "action_mask": Box(int8, 0 or 1)}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 40, (observation_size(players),), np.int8),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    return spaces.Discrete(ACTIONS)


def cards(*masks: int) -> Any:
    """40-card masks as 40 int8s each, one after the other (one int's bytes, unpacked).

    >>> cards(0b101, 1 << 39)[[0, 1, 2, 79]].tolist()
    [1, 0, 1, 1]
    """
    joined = 0
    for k, m in enumerate(masks):
        joined |= m << (40 * k)
    raw = joined.to_bytes(5 * len(masks), "little")
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little").view(np.int8)


def observe(game: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` may know, and (on its turn) the actions it may take."""
    n = game.players
    side_of, piles, hands, sweeps = game.side_of, game.piles, game.hands, game.sweeps
    side = side_of[seat]
    mine = others = 0
    for k in range(n):
        if side_of[k] == side:
            mine |= piles[k]
        else:
            others |= piles[k]
    tail: list[int] = []
    for k in range(n):
        other = (seat + k) % n
        tail += (hands[other].bit_count(), sweeps[other])
    tail += (len(game.stock), game.turn == seat and not game.over, game.dealer == seat)
    observation = np.empty(200 + len(tail), dtype=np.int8)
    observation[:200] = cards(hands[seat], game.table, game.played, mine, others)
    observation[200:] = tail
    return {"observation": observation, "action_mask": mask(game, seat)}


def mask(game: Game, seat: int) -> Any:
    """1 for each legal action of ``seat`` (all 0 when it is not its turn)."""
    out = np.zeros(ACTIONS, dtype=np.int8)
    if game.turn == seat and not game.over:
        out[list(game.legal())] = 1
    return out
