"""The first schema: players, matches, deals, changes.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("last_played_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=True),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("teams", sa.JSON, nullable=True),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "deals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "match_id", sa.Integer, sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer, nullable=True),
        sa.Column("facts", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("removed_number", sa.Integer, nullable=True),
    )
    op.create_index("ix_deals_match_position", "deals", ["match_id", "position"])
    op.create_table(
        "changes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "match_id", sa.Integer, sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
    )
    op.create_index("ix_changes_match", "changes", ["match_id", "version"])


def downgrade() -> None:
    op.drop_index("ix_changes_match", "changes")
    op.drop_table("changes")
    op.drop_index("ix_deals_match_position", "deals")
    op.drop_table("deals")
    op.drop_table("matches")
    op.drop_table("players")
