"""Issue 12: the games against the computer in progress on the Play page.

A game is its seed and its plays so far (``log``, deal by deal), so it survives a restart
and can be resumed; ``step`` counts its plays and new deals, so a stale move is refused.
Its finished deals live in a regular match (``match_id``); on a hosted server it belongs to
the group that started it (``group_id``), like its match.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import create_table, group_id, match_id, moments, needed, variant

revision = "0005_computer_games"
down_revision = "0004_groups"


def upgrade() -> None:
    create_table(
        "computer_games",
        variant(),
        needed("players", sa.Integer),
        needed("level", sa.String(20)),
        needed("seed", sa.BigInteger),
        needed("log", sa.JSON),
        needed("step", sa.Integer),
        needed("status", sa.String(12)),
        match_id("SET NULL", nullable=True),
        group_id(),
        *moments("created_at", "updated_at"),
    )
    op.create_index("ix_computer_games_group_id", "computer_games", ["group_id"])


def downgrade() -> None:
    op.drop_table("computer_games")
