"""The match repository: rows in, core records out; every change one transaction that checks
the version it was based on, bumps it, and logs what was there before (:meth:`~SqlMatches.change`).

Facts only: nothing here scores or applies the rules of the game (that is
:mod:`scopa.application`'s job); each change keeps the line of the list it is handed (a
:class:`~scopa.store.records.Standing`). Committed states are cached by (id, version, last
change), a change's answer once it has committed."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session

from scopa.changes import AddDeal, MatchChange
from scopa.errors import DatabaseDamagedError, InputError, MatchNotFoundError
from scopa.formats import deal_to_json, stored_deal
from scopa.i18n import N_
from scopa.made_names import Seat, made_from_row
from scopa.match import Match
from scopa.rules import Settings
from scopa.store.cache import StateCache
from scopa.store.database import Database, aware, driver_rows, of_group, valid_id
from scopa.store.edits import add_at_once, edit
from scopa.store.models import ChangeRow, DealRow, MatchRow, PlayerRow, utcnow
from scopa.store.players import in_group, remember_players
from scopa.store.quotas import charge
from scopa.store.records import (
    FIRST_PAGE,
    ListPage,
    LogEntry,
    MatchLine,
    RemovedDeal,
    Standing,
    StoredMatch,
    stale_version,
)
from scopa.store.rows import bump as _bump
from scopa.store.rows import live_ids
from scopa.store.rows import log_change as _log
from scopa.store.rows import record_of as _record
from scopa.store.summaries import line_of, list_rows, write_summary
from scopa.store.tallies import drop_tally, tally_of_rows, with_tally

_matches = cast(Table, MatchRow.__table__)
_live = _matches.c.deleted_at.is_(None)
_with_tally = with_tally(_matches)
LOCK_OWN = _with_tally.where(
    _matches.c.id == bindparam("match"), _live, _matches.c.group_id == bindparam("group")
).with_for_update(of=_matches)
LOCK_TABLE = _with_tally.where(
    _matches.c.id == bindparam("match"), _live, _matches.c.group_id.is_(None)
).with_for_update(of=_matches)
WRITE_ROW = update(_matches).where(_matches.c.id == bindparam("row"))
"""A change's statements on its match's row, built once: the row read and locked (a
group's, or the one table's) with its tally's rows (one round trip), and what the change
moved written back."""
_ROW = tuple(c.name for c in _matches.c)
_LOCKED = tuple(str(c.key) for c in LOCK_OWN.selected_columns)
"""The names of the columns the lock reads, in its order."""


@functools.cache
def _lock_sql(own: bool, dialect: Dialect) -> str:
    """:data:`LOCK_OWN` or :data:`LOCK_TABLE` as the engine's driver runs it (built once)."""
    return str((LOCK_OWN if own else LOCK_TABLE).compile(dialect=dialect))


