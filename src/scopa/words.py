"""The cards as people name them, in the language in force (:mod:`scopa.i18n`).

A card's code (``7d``, ``Hc``) is for files and the API; people read ``7 of coins``,
``7 di denari``, ``siete de oros``, and the letters their table writes: ``F C R`` (fante,
cavallo, re) in Italian, ``S C R`` (sota, caballo, rey) in Spanish, ``J H K`` in English.
A table that plays with a French-suited deck sees ``♦ ♥ ♠ ♣`` and ``J Q K`` (:data:`FRENCH`),
and its cards named as that deck names them: ``7 of diamonds``, ``donna di cuori``, ``reina
de corazones``. The mapping is the terminal game's (``scopa play --deck french``): coins are
diamonds, cups hearts, swords spades, clubs clubs; the jack stays the jack, the horse is the
queen, the king the king. The Italian suits have no signs of their own, so their display
writes the suit's initial (``d c s b``, in Spanish ``o c e b``).

The display in force is a context variable like the language (:func:`use_deck`,
:func:`using_deck`): the pages put the reader's choice in force for a request
(:mod:`scopa.web.language`), the phone's worker for its page, the terminal game for its
``--deck``; every function here follows it unless given a ``deck``. Card codes never change.

>>> card_name("7d"), rank_letter("H"), suit_symbol("c"), card_label("Kb")
('7 of coins', 'H', 'c', 'K\u00a0clubs')
>>> from scopa.i18n import using
>>> with using("it"):
...     card_name("7d"), card_name("Hc"), rank_letter("H"), cards_named(["Ac", "2c"])
('sette di denari', 'cavallo di coppe', 'C', 'asso di coppe, due di coppe')
>>> with using("es"):
...     card_name("7d"), rank_letter("J")
('siete de oros', 'S')
>>> card_short("Hc", deck=FRENCH)
'Q♥'
>>> with using_deck(FRENCH):
...     card_name("7d"), card_name("Hc"), card_label("Kb"), rank_letter("H"), suit_symbol("s")
('7 of diamonds', 'queen of hearts', 'K\u00a0clubs', 'Q', '♠')
>>> with using("it"), using_deck(FRENCH):
...     card_name("Hc"), card_name("Jd"), suit_name("b")
('donna di cuori', 'fante di quadri', 'fiori')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Protocol

from scopa.cards import Card, Rank, Suit
from scopa.errors import Phrase
from scopa.i18n import N_, NP_, _, language, pgettext, using
from scopa.made_names import COMPUTER, PARTNER, REMATCH, TABLE, YOU, MadeName, Seat
from scopa.names import name_key

ITALIAN = "italian"
FRENCH = "french"
DECKS = (ITALIAN, FRENCH)

SUIT_NAMES = (
    NP_("suit", "coins"),
    NP_("suit", "cups"),
    NP_("suit", "swords"),
    NP_("suit", "clubs"),
)
"""The suits in English, in the card index's order; translated with the context ``suit``."""
RANK_NAMES = (
    NP_("rank", "ace"),
    NP_("rank", "2"),
    NP_("rank", "3"),
    NP_("rank", "4"),
    NP_("rank", "5"),
    NP_("rank", "6"),
    NP_("rank", "7"),
    NP_("rank", "jack"),
    NP_("rank", "horse"),
    NP_("rank", "king"),
)
"""Each rank's name (its number from 2 to 7); translated with the context ``rank``."""
RANK_LETTERS = ("A", "2", "3", "4", "5", "6", "7", "J", "H", "K")
"""What a table writes for each rank; the faces are translated with the context ``letter``."""
FACE_LETTERS = (NP_("letter", "J"), NP_("letter", "H"), NP_("letter", "K"))
FRENCH_LETTERS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
FRENCH_SYMBOLS = ("♦", "♥", "♠", "♣")
FRENCH_SUIT_NAMES = (
    NP_("french suit", "diamonds"),
    NP_("french suit", "hearts"),
    NP_("french suit", "spades"),
    NP_("french suit", "clubs"),
)
"""A French-suited deck's suits, in the card index's order (coins are diamonds, cups hearts,
swords spades, clubs clubs); translated with the context ``french suit``."""
FRENCH_FACE_NAMES = (
    NP_("french rank", "jack"),
    NP_("french rank", "queen"),
    NP_("french rank", "king"),
)
"""A French-suited deck's faces (the horse is its queen); the context ``french rank``."""

