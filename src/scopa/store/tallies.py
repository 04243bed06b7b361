"""The tallies kept per match and player (``tallies``), written in the same transaction as
every change of the match, so that a player's figures are sums of kept rows whatever the
number of matches (:mod:`scopa.store.figures` reads them).

A tally is worked out above the store (:func:`scopa.tally.tally_of`, handed with the
change's :class:`~scopa.store.records.Standing`): the store never scores. A change that
moves an outcome (a match won or reopened, another winner, a match deleted) counts one more
change of the group's outcomes (``stats_marks``), which tells the kept ratings they are stale.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    Integer,
    Select,
    Table,
    and_,
    bindparam,
    case,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql.base import PGDialect
from sqlalchemy.orm import Session

from scopa.names import name_key
from scopa.store.database import aware, dump_json
from scopa.store.models import MatchRow, PairTotalRow, PlayerTotalRow, StatsMarkRow, TallyRow
from scopa.tally import TALLIED, MatchTally

CATEGORY_COLUMNS = TALLIED
"""Every variant's categories, one ``cat_*`` column each."""


def scope_of(group: int | None) -> int:
    """The group's key in ``stats_marks`` (0: the one table)."""
    return 0 if group is None else group


def _insert(dialect: str) -> Any:
    """The dialect's ``INSERT`` with ``ON CONFLICT`` (PostgreSQL's or SQLite's)."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


def mark_of(session: Session, group: int | None) -> StatsMarkRow:
    """The group's mark, locked (made if missing)."""
    scope = scope_of(group)
    statement = _insert(session.get_bind().dialect.name)(StatsMarkRow).values(
        scope=scope, outcomes=0, rated=-1, full=1
    )
    session.execute(statement.on_conflict_do_nothing(index_elements=[StatsMarkRow.scope]))
    return session.get_one(StatsMarkRow, scope, with_for_update=True, populate_existing=True)


@functools.cache
def _outcomes_moved(dialect: str) -> Any:
    """:func:`outcomes_moved`'s one statement for a dialect, built once: the mark made or
    counted on, and ``full`` unless the match is newer than every match rated."""
    marks = cast(Table, StatsMarkRow.__table__)
    mark = marks.c
    match = bindparam("match", type_=Integer)
    created = bindparam("created", type_=DateTime(timezone=True))
    newer = and_(
        match.is_not(None),
        mark.through_id.is_not(None),
        mark.through_at.is_not(None),
        or_(mark.through_at < created, and_(mark.through_at == created, mark.through_id < match)),
    )
    made = _insert(dialect)(marks).values(scope=bindparam("scope"), outcomes=1, rated=-1, full=1)
    return made.on_conflict_do_update(
        index_elements=[mark.scope],
        set_={"outcomes": mark.outcomes + 1, "full": case((newer, mark.full), else_=1)},
    )


def outcomes_moved(session: Session, group: int | None, match: MatchRow | None = None) -> None:
    """Count one more change of the group's outcomes (the ratings are then stale): of
    ``match``'s (``None``: of the people), which the ratings may play on top of what they
    kept when it is newer than every match they went through. One statement (it runs
    whenever a match is won or reopened)."""
    connection = session.connection()
    values = {
        "scope": scope_of(group),
        "match": None if match is None else match.id,
        "created": None if match is None else aware(match.created_at),
    }
    connection.execute(_outcomes_moved(connection.dialect.name), values)


SUMMED = ("won", "finished", "deals", "points", "sweeps", *(f"cat_{c}" for c in CATEGORY_COLUMNS))
Seat = tuple[Any, ...]
"""A tally row's values: key, variant, side, then :data:`SUMMED`."""


def _contributions(
    seats: list[Seat],
) -> tuple[dict[tuple[str, str], list[int]], dict[tuple[str, str, int, str], list[int]]]:
    """What a match's seats add to the players' totals and the pairs' totals."""
    players = {(s[0], s[1]): [1, *s[3:]] for s in seats}
    won = 3  # the index of ``won`` in a seat
    pairs = {
        (a[0], b[0], int(a[2] == b[2]), a[1]): [1, a[won], b[won]]
        for a in seats
        for b in seats
        if a[0] != b[0]
    }
    return players, pairs


