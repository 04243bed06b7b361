"""What the layers above depend on: the :class:`Store` protocol, not a database.

A store keeps facts and versions. Each change names the version it is based on (``None``:
whatever is there) and is refused with :class:`~scopa.errors.VersionConflictError`, writing
nothing, when the match has moved on; each change bumps the version and logs what was there
before. Checks that need the rules of the game (a deal's owners, the deal limit, whether the
facts can follow a settings change) and all scoring happen in :mod:`scopa.application`, which
hands each change the match's line of the list (its :class:`~scopa.store.records.Standing`
after the change) for the store to keep in the same transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from typing import Any, Protocol

from scopa.changes import MatchChange
from scopa.made_names import Seat
from scopa.match import Match
from scopa.store.records import (
    EVERY,
    FIRST_PAGE,
    AccessCode,
    Device,
    Filter,
    GameWrite,
    Group,
    KeptAnswer,
    ListPage,
    LogEntry,
    MatchLine,
    Member,
    Person,
    Played,
    PlayerChange,
    Rating,
    Standing,
    StoredMatch,
    TableRecord,
    TableWrite,
)
from scopa.tally import Figures, Record

Rater = Callable[[list[list[list[int]]], list[list[float]], dict[int, Rating]], dict[int, Rating]]
"""A rating model (:func:`scopa.application.ratings.plackett_luce`): the games in the order
they were played, each a list of teams (lists of person ids), their ranks (1 first; equal
ranks tie), and the ratings to start from; the ratings after them. The store replays its rows
through the model it is given and keeps what comes out; it never rates."""


class Matches(Protocol):
    """The matches, their deals and change log."""

    def get(self, match_id: int, lock: bool = False) -> StoredMatch:
        """The match with that id (:class:`~scopa.errors.MatchNotFoundError` if none)."""
        ...

    def peek(self, match_id: int) -> StoredMatch | None:
        """A recent state of the match known without reading it (``None``: none known). It
        may be out of date: a change worked out on it names its version and ``stamp``
        (:meth:`change`), and is refused if the match has moved on."""
        ...

    def all(self) -> list[StoredMatch]:
        """Every match not deleted, most recently changed first."""
        ...

    def lines(self, page: ListPage = FIRST_PAGE) -> tuple[list[MatchLine], bool]:
        """A page of the list, newest first, from the lines kept with every change, and
        whether more follow. A match without a line is listed whatever the filters, as not
        ``summarised``."""
        ...

    def keep_standing(self, *, match_id: int, version: int, standing: Standing) -> None:
        """Fill in the line of a match that has none, if it is still at ``version``."""
        ...

    def uncount(self, *, match_id: int, reason: str) -> None:
        """Keep the match out of the players' figures from now on (``reason``: why)."""
        ...

    def history(self, match_id: int, last: int | None = None) -> list[LogEntry]:
        """The change log of a match, oldest first (with ``last``: its last entries only)."""
        ...

    def recent_history(self, match_id: int, last: int) -> tuple[list[LogEntry], int]:
        """The last ``last`` entries of the change log of a match (oldest first) and how many
        entries the log has, in one read."""
        ...

    def player_names(self) -> list[str]:
        """Names remembered from earlier matches, most recently played first (not those
        whose figures were removed at their request, nor the seats the program named: a
        game against the computer's ``You``, ``Computer 2``; a person called "Computer 2"
        who played at the score sheet is one)."""
        ...

    def create(
        self, *, match: Match, action: str = "create", standing: Standing | None = None
    ) -> StoredMatch:
        """Store a new match (with any deals it has); its version is 1.

        Each change keeps the ``standing`` it is handed as the match's line (``None``: no
        line, filled in when the list meets the match)."""
        ...

    def change(self, change: MatchChange, standing: Standing | None = None) -> StoredMatch:
        """Make ``change`` (a deal added, replaced, deleted or restored, new house rules, a
        new name: the records of :mod:`scopa.changes`) to the match at the version it
        names, logged as its ``action``; the match answered is ``change.after(...)`` of the
        one changed. A deal the match does not have is
        :class:`~scopa.errors.DealNotFoundError`."""
        ...

    def delete_match(self, *, match_id: int, version: int | None) -> None:
        """Hide a match from the list; its facts and log stay."""
        ...


