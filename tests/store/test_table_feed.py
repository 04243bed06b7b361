"""The tables' feed (issue 47): a table's new version reaches the other server processes
without polling the tables: on PostgreSQL a trigger sends a notice when the version moves
(migration 0016_table_notify, no statement of the server's sends it), on SQLite the change
counter moves. A process that follows a table is told its version, whoever wrote it."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest

from scopa.store import MatchStore
from scopa.store.records import SeatRecord, TableRecord


def a_table(store: MatchStore) -> int:
    seats = (SeatRecord(0, "Anna", "human"), SeatRecord(1, "Computer", "computer", "easy"))
    record = TableRecord(
        id=0, code="ABCDEFGH", variant="scopa", players=2, rules={}, level="easy", grace=60,
        seed=1, log=[[]], step=0, version=1, status="playing", match_id=None, moved_at=0.0,
        seats=seats,
    )  # fmt: skip
    return store.tables(None).create(record)


def test_a_table_moved_by_another_connection_is_told_with_its_version(
    store: MatchStore,
) -> None:
    table = a_table(store)
    other = store.tables(None)  # another process's writes: the same database

    async def follow() -> list[tuple[int, int | None]]:
        told: list[tuple[int, int | None]] = []
        ready = asyncio.Event()
        feed = asyncio.create_task(
            store.table_feed().run(lambda: [table], lambda i, v: told.append((i, v)), ready)
        )
        try:
            async with asyncio.timeout(60):  # a bound for a broken feed, not a latency
                await ready.wait()
                await asyncio.to_thread(other.bump, table)
                await asyncio.to_thread(other.bump, table)
                while (table, 3) not in told:
                    await asyncio.sleep(0.01)
        finally:
            feed.cancel()
        return told

    told = asyncio.run(follow())
    assert (table, 3) in told
    assert all(ident == table for ident, _ in told)


def test_a_cancelled_sqlite_feed_closes_its_connection_only_after_the_read_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelling the feed (a server stopping) while its thread reads the change counter
    must not close the connection under that read: sqlite3 crashes the whole process then
    (seen once in the suite, a segmentation fault at a schemathesis app's shutdown)."""
    from sqlalchemy import create_engine

    from scopa.store import notify

    path = tmp_path / "feed.sqlite"
    sqlite3.connect(path).close()
    reading, go_on, done = threading.Event(), threading.Event(), threading.Event()
    after: list[object] = []
    calls = 0

    def slow_read(connection: sqlite3.Connection) -> int:
        nonlocal calls
        calls += 1
        if calls == 2:  # the first look after the start: held until the task is cancelled
            reading.set()
            go_on.wait(60)
            try:  # still open: the close waits for this read
                after.append(connection.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.ProgrammingError as error:
                after.append(error)
            done.set()
        return 1

    monkeypatch.setattr(notify, "_data_version", slow_read)
    feed = notify.SqliteFeed(create_engine(f"sqlite:///{path}"), str(path), pace=0.0)

    async def cancel_mid_read() -> None:
        task = asyncio.create_task(feed.run(lambda: [], lambda i, v: None, asyncio.Event()))
        await asyncio.to_thread(reading.wait, 60)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        go_on.set()

    asyncio.run(cancel_mid_read())
    assert done.wait(60)  # the thread's read, let go, ends (a bound, not a latency)
    assert len(after) == 1
    assert isinstance(after[0], int), after


def test_a_sqlite_feed_stopped_as_the_interpreter_stops_is_still_cancelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's lifespan stopped at the interpreter's exit (schemathesis stops the apps it
    started then): no thread can be started to close the feed's connection, and that must
    not turn the feed's cancellation into an error. It did: the hub took the RuntimeError for
    a failed feed and started it again, failing each second, so the stop waited for ever
    (``pytest -n0`` over the schemathesis module never exited)."""
    import concurrent.futures.thread

    from sqlalchemy import create_engine

    from scopa.store import notify

    path = tmp_path / "feed.sqlite"
    sqlite3.connect(path).close()
    feed = notify.SqliteFeed(create_engine(f"sqlite:///{path}"), str(path), pace=60.0)

    async def stop_at_exit() -> BaseException | None:
        ready = asyncio.Event()
        task = asyncio.create_task(feed.run(lambda: [], lambda i, v: None, ready))
        async with asyncio.timeout(60):  # a bound for a broken feed, not a latency
            await ready.wait()
        # what concurrent.futures' exit hook sets: no executor takes new work
        monkeypatch.setattr(concurrent.futures.thread, "_shutdown", True)
        task.cancel()
        try:
            await task
        except BaseException as error:  # what the task ended with is the point
            return error
        finally:
            monkeypatch.setattr(concurrent.futures.thread, "_shutdown", False)
        return None

    ended = asyncio.run(stop_at_exit())
    assert isinstance(ended, asyncio.CancelledError), repr(ended)