_deck: ContextVar[str] = ContextVar("scopa_deck", default=ITALIAN)


def normal_deck(value: object) -> str | None:
    """A display's name as one of :data:`DECKS` (``French``, `` french `` too), else ``None``.

    >>> normal_deck("French"), normal_deck("italian"), normal_deck("tarot"), normal_deck(3)
    ('french', 'italian', None, None)
    """
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    return text if text in DECKS else None


def deck() -> str:
    """The display in force: :data:`ITALIAN` (the default) or :data:`FRENCH`."""
    return _deck.get()


def use_deck(value: object) -> None:
    """Show the cards this way from now on in this context (unknown: Italian suits)."""
    _deck.set(normal_deck(value) or ITALIAN)


@contextmanager
def using_deck(value: object) -> Iterator[str]:
    """Show the cards this way inside the ``with`` block."""
    token = _deck.set(normal_deck(value) or ITALIAN)
    try:
        yield _deck.get()
    finally:
        _deck.reset(token)


def _suit(suit: object) -> Suit:
    if isinstance(suit, Suit):
        return suit
    if isinstance(suit, int):
        return Suit(suit)
    return Card.parse(f"A{suit}").suit


def _rank(rank: object) -> Rank:
    return rank if isinstance(rank, Rank) else Rank.parse(rank)


def _card(card: object) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def suit_name(suit: object, deck: str | None = None) -> str:
    """``coins``, ``denari``, ``oros`` (a :class:`Suit`, its index or its letter); in French
    suits ``diamonds``, ``quadri``, ``diamantes``."""
    if (deck or _deck.get()) == FRENCH:
        return pgettext("french suit", FRENCH_SUIT_NAMES[_suit(suit)])
    return pgettext("suit", SUIT_NAMES[_suit(suit)])


def rank_name(rank: object, deck: str | None = None) -> str:
    """``ace``, ``asso``, ``as``; ``7``; ``horse``, ``cavallo``, ``caballo``; in French suits
    the faces are ``jack queen king``, ``fante donna re``, ``jota reina rey``."""
    index = _rank(rank)
    if index >= Rank.JACK and (deck or _deck.get()) == FRENCH:
        return pgettext("french rank", FRENCH_FACE_NAMES[index - Rank.JACK])
    return pgettext("rank", RANK_NAMES[index])


def rank_letter(rank: object, deck: str | None = None) -> str:
    """The letter a table writes: ``J H K`` (English), ``F C R``, ``S C R``; ``J Q K`` for a
    French-suited deck."""
    shown = deck or _deck.get()
    if isinstance(rank, str):
        return _rank_letter(rank, shown, language())
    return _rank_letter(RANK_LETTERS[_rank(rank)], shown, language())


@cache
def _rank_letter(rank: str, deck: str, _language: str) -> str:
    index = _rank(rank)
    if deck == FRENCH:
        return FRENCH_LETTERS[index]
    return pgettext("letter", RANK_LETTERS[index]) if index >= Rank.JACK else RANK_LETTERS[index]


def suit_symbol(suit: object, deck: str | None = None) -> str:
    """The suit's sign: ``♦ ♥ ♠ ♣`` for a French-suited deck, else its initial."""
    index = _suit(suit)
    if (deck or _deck.get()) == FRENCH:
        return FRENCH_SYMBOLS[index]
    return suit_name(index, ITALIAN)[0]


def card_name(card: object, deck: str | None = None) -> str:
    """A card in words: ``7 of coins``, ``cavallo di coppe``, ``siete de oros``; in French
    suits ``7 of diamonds``, ``donna di cuori``, ``reina de corazones``."""
    return _card_name(str(_card(card)), deck or _deck.get(), language())


