"""The tables where friends play together online, in the SQL database
(:mod:`scopa.application.tables`).

A table is kept as its seed and its plays (like a game against the computer,
:mod:`scopa.store.games`): a restart, or another worker process, deals and plays it again
exactly. Each move names the step it was based on and is written only if the table is still
at that step, so two seats racing, a stale page or two processes' computers cannot both move
it. Every write moves ``version``, which the event streams of every process watch.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Connection,
    Float,
    Table,
    and_,
    bindparam,
    exists,
    func,
    not_,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from scopa.store.database import Database, of_group, valid_id
from scopa.store.models import TableRow, TableSeatRow, utcnow
from scopa.store.records import PRESENCE, SeatRecord, TableRecord, TableWrite, new_code

TABLES = cast(Table, TableRow.__table__)
SEATS = cast(Table, TableSeatRow.__table__)
"""The tables in SQLAlchemy Core: the statements run on the session's connection, not
through the ORM (which loads entities, and evaluates an UPDATE against the session first).
CPU on the development machine, SQLite: a table read 0.90 -> 0.47 ms, the claim 0.76 ->
0.44 ms, a play's write 2.3 -> 1.9 ms (the rest of it is the commit)."""

TAKEOVER = 2.0
"""Seconds past the computer's moment after which any process plays at a table whose last
move another process wrote (that process gone, or too busy): until then only the process
that wrote the last move plays the computer's next one, with no claim written before it
thinks, so the computer's play is one commit, as a person's."""
_PLAYERS: dict[int, str] = {}


def this_process() -> str:
    """This server process's name in ``tables.player`` (drawn once per process: a worker
    process started by fork draws its own)."""
    pid = os.getpid()
    found = _PLAYERS.get(pid)
    if found is None:
        found = _PLAYERS[pid] = f"{pid}-{secrets.token_hex(8)}"
    return found


TOUCH_EVERY = 2.0
"""Seconds within which a seat's sign of life is not written again."""


def _record(row: Any, seats: list[Any]) -> TableRecord:
    return TableRecord(
        id=row.id,
        code=row.code,
        variant=row.variant,
        players=row.players,
        rules=dict(row.rules or {}),
        level=row.level,
        grace=row.grace,
        seed=row.seed,
        log=row.log,
        step=row.step,
        version=row.version,
        status=row.status,
        match_id=row.match_id,
        moved_at=row.moved_at,
        seats=tuple(
            SeatRecord(s.seat, s.name, s.kind, s.level, s.seen_at, s.token_hash) for s in seats
        ),
        group_id=row.group_id,
        clock=row.clock,
    )


