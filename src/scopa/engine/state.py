"""The state of a deal, the deal itself, legal plays and applying a play (RULES.md 2-4).

A :class:`State` is immutable: :func:`apply` returns the next one. Hands, table, piles and
stock are int masks or card indices, so a state is cheap to copy and hash. A deal is fully
determined by its seed and its list of plays (:func:`replay`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scopa.cards import CARDS, Card, CardSet
from scopa.deal import Deal, Pile
from scopa.engine.captures import KING_MASK, RANK_OF, rules_for
from scopa.engine.variants import Variant
from scopa.errors import IllegalPlayError, InputError


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
    """How many times the deal was dealt again for 3 or 4 kings on the table."""

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


def deal(
    variant: Variant,
    players: int,
    seed: int | None = None,
    dealer: int = 0,
    rng: random.Random | None = None,
) -> State:
    """Shuffle and deal (again while 3 or 4 kings lie on the table, if the variant says so).

    The shuffle draws from ``rng``, or from ``random.Random(seed)``; dealing is by the
    variant's packets, starting with the player after the dealer.

    >>> from scopa.engine.variants import VARIANTS
    >>> state = deal(VARIANTS["scopa"], 2, seed=1)
    >>> len(state.hand(0)), len(state.table_cards), len(state.stock), state.turn
    (3, 4, 30, 1)
    """
    variant.check_players(players)
    if not 0 <= dealer < players:
        raise IllegalPlayError(f"dealer seat {dealer} is not one of the {players} seats")
    if rng is None:
        rng = random.Random(seed)
    redeals = 0
    hands: list[int] = []
    table = pos = 0
    deck: list[int] = []
    while True:
        deck = list(range(40))
        rng.shuffle(deck)
        hands = [0] * players
        table = 0
        pos = 0
        order = [(dealer + 1 + k) % players for k in range(players)]
        for packet in variant.packets:
            if packet < 0:
                for index in deck[pos : pos - packet]:
                    table |= 1 << index
                pos -= packet
                continue
            for seat in order:
                for index in deck[pos : pos + packet]:
                    hands[seat] |= 1 << index
                pos += packet
        if variant.kings_redeal and (table & KING_MASK).bit_count() >= 3:
            redeals += 1
            continue
        break
    piles = [0] * players
    sweeps = [0] * players
    last = None
    if variant.dealer_sweeps and table:
        found = opening_fifteens(table)
        if found:
            piles[dealer] = table
            sweeps[dealer] = found
            table = 0
            last = dealer
    return State(
        variant=variant,
        dealer=dealer,
        hands=tuple(hands),
        table=table,
        stock=tuple(deck[pos:]),
        piles=tuple(piles),
        sweeps=tuple(sweeps),
        turn=(dealer + 1) % players,
        last_capturer=last,
        seed=seed,
        redeals=redeals,
    )


def opening_fifteens(table: int) -> int:
    """Escoba: the dealer's sweeps from the starting table (15 = one, two fifteens = two).

    >>> opening_fifteens(CardSet.parse("7d Jc").mask), opening_fifteens(CardSet.parse("Kd 5c Kb 5s").mask)
    (1, 2)
    >>> opening_fifteens(CardSet.parse("Kd Kc Hb As").mask)
    0
    """  # noqa: E501
    values = [RANK_OF[c.index] + 1 for c in CardSet(table)]
    total = sum(values)
    if total == 15:
        return 1
    if total == 30:
        n = len(values)
        for pick in range(1, 1 << n):
            if sum(v for k, v in enumerate(values) if pick >> k & 1) == 15:
                return 2
    return 0


def deal_round(stock: Sequence[int], dealer: int, players: int, size: int) -> list[int]:
    """The next round's hands (masks by seat) from the front of the stock."""
    hands = [0] * players
    pos = 0
    for k in range(players):
        seat = (dealer + 1 + k) % players
        for index in stock[pos : pos + size]:
            hands[seat] |= 1 << index
        pos += size
    return hands


def legal_plays(state: State) -> tuple[Play, ...]:
    """The legal plays of the player to move, in the engine's fixed order.

    >>> from scopa.engine.variants import VARIANTS
    >>> s = State(VARIANTS["scopa"], 0, (CardSet.parse("Hd 3d").mask, 0),
    ...           CardSet.parse("As 3c 4b 5c Jb").mask, (), (0, 0), (0, 0), 0, None)
    >>> [str(p) for p in legal_plays(s)]
    ['3d x 3c', 'Hd x As Jb', 'Hd x 5c 4b', 'Hd x 3c 5c As']
    """
    if state.finished:
        return ()
    pairs = rules_for(state.variant).plays(state.hands[state.turn], state.table)
    return tuple(Play.of(card, capture) for card, capture in pairs)


