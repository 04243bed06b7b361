"""The engine's records: a :class:`Play` and the :class:`State` of a deal (immutable).

Hands, table, piles and stock are int masks or card indices, so a state is cheap to copy and
hash. :mod:`scopa.engine.state` deals, lists the legal plays and applies them.
"""

from __future__ import annotations

from dataclasses import dataclass

from scopa.cards import CARDS, Card, CardSet
from scopa.engine.variants import Variant


@dataclass(frozen=True, slots=True)
class Play:
    """One play: the card played and the table cards it takes (none = it trails).

    >>> play = Play.parse("Hd x 2s 7b")
    >>> play, str(Play.parse("3d"))
    (Play.parse('Hd x 2s 7b'), '3d')
    """

    card: Card
    capture: CardSet

    @classmethod
    def of(cls, card: int, capture: int) -> Play:
        """A play from a card index and a capture mask."""
        return cls(CARDS[card], CardSet(capture))

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read ``7d`` (a trail) or ``7d x 3c 4s`` (the 7 of coins takes 3c and 4s)."""
        card, _, taken = text.partition("x")
        return cls(Card.parse(card, "play"), CardSet.parse(taken, "play.capture"))

    @property
    def pair(self) -> tuple[int, int]:
        """The play as the engine's ints: (card index, capture mask)."""
        return self.card.index, self.capture.mask

    @property
    def trails(self) -> bool:
        return not self.capture

    def __str__(self) -> str:
        return f"{self.card} x {self.capture}" if self.capture else str(self.card)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class State:
    """A deal in progress (or finished): everything needed to go on playing it.

    Seats are numbered from 0; ``turn`` is the seat to play. ``history`` holds the plays so
    far as (card index, capture mask) pairs.
    """

    variant: Variant
    dealer: int
    hands: tuple[int, ...]
    table: int
    stock: tuple[int, ...]
    """Card indices still to be dealt, in dealing order."""
    piles: tuple[int, ...]
    sweeps: tuple[int, ...]
    turn: int
    last_capturer: int | None
    history: tuple[tuple[int, int], ...] = ()
    leftovers_to: int | None = None
    """Who took the cards left on the table at the end (``None``: the table was empty)."""
    seed: int | None = None
    redeals: int = 0
    """How many times the deal was dealt again (3 or 4 kings, or Cirulla's 2 aces, on the
    table)."""
    ace_sweeps: tuple[int, ...] = ()
    """Scopa d'Assi: per seat, the ace's take-alls (recorded apart from ``sweeps``; the deal's
    last play excluded). Empty = none."""
    last_play_cleared: int | None = None
    """The seat whose capture with the deal's very last card left the table empty."""
    declarations: tuple[tuple[str, ...], ...] = ()
    """Cirulla: per seat, ``"cirulla"`` or ``"decino"`` for each declared hand. Empty = none."""
    shown: int = 0
    """Cirulla: the cards of declared hands not yet played (they lie face up)."""
    matta_as: int | None = None
    """Cirulla with ``matta_play=declared``: the rank (0 = ace) the matta is played as, while
    it is in the hand it was declared in."""

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        """Every card has been played (and the leftovers taken)."""
        return not self.stock and not any(self.hands)

    @property
    def plays(self) -> tuple[Play, ...]:
        """The plays so far, in order."""
        return tuple(Play.of(card, capture) for card, capture in self.history)

    def hand(self, seat: int) -> CardSet:
        return CardSet(self.hands[seat])

    @property
    def table_cards(self) -> CardSet:
        return CardSet(self.table)

    def cards_in_play(self) -> int:
        """How many cards are accounted for (always 40)."""
        masks = (*self.hands, self.table, *self.piles)
        return sum(m.bit_count() for m in masks) + len(self.stock)
