"""The tables' feed (issue 47): a table's new version reaches the other server processes
without polling the tables: on PostgreSQL a trigger sends a notice when the version moves
(migration 0016_table_notify, no statement of the server's sends it), on SQLite the change
counter moves. A process that follows a table is told its version, whoever wrote it."""

from __future__ import annotations

import asyncio

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
