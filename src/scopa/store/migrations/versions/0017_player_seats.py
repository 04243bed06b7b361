"""Issue 50: the players' figures know, as data, which names are seats the program named.

- ``players.seat``: the seat the program gave the name (``{"kind": "computer", "number": 2}``,
  as ``matches.seat_kinds`` holds it) in a match that names seats, so that the players' pages
  word it in the reader's language from data; ``NULL``: a person's name, shown as typed
  (a person really called "Computer 2" who plays at the score sheet keeps the name).

Rows from before: filled in from every match's ``seat_kinds`` (0015), name by name in the
match's group; a name the program named in any match keeps that seat.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.names import name_key
from scopa.store.migrations.shapes import table

revision = "0017_player_seats"
down_revision = "0016_table_notify"


def upgrade() -> None:
    op.add_column("players", sa.Column("seat", sa.JSON, nullable=True))
    bind = op.get_bind()
    matches = table("matches", group_id=sa.Integer, players=sa.JSON, seat_kinds=sa.JSON)
    players = table("players", id=sa.Integer, group_id=sa.Integer, name=sa.String, seat=sa.JSON)
    rows: dict[tuple[int | None, str], int] = {
        (group, name_key(str(name))): row_id
        for row_id, group, name in bind.execute(
            sa.select(players.c.id, players.c.group_id, players.c.name)
        )
    }
    seated = sa.select(matches.c.group_id, matches.c.players, matches.c.seat_kinds).where(
        matches.c.seat_kinds.is_not(None)
    )
    for group, names, kinds in bind.execute(seated):
        for name, kind in zip(names or (), kinds or (), strict=False):
            row_id = rows.get((group, name_key(str(name))))
            if row_id is None or not kind or kind.get("kind") == "person":
                continue
            bind.execute(players.update().where(players.c.id == row_id).values(seat=kind))


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite's batch copy would break 0004's downgrade; see 0009).
    op.drop_column("players", "seat")
