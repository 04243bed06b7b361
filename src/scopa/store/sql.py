"""The SQL store (SQLite or PostgreSQL): the match repository and the access codes on one
database. It is what :class:`scopa.store.protocol.Store` describes."""

from __future__ import annotations

import logging

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from scopa.store.access import SqlAccessCodes
from scopa.store.cache import StateCache
from scopa.store.database import (
    Database,
    check_database,
    head_revision,
    make_engine,
    migrate,
    schema_revision,
    unreachable,
)
from scopa.store.devices import AccessStore
from scopa.store.failures import MemoryFailures, StoredFailures
from scopa.store.figures import SqlPlayers
from scopa.store.games import SqlGames, SqlSeeds
from scopa.store.groups import GroupStore
from scopa.store.keys import SqlKeys
from scopa.store.lock import Holder, hold_shared
from scopa.store.matches import SqlMatches
from scopa.store.notify import feed_for, table_feed_for
from scopa.store.protocol import Feed
from scopa.store.records import StoredMatch
from scopa.store.tables import SqlTables

logger = logging.getLogger("scopa.store")


class MatchStore(SqlMatches, SqlAccessCodes):
    """Matches, their deals and change log, and the access codes, in a SQL database; the
    groups of a hosted server (``groups``), the wrong codes per address (``failures``, in
    this process's memory) and the change requests' ``Idempotency-Key``s (``keys``). The
    store itself is the one table of a server that is not hosted; :meth:`in_group` is a
    group's view of it.
    ``engine`` is its SQLAlchemy engine, ``url`` where the data lives (a password hidden)."""

    def __init__(self, engine: Engine) -> None:
        self.db = Database(engine)
        self.engine = engine
        self.url = self.db.url
        self._cache = StateCache[StoredMatch]()
        self.access = AccessStore(self.db.transaction)
        self.groups = GroupStore(self.db.transaction)
        self.failures = MemoryFailures()
        self.table_failures = StoredFailures(self.db.transaction, kind="table ")
        self.keys = SqlKeys(self.db)
        self._holder = Holder(None)

    @classmethod
    def open(cls, url: str, *, create: bool = True) -> MatchStore:
        """Open (creating if need be) the database at ``url`` and apply the migrations. A
        SQLite file stays locked (shared) while open, so that ``scopa restore`` cannot
        replace it under this store (:mod:`scopa.store.lock`).

        A database that cannot be used is refused before anything is created (with
        ``create=False``, a SQLite file that is not there yet too:
        :func:`~scopa.store.database.check_database`); one that cannot be opened or migrated
        (a server that does not answer, a damaged file) is a
        :class:`~scopa.store.database.DatabaseUnusable` with the driver's reason."""
        check_database(url, create=create)
        try:
            holder = hold_shared(url)
        except OSError as error:
            raise unreachable(url, error) from None
        try:
            engine = make_engine(url)
            migrate(engine)
        except (SQLAlchemyError, OSError, ImportError) as error:
            holder.release()
            raise unreachable(url, error) from None
        except BaseException:
            holder.release()
            raise
        store = cls(engine)
        store._holder = holder
        return store

    def tables(self, group: int | None, *, every_group: bool = False) -> SqlTables:
        return SqlTables(self.db, group, every_group=every_group)

    def games(self, group: int | None) -> SqlGames:
        return SqlGames(self.db, group)

    def seeds(self, group: int | None) -> SqlSeeds:
        return SqlSeeds(self.db, group)

    def players(self, group: int | None) -> SqlPlayers:
        return SqlPlayers(self.db.transaction, group)

    def feed(self) -> Feed:
        return feed_for(self)

    def table_feed(self) -> Feed:
        return table_feed_for(self.engine, self.tables(None, every_group=True).versions)

    def health(self) -> tuple[bool, str]:
        head = head_revision()
        try:
            with self.db.engine.connect() as connection:
                found = schema_revision(connection)
        except (SQLAlchemyError, OSError) as error:
            logger.warning("health check: the database cannot be reached: %s", error)
            return False, "database unreachable"
        if found != head:
            return False, f"schema at {found or 'no revision'}, expected {head}"
        return True, head

    def close(self) -> None:
        self.db.close()
        self._holder.release()
