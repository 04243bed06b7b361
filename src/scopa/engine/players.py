"""Players: anything with ``choose(state, plays) -> play``; ``random`` and ``greedy`` built in.

:func:`play_out` plays a deal to its end with one player per seat; :func:`play_out_random` is
the same loop for random players on bare ints (the simulator's fast path), drawing the same
numbers in the same order, so both give the same deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from scopa.cards import COINS_MASK, FULL_MASK, RANK_MASKS, SETTEBELLO
from scopa.engine.captures import RANK_OF, rules_for
from scopa.engine.state import Play, State, apply, deal_round, legal_plays
from scopa.errors import ScopaError

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
        of it at once (0 when every such card is in our hand or already played)."""
        total = sum(RANK_OF[c] + 1 for c in range(40) if table >> c & 1)
        need = 15 - total if state.variant.capture == "fifteen" else total
        if not 1 <= need <= 10:
            return 0.0
        seen = hand | table
        for pile in state.piles:
            seen |= pile
        return 1.0 if FULL_MASK & ~seen & RANK_MASKS[need - 1] else 0.0


def search_player(rng: random.Random, level: str = "") -> Player:
    """The search player (:mod:`scopa.engine.ai`) at a level: ``ai``, ``ai:easy``, ``ai:50ms``,
    ``ai:300it``."""
    from scopa.engine.ai import SearchPlayer, parse_level  # the search imports this module

    return SearchPlayer(rng, parse_level(level))


STRATEGIES: dict[str, Callable[[random.Random], Player]] = {
    "random": RandomPlayer,
    "greedy": lambda rng: GreedyPlayer(),
    "ai": search_player,
}
"""The built-in strategies by name; each makes a player from the deal's generator."""


class UnknownStrategyError(ScopaError, ValueError):
    """A strategy name the engine does not know."""


def make_player(name: str, rng: random.Random) -> Player:
    """A player of a built-in strategy (``random``, ``greedy``, ``ai`` or ``ai:LEVEL``)."""
    base, colon, level = name.strip().lower().partition(":")
    maker = STRATEGIES.get(base)
    if maker is None or (colon and base != "ai"):
        raise UnknownStrategyError(
            f"unknown strategy {name!r} (the strategies are {', '.join(STRATEGIES)})"
        )
    return search_player(rng, level) if colon else maker(rng)


def play_out(state: State, players: Sequence[Player]) -> State:
    """Play the deal to its end, asking the player of each seat in turn."""
    if len(players) != state.players:
        raise UnknownStrategyError(f"{len(players)} players for {state.players} seats")
    while not state.finished:
        plays = legal_plays(state)
        state = apply(state, players[state.turn].choose(state, plays))
    return state


def play_out_random(state: State, rng: random.Random) -> State:
    """:func:`play_out` with a :class:`RandomPlayer` (sharing ``rng``) in every seat, on ints."""
    variant = state.variant
    rules = rules_for(variant)
    plays_of = rules.plays
    is_sweep = rules.is_sweep
    rand = rng.random
    n = state.players
    size = variant.hand_size
    dealer = state.dealer
    hands = list(state.hands)
    piles = list(state.piles)
    sweeps = list(state.sweeps)
    table = state.table
    stock = state.stock
    turn = state.turn
    last = state.last_capturer
    history = list(state.history)
    remaining = sum(h.bit_count() for h in hands) + len(stock)
    following = [(seat + 1) % n for seat in range(n)]
    while remaining:
        hand = hands[turn]
        if not hand:
            hands = deal_round(stock, dealer, n, size)
            stock = stock[size * n :]
            hand = hands[turn]
        options = plays_of(hand, table)
        card, capture = play = options[int(rand() * len(options))]
        remaining -= 1
        bit = 1 << card
        hands[turn] = hand ^ bit
        if capture:
            table ^= capture
            piles[turn] |= capture | bit
            last = turn
            if not table and is_sweep(card, capture, 0, not remaining):
                sweeps[turn] += 1
        else:
            table |= bit
        history.append(play)
        turn = following[turn]
    leftovers_to = None
    if table:
        leftovers_to = last if last is not None else dealer
        piles[leftovers_to] |= table
        table = 0
    return State(
        variant=variant,
        dealer=dealer,
        hands=tuple(hands),
        table=0,
        stock=stock,
        piles=tuple(piles),
        sweeps=tuple(sweeps),
        turn=turn,
        last_capturer=last,
        history=tuple(history),
        leftovers_to=leftovers_to,
        seed=state.seed,
        redeals=state.redeals,
    )
