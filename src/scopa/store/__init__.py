"""Storage of matches: the :class:`Store` protocol and its SQL implementation.

- :mod:`~scopa.store.records` and :mod:`~scopa.store.protocol` (with the changes of
  :mod:`scopa.changes`): what the layers above use;
- :mod:`~scopa.store.database`: the engine for a URL and the Alembic migrations;
- :mod:`~scopa.store.matches`: the match repository with its change log
  (:mod:`~scopa.store.edits`: the rows each change writes);
- :mod:`~scopa.store.access`: the access codes; :mod:`~scopa.store.cache`: committed states;
- :mod:`~scopa.store.sql`: :class:`MatchStore`, all of them on one database.

SQLAlchemy is imported on first use of the SQL store, so that the records and the protocol
(and ``scopa score``) do not load it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from scopa.store.paths import default_database_path
from scopa.store.protocol import AccessCodes, Matches, Store
from scopa.store.records import (
    AccessCode,
    Device,
    LogEntry,
    RemovedDeal,
    Standing,
    StoredMatch,
)

if TYPE_CHECKING:
    from scopa.store.database import make_engine, migrate
    from scopa.store.sql import MatchStore
else:
    _LAZY = {"MatchStore": "sql", "make_engine": "database", "migrate": "database"}

    def __getattr__(name: str) -> Any:
        if name in _LAZY:
            from importlib import import_module

            return getattr(import_module(f"scopa.store.{_LAZY[name]}"), name)
        raise AttributeError(f"module 'scopa.store' has no attribute {name!r}")


ENV_DATABASE_URL = "SCOPA_DATABASE_URL"


def database_url(db: str | None = None) -> str:
    """The database to use: ``db`` (a URL or a file path), else ``$SCOPA_DATABASE_URL``,
    else the SQLite file in the user's data folder."""
    chosen = db or os.environ.get(ENV_DATABASE_URL) or default_database_path()
    if "://" in chosen:
        return chosen
    return f"sqlite:///{os.path.abspath(os.path.expanduser(chosen))}"


__all__ = [
    "ENV_DATABASE_URL",
    "AccessCode",
    "AccessCodes",
    "Device",
    "LogEntry",
    "MatchStore",
    "Matches",
    "RemovedDeal",
    "Standing",
    "Store",
    "StoredMatch",
    "database_url",
    "default_database_path",
    "make_engine",
    "migrate",
]
