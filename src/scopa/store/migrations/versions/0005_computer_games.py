"""Issue 12: the games against the computer in progress on the Play page.

A game is its seed and its plays so far (``log``, deal by deal), so it survives a restart
and can be resumed; ``step`` counts its plays and new deals, so a stale move is refused.
Its finished deals live in a regular match (``match_id``); on a hosted server it belongs to
the group that started it (``group_id``), like its match.

Revision ID: 0005_computer_games
Revises: 0004_groups
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_computer_games"
down_revision = "0004_groups"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "computer_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("variant", sa.String(20), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("level", sa.String(20), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("log", sa.JSON, nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column(
            "match_id", sa.Integer, sa.ForeignKey("matches.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("group_id", sa.Integer, sa.ForeignKey("groups.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_computer_games_group_id", "computer_games", ["group_id"])


def downgrade() -> None:
    op.drop_table("computer_games")
