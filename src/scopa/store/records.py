"""The store's records: the facts of a match as stored (its deals, version, removed deals and
change log) and the access codes. Nothing here is scored: the sheet is computed above the
store, by :mod:`scopa.application`, so another backend never has to score."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

from scopa.deal import Deal
from scopa.errors import InputError, VersionConflictError
from scopa.i18n import N_
from scopa.made_names import MadeName, Seat
from scopa.match import Match
from scopa.tally import MatchTally
from scopa.words import Seated, shown_name, side_name

MOST_CODE_HOURS = 24 * 365
"""The longest an access code lets new devices join: a year (``scopa access new --hours``,
``scopa serve --code-hours``; the store refuses more)."""


def title_of(
    name: str | None,
    sides: Sequence[str],
    made: MadeName | None = None,
    seated: Seated | None = None,
) -> str:
    """How a match is called: its name (a name the program made, ``made``, in the reader's
    language: :func:`scopa.words.shown_name`; a person's as typed), else its sides (``Anna vs
    Bruno``; the seats the program named in ``seated``, the match, in the reader's language:
    :func:`scopa.words.side_name`)."""
    if made is not None:
        return shown_name(name or "", made)
    return name if name else " vs ".join(side_name(side, seated) for side in sides)


@dataclass(frozen=True, slots=True)
class RemovedDeal:
    """A deleted deal, kept so that it can be restored at the place it had."""

    id: int
    number: int
    deal: Deal
    removed_at: datetime


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match as stored: its facts, its version (bumped by every change) and removed deals."""

    id: int
    version: int
    match: Match
    created_at: datetime
    updated_at: datetime
    removed: tuple[RemovedDeal, ...] = ()
    uncounted: str | None = None
    """Why the match is kept out of the players' figures (``None``: it counts): see
    :data:`UNCOUNTED`."""
    deal_ids: tuple[int, ...] = ()
    """Each live deal's identity, in order: it stays the deal's through edits, deletions
    (its removed id) and restores, so a change made on another device finds the deal it was
    made on wherever it is now, even among identical deals (empty: the store keeps none)."""


UNCOUNTED = ("seed_not_issued", "seed_unknown", "computer_plays", "not_replayable")
"""Why a game against the computer played on a device does not count
(:mod:`scopa.application.computer`): dealt from a seed the server did not issue (dealt with
no connection ever), from a seed it no longer knows (sent twice, or from another group),
with computer plays the computer would not have made, or at a level whose plays cannot be
replayed (it thinks for a time)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a match stands, as its line of the list shows it. It is worked out above the
    store (:func:`scopa.application.standing_of`) and handed to each change, which keeps it
    in the same transaction: the store never scores."""

    players: tuple[str, ...]
    sides: tuple[str, ...]
    variant: str
    status: str
    winner: str | None
    totals: tuple[int, ...]
    deal_count: int
    tally: MatchTally | None = field(default=None, compare=False, repr=False)
    """What the match adds to its players' figures (kept beside the line, not in it)."""
    uncounted: str | None = field(default=None, compare=False, repr=False)
    """Set on a new match: why it is kept out of the figures (kept on the match, so that no
    later change counts it: :data:`UNCOUNTED`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchLine(Standing):
    """A match's line of the list, as kept on its row (see :mod:`scopa.store.summaries`):
    where it stands, and which match it is.

    ``summarised`` is false for a match whose last change was handed no :class:`Standing`
    (or that was stored before lines were kept): its line is then filled in from above
    (:meth:`~scopa.store.protocol.Matches.keep_standing`) when the list first meets it."""

    id: int
    name: str | None
    created_at: datetime
    updated_at: datetime
    summarised: bool = True
    made: MadeName | None = None
    """The name as data, when the program made it (:mod:`scopa.made_names`)."""
    seat_kinds: tuple[Seat, ...] = ()
    """Who sits where, when the program named some seats (:attr:`Match.seat_kinds`)."""

    @property
    def title(self) -> str:
        return title_of(self.name, self.sides, self.made, self)


@dataclass(frozen=True, slots=True, kw_only=True)
class ListPage:
    """Which page of the list: at most ``limit`` lines, of matches older than match
    ``before``, of ``player``, in ``status`` (empty or ``None``: any)."""

    limit: int = 50
    before: int | None = None
    player: str = ""
    status: str = ""


FIRST_PAGE = ListPage()
"""The newest 50 lines, whatever their players and status."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a match's change log."""

    id: int
    version: int
    at: datetime
    action: str
    summary: str
    detail: dict[str, Any]


