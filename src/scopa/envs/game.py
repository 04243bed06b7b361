"""The game the environments step through: one deal (or a match of deals) on int masks.

A :class:`Game` deals with :func:`scopa.engine.deal`, lists legal plays with the native kernel
where it is built (else the engine's own rules, the same list) and applies plays as the engine
does, keeping what a seat may know for its observation. The deal's points come from the one
scorer (:func:`scopa.scoring.score_deal`), partners' piles pooled.

Actions are (card, capture) pairs numbered in a fixed space of ``40 * SLOTS``: action
``card * SLOTS + slot`` plays ``card``; slot 0 lays it on the table (a trail), slot ``j >= 1``
takes its ``j``-th capture in the engine's fixed order (rank matches by card index; sums by
number of cards, ranks, card index). A card with more than ``SLOTS - 1`` captures (a crowded
table, rare) offers its first ``SLOTS - 1``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from scopa.cards import CardSet
from scopa.deal import Deal, Pile
from scopa.engine.captures import rules_for
from scopa.engine.state import deal as deal_state
from scopa.engine.state import seat_names
from scopa.engine.variants import Variant
from scopa.errors import IllegalPlayError
from scopa.match import Match, decide
from scopa.rules import Settings
from scopa.scoring import score_deal

SLOTS = 32
ACTIONS = 40 * SLOTS


def plays_function(variant: Variant) -> Callable[[int, int], list[tuple[int, int]]]:
    """``plays(hand, table)``: the kernel's where built, else the engine's (the same list)."""
    from scopa import native

    if native.AVAILABLE:
        return native.rules(variant).plays
    return rules_for(variant).plays


def action_of(card: int, capture: int, captures: list[int]) -> int:
    """The action number of a play, given the card's captures in the engine's order."""
    if not capture:
        return card * SLOTS
    return card * SLOTS + 1 + captures.index(capture)


class Game:
    """A deal in progress, mutable and fast; ``names`` are the seats (``P1``...)."""

    def __init__(self, variant: Variant, players: int, settings: Settings | None = None) -> None:
        variant.check_players(players)
        self.variant = variant
        self.players = players
        self.settings = settings if settings is not None else variant.settings
        self.names = seat_names(players)
        self.match = Match(players=self.names, settings=self.settings)
        self.sides = self.match.sides
        teams = self.match.team_members()
        self.side_of = tuple(
            next(i for i, team in enumerate(teams) if name in team)
            if self.sides != self.names
            else k
            for k, name in enumerate(self.names)
        )
        self._plays = plays_function(variant)
        self._sweep = rules_for(variant).is_sweep
        self.dealer = 0
        self.turn = 0
        self.hands = [0] * players
        self.table = 0
        self.stock: tuple[int, ...] = ()
        self.piles = [0] * players
        self.sweeps = [0] * players
        self.played = 0
        self.last: int | None = None
        self.leftovers_to: int | None = None
        self.remaining = 0
        self.history: list[tuple[int, int]] = []
        self._legal: dict[int, tuple[int, int]] = {}

    def deal(self, rng: random.Random, dealer: int) -> None:
        """Shuffle and deal a new deal from ``rng`` (the engine's deal, exactly)."""
        state = deal_state(self.variant, self.players, dealer=dealer, rng=rng)
        self.dealer = dealer
        self.turn = state.turn
        self.hands = list(state.hands)
        self.table = state.table
        self.stock = state.stock
        self.piles = list(state.piles)
        self.sweeps = list(state.sweeps)
        self.played = 0
        self.last = state.last_capturer
        self.leftovers_to = None
        self.remaining = sum(h.bit_count() for h in self.hands) + len(self.stock)
        self.history = []
        self._legal = {}

    @property
    def over(self) -> bool:
        return self.remaining == 0

    def legal(self) -> dict[int, tuple[int, int]]:
        """The legal plays of the seat to move, by action number."""
        if not self._legal and not self.over:
            found: dict[int, tuple[int, int]] = {}
            captures: dict[int, list[int]] = {}
            for card, capture in self._plays(self.hands[self.turn], self.table):
                if not capture:
                    found[card * SLOTS] = (card, 0)
                    continue
                taken = captures.setdefault(card, [])
                if len(taken) < SLOTS - 1:
                    found[card * SLOTS + 1 + len(taken)] = (card, capture)
                    taken.append(capture)
            self._legal = found
        return self._legal

    def play(self, action: int) -> None:
        """Make the play numbered ``action`` for the seat to move."""
        pair = self.legal().get(action)
        if pair is None:
            card = CardSet(1 << (action // SLOTS)) if 0 <= action < ACTIONS else action
            raise IllegalPlayError(
                f"action {action} (card {card}, slot {action % SLOTS}) is not a legal play"
            )
        card, capture = pair
        seat = self.turn
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        self.remaining -= 1
        if capture:
            self.table ^= capture
            self.piles[seat] |= capture | bit
            self.last = seat
            if not self.table and self._sweep(card, capture, 0, not self.remaining):
                self.sweeps[seat] += 1
        else:
            self.table |= bit
        self.history.append(pair)
        self._legal = {}
        self.turn = (seat + 1) % self.players
        if not self.remaining:
            if self.table:
                self.leftovers_to = self.last if self.last is not None else self.dealer
                self.piles[self.leftovers_to] |= self.table
                self.table = 0
        elif not self.hands[self.turn]:
            size = self.variant.hand_size
            for k in range(self.players):
                seat_k = (self.dealer + 1 + k) % self.players
                for index in self.stock[k * size : (k + 1) * size]:
                    self.hands[seat_k] |= 1 << index
            self.stock = self.stock[size * self.players :]

    def points(self) -> tuple[int, ...]:
        """The finished deal's points per side (the scorer's totals)."""
        last = None if self.leftovers_to is None else self.names[self.leftovers_to]
        piles = tuple(Pile.of_cards(CardSet(mask)) for mask in self.piles)
        record = Deal(self.names, piles, tuple(self.sweeps), last)
        return tuple(p.total for p in score_deal(*self.match.side_facts(record), self.settings))

    def winner(self, totals: list[int]) -> int | None:
        """The side that has won a match with these totals, if any."""
        return decide(totals, self.settings.target)