class SqlTables:
    """The ``tables`` and ``table_seats`` tables, seen from one group (``None``: a server
    that is not hosted): another group's table is not found."""

    def __init__(
        self,
        db: Database,
        group: int | None = None,
        every_group: bool = False,
        player: str | None = None,
    ) -> None:
        self.db = db
        self.player = player or this_process()
        """The process the moves this store writes are played from (tests name others)."""
        self.group = group
        self.every_group = every_group
        """Every group's tables (the server's background player)."""

    def _whose(self) -> str:
        """Which of :data:`SAVE`'s statements is this store's."""
        if self.every_group:
            return "every"
        return "plain" if self.group is None else "group"

    def _mine(self) -> Any:
        if self.every_group:
            return true()
        return of_group(TABLES.c.group_id, self.group)

    @contextmanager
    def _core(self) -> Iterator[Connection]:
        """One store operation's transaction, its statements run in SQLAlchemy Core."""
        with self.db.connection() as connection:
            yield connection

    def create(self, record: TableRecord) -> int:
        for _ in range(5):
            try:
                with self.db.transaction() as session:
                    row = TableRow(
                        code=record.code,
                        group_id=self.group,
                        variant=record.variant,
                        players=record.players,
                        rules=record.rules,
                        level=record.level,
                        grace=record.grace,
                        clock=record.clock,
                        seed=record.seed,
                        log=record.log,
                        step=record.step,
                        version=record.version,
                        status=record.status,
                        turn=None,
                        match_id=None,
                        moved_at=record.moved_at,
                    )
                    session.add(row)
                    session.flush()
                    for seat in record.seats:
                        session.add(
                            TableSeatRow(
                                table_id=row.id,
                                seat=seat.seat,
                                name=seat.name,
                                kind=seat.kind,
                                level=seat.level,
                                token_hash=seat.token_hash,
                                seen_at=seat.seen_at,
                            )
                        )
                    return row.id
            except IntegrityError:  # pragma: no cover - the same code drawn twice
                record = dataclasses.replace(record, code=new_code())
        raise RuntimeError("could not draw a free table code")  # pragma: no cover

    def _load(self, connection: Connection, where: Any) -> TableRecord | None:
        row = connection.execute(select(TABLES).where(where, self._mine())).first()
        if row is None:
            return None
        seats = list(connection.execute(SEATS_OF, {"table": row.id}))
        return _record(row, seats)

    def load(self, table_id: int) -> TableRecord | None:
        if not valid_id(table_id):
            return None
        with self._core() as connection:
            params = {"table": table_id, "group": self.group}
            row = connection.execute(LOAD[self._whose()], params).first()
            if row is None:
                return None
            return _record(row, list(connection.execute(SEATS_OF, {"table": row.id})))

    def by_code(self, code: str) -> TableRecord | None:
        if not code:
            return None
        with self._core() as connection:
            return self._load(connection, TABLES.c.code == code)

    def take_seat(self, table_id: int, seat: int, name: str, token_hash: str, now: float) -> bool:
        with self._core() as connection:
            done = connection.execute(
                update(TableSeatRow)
                .where(
                    TableSeatRow.table_id == table_id,
                    TableSeatRow.seat == seat,
                    TableSeatRow.name.is_(None),
                )
                .values(name=name, token_hash=token_hash, seen_at=now)
            )
            if not getattr(done, "rowcount", 0):
                return False
            self._bump(connection, table_id)
            return True

    def save(self, table_id: int, move: TableWrite) -> int | None:
        """Write a move if the table is still at its step (else ``None``): the table's new
        version, and the sign of life of the seat that moved in the same transaction (one
        commit a play)."""
        params = {
            "table": table_id,
            "based_on": move.based_on,
            "new_log": move.log,
            "new_status": move.status,
            "new_turn": move.turn,
            "new_step": move.based_on + 1,
            "now": move.now,
            "updated": utcnow(),
            "group": self.group,
            "player": self.player,
        }
        statement = SAVE[self._whose()]
        values = {
            key: value
            for key, value in (("seed", move.seed), ("match_id", move.match_id))
            if value is not None
        }
        if values:  # a new deal or match
            statement = statement.values(**values)
        with self._core() as connection:
            version = connection.execute(statement, params).scalar()
            if version is None:
                return None
            if move.seen is not None:
                connection.execute(SEEN, {"table": table_id, "moved": move.seen, "now": move.now})
            return int(version)

    def attach_match(self, table_id: int, match_id: int) -> bool:
        with self._core() as connection:
            done = connection.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.match_id.is_(None), self._mine())
                .values(match_id=match_id)
            )
            return bool(getattr(done, "rowcount", 0))

    def touch(self, table_id: int, seat: int, seen_at: float, now: float) -> bool:
        """Write the seat's last sign of life; whether it had been away until now."""
        with self._core() as connection:
            before = connection.execute(
                select(TableSeatRow.seen_at).where(
                    TableSeatRow.table_id == table_id, TableSeatRow.seat == seat
                )
            ).first()
            if before is None:
                return False
            was = before[0]
            if was is not None and 0 <= seen_at - was < TOUCH_EVERY:
                return False  # seen a moment ago: no write
            connection.execute(
                update(TableSeatRow)
                .where(TableSeatRow.table_id == table_id, TableSeatRow.seat == seat)
                .values(seen_at=seen_at)
            )
            return was is None or now - was > PRESENCE

    def bump(self, table_id: int) -> None:
        with self._core() as connection:
            self._bump(connection, table_id)

    @staticmethod
    def _bump(connection: Connection, table_id: int) -> None:
        connection.execute(
            update(TableRow).where(TableRow.id == table_id).values(version=TableRow.version + 1)
        )

    def due(self, now: float, pause: float) -> list[tuple[int, int]]:
        """The tables (of every group) where the computer may be the one to play: a computer
        seat to move, a human seat to move that is away longer than the table's grace, or a
        present one whose turn clock ran out;
        ``(id, step)``. A table whose people have all been away longer than its grace waits
        for one of them (the computer does not play a deal out for nobody). Only the tables
        whose last move this process wrote (or no process: tables from before), and the
        others once their computer's play is :data:`TAKEOVER` seconds late: two processes do
        not think for one table, and nothing is written before the play."""
        with self._core() as connection:
            rows = connection.execute(DUE, {"now": now, "pause": pause, "me": self.player})
            return [(int(ident), int(step)) for ident, step in rows]

    def counts(self, since: float) -> tuple[int, int]:
        """The group's tables in play (moved since ``since``, match not over) and their
        human seats taken."""
        with self._core() as connection:
            live = and_(self._mine(), TableRow.status != "match_over", TableRow.moved_at >= since)
            tables = connection.execute(select(func.count()).select_from(TableRow).where(live))
            count = int(tables.scalar_one())
            seats = connection.execute(
                select(func.count())
                .select_from(TableSeatRow)
                .join(TableRow, TableRow.id == TableSeatRow.table_id)
                .where(live, TableSeatRow.kind == "human")
            )
            return count, int(seats.scalar_one())

    def versions(self, ids: list[int]) -> dict[int, int]:
        """The version of each table in ``ids`` (any group: the streams are per process)."""
        if not ids:
            return {}
        with self._core() as connection:
            rows = connection.execute(VERSIONS, {"ids": sorted(ids)[:1000]})
            return {int(i): int(v) for i, v in rows}

    def any_playing(self) -> bool:
        with self._core() as connection:
            row = connection.execute(
                select(TableRow.id).where(TableRow.status == "playing").limit(1)
            ).first()
            return row is not None


