"""Issue 47: a table's change reaches the other server processes without polling.

- On PostgreSQL, a trigger on ``tables`` sends ``NOTIFY scopa_tables, 'ID:VERSION'`` whenever
  a table's version moves (a play, a new deal, a seat taken, a seat gone or back), in the
  change's own transaction: the notice goes out when it commits, and no statement of the
  server's sends it (``scopa.store.notify.table_feed_for`` listens). SQLite has nothing to
  add: its change counter is read instead.
"""

from __future__ import annotations

from alembic import op

revision = "0016_table_notify"
down_revision = "0015_seat_kinds"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        """
        CREATE OR REPLACE FUNCTION scopa_table_notify() RETURNS trigger AS $$
        BEGIN
            PERFORM pg_notify('scopa_tables', NEW.id || ':' || NEW.version);
            RETURN NULL;
        END
        $$ LANGUAGE plpgsql
        """
    )
    op.execute(
        """
        CREATE TRIGGER tables_notify AFTER UPDATE ON tables FOR EACH ROW
        WHEN (OLD.version IS DISTINCT FROM NEW.version)
        EXECUTE FUNCTION scopa_table_notify()
        """
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS tables_notify ON tables")
    op.execute("DROP FUNCTION IF EXISTS scopa_table_notify()")
