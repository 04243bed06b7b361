"""Players: anything with ``choose(state, plays) -> play``; ``random`` and ``greedy`` built in.

:func:`play_out` plays a deal to its end with one player per seat; :func:`play_out_random` is
the same loop for random players on one mutable board (the simulator's fast path), through
the same code as :func:`~scopa.engine.state.apply`, drawing the same numbers in the same
order, so both give the same deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from scopa.cards import COINS_MASK, FULL_MASK, RANK_MASKS, SETTEBELLO
from scopa.engine.board import Board
from scopa.engine.captures import ACE_MASK, RANK_OF, indices_of, rules_for
from scopa.engine.state import Play, State, apply, legal_plays
from scopa.errors import UnknownStrategyError
from scopa.i18n import N_

SEVENS = RANK_MASKS[6]
SETTEBELLO_BIT = SETTEBELLO.bit


class Player(Protocol):
    """A seat's decision maker: picks one of the legal plays (never an empty list)."""

    def choose(self, state: State, plays: Sequence[Play]) -> Play: ...


class RandomPlayer:
    """Uniform over the legal plays, from a seeded generator.

    >>> from scopa.engine import VARIANTS, deal, legal_plays
    >>> state = deal(VARIANTS["scopa"], 2, seed=1)
    >>> a = RandomPlayer(random.Random(5)).choose(state, legal_plays(state))
    >>> a == RandomPlayer(random.Random(5)).choose(state, legal_plays(state))
    True
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        return plays[int(self.rng.random() * len(plays))]


class GreedyPlayer:
    """A one-ply heuristic: sweeps first, then the settebello, sevens, coins and cards;
    avoids leaving a table that the next player can sweep, and keeps its sevens."""

    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        return max(plays, key=lambda play: self.value(state, play))

    def value(self, state: State, play: Play) -> float:
        """The heuristic worth of one play (higher is better; ties go to the first)."""
        card, capture = play.pair
        bit = 1 << card
        rules = rules_for(state.variant)
        table_after = state.table ^ capture if capture else state.table | bit
        hand_after = state.hands[state.turn] ^ bit
        last_play = (
            not state.stock
            and not any(h for seat, h in enumerate(state.hands) if seat != state.turn)
            and not hand_after
        )
        score = 0.0
        if capture:
            taken = capture | bit
            score += 1.0 + 0.25 * taken.bit_count()
            score += 0.8 * (taken & COINS_MASK).bit_count()
            score += 1.2 * (taken & SEVENS).bit_count()
            score += 3.0 if taken & SETTEBELLO_BIT else 0.0
            if rules.is_sweep(card, capture, table_after, last_play):
                score += 10.0
        else:
            score -= 0.3 * (RANK_OF[card] + 1) / 10
            score -= 1.0 if bit & SEVENS else 0.0
            score -= 2.5 if bit & SETTEBELLO_BIT else 0.0
            score -= 0.4 if bit & COINS_MASK else 0.0
        if table_after and not last_play:
            score -= 4.0 * self.sweep_danger(state, table_after, hand_after)
        return score

    @staticmethod
    def sweep_danger(state: State, table: int, hand: int) -> float:
        """How likely the next player sweeps ``table``: 1 when an unseen card could take all
        of it at once (0 when every such card is in our hand or already played). Cirulla:
        a card worth the table (a sum or a rank match), one making 15 with it, or an ace onto
        a table without one."""
        total = sum(RANK_OF[c] + 1 for c in indices_of(table))
        capture = state.variant.capture
        needs = [15 - total] if capture == "fifteen" else [total]
        if capture == "cirulla":
            needs.append(15 - total)
            if not table & ACE_MASK:
                needs.append(1)
        seen = hand | table
        for pile in state.piles:
            seen |= pile
        unseen = FULL_MASK & ~seen
        return 1.0 if any(1 <= n <= 10 and unseen & RANK_MASKS[n - 1] for n in needs) else 0.0


def search_player(rng: random.Random, level: str = "") -> Player:
    """The search player (:mod:`scopa.engine.ai`) at a level: ``ai``, ``ai:easy``, ``ai:50ms``,
    ``ai:300it``."""
    from scopa.engine.ai import SearchPlayer, parse_level  # the search imports this module

    return SearchPlayer(rng, parse_level(level))


class MixedPlayer:
    """The greedy player that now and then plays at random: a random play with the chance
    :data:`EPSILON`, else the greedy one. The search players' playouts use it (in the native
    kernel, the same draws), so that their statistics over one sampled deal vary without
    becoming blind.

    >>> from scopa.engine import VARIANTS, deal, legal_plays
    >>> state = deal(VARIANTS["scopa"], 2, seed=1)
    >>> a = MixedPlayer(random.Random(5)).choose(state, legal_plays(state))
    >>> a == MixedPlayer(random.Random(5)).choose(state, legal_plays(state))
    True
    """

    EPSILON = 0.25

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.greedy = GreedyPlayer()

    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        if self.rng.random() < self.EPSILON:
            return plays[int(self.rng.random() * len(plays))]
        return self.greedy.choose(state, plays)


def ismcts_player(rng: random.Random, level: str = "") -> Player:
    """The reference opponent (:mod:`scopa.engine.ai.ismcts`): ``ismcts`` (50 ms a move),
    ``ismcts:50cpu``, ``ismcts:2000it``; ``+playouts`` finishes each iteration greedily."""
    from scopa.engine.ai import parse_level
    from scopa.engine.ai.ismcts import ISMCTSPlayer

    return ISMCTSPlayer(rng, parse_level(level or "50ms"))


LEVELLED: dict[str, Callable[[random.Random, str], Player]] = {
    "ai": search_player,
    "ismcts": ismcts_player,
}
"""The strategies that take a level after a colon (``ai:50ms``, ``ismcts:2000it``)."""

STRATEGIES: dict[str, Callable[[random.Random], Player]] = {
    "random": RandomPlayer,
    "greedy": lambda rng: GreedyPlayer(),
    "mixed": MixedPlayer,
    "ai": search_player,
    "ismcts": ismcts_player,
}
"""The built-in strategies by name; each makes a player from the deal's generator."""


