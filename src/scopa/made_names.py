"""The names the program makes for a match, kept as data: a kind and its parameters.

A match against the computer (``scopa play``, the Play page), a table played together and a
rematch are named by the program, not by a person. Such a name is kept as a
:class:`MadeName` (its kind and parameters, stored beside the match: the ``generated_name``
of a match file, the ``name_kind`` and ``name_args`` columns) and worded when it is shown, in
the reader's language (:func:`scopa.words.shown_name`). The match's ``name`` stays the English
wording (:meth:`MadeName.english`), as the API and the files have always had it, so that a
reader of ``name`` alone sees what it saw before; nothing reads that text back. A name a
person typed has no :class:`MadeName` and is shown as typed, whatever it looks like.

>>> MadeName.computer("Scopa", "normal").english()
'Against the computer (Scopa, normal)'
>>> table = MadeName.table("7K2Q", "Escoba")
>>> table.english(), MadeName.rematch("Sunday", None).english()
('Table 7K2Q (Escoba)', 'Sunday (rematch)')
>>> again = MadeName.rematch(table.english(), table)
>>> again.english(), MadeName.from_json(again.to_json()) == again
('Table 7K2Q (Escoba) (rematch)', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scopa.errors import InvalidMatchError
from scopa.i18n import N_

COMPUTER = "computer"
TABLE = "table"
REMATCH = "rematch"
KINDS = {
    COMPUTER: ("variant", "level"),
    TABLE: ("code", "variant"),
    REMATCH: ("name",),
}
"""Each kind and the parameters it takes (a rematch of a made name also takes that name's
kind, ``of``, and its parameters)."""
MAX_ARG = 100


@dataclass(frozen=True, slots=True)
class MadeName:
    """A name the program made: its kind (one of :data:`KINDS`) and parameters (texts)."""

    kind: str
    args: tuple[tuple[str, str], ...]

    @classmethod
    def computer(cls, variant: str, level: str) -> MadeName:
        """A game against the computer: the variant's title and the computer's level."""
        return cls(COMPUTER, (("variant", variant), ("level", level)))

    @classmethod
    def table(cls, code: str, variant: str) -> MadeName:
        """A table played together: its code's first letters and the variant's title."""
        return cls(TABLE, (("code", code), ("variant", variant)))

    @classmethod
    def rematch(cls, name: str, made: MadeName | None) -> MadeName:
        """A rematch of a match named ``name`` (made by the program: ``made``)."""
        if made is not None and made.kind == REMATCH:
            return made
        if made is None:
            return cls(REMATCH, (("name", name),))
        return cls(REMATCH, (("of", made.kind), *made.args))

    def arg(self, key: str) -> str:
        return dict(self.args).get(key, "")

    def original(self) -> MadeName | str:
        """What a rematch is a rematch of: a made name, or the name a person typed."""
        given = dict(self.args)
        of = given.pop("of", "")
        if of:
            return MadeName(of, tuple(given.items()))
        return given.get("name", "")

    def english(self) -> str:
        """The name as the API and the files have always written it (in English)."""
        if self.kind == COMPUTER:
            return f"Against the computer ({self.arg('variant')}, {self.arg('level')})"
        if self.kind == TABLE:
            return f"Table {self.arg('code')} ({self.arg('variant')})"
        original = self.original()
        said = original.english() if isinstance(original, MadeName) else original
        return f"{said} (rematch)"

    def to_json(self) -> dict[str, str]:
        """``{"kind": ..., parameter: value, ...}``: a match file's ``generated_name``."""
        return {"kind": self.kind, **dict(self.args)}

    @classmethod
    def from_json(cls, value: object, where: str = "generated_name") -> MadeName:
        """The made name a file or a row holds (:class:`~scopa.errors.InvalidMatchError`
        saying where, if it is not one)."""
        if not isinstance(value, dict) or value.get("kind") not in KINDS:
            raise InvalidMatchError(
                where,
                N_("expected a generated name (a kind: {kinds}, and its parameters)"),
                code="match.generated_name",
                kinds=", ".join(KINDS),
            )
        kind = value["kind"]
        args = {k: v for k, v in value.items() if k != "kind"}
        wanted = set(KINDS[kind])
        if kind == REMATCH and args.get("of") in KINDS and args["of"] != REMATCH:
            wanted = {"of", *KINDS[args["of"]]}
        if set(args) != wanted or not all(
            isinstance(v, str) and 0 < len(v) <= MAX_ARG for v in args.values()
        ):
            raise InvalidMatchError(
                where,
                N_("a generated name of kind {kind} takes {keys}, each a short text"),
                code="match.generated_name_args",
                kind=kind,
                keys=", ".join(sorted(wanted)),
            )
        order = ("of", *KINDS.get(str(args.get("of", "")), ()), *KINDS[kind])
        return cls(kind, tuple((k, args[k]) for k in order if k in args))


