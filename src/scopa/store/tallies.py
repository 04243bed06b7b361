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
from scopa.store.database import aware
from scopa.store.models import MatchRow, PairTotalRow, PlayerTotalRow, StatsMarkRow, TallyRow
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


def mark_of(session: Session, group: int | None) -> StatsMarkRow:
    """The group's mark, locked (made if missing)."""
    scope = scope_of(group)
    statement = _insert(session)(StatsMarkRow).values(scope=scope, outcomes=0, rated=-1, full=1)
    session.execute(statement.on_conflict_do_nothing(index_elements=[StatsMarkRow.scope]))
    return session.get_one(StatsMarkRow, scope, with_for_update=True, populate_existing=True)


def outcomes_moved(session: Session, group: int | None, match: MatchRow | None = None) -> None:
    """Count one more change of the group's outcomes (the ratings are then stale): of
    ``match``'s (``None``: of the people), which the ratings may play on top of what they
    kept when it is newer than every match they went through."""
    mark = mark_of(session, group)
    mark.outcomes += 1
    newer = (
        match is not None
        and mark.through_id is not None
        and mark.through_at is not None
        and (aware(match.created_at), match.id) > (aware(mark.through_at), mark.through_id)
    )
    if not newer:
        mark.full = 1


def _outcome(rows: list[TallyRow]) -> set[tuple[str, int, int, int]]:
    return {(r.key, r.side, r.finished, r.won) for r in rows}


SUMMED = ("won", "finished", "deals", "points", "sweeps", *(f"cat_{c}" for c in CATEGORY_COLUMNS))
Seat = tuple[Any, ...]
"""A tally row's values: key, variant, side, then :data:`SUMMED`."""


def _seats(rows: list[TallyRow]) -> list[Seat]:
    return [(r.key, r.variant, r.side, *(getattr(r, c) for c in SUMMED)) for r in rows]


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


def _apply(session: Session, scope: int, before: list[Seat], after: list[Seat]) -> None:
    """Move the totals by what the match's seats changed (nothing written when nothing did)."""
    old_players, old_pairs = _contributions(before)
    new_players, new_pairs = _contributions(after)
    insert = _insert(session)
    columns = ("matches", *SUMMED)
    for player in old_players.keys() | new_players.keys():
        old = old_players.get(player, [0] * len(columns))
        new = new_players.get(player, [0] * len(columns))
        delta = {c: n - o for c, n, o in zip(columns, new, old, strict=True)}
        if not any(delta.values()):
            continue
        statement = insert(PlayerTotalRow).values(
            scope=scope, key=player[0], variant=player[1], **delta
        )
        session.execute(
            statement.on_conflict_do_update(
                index_elements=["scope", "key", "variant"],
                set_={c: getattr(PlayerTotalRow, c) + d for c, d in delta.items()},
            )
        )
    for pair in old_pairs.keys() | new_pairs.keys():
        old = old_pairs.get(pair, [0, 0, 0])
        new = new_pairs.get(pair, [0, 0, 0])
        moved = {c: n - o for c, n, o in zip(("matches", "won", "lost"), new, old, strict=True)}
        if not any(moved.values()):
            continue
        key, other, same, variant = pair
        statement = insert(PairTotalRow).values(
            scope=scope, key=key, other=other, same=same, variant=variant, **moved
        )
        session.execute(
            statement.on_conflict_do_update(
                index_elements=["scope", "key", "other", "same", "variant"],
                set_={c: getattr(PairTotalRow, c) + d for c, d in moved.items()},
            )
        )


def write_tally(session: Session, row: MatchRow, tally: MatchTally | None) -> None:
    """Keep the match's tally (``None``: none until the application fills it in; the
    match's rows go)."""
    old = list(session.scalars(select(TallyRow).where(TallyRow.match_id == row.id)))
    by_key = {r.key: r for r in old}
    before = _outcome(old)
    seats_before = _seats(old)
    scope = scope_of(row.group_id)
    if tally is None:
        for one in old:
            session.delete(one)
        _apply(session, scope, seats_before, [])
        if any(r.finished for r in old):
            outcomes_moved(session, row.group_id, row)
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
    _apply(session, scope, seats_before, _seats(kept))
    if _outcome(kept) != before and (tally.finished or any(r.finished for r in old)):
        outcomes_moved(session, row.group_id, row)


def drop_tally(session: Session, row: MatchRow) -> None:
    """A deleted match no longer counts: its rows go, and what they added to the totals."""
    old = list(session.scalars(select(TallyRow).where(TallyRow.match_id == row.id)))
    _apply(session, scope_of(row.group_id), _seats(old), [])
    session.execute(delete(TallyRow).where(TallyRow.match_id == row.id))
    if any(r.finished for r in old):
        outcomes_moved(session, row.group_id, row)


def untallied(session: Session, mine: Any) -> list[int]:
    """The matches (not deleted) of a group whose line and tally are not kept yet."""
    return list(
        session.scalars(
            select(MatchRow.id).where(
                MatchRow.deleted_at.is_(None), MatchRow.status.is_(None), mine
            )
        )
    )