def make_player(name: str, rng: random.Random) -> Player:
    """A player of a built-in strategy (``random``, ``greedy``, ``ai``, ``ismcts``, or
    ``ai:LEVEL`` / ``ismcts:LEVEL``)."""
    base, colon, level = name.strip().lower().partition(":")
    maker = STRATEGIES.get(base)
    if maker is None or (colon and base not in LEVELLED):
        raise UnknownStrategyError(
            N_("unknown strategy {name!r} (the strategies are {names})"),
            code="strategy.unknown_strategy",
            name=name,
            names=", ".join(STRATEGIES),
        )
    return LEVELLED[base](rng, level) if colon else maker(rng)


def play_out(state: State, players: Sequence[Player]) -> State:
    """Play the deal to its end, asking the player of each seat in turn."""
    if len(players) != state.players:
        raise UnknownStrategyError(
            N_("{count} players for {players} seats"),
            code="strategy.players_seats",
            count=len(players),
            players=state.players,
        )
    while not state.finished:
        plays = legal_plays(state)
        state = apply(state, players[state.turn].choose(state, plays))
    return state


def play_out_random(state: State, rng: random.Random) -> State:
    """:func:`play_out` with a :class:`RandomPlayer` (sharing ``rng``) in every seat: the same
    draws and the same plays, on one :class:`~scopa.engine.board.Board` for the whole deal."""
    board = Board(state)
    options = board.options
    play = board.play
    rand = rng.random
    while board.remaining:
        found = options()
        play(*found[int(rand() * len(found))])
    return board.freeze()
