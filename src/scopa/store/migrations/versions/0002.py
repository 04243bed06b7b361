"""Access codes for devices joining over the network (scopa serve --lan)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import create_table, moments, needed

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    create_table(
        "access_codes",
        needed("code_hash", sa.String(64), unique=True),
        needed("hint", sa.String(8)),
        needed("label", sa.String(40)),
        *moments("created_at"),
        *moments("revoked_at", nullable=True),
    )


def downgrade() -> None:
    op.drop_table("access_codes")