class AccessCodes(Protocol):
    """Codes that let devices in over the network (``scopa serve --lan``)."""

    def new_access_code(
        self, label: str = "", *, kind: str = "", hours: float | None = 12.0
    ) -> tuple[str, AccessCode]:
        """A new random code (shown once) and its record; it expires after ``hours``, and a
        code of a ``kind`` (``serve``) retires the earlier codes of that kind."""
        ...

    def access_codes(self) -> list[AccessCode]:
        """Every access code ever made, newest first."""
        ...

    def revoke_access_code(self, which: str) -> list[AccessCode]:
        """Revoke a code (the code, its id, or ``all``); returns those revoked."""
        ...

    def check_access_code(self, code: str) -> bool:
        """Whether ``code`` is an active access code."""
        ...

    def join(self, code: str, label: str) -> str | None:
        """A new device token for a valid code (``None`` for a wrong, expired or revoked
        one); only its hash is kept."""
        ...

    def check_device(self, token: str) -> bool:
        """Whether ``token`` belongs to a device not revoked."""
        ...

    def devices(self) -> list[Device]:
        """Every device that joined, newest first."""
        ...

    def revoke_device(self, which: str) -> list[Device]:
        """Revoke one device by id (or ``all``); returns those revoked."""
        ...


class KeyedChange(Protocol):
    """One change request with an ``Idempotency-Key``, in the one transaction its change and
    its answer commit in (see :mod:`scopa.store.keys`)."""

    found: KeptAnswer | None
    """After ``KeyTaken``: the answer kept for the key by another request."""
    mismatch: bool
    """After ``KeyTaken``: the key was used for another request (method, path or body)."""
    settled: bool
    """:meth:`commit` or :meth:`settle` has run."""
    error: BaseException | None
    """What :meth:`settle` raised, if anything."""

    def join(self) -> None:
        """From now on, the store operations of the calling context join the transaction."""
        ...

    def commit(self, answer: KeptAnswer) -> None:
        """Keep the answer and commit it with whatever the request changed (blocking);
        ``KeyTaken`` (all rolled back) if another request has kept the key meanwhile."""
        ...

    def settle(self, answer: KeptAnswer) -> None:
        """:meth:`commit`, any error kept in :attr:`error` (blocking)."""
        ...

    def rollback(self) -> None:
        """Undo whatever the request changed (blocking)."""
        ...

    def release(self) -> None:
        """Stop joining (the counterpart of :meth:`join`, in the same context)."""
        ...


class Keys(Protocol):
    """The ``Idempotency-Key``s of change requests and their answers."""

    @property
    def at_once(self) -> int:
        """How many keyed changes may be open at once (each holds a database connection
        from its first store operation to its commit)."""
        ...

    def keyed(self, key: str, fingerprint: str, group: int | None = None) -> KeyedChange:
        """A keyed change (``group``: a hosted server's group, which has its own keys)."""
        ...


class TableStore(Protocol):
    """Where tables are kept (:class:`scopa.store.tables.SqlTables`)."""

    def create(self, record: TableRecord) -> int: ...

    def load(self, table_id: int) -> TableRecord | None: ...

    def by_code(self, code: str) -> TableRecord | None: ...

    def take_seat(
        self, table_id: int, seat: int, name: str, token_hash: str, now: float
    ) -> bool: ...

    def save(self, table_id: int, move: TableWrite) -> int | None: ...

    def attach_match(self, table_id: int, match_id: int) -> bool: ...

    def touch(self, table_id: int, seat: int, seen_at: float, now: float) -> bool: ...

    def bump(self, table_id: int) -> None: ...

    def due(self, now: float, pause: float) -> list[tuple[int, int]]: ...

    def counts(self, since: float) -> tuple[int, int]: ...

    def versions(self, ids: list[int]) -> dict[int, int]: ...

    def any_playing(self) -> bool:
        """Whether a table is being played (a restarted server continues them)."""
        ...


