"""Issue 25: a keyed change and its key's answer commit together; kept answers count.

The row of an ``Idempotency-Key`` is now written in the change's own transaction (never left
claimed without an answer), and says which group it belongs to and how many bytes it was
charged, so that they are given back when it is purged. Rows claimed and never answered by
an earlier version are dropped: their change, if any, was made without them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_keyed_answers"
down_revision = "0006_tables"


def upgrade() -> None:
    op.add_column("idempotency_keys", sa.Column("group_id", sa.Integer, nullable=True))
    op.add_column(
        "idempotency_keys", sa.Column("size", sa.Integer, nullable=False, server_default="0")
    )
    op.execute("DELETE FROM idempotency_keys WHERE status IS NULL")


def downgrade() -> None:
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("size")
        batch.drop_column("group_id")
