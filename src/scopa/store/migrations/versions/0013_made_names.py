"""Issue 50: the names the program makes are kept as data.

- ``matches.name_kind``, ``matches.name_args``: a name the program made (a match against the
  computer, a table's match, a rematch), its kind and parameters (:mod:`scopa.made_names`),
  worded when shown in the reader's language. ``name`` keeps its English wording.
- The rows from before, whose name reads as one of those the program made until now
  (``Against the computer (Scopa, normal)``, ``Table 7K2Q (Scopa)``, ``NAME (rematch)``), get
  their kind and parameters; this is the last time such a text is read back. Downgrading drops
  the two columns: the names stay, in English, as they were stored before.
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from alembic import op

from scopa.store.migrations.shapes import table

revision = "0013_made_names"
down_revision = "0012_turn_clock"

_AGAINST = re.compile(r"Against the computer \((?P<variant>[^,()]+), (?P<level>[^,()]+)\)")
_TABLE = re.compile(r"Table (?P<code>\w{1,8}) \((?P<variant>[^()]+)\)")
_REMATCH = re.compile(r"(?P<name>.+) \(rematch\)", re.S)


def made_of(name: str) -> tuple[str, dict[str, str]] | None:
    """The kind and parameters of a name as the program wrote it until now, else ``None``.

    >>> made_of("Against the computer (Scopa, normal)")
    ('computer', {'variant': 'Scopa', 'level': 'normal'})
    >>> made_of("Table 7K2Q (Escoba) (rematch)")
    ('rematch', {'of': 'table', 'code': '7K2Q', 'variant': 'Escoba'})
    >>> made_of("Sunday (rematch)"), made_of("Sunday")
    (('rematch', {'name': 'Sunday'}), None)
    """
    found = _REMATCH.fullmatch(name)
    if found:
        inner = made_of(found["name"])
        if inner is None or inner[0] == "rematch":
            return "rematch", {"name": found["name"]}
        return "rematch", {"of": inner[0], **inner[1]}
    found = _AGAINST.fullmatch(name)
    if found:
        return "computer", {"variant": found["variant"], "level": found["level"]}
    found = _TABLE.fullmatch(name)
    if found:
        return "table", {"code": found["code"], "variant": found["variant"]}
    return None


def upgrade() -> None:
    op.add_column("matches", sa.Column("name_kind", sa.String(16), nullable=True))
    op.add_column("matches", sa.Column("name_args", sa.JSON, nullable=True))
    matches = table(
        "matches", id=sa.Integer, name=sa.String, name_kind=sa.String, name_args=sa.JSON
    )
    bind = op.get_bind()
    named = bind.execute(sa.select(matches.c.id, matches.c.name).where(matches.c.name.is_not(None)))
    found: list[dict[str, Any]] = []
    for match_id, name in named:
        made = made_of(name)
        if made is not None:
            found.append({"match": match_id, "kind": made[0], "args": made[1]})
    if found:
        bind.execute(
            matches.update()
            .where(matches.c.id == sa.bindparam("match"))
            .values(name_kind=sa.bindparam("kind"), name_args=sa.bindparam("args")),
            found,
        )


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite's batch copy would break 0004's downgrade; see 0009).
    op.drop_column("matches", "name_args")
    op.drop_column("matches", "name_kind")
