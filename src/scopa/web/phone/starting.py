"""A match started from a page: the new-match form read, a rematch of a finished match, a
match file read for import. The server's pages and the phone's worker both call these, so a
match started with no connection is the match the server would have made from the same form
(:mod:`scopa.web.phone.device`'s ``start`` operation; the server then creates it once).

Pure Python with no web framework: it ships in the phone's package.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from scopa import variants
from scopa.errors import InputError
from scopa.formats import MAX_MATCH_NAME, load_json, parse_match
from scopa.i18n import _
from scopa.made_names import MadeName
from scopa.match import Match
from scopa.reading import ascii_digits
from scopa.rules import Settings
from scopa.teams import MAX_PLAYERS, check_count
from scopa.web.phone.forms import settings_from_form


@dataclasses.dataclass(frozen=True, slots=True)
class NewMatch:
    """The new-match form as read: the match (None while ``errors`` say what to fix, by the
    form's field), the names and the settings as typed (for the form shown again)."""

    names: list[str]
    name: str
    settings: Settings
    errors: dict[str, str]
    match: Match | None
    first_dealer: int = 0
    """The seat chosen to deal first (as the form lists them)."""


def dealer_seat(value: str, names: list[str], errors: dict[str, str]) -> int:
    """The seat (0-based, as the form lists them) chosen to deal first: the first seat when
    none is chosen; an empty or unknown seat is an error under ``first_dealer``."""
    if not value:
        return 0
    seat = ascii_digits(value, 1)
    if seat is None or seat >= MAX_PLAYERS:
        errors["first_dealer"] = _("Deals first: {value} is not a seat").format(value=value[:20])
        return 0
    if seat and (seat >= len(names) or not names[seat]):
        errors["first_dealer"] = _("Deals first: seat {number} is empty").format(number=seat + 1)
        return 0
    return seat


def seat_names(values: Sequence[str], errors: dict[str, str]) -> list[str]:
    """The names typed into the form's seats (blank seats kept, so each error names its
    seat). A name beyond the last seat a match has is not dropped: it is an error under
    ``players``, the API's own (``7 players; a match has 2 to 6``)."""
    names = [str(n).strip() for n in values]
    if any(names[MAX_PLAYERS:]):
        seats = max(i for i, n in enumerate(names) if n) + 1
        try:
            check_count(seats)
        except InputError as error:
            errors[error.where] = error.text()
    return names[:MAX_PLAYERS]


def read_new_match(fields: Mapping[str, Sequence[str]]) -> NewMatch:
    """The new-match form (``player`` repeated, ``name``, ``variant``, the rules' fields):
    the match it starts, or the errors by field (``player-2``, ``target``, ...)."""

    def first(key: str) -> str:
        values = fields.get(key) or []
        return str(values[0]) if values else ""

    errors: dict[str, str] = {}
    names = seat_names(fields.get("player", []), errors)
    name = first("name").strip()
    seat = dealer_seat(first("first_dealer"), names, errors)
    variant = variants.DEFAULT
    try:
        variant = variants.get(first("variant") or variants.DEFAULT).name
        posted = {key: str(values[0]) for key, values in fields.items() if values}
        rules = settings_from_form(posted, Settings.of(variant))
        settings = Settings.parse(rules, "rules", variant=variant)
    except InputError as error:
        errors[error.where] = error.text()
        settings = Settings.of(variant)
    if errors:
        return NewMatch(names, name, settings, errors, None, seat)
    data: dict[str, Any] = {"players": [n for n in names if n], "rules": settings.to_dict()}
    if settings.variant != variants.DEFAULT:
        data["variant"] = settings.variant
    if name:
        data["name"] = name
    if seat:
        data["first_dealer"] = names[seat]
    try:
        match = parse_match(data)
    except InputError as error:
        where = error.where
        if where.startswith("players["):
            index = int(where[len("players[") :].split("]")[0])
            original = [i for i, n in enumerate(names) if n]
            where = f"player-{original[index]}" if index < len(original) else "players"
        errors[where] = error.text()
        return NewMatch(names, name, settings, errors, None, seat)
    return NewMatch(names, name, settings, errors, match, seat)


def rematch_name(match: Match) -> MadeName | None:
    """The rematch's name: the match's, said to be a rematch (kept as data, worded when
    shown); a rematch's rematch keeps it. A match without a name gives none.

    >>> from scopa.made_names import MadeName
    >>> sunday = rematch_name(Match(("Anna", "Bruno"), name="Sunday"))
    >>> sunday.english(), rematch_name(Match(("Anna", "Bruno"), name="x", made=sunday)) == sunday
    ('Sunday (rematch)', True)
    >>> rematch_name(Match(("Anna", "Bruno"))) is None
    True
    """
    if not match.name:
        return None
    return MadeName.rematch(match.name, match.made)


def rematch_of(match: Match) -> Match:
    """The same players, teams, variant and rules; no deals yet. The deal goes on passing:
    the rematch's first dealer is who would have dealt the match's next deal."""
    again = rematch_name(match)
    return dataclasses.replace(
        match.with_deals(()),
        name=None if again is None else again.english()[:MAX_MATCH_NAME],
        made=again,
        first_dealer=match.players.index(match.next_dealer),
    )


def read_import(text: str | bytes) -> Match:
    """A match file (docs/formats.md) as the import page reads it (an error says where)."""
    return parse_match(load_json(text, "file"))