_tallies = cast(Table, TallyRow.__table__)
_players = cast(Table, PlayerTotalRow.__table__)
_pairs = cast(Table, PairTotalRow.__table__)
TALLY_VALUES = (
    "name",
    "variant",
    "played_at",
    "side",
    "finished",
    "won",
    "deals",
    "points",
    "sweeps",
    *(f"cat_{c}" for c in CATEGORY_COLUMNS),
)
"""A tally row's values (besides its match, group and key)."""
TALLY_READ = ("id", "key", *TALLY_VALUES)
READ_TALLY = select(*(_tallies.c[c] for c in TALLY_READ)).where(
    _tallies.c.match_id == bindparam("match")
)


def with_tally(matches: Table) -> Select[Any]:
    """Matches' rows read with their tally's: a row a tally row (``tally_id`` ``NULL`` for a
    match that has none), whose ``tally_*`` columns :func:`tally_of_rows` takes back out."""
    columns = (_tallies.c[c].label(f"tally_{c}") for c in TALLY_READ)
    joined = matches.outerjoin(_tallies, _tallies.c.match_id == matches.c.id)
    return select(matches, *columns).select_from(joined)


def tally_of_rows(rows: Sequence[Mapping[Any, Any]]) -> list[dict[str, Any]]:
    """A match's tally rows as :data:`READ_TALLY` reads them, from its row read
    :func:`with_tally`."""
    return [{c: r[f"tally_{c}"] for c in TALLY_READ} for r in rows if r["tally_id"] is not None]


WRITE_TALLY = update(_tallies).where(_tallies.c.id == bindparam("row"))
DROP_TALLY = delete(_tallies).where(_tallies.c.id == bindparam("row"))
PLAYER_MOVES = ("matches", *SUMMED)
PAIR_MOVES = ("matches", "won", "lost")


@functools.cache
def _upserts(dialect: str) -> tuple[Any, Any]:
    """The statements that move the players' and the pairs' totals by the values inserted
    (``excluded``), built once per dialect: executed with one parameter set per row moved."""
    upsert = _insert(dialect)
    player = upsert(_players).values(
        {c: bindparam(c) for c in ("scope", "key", "variant", *PLAYER_MOVES)}
    )
    player = player.on_conflict_do_update(
        index_elements=["scope", "key", "variant"],
        set_={c: _players.c[c] + player.excluded[c] for c in PLAYER_MOVES},
    )
    pair = upsert(_pairs).values(
        {c: bindparam(c) for c in ("scope", "key", "other", "same", "variant", *PAIR_MOVES)}
    )
    pair = pair.on_conflict_do_update(
        index_elements=["scope", "key", "other", "same", "variant"],
        set_={c: _pairs.c[c] + pair.excluded[c] for c in PAIR_MOVES},
    )
    return player, pair