def apply(state: State, play: Play | tuple[int, int]) -> State:
    """The state after the player to move makes ``play``; an illegal play raises
    :class:`~scopa.errors.IllegalPlayError` naming the card and the table."""
    card, capture = play.pair if isinstance(play, Play) else play
    if state.finished:
        raise IllegalPlayError(f"the deal is over: {CARDS[card]} cannot be played")
    seat = state.turn
    hand = state.hands[seat]
    bit = 1 << card
    if not hand & bit:
        raise IllegalPlayError(
            f"{CARDS[card]} is not in the hand of seat {seat + 1} ({CardSet(hand) or 'empty'})"
        )
    rules = rules_for(state.variant)
    table = state.table
    legal = [c for i, c in rules.plays(bit, table) if i == card]
    if capture not in legal:
        raise IllegalPlayError(_illegal(card, capture, table, legal))
    hands = list(state.hands)
    hands[seat] = hand ^ bit
    piles = state.piles
    sweeps = state.sweeps
    last = state.last_capturer
    stock = state.stock
    last_play = not stock and not any(hands)
    if capture:
        table ^= capture
        piles = _or_at(piles, seat, capture | bit)
        last = seat
        if rules.is_sweep(card, capture, table, last_play):
            sweeps = _one_more(sweeps, seat)
    else:
        table |= bit
    turn = (seat + 1) % len(hands)
    leftovers_to = None
    if last_play:
        if table:
            leftovers_to = last if last is not None else state.dealer
            piles = _or_at(piles, leftovers_to, table)
            table = 0
    elif not hands[turn]:
        size = state.variant.hand_size
        hands = deal_round(stock, state.dealer, len(hands), size)
        stock = stock[size * len(hands) :]
    return State(
        variant=state.variant,
        dealer=state.dealer,
        hands=tuple(hands),
        table=table,
        stock=stock,
        piles=piles,
        sweeps=sweeps,
        turn=turn,
        last_capturer=last,
        history=(*state.history, (card, capture)),
        leftovers_to=leftovers_to,
        seed=state.seed,
        redeals=state.redeals,
    )


def _or_at(masks: tuple[int, ...], seat: int, cards: int) -> tuple[int, ...]:
    """``masks`` with ``cards`` added to the mask at ``seat``."""
    out = list(masks)
    out[seat] |= cards
    return tuple(out)


def _one_more(counts: tuple[int, ...], seat: int) -> tuple[int, ...]:
    out = list(counts)
    out[seat] += 1
    return tuple(out)


def _illegal(card: int, capture: int, table: int, legal: list[int]) -> str:
    shown_table = str(CardSet(table)) or "empty"
    options = ", ".join(str(CardSet(c)) if c else "trail" for c in legal)
    what = f"take {CardSet(capture)} from" if capture else "trail on"
    why = ""
    if not capture:
        why = ": a card that can capture must capture"
    elif capture & ~table:
        missing = CardSet(capture & ~table)
        why = f": {missing} {'is' if len(missing) == 1 else 'are'} not on the table"
    return f"{CARDS[card]} cannot {what} the table {shown_table}{why} (legal: {options})"


def replay(
    variant: Variant,
    players: int,
    seed: int,
    plays: Iterable[Play | tuple[int, int] | str],
    dealer: int = 0,
) -> State:
    """Deal from ``seed`` and make ``plays`` in order: the same deal, exactly.

    >>> from scopa.engine.variants import VARIANTS
    >>> start = deal(VARIANTS["scopa"], 2, seed=7)
    >>> first = legal_plays(start)[0]
    >>> replay(VARIANTS["scopa"], 2, 7, [str(first)]) == apply(start, first)
    True
    """
    state = deal(variant, players, seed=seed, dealer=dealer)
    for play in plays:
        state = apply(state, Play.parse(play) if isinstance(play, str) else play)
    return state


def seat_names(players: int) -> tuple[str, ...]:
    """The default names of the seats: ``P1``, ``P2``...

    >>> seat_names(3)
    ('P1', 'P2', 'P3')
    """
    return tuple(f"P{k + 1}" for k in range(players))


def to_deal(state: State, names: Sequence[str] | None = None) -> Deal:
    """The finished deal as the facts the scorer reads: one full pile per seat.

    For Scopone the four players' piles are kept apart; a match with partnerships pools them.
    """
    if not state.finished:
        raise IllegalPlayError("the deal is not over: it has no record yet")
    owners = tuple(names) if names is not None else seat_names(state.players)
    if len(owners) != state.players:
        raise InputError("names", f"{len(owners)} names for {state.players} seats")
    last = None if state.leftovers_to is None else owners[state.leftovers_to]
    piles = tuple(Pile.of_cards(CardSet(mask)) for mask in state.piles)
    return Deal(owners, piles, state.sweeps, last)