class SqlMatches:
    """Matches, their deals and change log in SQL (see :class:`scopa.store.protocol.Matches`),
    seen from one group: ``group`` (``None``, the default, is the one table of a server that
    is not hosted). Every read and change finds its match through :meth:`_row`, which knows
    only the group's matches: another group's match is not found, exactly like a match that
    does not exist."""

    db: Database
    _cache: StateCache[StoredMatch]
    group: int | None = None

    def in_group(self, group: int | None) -> SqlMatches:
        """The same matches seen from ``group`` (same database and cache)."""
        view = SqlMatches()
        view.db, view._cache, view.group = self.db, self._cache, group
        return view

    def _mine(self) -> Any:
        """The condition on ``matches`` for this view's group."""
        return of_group(MatchRow.group_id, self.group)

    # Reading

    def peek(self, match_id: int) -> StoredMatch | None:
        """The newest state of the match this process has read or written, without asking
        the database: a guess, which a change checks (its ``stamp``, see :meth:`change`)."""
        found = self._cache.latest(match_id, self.group)
        return None if found is None else found[1]

    def get(self, match_id: int, lock: bool = False) -> StoredMatch:
        """The match as it is; with ``lock``, its row locked for the rest of the transaction
        (within a keyed request, until the change that follows is written)."""
        with self.db.transaction() as session:
            return self._load(session, self._row(session, match_id, lock=lock))

    def all(self) -> list[StoredMatch]:
        with self.db.transaction() as session:
            rows = session.scalars(
                select(MatchRow)
                .where(MatchRow.deleted_at.is_(None), self._mine())
                .order_by(MatchRow.updated_at.desc(), MatchRow.id.desc())
            ).all()
            return [self._load(session, row) for row in rows]

    def lines(self, page: ListPage = FIRST_PAGE) -> tuple[list[MatchLine], bool]:
        with self.db.transaction() as session:
            rows = list_rows(session, self._mine(), page)
            return [line_of(row) for row in rows[: page.limit]], len(rows) > page.limit

    def history(self, match_id: int, last: int | None = None) -> list[LogEntry]:
        with self.db.transaction() as session:
            self._row(session, match_id)
            query = select(ChangeRow).where(ChangeRow.match_id == match_id)
            if last is None:
                rows = list(session.scalars(query.order_by(ChangeRow.id)).all())
            else:
                newest = query.order_by(ChangeRow.id.desc()).limit(max(last, 0))
                rows = list(reversed(session.scalars(newest).all()))
            return [
                LogEntry(r.id, r.version, aware(r.at), r.action, r.summary, r.detail) for r in rows
            ]

    def recent_history(self, match_id: int, last: int) -> tuple[list[LogEntry], int]:
        with self.db.transaction() as session:
            self._row(session, match_id)
            newest = (
                select(ChangeRow)
                .where(ChangeRow.match_id == match_id)
                .order_by(ChangeRow.id.desc())
                .limit(max(last, 0))
            )
            rows = list(reversed(session.scalars(newest).all()))
            count = select(func.count()).select_from(ChangeRow)
            size = int(session.scalar(count.where(ChangeRow.match_id == match_id)) or 0)
            entries = [
                LogEntry(r.id, r.version, aware(r.at), r.action, r.summary, r.detail) for r in rows
            ]
            return entries, size

    def player_names(self) -> list[str]:
        with self.db.transaction() as session:
            return list(
                session.scalars(
                    select(PlayerRow.name)
                    .where(
                        in_group(self.group),
                        PlayerRow.removed_at.is_(None),
                        PlayerRow.seat.is_(None),
                    )
                    .order_by(PlayerRow.last_played_at.desc(), PlayerRow.name)
                )
            )

    # Changing

    def create(
        self, *, match: Match, action: str = "create", standing: Standing | None = None
    ) -> StoredMatch:
        now = utcnow()
        with self.db.transaction() as session:
            row = MatchRow(
                group_id=self.group,
                name=match.name,
                name_kind=None if match.made is None else match.made.kind,
                name_args=None if match.made is None else dict(match.made.args),
                seat_kinds=[s.to_json() for s in match.seat_kinds] or None,
                variant=match.settings.variant,
                players=list(match.players),
                teams=None if match.teams is None else [list(t) for t in match.teams],
                rules=match.settings.to_dict(),
                first_dealer=match.first_dealer,
                version=1,
                created_at=now,
                updated_at=now,
            )
            session.add(row)
            session.flush()
            facts = [deal_to_json(deal) for deal in match.deals]
            for number, one in enumerate(facts, 1):
                session.add(DealRow(match_id=row.id, position=number, facts=one))
            remember_players(session, match.players, now, self.group, match.seat_kinds)
            verb = "imported" if action == "import" else "created"
            summary = f"Match {verb}: {', '.join(match.players)}"
            if match.deals:
                summary += f", {len(match.deals)} deals"
            detail = {"rules": row.rules}
            stored = (*facts, summary, detail)
            charge(session, self.group, matches=1, deals=len(facts), stored=stored)
            _log(session, row, action, summary, detail)
            write_summary(session, row, standing)
            session.flush()
            result = _record(row, match, deal_ids=live_ids(session, row.id))
        return self._remember(result)

    def change(self, change: MatchChange, standing: Standing | None = None) -> StoredMatch:
        """One change in one transaction: the match's row, locked at the change's version
        (and ``stamp``, see :meth:`_row`), and its state go to
        :func:`~scopa.store.edits.edit`, which writes the rows, bumps the version and answers
        what the match and its removed deals become. The line of the list (``standing``) is
        kept with it; the answer is cached once committed."""
        with self.db.transaction() as session:
            row, before, tally = self._locked(
                session, change.match_id, change.version, change.stamp
            )
            state = self._load(session, row)
            if isinstance(change, AddDeal) and session.get_bind().dialect.name == "postgresql":
                match, removed, ids = add_at_once(session, row, state, change, standing, tally)
            else:
                match, removed, ids = edit(session, row, state, change)
                write_summary(session, row, standing, tally)
                session.flush()
                moved = {k: v for k, v in before.items() if getattr(row, k) != v}
                moved = {k: getattr(row, k) for k in moved}
                if moved:
                    session.connection().execute(WRITE_ROW, {"row": row.id, **moved})
            result = _record(row, match, removed, live_ids(session, row.id) if ids is None else ids)
        return self._remember(result)

    def keep_standing(self, *, match_id: int, version: int, standing: Standing) -> None:
        """Fill in the line of a match that has none, if it is still at ``version`` (else
        the change that moved it on was handed its own line): no new version, no log."""
        with self.db.transaction() as session:
            row = (
                session.get(MatchRow, match_id, with_for_update=True)
                if valid_id(match_id)
                else None
            )
            mine = row is not None and row.group_id == self.group
            if row is not None and mine and row.version == version and row.summary is None:
                write_summary(session, row, standing)

    def uncount(self, *, match_id: int, reason: str) -> None:
        """Keep the match out of the players' figures, ratings and records from now on
        (its tally goes, and what it added to the totals); no new version, no log."""
        with self.db.transaction() as session:
            row = (
                session.get(MatchRow, match_id, with_for_update=True)
                if valid_id(match_id)
                else None
            )
            if row is None or row.group_id != self.group or row.uncounted is not None:
                return
            row.uncounted = reason
            drop_tally(session, row)
        self._cache.drop(match_id)

    def delete_match(self, *, match_id: int, version: int | None) -> None:
        with self.db.transaction() as session:
            row = self._row(session, match_id, version, lock=True)
            row.deleted_at = utcnow()
            drop_tally(session, row)
            _bump(session, row, "delete_match", "Match deleted", {}, matches=-1)
        self._cache.drop(match_id)

    # Internals

    def _row(
        self,
        session: Session,
        match_id: int,
        version: int | None = None,
        lock: bool = False,
        stamp: datetime | None = None,
    ) -> MatchRow:
        """The match ``match_id`` of this view's group, or :class:`MatchNotFoundError`: the
        one place where a match is looked up, so another group's match is never found. A
        ``version`` (and ``stamp``, its last-change time) other than the row's is stale."""
        query = (
            select(MatchRow)
            .where(MatchRow.id == match_id, MatchRow.deleted_at.is_(None), self._mine())
            # the row as the database has it now, not as this session first read it: a keyed
            # request is one transaction, and a change retried after another process moved
            # the match on must see the new version (PostgreSQL answered 409 twenty times)
            .execution_options(populate_existing=True)
        )
        if lock:
            query = query.with_for_update()
        row = session.scalars(query).one_or_none() if valid_id(match_id) else None
        return self._check(match_id, row, version, stamp)

    def _locked(
        self, session: Session, match_id: int, version: int | None, stamp: datetime | None
    ) -> tuple[MatchRow, dict[str, Any], list[dict[str, Any]]]:
        """:meth:`_row` locked, read by one Core statement built once, as a row the session
        does not hold (a change writes back what it moved, :data:`WRITE_ROW`), with its
        values as read and its tally's rows (read with it)."""
        found: Sequence[Mapping[Any, Any]] = ()
        if valid_id(match_id):
            statement, values = LOCK_OWN, {"match": match_id, "group": self.group}
            if self.group is None:
                statement, values = LOCK_TABLE, {"match": match_id}
            dialect = session.get_bind().dialect
            if dialect.name == "postgresql":  # the hot path: the driver's own
                rows = driver_rows(session, _lock_sql(self.group is not None, dialect), values)
                found = [dict(zip(_LOCKED, r, strict=True)) for r in rows]
            else:
                found = session.connection().execute(statement, values).mappings().all()
        before = {c: found[0][c] for c in _ROW} if found else {}
        row = MatchRow(**before) if found else None
        return self._check(match_id, row, version, stamp), before, tally_of_rows(found)

    @staticmethod
    def _check(
        match_id: int, row: MatchRow | None, version: int | None, stamp: datetime | None
    ) -> MatchRow:
        if row is None:
            raise MatchNotFoundError(
                N_("no match with id {match_id}"), code="match.no_match_id", match_id=match_id
            )
        if version is not None and version != row.version:
            raise stale_version(match_id, row.version, version)
        if stamp is not None and stamp != aware(row.updated_at):
            raise stale_version(match_id, row.version, row.version - 1)
        return row

    def _remember(self, stored: StoredMatch) -> StoredMatch:
        """Keep a change's answer as the match's newest state once it has committed (a keyed
        change commits with its answer, after this)."""
        key = (stored.id, stored.version, stored.updated_at)
        self.db.after_commit(lambda: self._cache.put(key, stored, self.group))
        return stored

    def _load(self, session: Session, row: MatchRow) -> StoredMatch:
        """Rows to records; a committed state is read once and then served from the cache
        (a change's own answer is not cached: it is cached when read back committed). The
        facts were checked when they were stored: they are read, not checked again
        (:func:`~scopa.formats.stored_deal`)."""
        key = (row.id, row.version, aware(row.updated_at))
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        deal_rows = session.execute(  # plain rows, not ORM objects: a long match reads fast
            select(
                DealRow.id,
                DealRow.position,
                DealRow.facts,
                DealRow.removed_number,
                DealRow.removed_at,
            )
            .where(DealRow.match_id == row.id)
            .order_by(DealRow.position, DealRow.id)
        ).all()
        try:
            settings = Settings.parse(row.rules, variant=row.variant)
            teams = None if row.teams is None else tuple(tuple(t) for t in row.teams)
            shell = Match(
                tuple(row.players),
                settings,
                (),
                teams,
                row.name,
                row.first_dealer or 0,
                made_from_row(row.name_kind, row.name_args),
                tuple(Seat.from_json(s) for s in row.seat_kinds or ()),
            )
            live = [d for d in deal_rows if d.position is not None]
            deals = tuple(stored_deal(d.facts, shell) for d in live)
            removed = tuple(
                RemovedDeal(
                    d.id,
                    d.removed_number or 0,
                    stored_deal(d.facts, shell),
                    aware(d.removed_at),
                )
                for d in deal_rows
                if d.position is None and d.removed_at is not None
            )
        except InputError as error:  # the store only holds checked facts: changed outside
            raise DatabaseDamagedError(
                N_("match {id} in the database is damaged: {error}"), id=row.id, error=error
            ) from error
        ids = tuple(d.id for d in live)
        stored = _record(row, shell.with_deals(deals), removed, ids)
        group = row.group_id
        self.db.after_commit(lambda: self._cache.put(key, stored, group))
        return stored
