"""Issue 50: who sits in each seat, as data.

- ``matches.seat_kinds``: per seat, a person or a seat the program names (``you``, a
  ``computer`` with its number among several, the computer as ``partner``), so that such a
  seat is worded in the reader's language from data and a person's name is never read back
  (``NULL``: every player a person).

Rows from before: a game against the computer (and its rematches) had only the program's
seats, named by their English wording; a table's match, its computer seats (``table_seats``
of kind ``computer``, the others a person's).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import table

revision = "0015_seat_kinds"
down_revision = "0014_table_player"

WORDS = {"You": {"kind": "you"}, "Partner": {"kind": "partner"}, "Computer": {"kind": "computer"}}


def program_seat(name: str) -> dict[str, Any] | None:
    """The seat a game against the computer named ``name`` (``None``: not one it names)."""
    head, _space, number = name.rpartition(" ")
    if head == "Computer" and number.isdigit():
        return {"kind": "computer", "number": int(number)}
    return WORDS.get(name)


def upgrade() -> None:
    op.add_column("matches", sa.Column("seat_kinds", sa.JSON, nullable=True))
    bind = op.get_bind()
    matches = table(
        "matches",
        id=sa.Integer,
        players=sa.JSON,
        name_kind=sa.String,
        name_args=sa.JSON,
        seat_kinds=sa.JSON,
    )
    tables = table("tables", id=sa.Integer, match_id=sa.Integer)
    seats = table("table_seats", table_id=sa.Integer, seat=sa.Integer, kind=sa.String)
    computers: dict[int, set[int]] = {}
    for match_id, seat in bind.execute(
        sa.select(tables.c.match_id, seats.c.seat)
        .join(seats, seats.c.table_id == tables.c.id)
        .where(tables.c.match_id.is_not(None), seats.c.kind == "computer")
    ):
        computers.setdefault(match_id, set()).add(seat)
    rows = bind.execute(
        sa.select(matches.c.id, matches.c.players, matches.c.name_kind, matches.c.name_args)
    ).all()
    for match_id, players, kind, args in rows:
        of = (args or {}).get("of") if kind == "rematch" else kind
        if of == "computer":
            found = [program_seat(str(name)) for name in players]
            kinds = found if all(found) else None
        elif match_id in computers:  # the computer's seats are named by the program
            found = [
                program_seat(str(name)) if k in computers[match_id] else {"kind": "person"}
                for k, name in enumerate(players)
            ]
            kinds = found if all(found) else None
        else:
            continue
        if kinds:
            bind.execute(matches.update().where(matches.c.id == match_id).values(seat_kinds=kinds))


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite's batch copy would break 0004's downgrade; see 0009).
    op.drop_column("matches", "seat_kinds")
