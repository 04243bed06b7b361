"""The match store: rows in, core records out; every change one transaction with a version.

A change names the version it was based on; a stale version is refused
(:class:`~scopa.errors.VersionConflictError`) and nothing is written. Every change bumps the
version and writes an entry to the change log with what was there before, so nothing is ever
silently overwritten. Sheets are computed from the facts by the scoring core, never stored.
"""

from __future__ import annotations

import builtins
import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from scopa.deal import Deal
from scopa.errors import (
    DealNotFoundError,
    InputError,
    InvalidMatchError,
    MatchNotFoundError,
    VersionConflictError,
)
from scopa.formats import MAX_DEALS, deal_to_json, owners_of, parse_deal
from scopa.match import Changes, Match, Sheet, rescore, score_match
from scopa.rules import Settings
from scopa.store.devices import CODE_HOURS, AccessCode, AccessStore, Device
from scopa.store.lock import Holder, hold_shared
from scopa.store.models import ChangeRow, DealRow, MatchRow, PlayerRow, utcnow
from scopa.store.players import remember_players


@dataclass(frozen=True, slots=True)
class RemovedDeal:
    """A deleted deal, kept so that it can be restored at the place it had."""

    id: int
    number: int
    deal: Deal
    removed_at: datetime


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match as stored: its facts, its sheet (computed), its version and removed deals."""

    id: int
    version: int
    match: Match
    sheet: Sheet
    created_at: datetime
    updated_at: datetime
    removed: tuple[RemovedDeal, ...]


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A line of the list of matches."""

    id: int
    name: str | None
    players: tuple[str, ...]
    sides: tuple[str, ...]
    status: str
    winner: str | None
    totals: tuple[int, ...]
    deal_count: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a match's change log."""

    id: int
    version: int
    at: datetime
    action: str
    summary: str
    detail: dict[str, Any]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Autocommit at the driver level; SQLAlchemy's begin emits BEGIN IMMEDIATE below, so
    # writers queue for the lock instead of failing half-way through.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # a committed change survives a crash
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _sqlite_begin(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def make_engine(url: str) -> Engine:
    """An engine for a database URL; SQLite gets WAL, synchronous commits and a write lock."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in ("", "psycopg2"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return create_engine(parsed, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema up to date (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class MatchStore:
    """Matches, their deals and change log in a SQL database (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._cache: OrderedDict[tuple[int, int, datetime], StoredMatch] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.access = AccessStore(self._transaction)
        self._holder = Holder(None)

    @classmethod
    def open(cls, url: str) -> MatchStore:
        """Open (creating if need be) the database at ``url`` and apply the migrations."""
        holder = hold_shared(url)
        try:
            engine = make_engine(url)
            migrate(engine)
        except BaseException:
            holder.release()
            raise
        store = cls(engine)
        store._holder = holder
        return store

    def close(self) -> None:
        self.engine.dispose()
        self._holder.release()

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    # Reading

    def get(self, match_id: int) -> StoredMatch:
        """The match with that id (:class:`MatchNotFoundError` if there is none)."""
        with self._transaction() as session:
            return self._load(session, self._row(session, match_id))

    def all(self) -> list[StoredMatch]:
        """Every match, most recently changed first."""
        with self._transaction() as session:
            rows = session.scalars(
                select(MatchRow)
                .where(MatchRow.deleted_at.is_(None))
                .order_by(MatchRow.updated_at.desc(), MatchRow.id.desc())
            ).all()
            return [self._load(session, row) for row in rows]

    def history(self, match_id: int) -> list[LogEntry]:
        """The change log of a match, oldest first."""
        with self._transaction() as session:
            self._row(session, match_id)
            rows = session.scalars(
                select(ChangeRow).where(ChangeRow.match_id == match_id).order_by(ChangeRow.id)
            ).all()
            return [
                LogEntry(r.id, r.version, _aware(r.at), r.action, r.summary, r.detail) for r in rows
            ]

    def player_names(self) -> list[str]:
        """Names remembered from earlier matches, most recently played first."""
        with self._transaction() as session:
            return list(
                session.scalars(
                    select(PlayerRow.name).order_by(PlayerRow.last_played_at.desc(), PlayerRow.name)
                )
            )

    # Changing

    def create(self, match: Match, action: str = "create") -> StoredMatch:
        """Store a new match (with any deals it already has); its version is 1."""
        now = utcnow()
        with self._transaction() as session:
            row = MatchRow(
                name=match.name,
                players=list(match.players),
                teams=None if match.teams is None else [list(t) for t in match.teams],
                rules=match.settings.to_dict(),
                version=1,
                created_at=now,
                updated_at=now,
            )
            session.add(row)
            session.flush()
            for number, deal in enumerate(match.deals, 1):
                session.add(DealRow(match_id=row.id, position=number, facts=deal_to_json(deal)))
            self._remember(session, match.players, now)
            verb = "imported" if action == "import" else "created"
            summary = f"Match {verb}: {', '.join(match.players)}"
            if match.deals:
                summary += f", {len(match.deals)} deals"
            self._log(session, row, action, summary, {"rules": row.rules})
            session.flush()
            return self._record(row, match)

    def add_deal(self, match_id: int, deal: Deal, version: int | None = None) -> StoredMatch:
        """Record a deal after the last one."""
        with self._transaction() as session:
            row = self._row(session, match_id, version, lock=True)
            stored = self._load(session, row)
            number = len(stored.match.deals) + 1
            if number > MAX_DEALS:
                raise InvalidMatchError("deals", f"a match holds at most {MAX_DEALS} deals")
            _check_owners(deal, stored.match)
            facts = deal_to_json(deal)
            session.add(DealRow(match_id=row.id, position=number, facts=facts))
            self._bump(
                session,
                row,
                "add_deal",
                f"Deal {number} recorded",
                {"number": number, "after": facts},
            )
            return self._record(row, stored.match.with_deals((*stored.match.deals, deal)))

    def replace_deal(
        self, match_id: int, number: int, deal: Deal, version: int | None = None
    ) -> StoredMatch:
        """Replace deal ``number`` (1-based); the deals after it re-score."""
        with self._transaction() as session:
            row = self._row(session, match_id, version, lock=True)
            stored = self._load(session, row)
            _check_owners(deal, stored.match)
            deal_row = self._deal_row(session, row.id, number)
            before = deal_row.facts
            deal_row.facts = deal_to_json(deal)
            self._bump(
                session,
                row,
                "replace_deal",
                f"Deal {number} edited",
                {"number": number, "before": before, "after": deal_row.facts},
            )
            deals = list(stored.match.deals)
            deals[number - 1] = deal
            return self._record(row, stored.match.with_deals(deals), stored.removed)

    def delete_deal(self, match_id: int, number: int, version: int | None = None) -> StoredMatch:
        """Remove deal ``number``; it is kept and can be restored (:meth:`restore_deal`)."""
        with self._transaction() as session:
            row = self._row(session, match_id, version, lock=True)
            stored = self._load(session, row)
            deal_row = self._deal_row(session, row.id, number)
            deal_row.position = None
            deal_row.removed_at = utcnow()
            deal_row.removed_number = number
            session.flush()
            session.execute(
                update(DealRow)
                .where(DealRow.match_id == row.id, DealRow.position > number)
                .values(position=DealRow.position - 1)
            )
            self._bump(
                session,
                row,
                "delete_deal",
                f"Deal {number} deleted",
                {"number": number, "removed_id": deal_row.id, "before": deal_row.facts},
            )
            deals = list(stored.match.deals)
            gone = RemovedDeal(
                deal_row.id, number, deals.pop(number - 1), _aware(deal_row.removed_at)
            )
            return self._record(row, stored.match.with_deals(deals), (*stored.removed, gone))

    def restore_deal(
        self, match_id: int, removed_id: int, version: int | None = None
    ) -> StoredMatch:
        """Put a deleted deal back at the number it had (or last, if the match is shorter)."""
        with self._transaction() as session:
            row = self._row(session, match_id, version, lock=True)
            deal_row = session.get(DealRow, removed_id)
            if deal_row is None or deal_row.match_id != row.id or deal_row.position is not None:
                raise DealNotFoundError(f"match {match_id} has no removed deal {removed_id}")
            stored = self._load(session, row)
            if len(stored.match.deals) >= MAX_DEALS:
                raise InvalidMatchError("deals", f"a match holds at most {MAX_DEALS} deals")
            number = min(deal_row.removed_number or 1, len(stored.match.deals) + 1)
            session.execute(
                update(DealRow)
                .where(DealRow.match_id == row.id, DealRow.position >= number)
                .values(position=DealRow.position + 1)
            )
            deal_row.position = number
            deal_row.removed_at = None
            deal_row.removed_number = None
            self._bump(
                session,
                row,
                "restore_deal",
                f"Deal {number} restored",
                {"number": number, "removed_id": removed_id, "after": deal_row.facts},
            )
            back = next(r for r in stored.removed if r.id == removed_id)
            deals = list(stored.match.deals)
            deals.insert(number - 1, back.deal)
            removed = tuple(r for r in stored.removed if r.id != removed_id)
            return self._record(row, stored.match.with_deals(deals), removed)

    def change_settings(
        self, match_id: int, settings: Settings, version: int | None = None
    ) -> tuple[StoredMatch, Changes]:
        """Change the house rules; the match re-scores from its facts.

        Raises :class:`~scopa.errors.SettingsChangeRefused` when the facts cannot follow
        (partnerships off with deals recorded per team), and nothing changes.
        """
        with self._transaction() as session:
            row = self._row(session, match_id, version, lock=True)
            stored = self._load(session, row)
            match, sheet, changes = rescore(stored.match, settings)
            before = row.rules
            row.rules = settings.to_dict()
            self._bump(
                session,
                row,
                "settings",
                changes.summary(),
                {"before": before, "after": row.rules, "changes": changes.to_dict()},
            )
            return self._record(row, match, stored.removed, sheet), changes

    def rename(self, match_id: int, name: str | None, version: int | None = None) -> StoredMatch:
        """Give the match a name (or none)."""
        with self._transaction() as session:
            row = self._row(session, match_id, version, lock=True)
            stored = self._load(session, row)
            before = row.name
            row.name = name or None
            self._bump(
                session,
                row,
                "rename",
                f"Renamed to {name!r}" if name else "Name removed",
                {"before": before, "after": row.name},
            )
            return self._record(
                row, dataclasses.replace(stored.match, name=row.name), stored.removed
            )

    def delete_match(self, match_id: int, version: int | None = None) -> None:
        """Hide a match from the list; its facts and log stay in the database."""
        with self._transaction() as session:
            row = self._row(session, match_id, version, lock=True)
            row.deleted_at = utcnow()
            self._bump(session, row, "delete_match", "Match deleted", {})

    def list(self) -> builtins.list[MatchSummary]:
        """The list of matches, most recently changed first, with status and totals."""
        return [summarise(stored) for stored in self.all()]

    # Access codes and devices (scopa serve --lan): see scopa.store.devices

    def new_access_code(
        self, label: str = "", *, kind: str = "", hours: float | None = CODE_HOURS
    ) -> tuple[str, AccessCode]:
        return self.access.new_access_code(label, kind=kind, hours=hours)

    def access_codes(self) -> builtins.list[AccessCode]:
        return self.access.access_codes()

    def revoke_access_code(self, which: str) -> builtins.list[AccessCode]:
        return self.access.revoke_access_code(which)

    def check_access_code(self, code: str) -> bool:
        return self.access.check_access_code(code)

    def join(self, code: str, label: str) -> str | None:
        return self.access.join(code, label)

    def check_device(self, token: str) -> bool:
        return self.access.check_device(token)

    def devices(self) -> builtins.list[Device]:
        return self.access.devices()

    def revoke_device(self, which: str) -> builtins.list[Device]:
        return self.access.revoke_device(which)

    # Internals

    def _row(
        self, session: Session, match_id: int, version: int | None = None, lock: bool = False
    ) -> MatchRow:
        query = select(MatchRow).where(MatchRow.id == match_id, MatchRow.deleted_at.is_(None))
        if lock:
            query = query.with_for_update()
        row = session.scalars(query).one_or_none() if _valid_id(match_id) else None
        if row is None:
            raise MatchNotFoundError(f"no match with id {match_id}")
        if version is not None and version != row.version:
            raise VersionConflictError(
                f"match {match_id} is at version {row.version}, the change was based on "
                f"version {version}; reload and try again"
            )
        return row

    def _deal_row(self, session: Session, match_id: int, number: int) -> DealRow:
        deal_row = (
            session.scalars(
                select(DealRow).where(DealRow.match_id == match_id, DealRow.position == number)
            ).one_or_none()
            if _valid_id(number)
            else None
        )
        if deal_row is None:
            raise DealNotFoundError(f"match {match_id} has no deal {number}")
        return deal_row

    def _bump(
        self, session: Session, row: MatchRow, action: str, summary: str, detail: dict[str, Any]
    ) -> None:
        row.version += 1
        row.updated_at = utcnow()
        self._log(session, row, action, summary, detail)
        session.flush()

    def _log(
        self, session: Session, row: MatchRow, action: str, summary: str, detail: dict[str, Any]
    ) -> None:
        session.add(
            ChangeRow(
                match_id=row.id,
                version=row.version,
                at=row.updated_at,
                action=action,
                summary=summary,
                detail=detail,
            )
        )

    def _remember(self, session: Session, names: tuple[str, ...], now: datetime) -> None:
        remember_players(session, names, now)

    def _record(
        self,
        row: MatchRow,
        match: Match,
        removed: tuple[RemovedDeal, ...] = (),
        sheet: Sheet | None = None,
    ) -> StoredMatch:
        """The record of a match from facts already in hand (a change builds its result from
        the state it changed, without reading the deals back). Not cached here: a change's
        result is cached only once it is read back committed."""
        return StoredMatch(
            row.id,
            row.version,
            match,
            score_match(match) if sheet is None else sheet,
            _aware(row.created_at),
            _aware(row.updated_at),
            removed,
        )

    def _load(self, session: Session, row: MatchRow) -> StoredMatch:
        """Rows to records. Committed states are cached by (id, version): the version
        changes with every write, so an entry never goes stale."""
        key = (row.id, row.version, _aware(row.updated_at))
        with self._cache_lock:
            cached = self._cache.get(key)
        if cached is not None:
            return cached
        deal_rows = session.scalars(
            select(DealRow).where(DealRow.match_id == row.id).order_by(DealRow.position, DealRow.id)
        ).all()
        try:
            settings = Settings.parse(row.rules)
            teams = None if row.teams is None else tuple(tuple(t) for t in row.teams)
            shell = Match(tuple(row.players), settings, (), teams, row.name)
            live = [d for d in deal_rows if d.position is not None]
            deals = tuple(parse_deal(d.facts, shell, f"deals[{i}]") for i, d in enumerate(live))
            removed = tuple(
                RemovedDeal(
                    d.id,
                    d.removed_number or 0,
                    parse_deal(d.facts, shell, f"removed[{d.id}]"),
                    _aware(d.removed_at),
                )
                for d in deal_rows
                if d.position is None and d.removed_at is not None
            )
        except InputError as error:  # pragma: no cover - the store only holds checked facts
            raise RuntimeError(f"match {row.id} in the database is damaged: {error}") from error
        stored = self._record(row, shell.with_deals(deals), removed)
        with self._cache_lock:
            self._cache[key] = stored
            while len(self._cache) > 64:
                self._cache.popitem(last=False)
        return stored


def summarise(stored: StoredMatch) -> MatchSummary:
    sheet = stored.sheet
    return MatchSummary(
        stored.id,
        stored.match.name,
        stored.match.players,
        sheet.sides,
        sheet.status,
        sheet.winner,
        sheet.totals,
        len(stored.match.deals),
        stored.created_at,
        stored.updated_at,
    )


def _check_owners(deal: Deal, match: Match) -> None:
    """A deal read for the match as it was, checked against the match as it is under the
    lock (another device may have turned partnerships on or off in between): the owners are
    the only facts of a deal that depend on its match."""
    owners_of(dict.fromkeys(deal.owners), match, "piles")


def _valid_id(value: int) -> bool:
    return isinstance(value, int) and 0 < value < 2**31


def _aware(moment: datetime | None) -> datetime:
    """SQLite hands back naive datetimes; they were written in UTC."""
    assert moment is not None
    if moment.tzinfo is None:
        from datetime import UTC

        return moment.replace(tzinfo=UTC)
    return moment
