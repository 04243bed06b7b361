"""Where the default database lives (no SQLAlchemy: ``scopa.store`` and the database layer
both read it)."""

from __future__ import annotations


def default_database_path() -> str:
    """The SQLite file in the user's data folder (e.g. ``~/.local/share/scopa/scopa.db``)."""
    from platformdirs import user_data_path

    return str(user_data_path("scopa", appauthor=False) / "scopa.db")
