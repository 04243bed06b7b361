"""The one implementation of a play: a deal on ints, changed in place.

:func:`scopa.engine.state.apply` copies a :class:`~scopa.engine.records.State` into a
:class:`Board`, makes one play and freezes it again; the simulator's random playout keeps one
board for the whole deal. Both list plays with :func:`options` (which
:func:`~scopa.engine.state.legal_plays` uses too) and make them with :meth:`Board.play`, so
there is one rule set, whatever the caller.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopa.engine.captures import ACE_SWEEP, LAST_CLEAR, MATTA, SWEEP, Rules, rules_for
from scopa.engine.cirulla import MATTA_BIT, declaration
from scopa.engine.records import State
from scopa.engine.variants import Variant


def deal_packets(
    cards: Sequence[int], dealer: int, players: int, packets: Sequence[int]
) -> tuple[list[int], int, int]:
    """Deal ``cards`` in packets, starting with the player after the dealer: ``n`` = n cards
    to each player in turn, ``-n`` = n cards to the table. Returns the hands (by seat), the
    table and how many cards were used.

    >>> deal_packets(range(40), 0, 2, (3, -4))[1:]
    (960, 10)
    """
    hands = [0] * players
    table = 0
    pos = 0
    order = [(dealer + 1 + k) % players for k in range(players)]
    for packet in packets:
        if packet < 0:
            for index in cards[pos : pos - packet]:
                table |= 1 << index
            pos -= packet
            continue
        for seat in order:
            for index in cards[pos : pos + packet]:
                hands[seat] |= 1 << index
            pos += packet
    return hands, table, pos


def declare(
    variant: Variant, hands: Sequence[int], state: State | Board
) -> tuple[tuple[tuple[str, ...], ...], int, int]:
    """Cirulla: every player declares the hand just dealt if it qualifies (docs/rules.md 9.5).

    Returns the declarations so far by seat, the cards shown and the matta's declared rank
    (-1: played as a 7), from those of ``state`` and the new hands.
    """
    settings = variant.settings
    points = settings.cirulla_points, settings.decino_points
    declared = list(state.declarations) or [()] * len(hands)
    shown = state.shown
    matta_as = -1
    for seat, hand in enumerate(hands):
        kind, rank = declaration(hand, *points)
        if kind:
            declared[seat] = (*declared[seat], kind)
            shown |= hand
            if rank >= 0 and variant.matta_play == "declared":
                matta_as = rank
    return tuple(declared), shown, matta_as


def options(rules: Rules, hand: int, table: int, matta_as: int) -> list[tuple[int, int]]:
    """The legal plays of ``hand`` on ``table`` in a fixed order; the matta played as rank
    ``matta_as`` when it is not -1 (Cirulla's ``matta_play=declared``)."""
    if matta_as >= 0 and hand & MATTA_BIT:
        out = rules.plays(hand ^ MATTA_BIT, table) + rules.plays_as(MATTA, matta_as, table)
        out.sort(key=lambda p: p[0])
        return out
    return rules.plays(hand, table)


class Board:
    """A deal in progress, on ints and lists that :meth:`play` changes in place."""

    __slots__ = (
        "_declares",
        "ace_sweeps",
        "dealer",
        "declarations",
        "hands",
        "history",
        "last",
        "last_cleared",
        "leftovers_to",
        "matta_as",
        "piles",
        "remaining",
        "rules",
        "seats",
        "shown",
        "size",
        "start",
        "stock",
        "sweeps",
        "table",
        "turn",
    )

    def __init__(self, state: State) -> None:
        n = state.players
        self.start = state
        self.seats = n
        self.dealer = state.dealer
        self.size = state.variant.hand_size
        self.rules = rules_for(state.variant)
        self._declares = state.variant.capture == "cirulla"
        self.hands = list(state.hands)
        self.table = state.table
        self.stock = state.stock
        self.piles = list(state.piles)
        self.sweeps = list(state.sweeps)
        self.ace_sweeps = list(state.ace_sweeps) or [0] * n
        self.turn = state.turn
        self.last = state.last_capturer
        self.history = list(state.history)
        self.leftovers_to = state.leftovers_to
        self.last_cleared = state.last_play_cleared
        self.declarations = state.declarations
        self.shown = state.shown
        self.matta_as = -1 if state.matta_as is None else state.matta_as
        self.remaining = sum(h.bit_count() for h in self.hands) + len(self.stock)

    def options(self) -> list[tuple[int, int]]:
        """The legal plays of the player to move, as (card index, capture mask)."""
        return options(self.rules, self.hands[self.turn], self.table, self.matta_as)

    def card_options(self, card: int) -> list[int]:
        """The legal captures (0 = trail) of one card of the player to move."""
        if card == MATTA and self.matta_as >= 0:
            pairs = self.rules.plays_as(MATTA, self.matta_as, self.table)
        else:
            pairs = self.rules.plays(1 << card, self.table)
        return [c for _, c in pairs]

    def play(self, card: int, capture: int) -> None:
        """Make a legal play for the player to move (not checked here): sweeps, the end of
        the deal and the next round's deal follow."""
        seat = self.turn
        bit = 1 << card
        hands = self.hands
        hands[seat] ^= bit
        remaining = self.remaining = self.remaining - 1
        self.history.append((card, capture))
        if self.shown & bit:
            self.shown ^= bit
            if bit == MATTA_BIT:
                self.matta_as = -1
        if capture:
            table = self.table = self.table ^ capture
            self.piles[seat] |= capture | bit
            self.last = seat
            if not table:
                kind = self.rules.clear_kind(card, capture, not remaining)
                if kind == SWEEP:
                    self.sweeps[seat] += 1
                elif kind == ACE_SWEEP:
                    self.ace_sweeps[seat] += 1
                elif kind == LAST_CLEAR:
                    self.last_cleared = seat
        else:
            self.table |= bit
        turn = seat + 1
        if turn == self.seats:
            turn = 0
        self.turn = turn
        if not remaining:
            if self.table:
                taker = self.last if self.last is not None else self.dealer
                self.leftovers_to = taker
                self.piles[taker] |= self.table
                self.table = 0
        elif not hands[turn]:
            hands, _, used = deal_packets(self.stock, self.dealer, self.seats, (self.size,))
            self.hands = hands
            self.stock = self.stock[used:]
            if self._declares:
                self.declarations, self.shown, self.matta_as = declare(
                    self.start.variant, hands, self
                )

    def freeze(self) -> State:
        """The board as an immutable state."""
        start = self.start
        return State(
            variant=start.variant,
            dealer=start.dealer,
            hands=tuple(self.hands),
            table=self.table,
            stock=self.stock,
            piles=tuple(self.piles),
            sweeps=tuple(self.sweeps),
            turn=self.turn,
            last_capturer=self.last,
            history=tuple(self.history),
            leftovers_to=self.leftovers_to,
            seed=start.seed,
            redeals=start.redeals,
            ace_sweeps=tuple(self.ace_sweeps) if any(self.ace_sweeps) else (),
            last_play_cleared=self.last_cleared,
            declarations=self.declarations,
            shown=self.shown,
            matta_as=None if self.matta_as < 0 else self.matta_as,
        )
