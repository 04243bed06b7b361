"""Who has a SQLite database open: a shared lock for every open store, an exclusive one for a
whole-database writer (``scopa restore``), so a restore never swaps the file under a running
server (whose cache and open connections would go on showing what the file no longer holds).

The lock is an advisory ``flock`` on a file next to the database (``scopa.db.lock``); the
system drops it when its process ends, however it ends. Other databases (PostgreSQL) and
systems without ``flock`` are not locked here (restore works on SQLite files only).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from scopa.errors import ScopaError
from scopa.i18n import N_


class DatabaseInUse(ScopaError, RuntimeError):
    """A whole-database writer was refused: the database is open elsewhere."""


def lock_path(database: str | Path) -> Path:
    """The lock file of a database file: next to the file itself, whatever symbolic links
    name it (the served database and a restore through a link to it share one lock)."""
    path = Path(os.path.realpath(Path(database).expanduser()))
    return path.with_name(path.name + ".lock")


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (``None`` for other databases and in-memory ones)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:" or parsed.database.startswith("file:"):
        return None
    return Path(parsed.database).expanduser()


def _flock(handle: IO[bytes], exclusive: bool, wait: float) -> bool:
    import fcntl

    mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(handle.fileno(), mode)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)


class Holder:
    """An open database's shared lock; :meth:`release` (or the process ending) drops it."""

    def __init__(self, handle: IO[bytes] | None) -> None:
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def hold_shared(url: str, wait: float = 30.0) -> Holder:
    """Take the shared lock of the database at ``url`` (waiting up to ``wait`` seconds for a
    restore to finish); a no-op for databases other than SQLite files."""
    path = sqlite_file(url)
    if path is None or os.name != "posix":
        return Holder(None)
    handle = open(lock_path(path), "ab")  # noqa: SIM115 - held open until released
    if not _flock(handle, exclusive=False, wait=wait):
        handle.close()
        raise DatabaseInUse(
            N_("{path}: a restore is replacing this database; try again"),
            code="database.restore_replacing_database_try",
            path=path,
        )
    return Holder(handle)


@contextlib.contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold the database file ``path`` alone, or raise :class:`DatabaseInUse` at once."""
    if os.name != "posix":  # pragma: no cover - no flock
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path(path), "ab") as handle:
        if not _flock(handle, exclusive=True, wait=0.0):
            raise DatabaseInUse(
                N_(
                    "{path} is open in another program (a running `scopa serve`?); stop it "
                    "first, so that it does not go on showing what the file no longer holds"
                ),
                code="database.open_another_program",
                path=path,
            )
        yield