class Revocable:
    """A record that lets in until it is revoked (``revoked_at``): :attr:`active` till then."""

    __slots__ = ()
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


@dataclass(frozen=True, slots=True)
class AccessCode(Revocable):
    """A code for devices joining over the network; the code itself is never stored."""

    id: int
    hint: str
    label: str
    created_at: datetime
    revoked_at: datetime | None
    expires_at: datetime | None = None
    kind: str = ""
    """``serve`` for the code a ``scopa serve --lan`` printed (the next serve retires it)."""

    @property
    def active(self) -> bool:
        """Neither revoked nor expired."""
        return self.revoked_at is None and (
            self.expires_at is None or self.expires_at > datetime.now(UTC)
        )


@dataclass(frozen=True, slots=True)
class Device(Revocable):
    """A device that joined with a code: its label, when it joined and was last seen."""

    id: int
    label: str
    created_at: datetime
    last_used_at: datetime
    revoked_at: datetime | None


@dataclass(frozen=True, slots=True)
class Group(Revocable):
    """A group of a hosted server: its name, limits and what it has stored."""

    id: int
    name: str
    created_at: datetime
    revoked_at: datetime | None
    max_matches: int
    max_deals: int
    max_bytes: int
    used_matches: int = 0
    used_deals: int = 0
    used_bytes: int = 0
    devices: int = 0
    """How many devices hold a token of the group (revoked ones not counted)."""
    language: str | None = None
    """The language of its pages and answers when the reader chose none (``None``: the
    reader's browser decides)."""
    max_tables: int | None = None
    """Its own limit on tables in play at once (``None``: the server's)."""
    max_seats: int | None = None
    """Its own limit on people's seats at them (``None``: the server's)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """What a group may store: how many matches, deals and bytes (:mod:`scopa.store.quotas`).
    ``None`` where not given: the default for a new group, unchanged for new limits."""

    max_matches: int | None = None
    max_deals: int | None = None
    max_bytes: int | None = None

    def given(self) -> dict[str, int]:
        """The limits given, by name, each checked: a whole number from 0 (else
        :class:`~scopa.errors.InputError` naming it)."""
        found = {field.name: getattr(self, field.name) for field in fields(self)}
        for name, value in found.items():
            if value is not None and not 0 <= value < 2**62:
                allowed = "a whole number from 0"
                raise InputError(
                    name,
                    N_("{value} is outside the allowed values ({allowed})"),
                    code="store.outside_allowed_values",
                    value=value,
                    allowed=allowed,
                )
        return {name: value for name, value in found.items() if value is not None}


@dataclass(frozen=True, slots=True)
class Member:
    """What a valid device token says: the device and the group it lets in."""

    device: int
    group: int
    name: str
    """The group's name."""
    language: str | None = None
    """The group's language (:attr:`Group.language`)."""
    max_tables: int | None = None
    max_seats: int | None = None
    """The group's own limits on tables (:attr:`Group.max_tables`)."""


