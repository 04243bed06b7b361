"""The match's variant (scopa, scopone, assi, escoba, cirulla): its rules depend on it."""

from __future__ import annotations

from alembic import op

from scopa.store.migrations.shapes import variant

revision = "0003_store_variant"
down_revision = "0002"


# A plain ADD COLUMN (no batch copy of the table on SQLite: dropping the old table there would
# cascade to the deals and the change log).


def upgrade() -> None:
    op.add_column("matches", variant(server_default="scopa"))


def downgrade() -> None:
    op.drop_column("matches", "variant")
