"""Storage of matches: SQLAlchemy models, Alembic migrations and the match repository."""

from __future__ import annotations

import os

from platformdirs import user_data_path

from scopa.store.devices import AccessCode, Device
from scopa.store.repository import (
    LogEntry,
    MatchStore,
    MatchSummary,
    RemovedDeal,
    StoredMatch,
    make_engine,
    migrate,
)

ENV_DATABASE_URL = "SCOPA_DATABASE_URL"


def default_database_path() -> str:
    """The SQLite file in the user's data folder (e.g. ``~/.local/share/scopa/scopa.db``)."""
    return str(user_data_path("scopa", appauthor=False) / "scopa.db")


def database_url(db: str | None = None) -> str:
    """The database to use: ``db`` (a URL or a file path), else ``$SCOPA_DATABASE_URL``,
    else the SQLite file in the user's data folder."""
    chosen = db or os.environ.get(ENV_DATABASE_URL) or default_database_path()
    if "://" in chosen:
        return chosen
    return f"sqlite:///{os.path.abspath(os.path.expanduser(chosen))}"


def default_database_url() -> str:
    return database_url(None)


__all__ = [
    "ENV_DATABASE_URL",
    "AccessCode",
    "Device",
    "LogEntry",
    "MatchStore",
    "MatchSummary",
    "RemovedDeal",
    "StoredMatch",
    "database_url",
    "default_database_path",
    "default_database_url",
    "make_engine",
    "migrate",
]