def clock_ran_out(seat: Any, now: Any) -> ColumnElement[bool]:
    """:func:`scopa.application.tables.clock_ran_out` in SQL: a human seat to move that is
    present, at a table with a turn clock that has run out."""
    return and_(
        seat.kind == "human",
        TableRow.clock > 0,
        TableRow.moved_at <= now - TableRow.clock,
        seat.seen_at.is_not(None),
        seat.seen_at >= now - PRESENCE,
    )


def away_too_long(seat: Any, now: Any) -> ColumnElement[bool]:
    """:meth:`SeatRecord.away_too_long` in SQL, for a seat of the table it is joined to: a
    human seat last seen longer ago than the presence and the table's grace."""
    return and_(
        seat.kind == "human",
        seat.seen_at.is_not(None),
        seat.seen_at < now - PRESENCE - TableRow.grace,
    )


def _due() -> Any:
    """:meth:`SqlTables.due`'s statement, built once with the moment and the pause as bound
    parameters (the background player asks ten times a second: building it each time cost
    about 2 ms)."""
    now = bindparam("now", type_=Float)
    pause = bindparam("pause", type_=Float)
    other = aliased(TableSeatRow)
    someone_there = exists().where(
        other.table_id == TableRow.id,
        other.kind == "human",
        not_(away_too_long(other, now)),
    )
    return (
        select(TableRow.id, TableRow.step)
        .join(
            TableSeatRow,
            and_(TableSeatRow.table_id == TableRow.id, TableSeatRow.seat == TableRow.turn),
        )
        .where(
            TableRow.status == "playing",
            TableRow.turn.is_not(None),
            TableRow.moved_at <= now - pause,
            or_(
                TableRow.player.is_(None),
                TableRow.player == bindparam("me"),
                TableRow.moved_at <= now - pause - TAKEOVER,
            ),
            or_(
                TableSeatRow.kind == "computer",
                away_too_long(TableSeatRow, now),
                clock_ran_out(TableSeatRow, now),
            ),
            someone_there,
        )
        .order_by(TableRow.moved_at)
        .limit(200)
    )


DUE = _due()
VERSIONS = select(TableRow.id, TableRow.version).where(
    TableRow.id.in_(bindparam("ids", expanding=True))
)
""":meth:`SqlTables.versions`'s statement (the events' poll, ten times a second while a
stream is open), built once."""
SEATS_OF = select(SEATS).where(SEATS.c.table_id == bindparam("table")).order_by(SEATS.c.seat)
"""A table's seats, in order (:meth:`SqlTables.load`), built once."""


def by_whose(statement: Any) -> dict[str, Any]:
    """``statement`` for each view of the tables a store may have: every group's
    (``every``), a plain server's (``plain``: no group), one group's (``group``, bound)."""
    group = TABLES.c.group_id
    return {
        "every": statement,
        "plain": statement.where(group.is_(None)),
        "group": statement.where(group == bindparam("group")),
    }


LOAD = by_whose(select(TABLES).where(TABLES.c.id == bindparam("table")))
""":meth:`SqlTables.load`'s statements, built once (every play reads its table, and building
the statement cost as much as running it), by whose tables the store sees."""


def _save() -> dict[str, Any]:
    """:meth:`SqlTables.save`'s statements, built once (building one was a third of a play's
    write): the move based on a step, written if the table is still at it, by whose tables
    the store sees (every group's, a plain server's, one group's)."""
    based = update(TABLES).where(
        TABLES.c.id == bindparam("table"), TABLES.c.step == bindparam("based_on")
    )
    moved = based.values(
        log=bindparam("new_log", type_=TABLES.c.log.type),
        status=bindparam("new_status"),
        turn=bindparam("new_turn"),
        step=bindparam("new_step"),
        version=TABLES.c.version + 1,
        moved_at=bindparam("now"),
        claimed_at=None,
        player=bindparam("player"),
        updated_at=bindparam("updated"),
    ).returning(TABLES.c.version)
    return by_whose(moved)


SAVE = _save()
SEEN = (
    update(SEATS)
    .where(SEATS.c.table_id == bindparam("table"), SEATS.c.seat == bindparam("moved"))
    .values(seen_at=bindparam("now"))
)
"""The seat that moved: its sign of life, written with its move."""
