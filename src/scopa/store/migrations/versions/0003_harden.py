"""Issue 9: each match's summary on its row; access codes salted, expiring, by kind; devices.

- ``matches.summary`` (players, sides, variant, status, winner, totals, deal count, as JSON),
  ``matches.status`` and ``matches.player_key`` (for the list's filters): written in the same
  transaction as every change. Rows from before are summarised when the list first meets them.
- ``access_codes.code_hash`` holds a salted scrypt hash now (longer); ``expires_at`` and
  ``kind`` are new. Codes made before this revision were stored as unsalted SHA-256 of a
  40-bit code, which a stolen backup gives away: they are revoked here.
- ``devices``: one random token per joined device (only its SHA-256 is kept), revocable one
  by one, with a label and the last time it was used.

Revision ID: 0003_harden
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0003_harden"
down_revision = "0003_idempotency_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("summary", sa.JSON, nullable=True))
    op.add_column("matches", sa.Column("status", sa.String(16), nullable=True))
    op.add_column("matches", sa.Column("player_key", sa.Text, nullable=True))
    with op.batch_alter_table("access_codes") as batch:
        batch.alter_column(
            "code_hash", type_=sa.String(200), existing_type=sa.String(64), existing_nullable=False
        )
        batch.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("kind", sa.String(10), nullable=False, server_default=""))
    codes = sa.table(
        "access_codes",
        sa.column("revoked_at", sa.DateTime(timezone=True)),
    )
    op.execute(
        codes.update().where(codes.c.revoked_at.is_(None)).values(revoked_at=datetime.now(UTC))
    )
    op.create_table(
        "devices",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("code_id", sa.Integer, sa.ForeignKey("access_codes.id", ondelete="SET NULL")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("devices")
    with op.batch_alter_table("access_codes") as batch:
        batch.drop_column("kind")
        batch.drop_column("expires_at")
    op.drop_column("matches", "player_key")
    op.drop_column("matches", "status")
    op.drop_column("matches", "summary")
