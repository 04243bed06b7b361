"""Issue 47: a turn clock per table.

- ``tables.clock``: the seconds a seat that is at the table has for each play before the
  computer plays for it (``0``: no clock). Tables from before have none, as they were opened.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_turn_clock"
down_revision = "0011_group_settings"


def upgrade() -> None:
    op.add_column("tables", sa.Column("clock", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite's batch copy would break 0004's downgrade; see 0009).
    op.drop_column("tables", "clock")
