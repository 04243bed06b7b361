"""Issue 14: groups for a hosted server (``scopa serve --hosted``).

- ``groups``: a name, the join code (a salted scrypt hash and its first letters), revoked or
  not, and its limits (``max_*``) with what it has stored so far (``used_*``).
- ``matches.group_id`` and ``players.group_id``: the owning group. Rows from before belong to
  no group (``NULL``): the one table of a server that is not hosted. A remembered name is
  unique per group (two partial unique indexes, one for the rows without a group).
- ``devices.group_id``: the group a device token lets in (``NULL`` for a ``--lan`` device).
- ``join_failures``: wrong codes per address, so that every process counts the same ones.
- ``idempotency_keys.key`` widened to hold the group in front of the client's key.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import create_table, group_id, moments, needed

revision = "0004_groups"
down_revision = "0003_harden"


def upgrade() -> None:
    create_table(
        "groups",
        needed("name", sa.String(80)),
        needed("code_hash", sa.String(200)),
        needed("hint", sa.String(8)),
        *moments("created_at"),
        *moments("revoked_at", nullable=True),
        *(
            needed(f"{which}_{what}", type_)
            for which in ("max", "used")
            for what, type_ in (
                ("matches", sa.Integer),
                ("deals", sa.Integer),
                ("bytes", sa.BigInteger),
            )
        ),
    )
    op.create_index("ix_groups_hint", "groups", ["hint"])
    _add_group_column("matches")
    op.create_index("ix_matches_group", "matches", ["group_id", "id"])
    _add_group_column("devices")
    op.create_index("ix_devices_group_id", "devices", ["group_id"])
    _players_per_group()
    create_table(
        "join_failures",
        needed("address", sa.String(64)),
        *moments("at"),
    )
    op.create_index("ix_join_failures_address", "join_failures", ["address", "at"])
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.alter_column(
            "key", type_=sa.String(120), existing_type=sa.String(100), existing_nullable=False
        )


def _add_group_column(table: str) -> None:
    """``group_id`` referencing ``groups`` (a group is revoked, never deleted). SQLite adds
    the column with its reference in place: recreating ``matches`` (Alembic's batch mode)
    would drop the old table, and the deals would go with it (``ON DELETE CASCADE``)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"ALTER TABLE {table} ADD COLUMN group_id INTEGER REFERENCES groups (id)")
        return
    op.add_column(table, sa.Column("group_id", sa.Integer, nullable=True))
    op.create_foreign_key(f"fk_{table}_group", table, "groups", ["group_id"], ["id"])


def _players_per_group() -> None:
    """The players table again, with ``group_id`` and the name unique per group (the old
    table's unnamed unique constraint cannot be dropped the same way on both databases)."""
    create_table(
        "players_new",
        needed("name", sa.String(40)),
        *moments("last_played_at"),
        group_id(),
    )
    op.execute(
        "INSERT INTO players_new (name, last_played_at) SELECT name, last_played_at FROM players"
    )
    op.drop_table("players")
    op.rename_table("players_new", "players")
    where = sa.text("group_id IS NULL")
    op.create_index(
        "uq_players_name_nogroup",
        "players",
        ["name"],
        unique=True,
        sqlite_where=where,
        postgresql_where=where,
    )
    some = sa.text("group_id IS NOT NULL")
    op.create_index(
        "uq_players_group_name",
        "players",
        ["group_id", "name"],
        unique=True,
        sqlite_where=some,
        postgresql_where=some,
    )


def downgrade() -> None:
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.alter_column(
            "key", type_=sa.String(100), existing_type=sa.String(120), existing_nullable=False
        )
    op.drop_index("ix_join_failures_address", "join_failures")
    op.drop_table("join_failures")
    create_table(
        "players_old",
        needed("name", sa.String(40), unique=True),
        *moments("last_played_at"),
    )
    op.execute(
        "INSERT INTO players_old (name, last_played_at) SELECT name, last_played_at "
        "FROM players WHERE group_id IS NULL"
    )
    op.drop_index("uq_players_group_name", "players")
    op.drop_index("uq_players_name_nogroup", "players")
    op.drop_table("players")
    op.rename_table("players_old", "players")
    op.drop_index("ix_devices_group_id", "devices")
    op.drop_index("ix_matches_group", "matches")
    if op.get_bind().dialect.name == "sqlite":  # no constraint of its own to drop there
        op.execute("ALTER TABLE devices DROP COLUMN group_id")
        op.execute("ALTER TABLE matches DROP COLUMN group_id")
    else:
        op.drop_constraint("fk_devices_group", "devices", type_="foreignkey")
        op.drop_column("devices", "group_id")
        op.drop_constraint("fk_matches_group", "matches", type_="foreignkey")
        op.drop_column("matches", "group_id")
    op.drop_index("ix_groups_hint", "groups")
    op.drop_table("groups")
