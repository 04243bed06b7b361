"""The column shapes the migrations keep writing, and their tables' key, written once.

A migration that has run is history: each helper must go on giving exactly the column it
gives today (name, type, options), or a database migrated before a change and one migrated
after it would differ. A new shape gets a new helper.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op


def key() -> sa.Column[Any]:
    """The integer primary key ``id``."""
    return sa.Column("id", sa.Integer, primary_key=True)


def needed(name: str, type_: Any, *args: Any, **options: Any) -> sa.Column[Any]:
    """A column that must hold a value (``NOT NULL``)."""
    return sa.Column(name, type_, *args, nullable=False, **options)


def moments(*names: str, nullable: bool = False) -> list[sa.Column[Any]]:
    """Moments with their time zone, one column a name (``NOT NULL`` unless ``nullable``)."""
    return [sa.Column(name, sa.DateTime(timezone=True), nullable=nullable) for name in names]


def match_id(ondelete: str, *, nullable: bool = False) -> sa.Column[Any]:
    """``match_id`` referencing ``matches``, with what happens when the match goes."""
    reference = sa.ForeignKey("matches.id", ondelete=ondelete)
    return sa.Column("match_id", sa.Integer, reference, nullable=nullable)


def group_id() -> sa.Column[Any]:
    """``group_id`` referencing ``groups``: the group that owns the row (``NULL``: none, the
    one table of a server that is not hosted)."""
    return sa.Column("group_id", sa.Integer, sa.ForeignKey("groups.id"), nullable=True)


def table(name: str, /, **types: Any) -> sa.TableClause:
    """The table ``name`` as a data migration reads and updates its rows: only the columns it
    touches, each with its type (``table("matches", id=sa.Integer, name=sa.String)``). It
    creates nothing: the schema is the other helpers'."""
    return sa.table(name, *(sa.column(column, type_) for column, type_ in types.items()))


def variant(**options: Any) -> sa.Column[Any]:
    """``variant``: the name of the game's variant (:mod:`scopa.variants`)."""
    return needed("variant", sa.String(20), **options)


def name_key(name: str = "key") -> sa.Column[Any]:
    """A player's name key (:func:`scopa.names.name_key`), ``key`` unless named otherwise."""
    return needed(name, sa.String(200))


def create_table(name: str, /, *columns: Any, **options: Any) -> None:
    """Create the table ``name``: its key (:func:`key`) first, then ``columns``."""
    op.create_table(name, key(), *columns, **options)