def made_from_row(kind: str | None, args: Any) -> MadeName | None:
    """The made name of a stored row (its ``name_kind`` and ``name_args``), else ``None``."""
    if not kind:
        return None
    return MadeName.from_json({"kind": kind, **dict(args or {})}, "name_args")


PERSON = "person"
YOU = "you"
PARTNER = "partner"
SEAT_KINDS = (PERSON, YOU, COMPUTER, PARTNER)
"""Who sits in a seat: a person, who plays under the name they gave; or one the program names
(``you`` against the computer, a ``computer`` seat, the computer as your ``partner``)."""
MAX_SEAT_NUMBER = 5


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat, as data (a match's :attr:`~scopa.match.Match.seat_kinds`): its kind
    (one of :data:`SEAT_KINDS`) and, for one computer among several, its number. A seat the
    program names has its English wording as the player's name (:meth:`english`), as the API
    and the files have always had it; it is worded in the reader's language from this data
    (:func:`scopa.words.player_word`), never by reading the name back, so that a person who
    calls themselves ``Computer 2`` is shown as they typed.

    >>> [s.english() for s in computer_seats(4, True)]
    ['You', 'Computer 1', 'Partner', 'Computer 2']
    >>> Seat.from_json({"kind": "computer", "number": 2}) == Seat(COMPUTER, 2)
    True
    """

    kind: str
    number: int = 0

    def english(self) -> str | None:
        """The name the program gives the seat (``None``: a person's seat, named by them)."""
        if self.kind == YOU:
            return "You"
        if self.kind == PARTNER:
            return "Partner"
        if self.kind == COMPUTER:
            return f"Computer {self.number}" if self.number else "Computer"
        return None

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ...}``, with ``"number"`` for one computer among several."""
        return {"kind": self.kind, **({"number": self.number} if self.number else {})}

    @classmethod
    def from_json(cls, value: object, where: str = "seat_kinds") -> Seat:
        """The seat a file or a row holds (:class:`~scopa.errors.InvalidMatchError` saying
        where, if it is not one)."""
        kind = value.get("kind") if isinstance(value, dict) else None
        number = value.get("number", 0) if isinstance(value, dict) else None
        if (
            not isinstance(value, dict)
            or kind not in SEAT_KINDS
            or set(value) - {"kind", "number"}
            or isinstance(number, bool)
            or not isinstance(number, int)
            or not (0 <= number <= MAX_SEAT_NUMBER if kind == COMPUTER else number == 0)
        ):
            raise InvalidMatchError(
                where,
                N_(
                    "expected who sits there: a kind ({kinds}) and, for one computer among "
                    "several, its number (1 to {most})"
                ),
                code="match.seat_kind",
                kinds=", ".join(SEAT_KINDS),
                most=MAX_SEAT_NUMBER,
            )
        return cls(str(kind), number)


def computer_seats(players: int, partnerships: bool) -> tuple[Seat, ...]:
    """The seats of a game against the computer: you, then the computer's (your partner
    opposite you when playing in pairs)."""
    if players == 2:
        return (Seat(YOU), Seat(COMPUTER))
    if partnerships:
        return (Seat(YOU), Seat(COMPUTER, 1), Seat(PARTNER), Seat(COMPUTER, 2))
    return (Seat(YOU), *(Seat(COMPUTER, k) for k in range(1, players)))


def check_seat_kinds(players: Sequence[str], seats: Sequence[Seat]) -> None:
    """Refuse seats that do not line up with the players, or a seat the program names whose
    player is not called by the seat's English wording."""
    if len(seats) != len(players):
        raise InvalidMatchError(
            "seat_kinds",
            N_("{count} seats for {players} players: give who sits in each seat, in order"),
            code="match.seat_kinds_count",
            count=len(seats),
            players=len(players),
        )
    for i, (name, seat) in enumerate(zip(players, seats, strict=True)):
        wording = seat.english()
        if wording is not None and name != wording:
            raise InvalidMatchError(
                f"seat_kinds[{i}]",
                N_("the program calls this seat {wording}, but its player is {name}"),
                code="match.seat_kind_name",
                wording=wording,
                name=name,
            )
