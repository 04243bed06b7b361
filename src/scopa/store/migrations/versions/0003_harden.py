"""Issue 9: each match's summary on its row; access codes salted, expiring, by kind; devices.

- ``matches.summary`` (players, sides, variant, status, winner, totals, deal count, as JSON),
  ``matches.status`` and ``matches.player_key`` (for the list's filters): written in the same
  transaction as every change. Rows from before are summarised when the list first meets them.
- ``access_codes.code_hash`` holds a salted scrypt hash now (longer); ``expires_at`` and
  ``kind`` are new. Codes made before this revision were stored as unsalted SHA-256 of a
  40-bit code, which a stolen backup gives away: they are revoked here.
- ``devices``: one random token per joined device (only its SHA-256 is kept), revocable one
  by one, with a label and the last time it was used.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import create_table, moments, needed, table

revision = "0003_harden"
down_revision = "0003_idempotency_keys"


def upgrade() -> None:
    op.add_column("matches", sa.Column("summary", sa.JSON, nullable=True))
    op.add_column("matches", sa.Column("status", sa.String(16), nullable=True))
    op.add_column("matches", sa.Column("player_key", sa.Text, nullable=True))
    with op.batch_alter_table("access_codes") as batch:
        batch.alter_column(
            "code_hash", type_=sa.String(200), existing_type=sa.String(64), existing_nullable=False
        )
        batch.add_column(*moments("expires_at", nullable=True))
        batch.add_column(needed("kind", sa.String(10), server_default=""))
    codes = table("access_codes", revoked_at=sa.DateTime(timezone=True))
    op.execute(
        codes.update().where(codes.c.revoked_at.is_(None)).values(revoked_at=datetime.now(UTC))
    )
    create_table(
        "devices",
        needed("token_hash", sa.String(64), unique=True),
        needed("label", sa.String(80)),
        sa.Column("code_id", sa.Integer, sa.ForeignKey("access_codes.id", ondelete="SET NULL")),
        *moments("created_at", "last_used_at"),
        *moments("expires_at", "revoked_at", nullable=True),
    )


def downgrade() -> None:
    op.drop_table("devices")
    with op.batch_alter_table("access_codes") as batch:
        batch.drop_column("kind")
        batch.drop_column("expires_at")
    op.drop_column("matches", "player_key")
    op.drop_column("matches", "status")
    op.drop_column("matches", "summary")
