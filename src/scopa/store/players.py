"""The names remembered from earlier matches (offered when a new match is set up).

Names are remembered per group (``group`` ``None``: the one table of a server that is not
hosted). A name is remembered once whatever its case: ``"anna"`` after ``"Anna"`` plays as the same
person and keeps the first spelling (names arrive trimmed and NFC-normalised,
:func:`scopa.names.clean_name`). The insert is an upsert, so two matches created at once with
the same new names both succeed, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from scopa.made_names import PERSON, Seat
from scopa.names import name_key
from scopa.store.database import of_group
from scopa.store.models import PlayerRow


def _insert(session: Session) -> Any:
    from sqlalchemy.dialects import postgresql, sqlite

    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert
    return sqlite.insert


def in_group(group: int | None) -> Any:
    """The condition on ``players`` for one group's names."""
    return of_group(PlayerRow.group_id, group)


def spelling(session: Session, name: str, group: int | None = None) -> str:
    """The spelling already remembered for ``name`` (any case), else ``name`` itself."""
    key = name_key(name)
    # Not the databases' lower(): in PostgreSQL's C locale (and SQLite) it leaves "Ë" as it
    # is. The names of about this length are few; Python's casefold compares them.
    near = func.length(PlayerRow.name).between(len(name) - 3, len(name) + 3)
    candidates = session.scalars(select(PlayerRow.name).where(near, in_group(group))).all()
    return next((known for known in candidates if name_key(known) == key), name)


def remember_players(
    session: Session,
    names: Iterable[str],
    now: datetime,
    group: int | None = None,
    seats: Sequence[Seat] = (),
) -> None:
    """Note that these players of ``group`` played now (adding the names not seen before).
    ``seats``, a match's :attr:`~scopa.match.Match.seat_kinds`: a name the program gave a
    seat is remembered as that seat (``players.seat``), and stays one."""
    insert = _insert(session)
    columns: list[Any] = [PlayerRow.name] if group is None else [PlayerRow.group_id, PlayerRow.name]
    where = PlayerRow.group_id.is_(None) if group is None else PlayerRow.group_id.is_not(None)
    for k, name in enumerate(names):
        seat = seats[k] if k < len(seats) and seats[k].kind != PERSON else None
        values: dict[str, Any] = {"last_played_at": now}
        if seat is not None:
            values["seat"] = seat.to_json()
        statement = insert(PlayerRow).values(
            name=spelling(session, name, group), group_id=group, **values
        )
        session.execute(
            statement.on_conflict_do_update(index_elements=columns, index_where=where, set_=values)
        )
