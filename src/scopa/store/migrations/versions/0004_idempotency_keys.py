"""Idempotency keys: a change request repeated with the same key gets the first answer.

Revision ID: 0003_idempotency_keys
Revises: 0003_store_variant
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_idempotency_keys"
down_revision = "0003_store_variant"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=True),
        sa.Column("headers", sa.JSON, nullable=True),
        sa.Column("body", sa.LargeBinary, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("idempotency_keys")