@cache
def _card_name(card: str, deck: str, _language: str) -> str:
    parsed = _card(card)
    # Translators: a card; {rank} is a rank's name (ace, 7, horse), {suit} a suit's.
    return _("{rank} of {suit}").format(
        rank=rank_name(parsed.rank, deck), suit=suit_name(parsed.suit, deck)
    )


def card_short(card: object, deck: str | None = None) -> str:
    """A card in a corner: ``7d`` style with the table's letters (``Cc`` for the cavallo
    of coppe; ``Q♥`` in French suits)."""
    parsed = _card(card)
    return rank_letter(parsed.rank, deck) + suit_symbol(parsed.suit, deck)


def card_label(card: object) -> str:
    """A card short and readable: the table's letter and the suit's name (``K clubs``,
    ``R bastoni``), joined by a no-break space."""
    parsed = _card(card)
    return f"{rank_letter(parsed.rank)}\u00a0{suit_name(parsed.suit)}"


def cards_named(cards: Iterable[object]) -> str:
    """Cards in words, joined by commas: ``asso di coppe, 2 di coppe``."""
    return ", ".join(card_name(card) for card in cards)


class CardWords(Phrase):
    """Cards as a message's parameter, said when the message is said: named in the reader's
    language and deck (``7 of coins``, ``7 di denari``), or with ``letters`` by the letters
    a table writes (``6 H``, ``6 C``); never the notation's codes (``7d``), which are for
    match files.

    >>> from scopa.i18n import using
    >>> seven = CardWords(["7b"])
    >>> str(seven)
    '7 of clubs'
    >>> with using("it"):
    ...     seven.text(), CardWords(["6d", "Hd"], letters=True).text()
    ('sette di bastoni', '6 C')
    """

    cards: tuple[Card, ...]
    letters: bool

    def __new__(cls, cards: Iterable[object], letters: bool = False) -> CardWords:
        held = tuple(_card(card) for card in cards)
        with using("en"):
            english = _cards_said(held, letters)
        phrase = super().__new__(cls, english)
        phrase.cards, phrase.letters = held, letters
        return phrase

    def text(self) -> str:
        return _cards_said(self.cards, self.letters)


def _cards_said(cards: tuple[Card, ...], letters: bool) -> str:
    return " ".join(rank_letter(card.rank) for card in cards) if letters else cards_named(cards)


def grande_cards() -> str:
    """The grande's three cards: fante, cavallo and re of coins, as the table writes them."""
    letters = " ".join(rank_letter(r) for r in (Rank.JACK, Rank.HORSE, Rank.KING))
    return f"{letters} {suit_name(Suit.COINS)}"


_LEVELS = {
    "easy": NP_("level", "easy"),
    "normal": NP_("level", "normal"),
    "strong": NP_("level", "strong"),
}


def shown_name(name: str, made: MadeName | None = None) -> str:
    """A match's name as the reader says it. A name the program made is kept as data
    (:class:`scopa.made_names.MadeName`: ``Against the computer (Scopa, normal)`` from ``scopa
    play`` and the Play page, ``Table 7K2Q (Scopa)`` for a table played together, ``Sunday
    (rematch)``) and worded here in the language in force; any other name is the players'
    own, shown as they typed it, whatever it looks like (the text is never read back).

    >>> from scopa.i18n import using
    >>> strong, table = MadeName.computer("Scopa", "strong"), MadeName.table("7K2Q", "Escoba")
    >>> with using("it"):
    ...     shown_name(strong.english(), strong), shown_name(table.english(), table)
    ('Contro il computer (Scopa, forte)', 'Tavolo 7K2Q (Escoba)')
    >>> again = MadeName.rematch("Table 7K2Q (Scopa)", MadeName.table("7K2Q", "Scopa"))
    >>> with using("es"):
    ...     shown_name(again.english(), again), shown_name("Table 7K2Q (Scopa)")
    ('Mesa 7K2Q (Scopa) (revancha)', 'Table 7K2Q (Scopa)')
    >>> shown_name("x", MadeName.computer("Scopa", "500ms"))
    'Against the computer (Scopa, 500ms)'
    """
    if made is None:
        return name
    if made.kind == REMATCH:
        original = made.original()
        said = shown_name("", original) if isinstance(original, MadeName) else original
        # Translators: a rematch's name: the finished match's name, said to be a rematch.
        return _("{name} (rematch)").format(name=said)
    if made.kind == COMPUTER:
        level = made.arg("level")
        known = _LEVELS.get(level)
        return _("Against the computer ({variant}, {level})").format(
            variant=made.arg("variant"), level=pgettext("level", known) if known else level
        )
    if made.kind == TABLE:
        return _("Table {code} ({variant})").format(
            code=made.arg("code"), variant=made.arg("variant")
        )
    return name


