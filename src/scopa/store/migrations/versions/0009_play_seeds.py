"""Issue 25, finding 3: a game against the computer played on a device must be verified.

- ``play_seeds``: the seeds the server issued for games a device may deal offline.
- ``computer_games.unverified``: why the server cannot vouch for a game (``NULL``: it can).
- ``matches.uncounted``: why a match is kept out of the players' figures (``NULL``: it counts).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import create_table, group_id, moments, needed

revision = "0009_play_seeds"
down_revision = "0008_player_stats"


def upgrade() -> None:
    create_table(
        "play_seeds",
        group_id(),
        needed("seed", sa.BigInteger),
        *moments("issued_at"),
    )
    op.create_index("ix_play_seeds_group_id", "play_seeds", ["group_id"])
    op.add_column("computer_games", sa.Column("unverified", sa.String(24), nullable=True))
    op.add_column("matches", sa.Column("uncounted", sa.String(24), nullable=True))


def downgrade() -> None:
    # A plain DROP COLUMN, SQLite too: its batch mode copies the table and turns the inline
    # REFERENCES of matches.group_id into a table constraint that 0004's downgrade cannot drop.
    op.drop_column("matches", "uncounted")
    op.drop_column("computer_games", "unverified")
    op.drop_index("ix_play_seeds_group_id", "play_seeds")
    op.drop_table("play_seeds")
