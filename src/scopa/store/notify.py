"""Change feeds: how a process learns that a match changed, whichever process changed it.

- On PostgreSQL every change sends ``NOTIFY scopa_changes, 'ID:VERSION'`` in its own
  transaction (:func:`notify_change`), so the notice goes out exactly when the change commits;
  :class:`PostgresFeed` holds one listening connection per process.
- On SQLite, :class:`SqliteFeed` polls ``PRAGMA data_version`` on one dedicated connection
  (it changes when any other connection, in any process, commits) and then reads the versions
  of the matches someone watches.
- :class:`PollingFeed` reads those versions at a fixed pace (a store without SQL).

A feed runs as one task in the server's event loop and hands ``(match id, version)`` pairs
to its ``publish`` callback; a version of ``None`` means the match is gone. Database calls
run in a worker thread, so the loop never waits on the database.

The tables played together online have a feed of their own (:func:`table_feed_for`, the
same three kinds, ``(table id, version)``): on PostgreSQL a trigger sends
``NOTIFY scopa_tables, 'ID:VERSION'`` whenever a table's version moves (migration
``0016_table_notify``), so no statement of the server's sends it; on SQLite the change
counter is looked at every :data:`TABLE_PACE` seconds, and the followed tables' versions read
only when it moved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Engine, bindparam, func, select
from sqlalchemy.orm import Session

from scopa.store.models import MatchRow
from scopa.store.protocol import Feed, Publish, Watched

logger = logging.getLogger("scopa.store.notify")

CHANNEL = "scopa_changes"
TABLE_CHANNEL = "scopa_tables"
"""Where a table's new version is told (``ID:VERSION``, by the trigger of migration
``0016_table_notify``)."""
SQLITE_PACE = 0.15
"""Seconds between two looks at SQLite's change counter."""
TABLE_PACE = 0.1
"""The same for the tables' feed (a change made by another process reaches a stream within
about a tenth of a second)."""
RECONNECT_PACE = (0.5, 10.0)
"""The first and the longest wait before the PostgreSQL listener connects again."""

NOTIFY = select(func.pg_notify(CHANNEL, bindparam("payload")))

Versions = Callable[[Collection[int]], Mapping[int, int | None]]
"""What reads the current versions of some matches or tables (``None``: gone)."""


def notify_change(session: Session, row: MatchRow) -> None:
    """Tell the other processes that ``row`` changed (PostgreSQL: ``NOTIFY`` within the
    change's transaction, delivered at its commit; SQLite needs nothing)."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        payload = f"{row.id}:{row.version}" + (":deleted" if row.deleted_at is not None else "")
        session.connection().execute(NOTIFY, {"payload": payload})


def parse_payload(payload: str) -> tuple[int, int | None] | None:
    """A notice's match id and version (``None``: deleted); ``None`` for a foreign payload.

    >>> parse_payload("7:3"), parse_payload("7:4:deleted"), parse_payload("x")
    ((7, 3), (7, None), None)
    """
    parts = payload.split(":")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), None if parts[2:] == ["deleted"] else int(parts[1])


def read_versions(engine: Engine, ids: Collection[int]) -> dict[int, int | None]:
    """The current version of each match in ``ids`` (``None``: missing or deleted)."""
    found: dict[int, int | None] = dict.fromkeys(ids)
    wanted = sorted(ids)
    with Session(engine) as session, session.begin():
        for start in range(0, len(wanted), 500):
            rows = session.execute(
                select(MatchRow.id, MatchRow.version, MatchRow.deleted_at).where(
                    MatchRow.id.in_(wanted[start : start + 500])
                )
            )
            for ident, version, deleted in rows:
                found[ident] = None if deleted is not None else version
    return found


def publish_all(versions: Mapping[int, int | None], publish: Publish) -> None:
    for ident, version in versions.items():
        publish(ident, version)


async def publish_watched(watched: Watched, read: Versions, publish: Publish) -> None:
    """Publish the versions of what is watched, read (when anything is) in a worker thread."""
    ids = list(watched())
    if ids:
        publish_all(await asyncio.to_thread(read, ids), publish)


class PollingFeed:
    """Reads the watched matches' versions every ``pace`` seconds through ``versions``."""

    def __init__(self, versions: Versions, pace: float = 0.2) -> None:
        self.versions = versions
        self.pace = pace

    async def run(self, watched: Watched, publish: Publish, ready: asyncio.Event) -> None:
        ready.set()
        while True:
            await publish_watched(watched, self.versions, publish)
            await asyncio.sleep(self.pace)