SEAT_WORDS = {YOU: N_("You"), COMPUTER: N_("Computer"), PARTNER: N_("Partner")}
"""How the reader says the seats the program names (:class:`scopa.made_names.Seat`), with
``Computer 1``, ``Computer 2``... for one computer among several."""


def seat_word(seat: Seat) -> str | None:
    """A seat the program names, in the language in force (``None``: a person's seat, called
    by the name they gave).

    >>> from scopa.i18n import using
    >>> with using("es"):
    ...     seat_word(Seat(YOU)), seat_word(Seat(COMPUTER, 2)), seat_word(Seat("person"))
    ('Tú', 'Ordenador 2', None)
    """
    if seat.kind == COMPUTER and seat.number:
        return _("Computer {number}").format(number=seat.number)
    word = SEAT_WORDS.get(seat.kind)
    return None if word is None else _(word)


class Seated(Protocol):
    """What knows who sits where: a match, its line of the list."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def seat_kinds(self) -> tuple[Seat, ...]: ...


def side_name(side: str, seated: Seated | None = None) -> str:
    """A side (a player, or a team: its players joined by ``&``) as the reader says it: a
    seat the program named in ``seated`` (a match against the computer, a table's computer
    seats) in the language in force, from the match's seat kinds; a person's name as typed,
    whatever it reads like (the text is never read back).

    >>> from scopa.i18n import using
    >>> from scopa.match import Match
    >>> from scopa.made_names import computer_seats
    >>> pairs = Match(("You", "Computer 1", "Partner", "Computer 2"),
    ...               seat_kinds=computer_seats(4, True))
    >>> people = Match(("Computer 2", "Anna"))
    >>> with using("it"):
    ...     side_name("You & Partner", pairs), side_name("Computer 2", people)
    ('Tu & Compagno', 'Computer 2')
    >>> with using("es"):
    ...     side_name("Computer 2", pairs), side_name("Computer 2", people)
    ('Ordenador 2', 'Computer 2')
    """
    if seated is None or not seated.seat_kinds:
        return side
    words = {}
    for name, seat in zip(seated.players, seated.seat_kinds, strict=False):
        word = seat_word(seat)
        if word is not None:
            words[name] = word
    if side in words or " & " not in side:
        return words.get(side, side)
    parts = side.split(" & ")
    if all(part in seated.players for part in parts):
        return " & ".join(words.get(part, part) for part in parts)
    return side


def player_name(name: str, seats: Mapping[str, Seat] | None = None) -> str:
    """A name of the players' figures as the reader says it: one the program gave a seat
    (``seats``, by name key: the store remembers it as data when a match that names seats is
    recorded, :meth:`scopa.store.people.People.seats`) in the language in force, any other as
    typed, whatever it reads like (a team's, each of its players). The figures are kept by
    name across matches; a match's own names are worded from its data (:func:`side_name`).

    >>> from scopa.i18n import using
    >>> seats = {"you": Seat(YOU), "partner": Seat(PARTNER)}
    >>> with using("it"):
    ...     player_name("You & Partner", seats), player_name("Computer 2", seats)
    ('Tu & Compagno', 'Computer 2')
    """
    if not seats:
        return name
    if " & " in name:  # a team: its players joined
        return " & ".join(player_name(part, seats) for part in name.split(" & "))
    seat = seats.get(name_key(name))
    return name if seat is None else seat_word(seat) or name