class GameStore(Protocol):
    """Where games in progress are kept (:class:`scopa.store.games.SqlGames`): plain values
    in and out."""

    def create(
        self, *, variant: str, players: int, level: str, seed: int, unverified: str | None = None
    ) -> int: ...

    def load(self, game_id: int) -> dict[str, Any] | None: ...

    def save(self, game_id: int, move: GameWrite) -> bool: ...

    def attach_match(self, game_id: int, match_id: int) -> bool: ...

    def playing(self, limit: int = 20) -> list[dict[str, Any]]: ...


class SeedStore(Protocol):
    """The seeds issued for games dealt on a device (:class:`scopa.store.games.SqlSeeds`)."""

    def issue(self, seed: int) -> int: ...

    def claim(self, ticket: int, seed: int) -> str: ...


class Failures(Protocol):
    """Wrong codes per client address (:class:`scopa.store.failures.StoredFailures`: in the
    database, so that every process of the server counts the same ones)."""

    window: float
    most: int

    def retry_after(self, address: str) -> int:
        """Seconds until ``address`` may try a code again (0: now)."""
        ...

    def failed(self, address: str) -> int:
        """Count an attempt; returns how many in the window."""
        ...

    def forgive(self, address: str) -> None:
        """Take back the newest attempt counted (its code was right)."""
        ...


class CodeChecks(Failures, Protocol):
    """The wrong ``--lan`` access and group codes per address, and the code checks of all
    addresses together (:class:`scopa.store.failures.MemoryFailures`: in memory, per
    process, outside the database's write lock)."""

    def busy(self) -> bool:
        """Take one of this second's code checks (``True``: none left)."""
        ...


class Groups(Protocol):
    """The groups of a hosted server, as the web uses them: who a token lets in (the
    middleware) and a device joining or leaving a group (:class:`scopa.store.groups.GroupStore`)."""

    def member(self, token: str) -> Member | None:
        """The device and group a token lets in, or ``None``."""
        ...

    def known_member(self, token: str) -> tuple[bool, Member | None]:
        """``(True, member)`` if answered without the database, else ``(False, None)``."""
        ...

    def refresh(self) -> None:
        """Check again every token in use (one query)."""
        ...

    def active_devices(self, devices: Collection[int]) -> set[int]:
        """Those of ``devices`` still let in."""
        ...

    def join_group(self, code: str, label: str) -> tuple[str, Group] | None:
        """A new device token for the group whose code this is (``None`` for a wrong code or
        a revoked group)."""
        ...

    def revoke_group_device(self, device_id: int) -> bool:
        """Revoke one device's token of a group; whether there was such an active one."""
        ...


Publish = Callable[[int, int | None], None]
"""Tells the streams of a match its new version (``None``: deleted)."""
Watched = Callable[[], Collection[int]]
"""The matches someone is watching."""


class Feed(Protocol):
    """What wakes the event streams when a match changes (:mod:`scopa.store.notify`)."""

    async def run(self, watched: Watched, publish: Publish, ready: asyncio.Event) -> None:
        """Publish changes until cancelled; set ``ready`` once every change committed from
        then on will be seen."""
        ...


