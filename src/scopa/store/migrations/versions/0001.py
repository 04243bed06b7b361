"""The first schema: players, matches, deals, changes."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import create_table, match_id, moments, needed

revision = "0001"
down_revision = None


def upgrade() -> None:
    create_table(
        "players",
        needed("name", sa.String(40), unique=True),
        *moments("last_played_at"),
    )
    create_table(
        "matches",
        sa.Column("name", sa.String(100), nullable=True),
        needed("players", sa.JSON),
        sa.Column("teams", sa.JSON, nullable=True),
        needed("rules", sa.JSON),
        needed("version", sa.Integer),
        *moments("created_at", "updated_at"),
        *moments("deleted_at", nullable=True),
    )
    create_table(
        "deals",
        match_id("CASCADE"),
        sa.Column("position", sa.Integer, nullable=True),
        needed("facts", sa.JSON),
        *moments("created_at"),
        *moments("removed_at", nullable=True),
        sa.Column("removed_number", sa.Integer, nullable=True),
    )
    op.create_index("ix_deals_match_position", "deals", ["match_id", "position"])
    create_table(
        "changes",
        match_id("CASCADE"),
        needed("version", sa.Integer),
        *moments("at"),
        needed("action", sa.String(20)),
        needed("summary", sa.Text),
        needed("detail", sa.JSON),
    )
    op.create_index("ix_changes_match", "changes", ["match_id", "version"])


def downgrade() -> None:
    op.drop_index("ix_changes_match", "changes")
    op.drop_table("changes")
    op.drop_index("ix_deals_match_position", "deals")
    op.drop_table("deals")
    op.drop_table("matches")
    op.drop_table("players")
