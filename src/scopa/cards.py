"""The 40-card Italian pack: suits, ranks, cards and sets of cards as a 40-bit mask.

A card's index is ``suit * 10 + rank`` (coins 0-9, cups 10-19, swords 20-29, clubs 30-39),
so a suit is a run of ten bits and the coins are the low ten bits of any mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Self

from scopa.errors import InvalidCardError, describe
from scopa.i18n import N_


class Suit(IntEnum):
    """The four suits, in the order of the card index."""

    COINS = 0
    CUPS = 1
    SWORDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The canonical one-letter name: ``d c s b``."""
        return "dcsb"[self]


class Rank(IntEnum):
    """The ten ranks, ace to king, in the order of the card index."""

    ACE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    SIX = 5
    SEVEN = 6
    JACK = 7
    HORSE = 8
    KING = 9

    @property
    def symbol(self) -> str:
        """The canonical rank symbol: ``A 2 3 4 5 6 7 J H K``."""
        return RANK_SYMBOLS[self]

    @property
    def capture_value(self) -> int:
        """The capture value: ace 1, 2-7 face value, jack 8, horse 9, king 10."""
        return int(self) + 1

    @property
    def primiera(self) -> int:
        """The primiera value: 7 = 21, 6 = 18, ace = 16, 5 = 15 ... 2 = 12, faces 10."""
        return PRIMIERA_VALUES[self]

    @classmethod
    def parse(cls, text: object, where: str = "") -> Rank:
        """Read a rank alone (``"A"``, ``"7"``, ``"K"`` and their aliases).

        >>> Rank.parse("c"), Rank.parse("10"), Rank.parse("f"), Rank.parse("S")
        (Rank.HORSE, Rank.KING, Rank.JACK, Rank.JACK)
        """
        if isinstance(text, str):
            rank = _RANK_ALIASES.get(text.strip().upper())
            if rank is not None:
                return rank
        raise InvalidCardError(
            where,
            N_("{value} is not a rank (expected A-7, J, H, K or an alias: 1, 8/F/S, 9/Q/C, 10/R)"),
            code="card.not_rank",
            value=describe(text),
        )

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


RANK_SYMBOLS = ("A", "2", "3", "4", "5", "6", "7", "J", "H", "K")
PRIMIERA_VALUES = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)

_RANK_ALIASES: dict[str, Rank] = {symbol: Rank(i) for i, symbol in enumerate(RANK_SYMBOLS)}
_RANK_ALIASES.update(
    {"1": Rank.ACE, "8": Rank.JACK, "F": Rank.JACK, "9": Rank.HORSE, "Q": Rank.HORSE}
)
_RANK_ALIASES.update({"C": Rank.HORSE, "10": Rank.KING, "R": Rank.KING})
# The Spanish table's sota (S C R): a rank is read before the last character, the suit, so
# the swords' letter never meets it (``Sd`` the sota of coins, ``Ss`` of swords).
_RANK_ALIASES["S"] = Rank.JACK