@dataclass(frozen=True, slots=True)
class KeptAnswer:
    """The answer kept for an ``Idempotency-Key``: status, headers (lower-case names) and
    body (the answer's own if short, else a reference to the resource)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


def stale_version(match_id: int, current: int, based_on: int) -> VersionConflictError:
    """The error for a change based on an old version of the match."""
    return VersionConflictError(
        N_(
            "match {match_id} is at version {current}, the change was based on version "
            "{based_on}; reload and try again"
        ),
        code="version.match_version_change_based",
        match_id=match_id,
        current=current,
        based_on=based_on,
    )


PRESENCE = 20.0
"""Seconds a seat of a table counts as present after its last sign of life."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def new_code() -> str:
    """A table's code: 8 letters and digits that cannot be mistaken for one another."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat as stored: its name (``None``: not taken yet), who plays it, and its last sign
    of life."""

    seat: int
    name: str | None
    kind: str  # "human" | "computer"
    level: str | None = None
    seen_at: float | None = None
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.name is not None

    def present(self, now: float) -> bool:
        if self.kind == "computer":
            return True
        return self.seen_at is not None and now - self.seen_at <= PRESENCE

    def away_too_long(self, now: float, grace: float) -> bool:
        """A human seat the computer now plays for: taken, and away longer than the grace
        (the same rule in SQL: ``scopa.store.tables.away_too_long``)."""
        if self.kind != "human" or self.seen_at is None:
            return False
        return now - self.seen_at > PRESENCE + grace


@dataclass(frozen=True, slots=True, kw_only=True)
class TableWrite:
    """A move written to a table (:meth:`~scopa.store.protocol.TableStore.save`): the log
    after it, written only if the table is still at step ``based_on``. ``seed`` and
    ``match_id`` with a new deal or match; ``seen``, a seat whose sign of life is written in
    the same commit (the seat that moved)."""

    based_on: int
    log: list[Any]
    status: str
    turn: int | None
    now: float
    seed: int | None = None
    match_id: int | None = None
    seen: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameWrite:
    """A game against the computer written (:meth:`~scopa.store.protocol.GameStore.save`):
    its plays, only if it is still at step ``based_on``; with ``unverified``, marked so in
    the same write (for good)."""

    based_on: int
    log: list[Any]
    step: int
    status: str
    unverified: str | None = None


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table as stored."""

    id: int
    code: str
    variant: str
    players: int
    rules: dict[str, Any]
    level: str
    grace: int
    seed: int
    log: list[list[list[Any]]]
    """The plays of this match, deal by deal: ``[card index, capture mask, by]``."""
    step: int
    version: int
    status: str
    match_id: int | None
    moved_at: float
    seats: tuple[SeatRecord, ...]
    group_id: int | None = None
    rematches: int = 0
    clock: int = 0
    """Seconds a seat at the table has for each play before the computer plays for it
    (0: no turn clock)."""

    @property
    def full(self) -> bool:
        return all(seat.taken for seat in self.seats)


# The players (scopa.store.figures, scopa.store.people, scopa.store.ratings)


@dataclass(frozen=True, slots=True)
class Person:
    """A person: the name shown, every name they played under (and their keys)."""

    id: int
    name: str
    names: tuple[str, ...]
    keys: tuple[str, ...]
    removed: bool
    last_played_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerChange:
    """An entry of the players' log: what was done, and whether it was undone."""

    id: int
    at: datetime
    action: str
    summary: str
    undone: bool


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating: ``mu`` the skill believed, ``sigma`` the uncertainty about it, and the
    conservative figure shown and ranked by, ``mu - 3 sigma`` (:attr:`ordinal`)."""

    mu: float
    sigma: float
    matches: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True, kw_only=True)
class Filter:
    """Which matches count: of ``variant`` (empty: any), played from ``since`` (``None``:
    ever)."""

    variant: str = ""
    since: datetime | None = None


EVERY = Filter()


@dataclass(frozen=True, slots=True)
class Played:
    """One of a player's matches, as its line of the list shows it, with the player's part."""

    match_id: int
    title: str
    variant: str
    played_at: datetime
    finished: bool
    won: bool
    deals: int
    points: int
    totals: tuple[int, ...]
    sides: tuple[str, ...]
    made: MadeName | None = None
    """The name as data, when the program made it (``title`` is then its English wording)."""

    @property
    def shown(self) -> str:
        """The title as the reader says it (:func:`title_of`)."""
        return title_of(self.title, self.sides, self.made)


class KeyTaken(Exception):
    """A keyed change found its key kept by another request (the same request, sent
    again) when it came to keep its own answer: its change was rolled back, and it answers
    what that one answered."""
