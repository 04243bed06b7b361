"""What one seat knows of a deal, and the deals that agree with it.

A seat sees its own hand, the table, every card played (trails stay on the table, captures go
face up to a pile) and the sweeps, and it counts the cards in the other hands and in the
stock. :func:`observe` keeps exactly that and nothing else, so a player that reasons from a
:class:`Knowledge` cannot peek: the cards it does not see are only a mask of *unknown* cards,
shared out again by :func:`sample` or :func:`every_deal`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from scopa.cards import FULL_MASK
from scopa.engine.ai.levels import Level
from scopa.engine.captures import bits_of
from scopa.engine.records import Play, State
from scopa.engine.variants import Variant
from scopa.rules import Settings


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The information set of ``seat``: the public facts and its own hand.

    ``hand_sizes`` counts every seat's cards (its own included); ``stock_size`` the cards left
    to deal. Piles are per seat, as the cards were taken.
    """

    variant: Variant
    seat: int
    dealer: int
    turn: int
    hand: int
    table: int
    piles: tuple[int, ...]
    sweeps: tuple[int, ...]
    last_capturer: int | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    history: tuple[tuple[int, int], ...]
    shown: tuple[int, ...] = ()
    """Cirulla: per seat, the cards of its declared hand still face up (everyone sees them)."""
    declarations: tuple[tuple[str, ...], ...] = ()
    matta_as: int = -1
    ace_sweeps: tuple[int, ...] = ()
    last_play_cleared: int | None = None

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def unknown(self) -> int:
        """The mask of the cards this seat cannot see: the other hands and the stock."""
        seen = self.hand | self.table
        for pile in (*self.piles, *self.shown):
            seen |= pile
        return FULL_MASK & ~seen

    def hidden_size(self, seat: int) -> int:
        """How many of a seat's cards are not face up."""
        return self.hand_sizes[seat] - (self.shown[seat].bit_count() if self.shown else 0)

    def deals(self) -> int:
        """How many ways the unknown cards can lie in the other hands (the stock order aside)."""
        left = self.unknown.bit_count()
        ways = 1
        for other in self.others():
            ways *= comb(left, self.hidden_size(other))
            left -= self.hidden_size(other)
        return ways

    def others(self) -> tuple[int, ...]:
        """The other seats, in turn order after this one."""
        n = self.players
        return tuple((self.seat + k) % n for k in range(1, n))


PUBLIC = (
    "variant",
    "dealer",
    "turn",
    "table",
    "piles",
    "sweeps",
    "last_capturer",
    "history",
    "declarations",
    "ace_sweeps",
    "last_play_cleared",
)
"""The fields a :class:`Knowledge` holds as the :class:`State` has them (the same name and
type in both): what every seat sees. :func:`observe` copies them from a state and a sampled
deal copies them back; the seat's hand, the hand sizes, the stock and the cards shown are
the fields that differ."""


def observe(state: State, seat: int) -> Knowledge:
    """What ``seat`` knows of ``state``.

    >>> from scopa.engine import VARIANTS, deal
    >>> k = observe(deal(VARIANTS["scopa"], 2, seed=1), 1)
    >>> k.hand_sizes, k.stock_size, k.unknown.bit_count()
    ((3, 3), 30, 33)
    """
    return Knowledge(
        seat=seat,
        hand=state.hands[seat],
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        stock_size=len(state.stock),
        shown=tuple(h & state.shown for h in state.hands) if state.shown else (),
        matta_as=-1 if state.matta_as is None else state.matta_as,
        **{name: getattr(state, name) for name in PUBLIC},
    )


class Thinker:
    """What a player that searches from what its seat knows keeps: its randomness, its
    level, the house rules it plays to win (``None``: the variant's) and the clock its
    thinking time is read on (the CPU clock where the level says so); a
    :class:`~scopa.engine.players.Player` once it can :meth:`decide`."""

    def __init__(
        self,
        rng: random.Random,
        level: Level,
        settings: Settings | None,
        clock: Callable[[], float],
    ) -> None:
        self.rng = rng
        self.level = level
        self.settings = settings
        self.clock = time.thread_time if level.cpu else clock

    def decide(self, k: Knowledge) -> tuple[int, int]:
        """The play (card index, capture mask) for the seat to move, from what it knows."""
        raise NotImplementedError

    def choose(self, state: State, plays: Sequence[Play]) -> Play:
        """The play of ``plays`` that :meth:`decide` makes from what the seat to move knows
        of ``state`` (a new :class:`Play` if none of them is that play)."""
        card, capture = self.decide(observe(state, state.turn))
        for play in plays:
            if play.pair == (card, capture):
                return play
        return Play.of(card, capture)


