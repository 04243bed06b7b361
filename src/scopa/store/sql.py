"""The SQL store (SQLite or PostgreSQL): the match repository and the access codes on one
database. It is what :class:`scopa.store.protocol.Store` describes."""

from __future__ import annotations

from sqlalchemy import Engine

from scopa.store.access import SqlAccessCodes
from scopa.store.cache import StateCache
from scopa.store.database import Database, make_engine, migrate
from scopa.store.matches import SqlMatches
from scopa.store.records import StoredMatch


class MatchStore(SqlMatches, SqlAccessCodes):
    """Matches, their deals and change log, and the access codes, in a SQL database."""

    def __init__(self, engine: Engine) -> None:
        self.db = Database(engine)
        self._cache = StateCache[StoredMatch](64)
        self._access_cache = None

    @classmethod
    def open(cls, url: str) -> MatchStore:
        """Open (creating if need be) the database at ``url`` and apply the migrations."""
        engine = make_engine(url)
        migrate(engine)
        return cls(engine)

    @property
    def engine(self) -> Engine:
        return self.db.engine

    @property
    def url(self) -> str:
        return self.db.url

    def close(self) -> None:
        self.db.close()
