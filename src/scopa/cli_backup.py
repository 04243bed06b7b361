"""``scopa backup`` and ``scopa restore``: a consistent copy of a SQLite database, and
bringing one back (PostgreSQL has pg_dump and pg_restore)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from scopa.cli_common import UserError
from scopa.cli_store import DbOption, opened


def sqlite_path(db: str | None) -> Path:
    from sqlalchemy.engine import make_url

    from scopa.store import database_url

    url = make_url(database_url(db))
    if url.get_backend_name() != "sqlite" or not url.database:
        raise UserError(
            f"{url.render_as_string(hide_password=True)}: backup and restore work on SQLite "
            "files; for PostgreSQL use pg_dump and pg_restore"
        )
    return Path(url.database)


def backup(
    destination: Annotated[Path, typer.Argument(help="The file to write the copy to.")],
    db: DbOption = None,
) -> None:
    """Write a consistent copy of the database (SQLite online backup), even while serving."""
    source = sqlite_path(db)
    if not source.exists():
        raise UserError(f"{source}: no database there yet")
    if destination.exists():
        raise UserError(f"{destination}: exists already; choose a new file")
    with sqlite3.connect(source) as src, sqlite3.connect(destination) as dest:
        src.backup(dest)
    dest_conn = sqlite3.connect(destination)
    try:
        count = dest_conn.execute("SELECT count(*) FROM matches").fetchone()[0]
    finally:
        dest_conn.close()
    print(f"backed up {source} to {destination} ({count} matches)")


def restore(
    source: Annotated[Path, typer.Argument(help="A backup written by `scopa backup`.")],
    db: DbOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a database that holds matches.")
    ] = False,
) -> None:
    """Bring back a backup: it replaces the database (keep a backup of that one first)."""
    target = sqlite_path(db)
    if not source.is_file():
        raise UserError(f"{source}: no such backup file")
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as check:
            tables = {r[0] for r in check.execute("SELECT name FROM sqlite_master")}
            if not {"matches", "deals", "changes"} <= tables:
                raise UserError(f"{source}: not a scopa database (no matches table)")
            count = check.execute("SELECT count(*) FROM matches").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise UserError(f"{source}: not a SQLite database ({error})") from None
    if target.exists() and not force:
        with sqlite3.connect(target) as current:
            has = current.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'matches'"
            ).fetchone()[0]
            held = current.execute("SELECT count(*) FROM matches").fetchone()[0] if has else 0
        if held:
            raise UserError(
                f"{target} holds {held} matches; add --force to replace it with {source}"
            )
    target.parent.mkdir(parents=True, exist_ok=True)
    from scopa.store.lock import DatabaseInUse, exclusive

    try:
        with exclusive(target), sqlite3.connect(source) as src, sqlite3.connect(target) as dest:
            src.backup(dest)
    except DatabaseInUse as error:
        raise UserError(f"restore refused: {error}") from None
    with opened(db):  # applies the migrations to an older backup
        pass
    print(f"restored {source} into {target} ({count} matches)")


def register(app: typer.Typer) -> None:
    """Add these commands to the main app."""
    app.command()(backup)
    app.command()(restore)