def _moves(
    scope: int, before: list[Seat], after: list[Seat]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What the match's seats changed in the players' and the pairs' totals: a row of
    values each (the amounts to add), in the order they are written (:func:`_row_order`)."""
    old_players, old_pairs = _contributions(before)
    new_players, new_pairs = _contributions(after)
    players: list[dict[str, Any]] = []
    for player in old_players.keys() | new_players.keys():
        old = old_players.get(player, [0] * len(PLAYER_MOVES))
        new = new_players.get(player, [0] * len(PLAYER_MOVES))
        delta = {c: n - o for c, n, o in zip(PLAYER_MOVES, new, old, strict=True)}
        if any(delta.values()):
            players.append({"scope": scope, "key": player[0], "variant": player[1], **delta})
    pairs: list[dict[str, Any]] = []
    for pair in old_pairs.keys() | new_pairs.keys():
        old = old_pairs.get(pair, [0, 0, 0])
        new = new_pairs.get(pair, [0, 0, 0])
        moved = {c: n - o for c, n, o in zip(PAIR_MOVES, new, old, strict=True)}
        if any(moved.values()):
            key, other, same, variant = pair
            pairs.append(
                {"scope": scope, "key": key, "other": other, "same": same, "variant": variant}
                | moved
            )
    return sorted(players, key=_row_order), sorted(pairs, key=_row_order)


def _move_totals(
    session: Session, players: list[dict[str, Any]], pairs: list[dict[str, Any]]
) -> None:
    if not players and not pairs:
        return
    connection = session.connection()
    player_upsert, pair_upsert = _upserts(connection.dialect.name)
    if players:
        connection.execute(player_upsert, players)
    if pairs:
        connection.execute(pair_upsert, pairs)


def _row_order(values: Mapping[str, Any]) -> tuple[Any, ...]:
    """Rows moved in one order (their keys'), so two changes never lock them crosswise."""
    return (values["key"], values.get("other", ""), values.get("same", 0), values["variant"])


@dataclass(frozen=True, slots=True)
class TallyWrites:
    """What keeping a match's tally writes (:func:`tally_writes`): its rows whose values
    moved (``changed``), new and dropped, what the players' and pairs' totals move by, and
    whether the group's outcomes moved (``outcomes``)."""

    changed: list[dict[str, Any]]
    added: list[dict[str, Any]]
    dropped: list[dict[str, Any]]
    players: list[dict[str, Any]]
    pairs: list[dict[str, Any]]
    outcomes: bool

    def folded(self) -> dict[str, str]:
        """The values of :data:`TALLY_AT_ONCE` (``changed``, ``players`` and ``pairs``)."""
        return {
            "tallied": dump_json(self.changed),
            "players": dump_json(self.players),
            "pairs": dump_json(self.pairs),
        }


def tally_writes(
    row: MatchRow, tally: MatchTally | None, old: Sequence[Mapping[Any, Any]]
) -> TallyWrites:
    """What keeping the match's tally (``None``: none until the application fills it in;
    the match's rows go) writes, from its rows as they are (``old``): only the rows whose
    values moved."""
    seats_before: list[Seat] = [
        (r["key"], r["variant"], r["side"], *(r[c] for c in SUMMED)) for r in old
    ]
    before = {(r["key"], r["side"], r["finished"], r["won"]) for r in old}
    was_finished = any(r["finished"] for r in old)
    scope = scope_of(row.group_id)
    if tally is None:
        players, pairs = _moves(scope, seats_before, [])
        dropped = [{"row": r["id"]} for r in old]
        return TallyWrites([], [], dropped, players, pairs, was_finished)
    by_key = {r["key"]: r for r in old}
    changed: list[dict[str, Any]] = []
    added: list[dict[str, Any]] = []
    kept: list[Seat] = []
    for seat in tally.seats:
        key = name_key(seat.name)
        counts = dict(seat.categories)
        values: dict[str, Any] = {
            "name": seat.name,
            "variant": tally.variant,
            "played_at": row.created_at,
            "side": seat.side,
            "finished": int(tally.finished),
            "won": int(seat.won),
            "deals": seat.deals,
            "points": seat.points,
            "sweeps": seat.sweeps,
        }
        values.update({f"cat_{c}": counts.get(c, 0) for c in CATEGORY_COLUMNS})
        found = by_key.pop(key, None)
        if found is None:
            added.append({"match_id": row.id, "group_id": row.group_id, "key": key, **values})
        elif any(found[c] != values[c] for c in TALLY_VALUES):
            changed.append({"row": found["id"], **values})
        kept.append((key, tally.variant, seat.side, *(values[c] for c in SUMMED)))
    dropped = [{"row": r["id"]} for r in by_key.values()]
    players, pairs = _moves(scope, seats_before, kept)
    after = {(k[0], k[2], int(tally.finished), k[3]) for k in kept}
    outcomes = after != before and (tally.finished or was_finished)
    return TallyWrites(changed, added, dropped, players, pairs, outcomes)


def run_tally_writes(
    session: Session, row: MatchRow, writes: TallyWrites, folded: bool = False
) -> None:
    """Write ``writes`` (plain statements, built once); ``folded``: but what
    :data:`TALLY_AT_ONCE` wrote already (the rows changed and the totals)."""
    connection = session.connection()
    if writes.changed and not folded:
        connection.execute(WRITE_TALLY, writes.changed)
    if writes.added:
        connection.execute(insert(_tallies), writes.added)
    if writes.dropped:
        connection.execute(DROP_TALLY, writes.dropped)
    if not folded:
        _move_totals(session, writes.players, writes.pairs)
    if writes.outcomes:
        outcomes_moved(session, row.group_id, row)


def write_tally(
    session: Session,
    row: MatchRow,
    tally: MatchTally | None,
    old: Sequence[Mapping[Any, Any]] | None = None,
) -> None:
    """Keep the match's tally (``None``: none until the application fills it in; the
    match's rows go): only the rows whose values moved are written. ``old``: the match's
    tally rows, if they were read with its row (locked)."""
    if old is None:
        old = read_tally(session, row.id)
    run_tally_writes(session, row, tally_writes(row, tally, old))


def read_tally(session: Session, match: int) -> list[dict[str, Any]]:
    """The match's tally rows (:data:`TALLY_READ`)."""
    return [dict(r) for r in session.connection().execute(READ_TALLY, {"match": match}).mappings()]


def _recordset(table: Table, names: Sequence[str]) -> str:
    """``json_to_recordset``'s column list for ``table``'s columns ``names`` (PostgreSQL)."""
    dialect = PGDialect()  # type: ignore[no-untyped-call]
    return ", ".join(f'"{n}" {table.c[n].type.compile(dialect=dialect)}' for n in names)


def _sum_into(table: Table, keys: Sequence[str], moves: Sequence[str], values: str) -> str:
    """An upsert adding the rows of ``values`` (a JSON array) to ``table``'s totals."""
    names = (*keys, *moves)
    listed = ", ".join(f'"{n}"' for n in names)
    added = ", ".join(f'"{m}" = {table.name}."{m}" + excluded."{m}"' for m in moves)
    return (
        f"INSERT INTO {table.name} ({listed}) SELECT {listed} "
        f"FROM json_to_recordset(%({values})s::json) AS v({_recordset(table, names)}) "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {added}"
    )


_SET_TALLY = ", ".join(f'"{c}" = v."{c}"' for c in TALLY_VALUES)
TALLY_AT_ONCE = f"""
tallied AS (
    UPDATE tallies SET {_SET_TALLY}
    FROM json_to_recordset(%(tallied)s::json)
        AS v("row" INTEGER, {_recordset(_tallies, TALLY_VALUES)})
    WHERE tallies.id = v."row"
), players_moved AS (
    {_sum_into(_players, ("scope", "key", "variant"), PLAYER_MOVES, "players")}
), pairs_moved AS (
    {_sum_into(_pairs, ("scope", "key", "other", "same", "variant"), PAIR_MOVES, "pairs")}
)"""
"""The common part of keeping a tally, as common table expressions of a statement that
writes more (PostgreSQL, :func:`scopa.store.edits.add_at_once`): the tally's rows changed,
and the players' and pairs' totals moved, from :meth:`TallyWrites.folded`'s JSON arrays
(an empty one writes nothing). The totals are written in :func:`_row_order`."""


def drop_tally(session: Session, row: MatchRow) -> None:
    """A deleted match no longer counts: its rows go, and what they added to the totals
    (:func:`write_tally` with no tally)."""
    write_tally(session, row, None)


def untallied(session: Session, mine: Any) -> list[int]:
    """The matches (not deleted) of a group whose line and tally are not kept yet."""
    return list(
        session.scalars(
            select(MatchRow.id).where(
                MatchRow.deleted_at.is_(None), MatchRow.status.is_(None), mine
            )
        )
    )