class SqliteFeed:
    """Watches a SQLite file's change counter on one connection of its own."""

    def __init__(
        self, engine: Engine, path: str, pace: float = SQLITE_PACE, read: Versions | None = None
    ) -> None:
        self.engine = engine
        self.path = path
        self.pace = pace
        self.read = read or (lambda ids: read_versions(engine, ids))

    async def run(self, watched: Watched, publish: Publish, ready: asyncio.Event) -> None:
        # The connection is only ever used by one thread of its own, its close included: a
        # cancelled wait leaves the thread's read running, and sqlite3 crashes the process
        # when a connection is closed under a statement another thread is running.
        own = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scopa-sqlite-feed")
        loop = asyncio.get_running_loop()
        connection = await loop.run_in_executor(own, self._connect)
        try:
            seen = await loop.run_in_executor(own, _data_version, connection)
            ready.set()
            # a restart: what changed while nobody watched
            await publish_watched(watched, self.read, publish)
            while True:
                await asyncio.sleep(self.pace)
                now = await loop.run_in_executor(own, _data_version, connection)
                if now == seen:
                    continue
                seen = now
                await publish_watched(watched, self.read, publish)
        finally:
            # After the read in flight, in the same thread. The interpreter may be stopping
            # (a server's lifespan stopped at exit): then no thread can be started, the
            # process ends with the connection, and the feed's cancellation must not be
            # lost to that RuntimeError (its loop would go on for ever, and the stop hang).
            with contextlib.suppress(RuntimeError):
                own.submit(connection.close)
            own.shutdown(wait=False)

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA busy_timeout=10000")
        return connection


def _data_version(connection: sqlite3.Connection) -> int:
    value: int = connection.execute("PRAGMA data_version").fetchone()[0]
    return value


class PostgresFeed:
    """One ``LISTEN`` connection; on each (re)connect the watched versions are read again
    (notices sent while nobody listened are lost)."""

    def __init__(
        self, engine: Engine, channel: str = CHANNEL, read: Versions | None = None
    ) -> None:
        self.engine = engine
        self.channel = channel
        self.read = read or (lambda ids: read_versions(engine, ids))
        self.url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def run(self, watched: Watched, publish: Publish, ready: asyncio.Event) -> None:
        import psycopg

        wait = RECONNECT_PACE[0]
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            except psycopg.Error as error:
                logger.warning("change feed: cannot connect (%s); again in %.1f s", error, wait)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RECONNECT_PACE[1])
                continue
            try:
                await connection.execute(f"LISTEN {self.channel}")
                ready.set()
                wait = RECONNECT_PACE[0]
                # what changed while nobody listened
                await publish_watched(watched, self.read, publish)
                async for notice in connection.notifies():
                    parsed = parse_payload(notice.payload)
                    if parsed is not None:
                        publish(*parsed)
            except psycopg.Error as error:
                logger.warning("change feed: the listening connection broke (%s)", error)
            finally:
                with contextlib.suppress(Exception):
                    await connection.close()


def feed_for(store: Any) -> Feed:
    """The feed that fits a store: PostgreSQL's notices, SQLite's change counter, or
    polling (an in-memory database, or a store without SQL)."""
    engine: Engine | None = getattr(store, "engine", None)
    if engine is None:
        return PollingFeed(lambda ids: _versions_through(store, ids))
    if engine.dialect.name == "postgresql":
        return PostgresFeed(engine)
    path = _sqlite_file(engine)
    if path is not None:
        return SqliteFeed(engine, path)
    return PollingFeed(lambda ids: read_versions(engine, ids))


def _sqlite_file(engine: Engine) -> str | None:
    """The file of a SQLite database (``None``: another database, or SQLite in memory or
    opened by a ``file:`` URI), which :class:`SqliteFeed` can watch."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    return path if path and path != ":memory:" and not path.startswith("file:") else None


def _versions_through(store: Any, ids: Collection[int]) -> dict[int, int | None]:
    from scopa.errors import MatchNotFoundError

    found: dict[int, int | None] = {}
    for ident in ids:
        try:
            found[ident] = store.get(ident).version
        except MatchNotFoundError:
            found[ident] = None
    return found


def table_feed_for(engine: Engine, versions: Callable[[list[int]], Mapping[int, int]]) -> Feed:
    """The feed of the tables' versions (``versions``: those of the tables asked, any group's):
    PostgreSQL's notices, SQLite's change counter, or a look every :data:`TABLE_PACE` seconds
    (an in-memory database)."""

    def read(ids: Collection[int]) -> dict[int, int | None]:
        found: dict[int, int | None] = dict.fromkeys(ids)
        found.update(versions(list(ids)))
        return found

    if engine.dialect.name == "postgresql":
        return PostgresFeed(engine, TABLE_CHANNEL, read)
    path = _sqlite_file(engine)
    if path is not None:
        return SqliteFeed(engine, path, TABLE_PACE, read)
    return PollingFeed(read, TABLE_PACE)
