"""``Idempotency-Key``s in the store: a keyed change and the key's answer commit together.

A change request with a key runs in one transaction (:meth:`SqlKeys.keyed`): every store
operation of the request joins it (:data:`scopa.store.database.JOINED`), and
:meth:`KeyedChange.commit` writes the key's row with its answer last and commits it all at
once. A server killed half-way commits nothing, so the retry finds no key and makes the
change once; a retry after the commit makes its change again in its own transaction, finds
the key kept when it writes it, rolls everything back and answers what was kept. The key is
claimed when its answer is known, by one statement at the commit (an insert that does
nothing when the key is there), not before the change: a request that makes its change and
commits (nearly all of them) pays one statement for its key and no thread of its own for
it. Two requests with one key at the same moment: the one that writes the key second waits
for the first to commit (the key's unique index), finds the key and answers the first's
answer; its own change is rolled back unmade.

What is kept for a key is what the web layer hands :meth:`KeyedChange.commit` (a small
answer, :func:`scopa.web.api.idempotency.small_answer`). On a hosted server each kept answer is
charged to its group's bytes, and given back when the key is purged (after :data:`KEEP`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import Token
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    Connection,
    CursorResult,
    Table,
    bindparam,
    delete,
    func,
    select,
)
from sqlalchemy.dialects import sqlite

from scopa.store.database import JOINED, Database, Joined, driver_rows, dump_json
from scopa.store.models import IdempotencyKeyRow
from scopa.store.quotas import charge, check_charge, refund
from scopa.store.records import KeptAnswer, KeyTaken

KEEP = timedelta(hours=25)
"""How long a key is kept (docs/formats.md asks for at least 24 hours)."""
PURGE_EVERY = 600.0
"""Seconds between two purges of old keys (by the store's clock)."""


_keys = cast(Table, IdempotencyKeyRow.__table__)
READ_KEY = select(_keys.c.fingerprint, _keys.c.status, _keys.c.headers, _keys.c.body).where(
    _keys.c.key == bindparam("key")
)
KEEP_ROW = """
INSERT INTO idempotency_keys (key, fingerprint, created_at, group_id, status, headers, body, size)
VALUES (%(key)s, %(fingerprint)s, %(created_at)s, %(group_id)s, %(status)s,
    %(headers)s::json, %(body)s, %(size)s)
ON CONFLICT DO NOTHING
"""
"""The key kept with its answer (PostgreSQL, as its driver runs it): its row inserted
unless one is there (then nothing is written: the key was another request's). An insert
that meets another transaction's uncommitted row of the same key waits for it to end, then
inserts (it rolled back) or does nothing (it committed)."""
KEEP_PLAIN = f"{KEEP_ROW} RETURNING key"
""":data:`KEEP_ROW` with the key back if it was written (one table)."""
KEEP_SQLITE = sqlite.insert(_keys).on_conflict_do_nothing().returning(_keys.c.key)
"""The same on SQLite (built once; one writer at a time holds the database, ``BEGIN
IMMEDIATE``)."""
KEEP_AND_CHARGE = f"""
WITH kept AS ({KEEP_ROW} RETURNING size)
UPDATE groups SET used_bytes = used_bytes + kept.size FROM kept WHERE groups.id = %(group_id)s
RETURNING used_matches, used_deals, used_bytes, max_matches, max_deals, max_bytes
"""
"""The key kept with its answer and charged to the group in one statement (PostgreSQL): no
row back when the key was there already (nothing kept, nothing charged)."""


class KeyedChange:
    """One keyed change request's transaction, from its first store operation to its
    commit with the key's answer.

    :meth:`join` makes the request's store operations join the transaction (it begins with
    the first of them); the request ends with :meth:`commit` (keep the answer) or
    :meth:`rollback`. When :meth:`commit` finds the key kept by another request, it rolls
    the change back and raises :class:`~scopa.store.records.KeyTaken`, with ``found`` the
    answer kept for the key, or ``mismatch`` set if the key was used for another request."""

    def __init__(
        self,
        db: Database,
        key: str,
        fingerprint: str,
        group: int | None,
        purge: Callable[[], object],
    ) -> None:
        self.db, self.key, self.fingerprint, self.group = db, key, fingerprint, group
        self.found: KeptAnswer | None = None
        self.mismatch = False
        self.settled = False
        self.error: BaseException | None = None
        self._purge = purge
        self._joined = Joined(db.session())
        self._token: Token[tuple[Database, Joined] | None] | None = None

    def join(self) -> None:
        """Make the store operations of the current context join this transaction (called
        in the request's own context, not in a worker thread)."""
        self._token = JOINED.set((self.db, self._joined))

    def commit(self, answer: KeptAnswer) -> None:
        """Keep ``answer`` for the key (charged to the group) and commit the change with it.
        If the key is kept already (another request made the change), the change is rolled
        back and :class:`~scopa.store.records.KeyTaken` raised, with that request's answer
        in ``found`` (or ``mismatch``); on any other error the whole transaction is rolled
        back and the error raised. Once it has committed, old keys are purged now and then."""
        session = self._joined.session
        self.settled = True
        try:
            size = len(answer.body) + sum(len(k) + len(v) for k, v in answer.headers)
            values = {
                "key": self.key,
                "fingerprint": self.fingerprint,
                "created_at": datetime.now(UTC),
                "group_id": self.group,
                "status": answer.status,
                "headers": [list(h) for h in answer.headers],
                "body": answer.body,
                "size": size,
            }
            connection = session.connection()
            if connection.dialect.name == "postgresql":  # the hot path: the driver's own
                values["headers"] = dump_json(values["headers"])
                hosted = self.group is not None
                found = driver_rows(session, KEEP_AND_CHARGE if hosted else KEEP_PLAIN, values)
                kept = bool(found)
                if found and hosted:
                    check_charge(tuple(found[0]), matches=0, deals=0, size=size)
            else:
                kept = connection.execute(KEEP_SQLITE, values).first() is not None
                if kept:
                    charge(session, self.group, size=size)
            if kept:
                session.commit()
        except BaseException:
            self.rollback()
            raise
        if not kept:
            self.rollback()
            self._lookup()
            raise KeyTaken
        after = list(self._joined.after)
        self._end()
        for then in after:
            then()
        self._purge()

    def settle(self, answer: KeptAnswer) -> None:
        """:meth:`commit` where the answer is made (the route's own thread, one hop less),
        any error kept in ``error`` for the web layer to answer as if it had committed
        there (``settled`` says it is done)."""
        try:
            self.commit(answer)
        except Exception as error:  # answered by the web layer
            self.error = error

    def rollback(self) -> None:
        """Undo whatever the request wrote."""
        try:
            self._joined.session.rollback()
        finally:
            self._end()

    def release(self) -> None:
        """Stop joining this transaction in the current context (the request's own)."""
        if self._token is not None:
            JOINED.reset(self._token)
            self._token = None

    def _end(self) -> None:
        self._joined.session.close()
        self._joined.after.clear()

    def _lookup(self) -> bool:
        """Whether the key is already kept (``found`` or ``mismatch`` set)."""
        with self.db.session() as session, session.begin():
            return self._read(session.connection())

    def _read(self, connection: Connection) -> bool:
        """:meth:`_lookup` in a transaction in hand."""
        row = connection.execute(READ_KEY, {"key": self.key}).one_or_none()
        if row is None:
            return False
        if row.fingerprint != self.fingerprint:
            self.mismatch = True
            return True
        headers = tuple((str(k), str(v)) for k, v in row.headers or [])
        self.found = KeptAnswer(int(row.status or 200), headers, bytes(row.body or b""))
        return True


class SqlKeys:
    """The ``idempotency_keys`` table of a SQL store."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self._clock = clock
        self._last_purge: float | None = None

    @property
    def at_once(self) -> int:
        """How many keyed changes may be open at once in this process: the engine's pool,
        less a few connections kept for the requests that are not keyed. A keyed change
        holds its connection from its first store operation to its commit, and may wait for
        a thread in between; with more of them open than the pool has connections, the
        requests waiting for a connection fill the threads that the holders need to finish
        (each request then fails after the pool's timeout). The web layer queues the rest, without a
        thread, until one finishes."""
        pool = self.db.engine.pool
        size = getattr(pool, "size", None)
        if not callable(size):  # a static pool (one shared connection) or none: no limit
            return 64
        connections = int(size()) + max(0, int(getattr(pool, "_max_overflow", 0)))
        return max(1, connections - max(1, connections // 3))

    def keyed(self, key: str, fingerprint: str, group: int | None = None) -> KeyedChange:
        """A keyed change for ``key`` (the group's own keys on a hosted server)."""
        stored_key = key if group is None else f"{group}:{key}"
        return KeyedChange(self.db, stored_key, fingerprint, group, self.purge)

    def purge(self, now: datetime | None = None) -> int:
        """Drop keys older than :data:`KEEP` (now and then, by the clock; always if ``now``
        is given), refunding their bytes to their groups; how many were dropped."""
        if now is None:
            tick = self._clock()
            if self._last_purge is not None and tick - self._last_purge < PURGE_EVERY:
                return 0
            self._last_purge = tick
            now = datetime.now(UTC)
        old = IdempotencyKeyRow.created_at < now - KEEP
        with self.db.session() as session, session.begin():
            sizes = session.execute(
                select(IdempotencyKeyRow.group_id, func.sum(IdempotencyKeyRow.size))
                .where(old, IdempotencyKeyRow.group_id.is_not(None))
                .group_by(IdempotencyKeyRow.group_id)
            ).all()
            for group, size in sizes:
                if group is not None:
                    refund(session, group, int(size or 0))
            done = session.execute(delete(IdempotencyKeyRow).where(old))
            return int(cast(CursorResult[Any], done).rowcount or 0)

    def count(self, group: int | None = None) -> tuple[int, int]:
        """How many keys are kept (of ``group``, or all) and their bytes."""
        with self.db.session() as session, session.begin():
            query = select(func.count(), func.coalesce(func.sum(IdempotencyKeyRow.size), 0))
            if group is not None:
                query = query.where(IdempotencyKeyRow.group_id == group)
            found = session.execute(query).one()
            return int(found[0]), int(found[1])
