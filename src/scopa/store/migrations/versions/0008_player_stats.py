"""Issue 26: the players' figures, the players as people, and their ratings.

- ``tallies``: what each match adds to each of its players' figures, kept with every change.
  Matches stored before have none: their lines are emptied here (``matches.summary``,
  ``status``, ``player_key``), so that the application fills in line and tally together the
  first time the list or the figures meet them (the store never scores).
- ``players.person_id``, ``shown_as``, ``removed_at``: another name of a person (after a
  rename or a merge), a person's name as shown, their figures removed at their request.
- ``player_changes``: the log of renames, merges and removals, with what undoes each.
- ``player_totals`` and ``pair_totals``: the tallies summed per name (and pair of names) and
  variant, kept with them, so that the figures read a few rows whatever the number of matches.
- ``stats_marks`` and ``ratings``: the ratings kept per group, and whether they are stale.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import (
    create_table,
    group_id,
    match_id,
    moments,
    name_key,
    needed,
    variant,
)

revision = "0008_player_stats"
down_revision = "0007_keyed_answers"

CATEGORIES = (
    "cards",
    "coins",
    "settebello",
    "primiera",
    "sweeps",
    "napola",
    "declarations",
    "piccola",
    "grande",
)


def upgrade() -> None:
    create_table(
        "tallies",
        match_id("CASCADE"),
        group_id(),
        name_key(),
        needed("name", sa.String(40)),
        variant(),
        *moments("played_at"),
        *(
            needed(name, sa.Integer)
            for name in ("side", "finished", "won", "deals", "points", "sweeps")
        ),
        *(needed(f"cat_{name}", sa.Integer) for name in CATEGORIES),
    )
    op.create_index("ix_tallies_group_key", "tallies", ["group_id", "key", "match_id"])
    op.create_index("ix_tallies_match", "tallies", ["match_id"])
    op.create_index("ix_tallies_group_played", "tallies", ["group_id", "played_at"])
    create_table(
        "player_totals",
        needed("scope", sa.Integer),
        name_key(),
        variant(),
        *(
            needed(name, sa.Integer)
            for name in ("matches", "won", "finished", "deals", "points", "sweeps")
        ),
        *(needed(f"cat_{name}", sa.Integer) for name in CATEGORIES),
    )
    op.create_index("uq_player_totals", "player_totals", ["scope", "key", "variant"], unique=True)
    create_table(
        "pair_totals",
        needed("scope", sa.Integer),
        name_key(),
        name_key("other"),
        needed("same", sa.Integer),
        variant(),
        *(needed(name, sa.Integer) for name in ("matches", "won", "lost")),
    )
    op.create_index(
        "uq_pair_totals", "pair_totals", ["scope", "key", "other", "same", "variant"], unique=True
    )
    op.create_index("ix_matches_group_status", "matches", ["group_id", "status"])
    _players_as_people()
    create_table(
        "player_changes",
        group_id(),
        *moments("at"),
        needed("action", sa.String(20)),
        needed("summary", sa.Text),
        needed("detail", sa.JSON),
        *moments("undone_at", nullable=True),
    )
    op.create_index("ix_player_changes_group_id", "player_changes", ["group_id"])
    op.create_table(
        "stats_marks",
        sa.Column("scope", sa.Integer, primary_key=True, autoincrement=False),
        needed("outcomes", sa.Integer),
        needed("rated", sa.Integer),
        *moments("through_at", nullable=True),
        sa.Column("through_id", sa.Integer, nullable=True),
        needed("full", sa.Integer),
    )
    create_table(
        "ratings",
        group_id(),
        needed("person_id", sa.Integer, sa.ForeignKey("players.id", ondelete="CASCADE")),
        needed("mu", sa.Float),
        needed("sigma", sa.Float),
        needed("matches", sa.Integer),
    )
    op.create_index("ix_ratings_group_id", "ratings", ["group_id"])
    op.execute("UPDATE matches SET summary = NULL, status = NULL, player_key = NULL")


def _players_as_people() -> None:
    """The three columns of ``players``; SQLite adds the reference in place (recreating
    the table would lose its partial unique indexes' names)."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE players ADD COLUMN person_id INTEGER REFERENCES players (id)")
    else:
        op.add_column("players", sa.Column("person_id", sa.Integer, nullable=True))
        op.create_foreign_key("fk_players_person", "players", "players", ["person_id"], ["id"])
    op.add_column("players", sa.Column("shown_as", sa.String(40), nullable=True))
    op.add_column("players", sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_table("stats_marks")
    op.drop_table("player_changes")
    op.drop_table("tallies")
    op.drop_table("pair_totals")
    op.drop_table("player_totals")
    op.drop_index("ix_matches_group_status", "matches")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("removed_at")
        batch.drop_column("shown_as")
        batch.drop_column("person_id")
