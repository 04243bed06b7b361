"""Idempotency keys: a change request repeated with the same key gets the first answer."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import moments, needed

revision = "0003_idempotency_keys"
down_revision = "0003_store_variant"


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("key", sa.String(100), primary_key=True),
        needed("fingerprint", sa.String(64)),
        sa.Column("status", sa.Integer, nullable=True),
        sa.Column("headers", sa.JSON, nullable=True),
        sa.Column("body", sa.LargeBinary, nullable=True),
        *moments("created_at"),
    )


def downgrade() -> None:
    op.drop_table("idempotency_keys")