def _state(
    k: Knowledge,
    hands: list[int],
    stock: Sequence[int],
    public: dict[str, object] | None = None,
) -> State:
    """The deal of ``hands`` and ``stock`` that agrees with ``k`` (``public``: its
    :data:`PUBLIC` fields, when read out already)."""
    return State(
        hands=tuple(hands),
        stock=tuple(stock),
        shown=sum(k.shown),
        matta_as=None if k.matta_as < 0 else k.matta_as,
        **(public if public is not None else {name: getattr(k, name) for name in PUBLIC}),
    )


class Dealer:
    """The deals that agree with ``k``, drawn one after another: what every draw shares (the
    unknown cards, the hands' sizes, the public fields) worked out once."""

    __slots__ = ("cards", "k", "public", "sizes", "start")

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.cards = [mask.bit_length() - 1 for mask in bits_of(k.unknown)]
        start = list(k.shown) if k.shown else [0] * k.players
        start[k.seat] = k.hand
        self.start = start
        self.sizes = [(other, k.hidden_size(other)) for other in k.others()]
        self.public = {name: getattr(k, name) for name in PUBLIC}

    def hands(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """The unknown cards shuffled into the other hands (by their sizes, in turn order)
        and the stock: every seat's hand, and the stock's cards."""
        cards = self.cards.copy()
        rng.shuffle(cards)
        hands = self.start.copy()
        return hands, cards[_share_out(cards, hands, self.sizes) :]

    def state(self, hands: list[int], stock: list[int]) -> State:
        """The deal of :meth:`hands`' draw."""
        return _state(self.k, hands, stock, self.public)

    def sample(self, rng: random.Random) -> State:
        """:func:`sample`."""
        return self.state(*self.hands(rng))


def _share_out(cards: list[int], hands: list[int], sizes: Iterable[tuple[int, int]]) -> int:
    """Deal ``cards`` (shuffled) into ``hands``, each seat its number of them in turn:
    how many were dealt (the rest are the stock)."""
    pos = 0
    for other, size in sizes:
        hand = hands[other]
        for index in cards[pos : pos + size]:
            hand |= 1 << index
        hands[other] = hand
        pos += size
    return pos


def sample(k: Knowledge, rng: random.Random) -> State:
    """One deal that agrees with ``k``: the unknown cards shuffled into the other hands (by
    their sizes, in turn order) and the stock. Every such deal is equally likely. (One draw:
    no :class:`Dealer` made, which the reference's every iteration would pay for.)"""
    cards = [mask.bit_length() - 1 for mask in bits_of(k.unknown)]
    rng.shuffle(cards)
    hands = list(k.shown) if k.shown else [0] * k.players
    hands[k.seat] = k.hand
    pos = _share_out(cards, hands, ((other, k.hidden_size(other)) for other in k.others()))
    return _state(k, hands, cards[pos:])


def every_deal(k: Knowledge) -> Iterator[State]:
    """Every deal that agrees with ``k`` when the stock is empty, in a fixed order."""
    if k.stock_size:
        raise ValueError("every_deal needs an empty stock")

    def share(left: int, seats: tuple[int, ...], hands: list[int]) -> Iterator[list[int]]:
        if not seats:
            yield hands
            return
        seat = seats[0]
        face_up = hands[seat]
        for pick in combinations(bits_of(left), k.hidden_size(seat)):
            mask = sum(pick)
            hands[seat] = face_up | mask
            yield from share(left ^ mask, seats[1:], hands)
        hands[seat] = face_up

    start = list(k.shown) if k.shown else [0] * k.players
    start[k.seat] = k.hand
    for hands in share(k.unknown, k.others(), start):
        yield _state(k, list(hands), ())
