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
from dataclasses import dataclass

from scopa.cards import CardSet
from scopa.deal import Deal
from scopa.engine.board import Board
from scopa.engine.simulate import MAX_MATCH_DEALS
from scopa.engine.state import deal as deal_state
from scopa.engine.state import seat_names, to_deal
from scopa.engine.variants import Variant
from scopa.errors import IllegalPlayError
from scopa.i18n import N_
from scopa.match import Match, score_match
from scopa.rules import Settings

SLOTS = 32
ACTIONS = 40 * SLOTS


def plays_function(variant: Variant) -> Callable[[int, int], list[tuple[int, int]]] | None:
    """The kernel's ``plays(hand, table)`` where it is built and plays the variant, else None
    (the engine's board lists them: the same list)."""
    from scopa.engine import native

    if native.plays_natively((), 0, variant):
        return native.rules(variant).plays
    return None


@dataclass(frozen=True, slots=True)
class DealEnd:
    """What the end of a deal means for the episode: the deal's points per side, whether the
    episode is over, and the side that won the match (``None``: no winner, or not playing a
    match)."""

    points: tuple[int, ...]
    over: bool
    winner: int | None


class Game:
    """A deal in progress on the engine's :class:`~scopa.engine.board.Board` (the one
    implementation of a play); ``names`` are the seats (``P1``...)."""

    def __init__(self, variant: Variant, players: int, settings: Settings | None = None) -> None:
        variant.check_players(players)
        self.variant = variant
        self.players = players
        self.settings = settings if settings is not None else variant.settings_for(players)
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
        self.board = Board(deal_state(variant, players, seed=0))
        self.played = 0
        self._legal: dict[int, tuple[int, int]] = {}
        self.records: list[Deal] = []
        """The deals of the match so far (``reward="match"``)."""
        self.totals: list[int] = [0] * len(self.sides)
        """The points per side of the episode's deals so far."""

    def deal(self, rng: random.Random, dealer: int) -> None:
        """Shuffle and deal a new deal from ``rng`` (the engine's deal, exactly)."""
        self.board = Board(deal_state(self.variant, self.players, dealer=dealer, rng=rng))
        self.played = 0
        self._legal = {}

    # what the observations read
    @property
    def over(self) -> bool:
        return self.board.remaining == 0

    @property
    def turn(self) -> int:
        return self.board.turn

    @property
    def dealer(self) -> int:
        return self.board.dealer

    @property
    def hands(self) -> list[int]:
        return self.board.hands

    @property
    def table(self) -> int:
        return self.board.table

    @property
    def stock(self) -> tuple[int, ...]:
        return self.board.stock

    @property
    def piles(self) -> list[int]:
        return self.board.piles

    @property
    def sweeps(self) -> list[int]:
        return self.board.sweeps

    def legal(self) -> dict[int, tuple[int, int]]:
        """The legal plays of the seat to move, by action number."""
        if not self._legal and not self.over:
            board = self.board
            if self._plays is not None and board.matta_as < 0:
                pairs = self._plays(board.hands[board.turn], board.table)
            else:
                pairs = board.options()
            found: dict[int, tuple[int, int]] = {}
            taken: dict[int, int] = {}
            for card, capture in pairs:
                if not capture:
                    found[card * SLOTS] = (card, 0)
                    continue
                slot = taken[card] = taken.get(card, 0) + 1
                if slot < SLOTS:
                    found[card * SLOTS + slot] = (card, capture)
            self._legal = found
        return self._legal

    def play(self, action: int) -> None:
        """Make the play numbered ``action`` for the seat to move."""
        pair = self.legal().get(action)
        if pair is None:
            card = CardSet(1 << (action // SLOTS)) if 0 <= action < ACTIONS else action
            raise IllegalPlayError(
                N_("action {action} (card {card}, slot {value}) is not a legal play"),
                code="play.action",
                action=action,
                card=card,
                value=action % SLOTS,
            )
        self.played |= 1 << pair[0]
        self.board.play(*pair)
        self._legal = {}

    def points(self) -> tuple[int, ...]:
        """The finished deal's points per side (the scorer's totals)."""
        record = to_deal(self.board.freeze(), self.names)
        return tuple(p.total for p in self.match.points(record))

    def score(self) -> tuple[int, ...]:
        """Record the finished deal in the match and give its points per side."""
        record = to_deal(self.board.freeze(), self.names)
        self.records.append(record)
        return tuple(p.total for p in self.match.points(record))

    def begin(self, rng: random.Random) -> None:
        """A new episode: nothing recorded or counted, the first deal dealt by a seat drawn
        from ``rng``."""
        self.records = []
        self.totals = [0] * len(self.sides)
        self.deal(rng, dealer=rng.randrange(self.players))

    def deal_over(self, rng: random.Random, reward: str) -> DealEnd:
        """The finished deal recorded and counted in :attr:`totals`. With ``reward="points"``
        the episode ends with it; with ``"match"`` the next deal is dealt (the deal passes on)
        until a side wins the match or :data:`MAX_MATCH_DEALS` deals are played. The one end
        of a deal for both environments (single-agent and PettingZoo's)."""
        points = self.score()
        for i, p in enumerate(points):
            self.totals[i] += p
        if reward == "points":
            return DealEnd(points, over=True, winner=None)
        winner = self.winner()
        if winner is None and len(self.records) < MAX_MATCH_DEALS:
            self.deal(rng, dealer=(self.dealer + 1) % self.players)
            return DealEnd(points, over=False, winner=None)
        return DealEnd(points, over=True, winner=winner)

    def winner(self) -> int | None:
        """The side that has won the match of the recorded deals, if any (the match's own
        sheet: the target, a tied top, Cirulla's cappotto)."""
        sheet = score_match(self.match.with_deals(self.records))
        return None if sheet.winner is None else self.sides.index(sheet.winner)
