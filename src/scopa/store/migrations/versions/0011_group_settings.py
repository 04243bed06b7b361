"""Issues 22 and 27: a hosted group's own settings.

- ``groups.language``: the language the group's pages and answers speak when the reader has
  chosen none (``NULL``: the reader's browser decides, as on a plain server).
- ``groups.max_tables``, ``groups.max_seats``: the group's own limits on tables played online
  (``NULL``: the server's, ``scopa serve --max-tables/--max-seats``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_group_settings"
down_revision = "0010_first_dealer"


def upgrade() -> None:
    op.add_column("groups", sa.Column("language", sa.String(8), nullable=True))
    op.add_column("groups", sa.Column("max_tables", sa.Integer, nullable=True))
    op.add_column("groups", sa.Column("max_seats", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("groups") as batch:
        batch.drop_column("max_seats")
        batch.drop_column("max_tables")
        batch.drop_column("language")
