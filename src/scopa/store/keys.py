"""``Idempotency-Key``s in the store: a keyed change and the key's answer commit together.

A change request with a key runs in one transaction (:meth:`SqlKeys.keyed`): the key is
claimed first (a row in ``idempotency_keys``, not yet committed), every store operation of
the request then joins that transaction (:data:`scopa.store.database.JOINED`), and
:meth:`KeyedChange.commit` writes the answer on the key's row and commits it all at once. A
server killed half-way commits nothing, so the retry finds no key and makes the change once;
a retry after the commit finds the key with its answer. Two requests with one key at the same
moment: the second waits on the first's claim (the row's unique key) and then finds its answer.

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
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from scopa.store.database import JOINED, Database, Joined, dump_json
from scopa.store.models import IdempotencyKeyRow
from scopa.store.quotas import charge, check_charge, refund
from scopa.store.records import KeptAnswer

KEEP = timedelta(hours=25)
"""How long a key is kept (docs/formats.md asks for at least 24 hours)."""
PURGE_EVERY = 600.0
"""Seconds between two purges of old keys (by the store's clock)."""


_keys = cast(Table, IdempotencyKeyRow.__table__)
READ_KEY = select(_keys.c.fingerprint, _keys.c.status, _keys.c.headers, _keys.c.body).where(
    _keys.c.key == bindparam("claimed")
)
CLAIMS = {
    "postgresql": postgresql.insert(_keys).on_conflict_do_nothing().returning(_keys.c.key),
    "sqlite": sqlite.insert(_keys).on_conflict_do_nothing().returning(_keys.c.key),
}
"""The claim, per database: the key's row inserted unless one is there (then nothing comes
back, and the key is read). On PostgreSQL an insert that meets another transaction's claim
of the same key waits for it to end, then inserts (it rolled back) or does nothing (it
committed); on SQLite one writer at a time holds the database (``BEGIN IMMEDIATE``)."""
KEEP_ANSWER = update(_keys).where(_keys.c.key == bindparam("claimed"))
"""The key's statements, built once (Core: no unit of work for one row)."""
KEEP_AND_CHARGE = """
WITH kept AS (
    UPDATE idempotency_keys SET status = %(status)s, headers = %(headers)s::json,
        body = %(body)s, size = %(size)s
    WHERE key = %(claimed)s
)
UPDATE groups SET used_bytes = used_bytes + %(size)s WHERE id = %(group)s
RETURNING used_matches, used_deals, used_bytes, max_matches, max_deals, max_bytes
"""
"""The answer kept and charged to the group in one statement (PostgreSQL)."""


def keep_and_charge(values: dict[str, Any], keyed: KeyedChange) -> dict[str, Any]:
    """:data:`KEEP_AND_CHARGE`'s values from :data:`KEEP_ANSWER`'s."""
    return {**values, "headers": dump_json(values["headers"]), "group": keyed.group}


class KeyedChange:
    """One keyed change request's transaction, from the claim of its key to its commit.

    ``found`` is the answer already kept for the key (replay it: nothing runs), ``mismatch``
    says the key was used for another request; otherwise the request runs in this
    transaction and ends with :meth:`commit` (keep the answer) or :meth:`rollback`."""

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
        self._purge = purge
        self._joined: Joined | None = None
        self._token: Token[tuple[Database, Joined] | None] | None = None

    def claim(self) -> None:
        """Look the key up; if it is new, claim it in a transaction that stays open (and
        that the request's store operations join). Blocks while another request holds the
        same key's claim. The claim is one statement: a key already kept is read after it."""
        self._purge()
        session = self.db.session()
        session.begin()
        try:
            claimed = self._claim(session)
        except BaseException:
            session.rollback()
            session.close()
            raise
        if not claimed:  # kept already (or answered meanwhile: another process, worker)
            session.rollback()
            session.close()
            self._lookup()
            return
        self._joined = Joined(session, self._claim)

    def _claim(self, session: Session) -> bool:
        """Insert the key's row in the session's transaction; whether it was not there."""
        connection = session.connection()
        values = {
            "key": self.key,
            "fingerprint": self.fingerprint,
            "group_id": self.group,
            "created_at": datetime.now(UTC),
        }
        return connection.execute(CLAIMS[connection.dialect.name], values).first() is not None

    def taken(self) -> None:
        """The claim went to another request (:class:`~scopa.store.database.KeyTaken`):
        end this one's transaction and read the answer kept for the key."""
        self.rollback()
        self._lookup()

    def join(self) -> None:
        """Make the store operations of the current context join this transaction (called
        in the request's own context, not in a worker thread)."""
        if self._joined is not None:
            self._token = JOINED.set((self.db, self._joined))

    @property
    def claimed(self) -> bool:
        return self._joined is not None

    def commit(self, answer: KeptAnswer) -> None:
        """Keep ``answer`` for the key (charged to the group) and commit the change with it;
        on any error the whole transaction is rolled back and the error raised."""
        joined = self._joined
        assert joined is not None, "commit needs a claimed key"
        session = joined.session
        try:
            size = len(answer.body) + sum(len(k) + len(v) for k, v in answer.headers)
            values = {
                "claimed": self.key,
                "status": answer.status,
                "headers": [list(h) for h in answer.headers],
                "body": answer.body,
                "size": size,
            }
            connection = session.connection()
            if self.group is not None and connection.dialect.name == "postgresql":
                found = connection.exec_driver_sql(KEEP_AND_CHARGE, keep_and_charge(values, self))
                check_charge(tuple(found.one()), matches=0, deals=0, size=size)
            else:
                connection.execute(KEEP_ANSWER, values)
                charge(session, self.group, size=size)
            session.commit()
        except BaseException:
            self.rollback()
            raise
        self._end()
        for then in joined.after:
            then()

    def rollback(self) -> None:
        """Undo everything the request wrote, the key's claim included."""
        if self._joined is not None:
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
        if self._joined is not None:
            self._joined.session.close()
            self._joined = None

    def _lookup(self) -> bool:
        """Whether the key is already kept (``found`` or ``mismatch`` set)."""
        with self.db.session() as session, session.begin():
            return self._read(session.connection())

    def _read(self, connection: Connection) -> bool:
        """:meth:`_lookup` in a transaction in hand."""
        row = connection.execute(READ_KEY, {"claimed": self.key}).one_or_none()
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
        holds its connection from its claim to its commit while it waits for threads in
        between; with more of them open than the pool has connections, the claims waiting
        for a connection fill the threads that the holders need to finish (each request
        then fails after the pool's timeout). The web layer queues the rest, without a
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
