"""Issue 23: who deals first, kept with the match.

``matches.first_dealer``: the seat (0-based, in seating order) of the player who dealt the
first deal; the sheet counts the rest from it. Matches stored before have none: their first
player dealt first.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_first_dealer"
down_revision = "0009_play_seeds"


def upgrade() -> None:
    op.add_column("matches", sa.Column("first_dealer", sa.Integer, nullable=True))


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite's batch copy would break 0004's downgrade; see 0009).
    op.drop_column("matches", "first_dealer")