_SUIT_ALIASES: dict[str, Suit] = {
    "D": Suit.COINS,
    "♦": Suit.COINS,
    "C": Suit.CUPS,
    "♥": Suit.CUPS,
    "S": Suit.SWORDS,
    "♠": Suit.SWORDS,
    "B": Suit.CLUBS,
    "♣": Suit.CLUBS,
}
# Emoji variants of the suit symbols and their outline forms.
_SUIT_ALIASES.update({"♢": Suit.COINS, "♡": Suit.CUPS, "♤": Suit.SWORDS, "♧": Suit.CLUBS})


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card; ``index`` (0-39) is its bit in a :class:`CardSet`.

    >>> Card.parse("7D")
    Card.parse('7d')
    >>> str(Card.parse("10♠")), Card.parse("Cc").rank
    ('Ks', Rank.HORSE)
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < 40:
            raise InvalidCardError(
                "",
                N_("card index {index} is outside 0-39"),
                code="card.card_index_outside",
                index=self.index,
            )

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return CARDS[suit * 10 + rank]

    @property
    def suit(self) -> Suit:
        return Suit(self.index // 10)

    @property
    def rank(self) -> Rank:
        return Rank(self.index % 10)

    @property
    def value(self) -> int:
        """The capture value (ace 1 ... king 10)."""
        return self.index % 10 + 1

    @property
    def bit(self) -> int:
        return 1 << self.index

    @classmethod
    def parse(cls, text: object, where: str = "") -> Card:
        """Read a card in the notation of docs/formats.md (rank then suit, case-insensitive)."""
        if isinstance(text, str):
            stripped = text.strip().replace("\ufe0f", "")
            if len(stripped) >= 2:
                suit = _SUIT_ALIASES.get(stripped[-1].upper())
                rank = _RANK_ALIASES.get(stripped[:-1].strip().upper())
                if suit is not None and rank is not None:
                    return CARDS[suit * 10 + rank]
        raise InvalidCardError(
            where,
            N_("{value} is not a card (expected a rank A-7, J, H, K and a suit d c s b)"),
            code="card.not_card",
            value=describe(text),
        )

    def __str__(self) -> str:
        return RANK_SYMBOLS[self.index % 10] + "dcsb"[self.index // 10]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(40))
SETTEBELLO = CARDS[Suit.COINS * 10 + Rank.SEVEN]

FULL_MASK = (1 << 40) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0x3FF << (10 * s) for s in range(4))
COINS_MASK = SUIT_MASKS[Suit.COINS]
RANK_MASKS: tuple[int, ...] = tuple(sum(1 << (10 * s + r) for s in range(4)) for r in range(10))


def _best_primiera(ranks: int) -> int:
    """Best primiera value among a 10-bit mask of ranks of one suit (0 = none)."""
    return max((PRIMIERA_VALUES[r] for r in range(10) if ranks >> r & 1), default=0)


def _best_rank(ranks: int) -> int:
    """Rank index of the best primiera card in a 10-bit mask (-1 = none).

    Among the faces (all worth 10) the king is taken, then the horse, then the jack.
    """
    best, best_value = -1, 0
    for r in range(9, -1, -1):
        if ranks >> r & 1 and PRIMIERA_VALUES[r] > best_value:
            best, best_value = r, PRIMIERA_VALUES[r]
    return best


# Looked up by a suit's 10-bit slice of a mask.
BEST_PRIMIERA: tuple[int, ...] = tuple(_best_primiera(m) for m in range(1024))
BEST_RANK: tuple[int, ...] = tuple(_best_rank(m) for m in range(1024))


def napola_run(coins: int) -> int:
    """Length of the unbroken run of coins from the ace, given the 10-bit mask of coin ranks.

    >>> napola_run(0b1101111)  # A 2 3 4 6 7: the run breaks at the missing 5
    4
    """
    run = 0
    while coins >> run & 1:
        run += 1
    return run


NAPOLA_RUN: tuple[int, ...] = tuple(napola_run(m) for m in range(1024))


class CardSet:
    """A set of cards held as a 40-bit mask; behaves like a frozen set of :class:`Card`.

    >>> hand = CardSet.parse("7d 3c Kb")
    >>> Card.parse("7d") in hand, len(hand), str(hand | CardSet.parse("Ad"))
    (True, 3, 'Ad 7d 3c Kb')
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_MASK:
                raise InvalidCardError(
                    "",
                    N_("mask {cards:#x} is not a set of the 40 cards"),
                    code="card.mask_not_set_cards",
                    cards=cards,
                )
            mask = cards
        else:
            mask = 0
            for card in cards:
                mask |= 1 << card.index
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str | Iterable[object], where: str = "") -> Self:
        """Read cards from a space- or comma-separated string or a list of strings.

        A card given twice is an error that names its place.
        """
        items: list[object] = []
        if isinstance(text, str):
            items.extend(text.replace(",", " ").split())
        else:
            items.extend(text)
        mask = 0
        for i, item in enumerate(items):
            place = f"{where}[{i}]"
            card = Card.parse(item, place)
            if mask >> card.index & 1:
                raise InvalidCardError(
                    place, N_("{card!r} is listed twice"), code="card.listed_twice", card=str(card)
                )
            mask |= 1 << card.index
        return cls(mask)

    @classmethod
    def full(cls) -> Self:
        return cls(FULL_MASK)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield CARDS[low.bit_length() - 1]
            mask ^= low

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __invert__(self) -> CardSet:
        """The cards of the pack not in this set."""
        return CardSet(FULL_MASK & ~self.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.mask == other.mask

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __lt__(self, other: CardSet) -> bool:
        return self.mask != other.mask and self.mask & ~other.mask == 0

    def __ge__(self, other: CardSet) -> bool:
        return other.mask & ~self.mask == 0

    def __gt__(self, other: CardSet) -> bool:
        return self.mask != other.mask and other.mask & ~self.mask == 0

    def __index__(self) -> int:
        """The 40-bit mask, so a set works where an index is wanted (``bin(s)``, ``hex(s)``)."""
        return self.mask

    __int__ = __index__

    def __reversed__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            high = mask.bit_length() - 1
            yield CARDS[high]
            mask ^= 1 << high

    # The frozenset API: the named methods take any iterables of cards, as frozenset's do.

    def issubset(self, other: Iterable[Card]) -> bool:
        return self.mask & ~_mask_of(other) == 0

    def issuperset(self, other: Iterable[Card]) -> bool:
        return _mask_of(other) & ~self.mask == 0

    def isdisjoint(self, other: Iterable[Card]) -> bool:
        return self.mask & _mask_of(other) == 0

    def union(self, *others: Iterable[Card]) -> CardSet:
        mask = self.mask
        for other in others:
            mask |= _mask_of(other)
        return CardSet(mask)

    def intersection(self, *others: Iterable[Card]) -> CardSet:
        mask = self.mask
        for other in others:
            mask &= _mask_of(other)
        return CardSet(mask)

    def difference(self, *others: Iterable[Card]) -> CardSet:
        mask = self.mask
        for other in others:
            mask &= ~_mask_of(other)
        return CardSet(mask)

    def symmetric_difference(self, other: Iterable[Card]) -> CardSet:
        return CardSet(self.mask ^ _mask_of(other))

    def copy(self) -> CardSet:
        return self

    def subsets(self) -> Iterator[CardSet]:
        """Every subset of this set, the empty set first and the set itself last (in the
        order of their masks; the "carry-rippler" walk over the set's bits).

        >>> [str(s) for s in CardSet.parse("Ad 2c 3s").subsets()]
        ['', 'Ad', '2c', 'Ad 2c', '3s', 'Ad 3s', '2c 3s', 'Ad 2c 3s']
        """
        mask = self.mask
        sub = 0
        while True:
            yield CardSet(sub)
            sub = (sub - mask) & mask
            if not sub:
                return

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def ranks_of(self, suit: Suit) -> int:
        """The 10-bit mask of ranks held in one suit."""
        return self.mask >> (10 * suit) & 0x3FF

    def to_list(self) -> list[str]:
        """Canonical card strings in index order (coins, cups, swords, clubs; ace to king)."""
        return [str(card) for card in self]


def _mask_of(cards: Iterable[Card]) -> int:
    """The mask of a :class:`CardSet` or of any iterable of cards."""
    if isinstance(cards, CardSet):
        return cards.mask
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask
