"""Issue 27: tables where friends play together online.

A table is its seed and the plays of its match so far (``log``); ``step`` counts its moves,
``version`` every change its seats are told of; ``turn`` and ``moved_at`` let the server find
the tables where the computer is to play. Its seats (``table_seats``) keep a hash of each
seat's token and its last sign of life. Its finished deals live in a regular match.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import create_table, group_id, match_id, moments, needed, variant

revision = "0006_tables"
down_revision = "0005_computer_games"


def upgrade() -> None:
    create_table(
        "tables",
        needed("code", sa.String(16), unique=True),
        group_id(),
        variant(),
        needed("players", sa.Integer),
        needed("rules", sa.JSON),
        needed("level", sa.String(20)),
        needed("grace", sa.Integer),
        needed("seed", sa.BigInteger),
        needed("log", sa.JSON),
        needed("step", sa.Integer),
        needed("version", sa.Integer),
        needed("status", sa.String(12)),
        sa.Column("turn", sa.Integer, nullable=True),
        match_id("SET NULL", nullable=True),
        needed("moved_at", sa.Float),
        sa.Column("claimed_at", sa.Float, nullable=True),
        *moments("created_at", "updated_at"),
    )
    op.create_index("ix_tables_group_id", "tables", ["group_id"])
    create_table(
        "table_seats",
        needed("table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE")),
        needed("seat", sa.Integer),
        sa.Column("name", sa.String(80), nullable=True),
        needed("kind", sa.String(10)),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("seen_at", sa.Float, nullable=True),
    )
    op.create_index("ix_table_seats_table_seat", "table_seats", ["table_id", "seat"], unique=True)
    op.create_index("ix_table_seats_token_hash", "table_seats", ["token_hash"])


def downgrade() -> None:
    op.drop_table("table_seats")
    op.drop_table("tables")
