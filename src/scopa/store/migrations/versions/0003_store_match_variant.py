"""The match's variant (scopa, scopone, assi, escoba, cirulla): its rules depend on it.

Revision ID: 0003_store_variant
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_store_variant"
down_revision = "0002"
branch_labels = None
depends_on = None


# A plain ADD COLUMN (no batch copy of the table on SQLite: dropping the old table there would
# cascade to the deals and the change log).


def upgrade() -> None:
    op.add_column(
        "matches", sa.Column("variant", sa.String(20), nullable=False, server_default="scopa")
    )


def downgrade() -> None:
    op.drop_column("matches", "variant")
