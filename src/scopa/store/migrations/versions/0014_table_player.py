"""Issue 47: the computer's play is one commit.

- ``tables.player``: the server process that wrote the table's last move, which plays the
  computer's next one there (no claim written before it thinks); another process takes the
  table over only once that play is late (``scopa.store.tables.TAKEOVER``). ``NULL`` (tables
  from before): any process.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_table_player"
down_revision = "0013_made_names"


def upgrade() -> None:
    op.add_column("tables", sa.Column("player", sa.String(40), nullable=True))


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite's batch copy would break 0004's downgrade; see 0009).
    op.drop_column("tables", "player")