class Store(Matches, AccessCodes, Protocol):
    """A whole store: matches and access codes, with a printable address. The store itself
    holds the one table of a server that is not hosted; :meth:`in_group` is one group's."""

    @property
    def keys(self) -> Keys:
        """The change requests' ``Idempotency-Key``s: a keyed change commits with its answer."""
        ...

    def in_group(self, group: int | None) -> Matches:
        """The matches and remembered players of ``group`` only (``None``: the one table).
        A match of another group is not found there, as if it did not exist."""
        ...

    def tables(self, group: int | None, *, every_group: bool = False) -> TableStore:
        """The tables of ``group`` (``None``: the one table); ``every_group``: every group's
        (the background player's)."""
        ...

    def games(self, group: int | None) -> GameStore:
        """The games against the computer of ``group`` (``None``: the one table)."""
        ...

    def seeds(self, group: int | None) -> SeedStore:
        """The seeds issued to the devices of ``group`` (``None``: the one table)."""
        ...

    def players(self, group: int | None) -> Players:
        """The players and figures of ``group`` (``None``: the one table)."""
        ...

    @property
    def failures(self) -> CodeChecks:
        """The wrong access and group codes, per address, and this second's code checks."""
        ...

    @property
    def table_failures(self) -> Failures:
        """The wrong tables' codes, per address."""
        ...

    def feed(self) -> Feed:
        """A feed of the changes to the matches (one per process)."""
        ...

    def table_feed(self) -> Feed:
        """A feed of the tables' versions, every group's (one per process: the tables' event
        streams)."""
        ...

    def health(self) -> tuple[bool, str]:
        """``(True, schema revision)`` when the store can serve, else ``(False, the reason)``
        (the database cannot be reached, or its schema is not at this program's newest
        migration)."""
        ...

    @property
    def groups(self) -> Groups:
        """The groups of a hosted server."""
        ...

    @property
    def url(self) -> str:
        """Where the data lives (a password hidden)."""
        ...

    def close(self) -> None: ...


class People(Protocol):
    """The people of one store view, as read at once: a person is every name they played
    under, the name they are shown by, and whether their figures were removed."""

    def find(self, name: str) -> Person:
        """The person known by ``name`` (any case; a shown name or a name played under):
        :class:`~scopa.errors.PlayerNotFoundError` for a name never played here."""
        ...

    def shown(self) -> list[Person]:
        """Every person not removed, most recently played first."""
        ...

    def seats(self) -> dict[str, Seat]:
        """By name key, the names the program gave a seat (``You``, ``Computer 2``): worded
        in the reader's language on the players' pages; any other name is a person's."""
        ...


class Players(Protocol):
    """The players of one group and their figures, summed from the tallies each change of a
    match keeps (:mod:`scopa.store.figures`); the players as people."""

    def untallied(self) -> list[int]:
        """The matches whose tally is not kept yet (the application fills them in)."""
        ...

    def people(self) -> People:
        """Every person of the group."""
        ...

    def leaderboard(self, wanted: Filter = EVERY, others: bool = False) -> list[Figures]:
        """Every person shown who played a match counted, with figures (and their opponents
        and partners with ``others``)."""
        ...

    def figures(self, name: str, wanted: Filter = EVERY) -> tuple[Person, Figures]:
        """One person's figures (:class:`~scopa.errors.PlayerNotFoundError` if none)."""
        ...

    def pairs(self, wanted: Filter = EVERY) -> list[tuple[tuple[str, str], Record]]:
        """Every two people who played on one side, and their record together."""
        ...

    def average(self, wanted: Filter = EVERY) -> Figures:
        """The whole table's figures."""
        ...

    def played(self, name: str, wanted: Filter = EVERY, limit: int = 20) -> list[Played]:
        """A person's latest matches, newest first."""
        ...

    def ratings(self, rate: Rater) -> dict[int, Rating]:
        """Each person's rating, by person id: those kept, or worked out again by ``rate``
        first when the outcomes moved since."""
        ...

    def rename(self, name: str, new: str) -> str: ...

    def merge(self, name: str, into: str) -> str: ...

    def remove(self, name: str) -> str: ...

    def undo(self, change_id: int) -> str: ...

    def log(self) -> list[PlayerChange]: ...
