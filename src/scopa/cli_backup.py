"""``scopa backup`` and ``scopa restore``: a consistent copy of a SQLite database, and
bringing one back (PostgreSQL has pg_dump and pg_restore)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Annotated

import typer

from scopa.cli_common import UserError, UserFailure, UserNotFound, unreadable
from scopa.cli_store import DbOption, chosen_url, opened
from scopa.i18n import N_, NN_, ngettext


def sqlite_path(db: str | None) -> Path:
    """The SQLite file of ``--db``: PostgreSQL and a database in memory are refused (they
    have their own tools), and so is a database the store would refuse (another kind, a
    folder, a file that is no database, a folder that is not there), before anything is
    created."""
    from sqlalchemy.engine import make_url

    from scopa.store.database import check_database

    chosen = chosen_url(db)
    if not chosen.startswith("postgresql"):
        check_database(chosen)
    url = make_url(chosen)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        raise UserError(
            N_(
                "{value}: backup and restore work on SQLite files; for PostgreSQL use pg_dump "
                "and pg_restore"
            ),
            code="usage.backup_restore_work_sqlite",
            value=url.render_as_string(hide_password=True),
        )
    return Path(url.database)


def backup(
    destination: Annotated[Path, typer.Argument(help="The file to write the copy to.")],
    db: DbOption = None,
) -> None:
    """Write a consistent copy of the database (SQLite online backup), even while serving."""
    source = sqlite_path(db)
    if not source.exists():
        raise UserNotFound(
            N_("{source}: no database there yet"), code="usage.no_database_there_yet", source=source
        )
    if destination.exists():
        raise UserFailure(
            N_("{destination}: exists already; choose a new file"),
            code="usage.exists_already_choose_new",
            destination=destination,
        )
    if not destination.parent.is_dir():
        raise UserFailure(
            N_("{destination}: no such folder ({folder})"),
            code="usage.backup_no_such_folder",
            destination=destination,
            folder=destination.parent,
        )
    try:
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(destination)) as dest:
            src.backup(dest)
        dest_conn = sqlite3.connect(destination)
        try:
            count = dest_conn.execute("SELECT count(*) FROM matches").fetchone()[0]
        finally:
            dest_conn.close()
    except (sqlite3.Error, OSError, UnicodeError) as error:
        destination.unlink(missing_ok=True)  # new: it was not there before
        raise UserFailure(
            N_("backup failed: {source} to {destination} ({error})"),
            code="usage.backup_failed",
            source=source,
            destination=destination,
            error=error,
        ) from None
    said = ngettext(
        "backed up {source} to {destination} ({count} match)",
        "backed up {source} to {destination} ({count} matches)",
        count,
    )
    print(said.format(source=source, destination=destination, count=count))


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
        raise UserNotFound(
            N_("{source}: no such backup file"), code="usage.no_such_backup_file", source=source
        )
    from scopa.store.database import is_sqlite_file

    try:
        sqlite = is_sqlite_file(source)  # by its first bytes: an empty file is no backup
    except OSError as error:
        raise unreadable(source, error) from None
    if not sqlite:
        raise UserError(
            N_("{source}: not a SQLite database"),
            code="usage.not_sqlite_database",
            source=source,
        )
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as check:
            tables = {r[0] for r in check.execute("SELECT name FROM sqlite_master")}
            if not {"matches", "deals", "changes"} <= tables:
                raise UserError(
                    N_("{source}: not a scopa database (no matches table)"),
                    code="usage.not_scopa_database",
                    source=source,
                )
            count = check.execute("SELECT count(*) FROM matches").fetchone()[0]
    except sqlite3.DatabaseError as error:  # a damaged file, past its first bytes
        raise UserError(
            N_("{source}: not a SQLite database ({error})"),
            code="usage.not_sqlite_database",
            source=source,
            error=error,
        ) from None
    links = target.stat().st_nlink if target.exists() else 1
    if links > 1:
        # its lock file goes by the name: a server may hold the file open under another
        raise UserError(
            N_(
                "restore refused: {target} is one of {links} hard links to one file, which "
                "may be open under another name; restore into a file with a single name"
            ),
            code="usage.restore_hard_links",
            target=target,
            links=links,
        )
    if target.exists() and not force:
        with sqlite3.connect(target) as current:
            has = current.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'matches'"
            ).fetchone()[0]
            held = current.execute("SELECT count(*) FROM matches").fetchone()[0] if has else 0
        if held:
            raise UserFailure(
                NN_(
                    "{target} holds {held} match; add --force to replace it with {source}",
                    "{target} holds {held} matches; add --force to replace it with {source}",
                    "held",
                ),
                code="usage.holds_matches_add_force",
                target=target,
                held=held,
                source=source,
            )
    from scopa.store.lock import DatabaseInUse, exclusive

    try:
        with exclusive(target), sqlite3.connect(source) as src, sqlite3.connect(target) as dest:
            src.backup(dest)
    except DatabaseInUse as error:
        raise UserFailure(
            N_("restore refused: {error}"), code="usage.restore_refused", error=error
        ) from None
    with opened(db):  # applies the migrations to an older backup
        pass
    said = ngettext(
        "restored {source} into {target} ({count} match)",
        "restored {source} into {target} ({count} matches)",
        count,
    )
    print(said.format(source=source, target=target, count=count))


def register(app: typer.Typer) -> None:
    """Add these commands to the main app."""
    app.command()(backup)
    app.command()(restore)
