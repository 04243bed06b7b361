"""The tallies kept per match and player (``tallies``), written in the same transaction as
every change of the match, so that a player's figures are sums of kept rows whatever the
number of matches (:mod:`scopa.store.figures` reads them).

A tally is worked out above the store (:func:`scopa.tally.tally_of`, handed with the
change's :class:`~scopa.store.records.Standing`): the store never scores. A change that
moves an outcome (a match won or reopened, another winner, a match deleted) counts one more
change of the group's outcomes (``stats_marks``), which tells the kept ratings they are stale.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from scopa.names import name_key
from scopa.store.models import MatchRow, StatsMarkRow, TallyRow
from scopa.tally import MatchTally

CATEGORY_COLUMNS = (
    "cards",
    "coins",
    "settebello",
    "primiera",
    "sweeps",
    "napola",
    "declarations",
    "piccola",
    "grande",
)
"""Every variant's categories, one ``cat_*`` column each."""


def scope_of(group: int | None) -> int:
    """The group's key in ``stats_marks`` (0: the one table)."""
    return 0 if group is None else group


def _insert(session: Session) -> Any:
    from sqlalchemy.dialects import postgresql, sqlite

    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert
    return sqlite.insert


def outcomes_moved(session: Session, group: int | None) -> None:
    """Count one more change of the group's outcomes (the ratings are then stale)."""
    statement = _insert(session)(StatsMarkRow).values(scope=scope_of(group), outcomes=1, rated=-1)
    session.execute(
        statement.on_conflict_do_update(
            index_elements=[StatsMarkRow.scope],
            set_={"outcomes": StatsMarkRow.outcomes + 1},
        )
    )


def _outcome(rows: list[TallyRow]) -> set[tuple[str, int, int, int]]:
    return {(r.key, r.side, r.finished, r.won) for r in rows}


def write_tally(session: Session, row: MatchRow, tally: MatchTally | None) -> None:
    """Keep the match's tally (``None``: none until the application fills it in; the
    match's rows go)."""
    old = list(session.scalars(select(TallyRow).where(TallyRow.match_id == row.id)))
    by_key = {r.key: r for r in old}
    before = _outcome(old)
    if tally is None:
        for one in old:
            session.delete(one)
        if any(r.finished for r in old):
            outcomes_moved(session, row.group_id)
        return
    kept: list[TallyRow] = []
    for seat in tally.seats:
        key = name_key(seat.name)
        found = by_key.pop(key, None)
        if found is None:
            found = TallyRow(match_id=row.id, group_id=row.group_id, key=key)
            session.add(found)
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
        for name, value in values.items():
            if getattr(found, name) != value:
                setattr(found, name, value)
        kept.append(found)
    for gone in by_key.values():
        session.delete(gone)
    if _outcome(kept) != before and (tally.finished or any(r.finished for r in old)):
        outcomes_moved(session, row.group_id)


def drop_tally(session: Session, row: MatchRow) -> None:
    """A deleted match no longer counts: its rows go."""
    finished = session.scalar(
        select(TallyRow.id).where(TallyRow.match_id == row.id, TallyRow.finished == 1).limit(1)
    )
    session.execute(delete(TallyRow).where(TallyRow.match_id == row.id))
    if finished is not None:
        outcomes_moved(session, row.group_id)


def untallied(session: Session, mine: Any) -> list[int]:
    """The matches (not deleted) of a group whose line and tally are not kept yet."""
    return list(
        session.scalars(
            select(MatchRow.id).where(
                MatchRow.deleted_at.is_(None), MatchRow.status.is_(None), mine
            )
        )
    )
