"""A full disk: how a database error says so, and what the client is told (503)."""

from __future__ import annotations

from scopa.i18n import N_

DISK_FULL_SQLSTATE = "53100"  # PostgreSQL's disk_full
SQLITE_FULL = 13
MESSAGE = N_(
    "the server's disk is full, so nothing was saved (what was stored before is "
    "intact); free some space on the server and try again"
)
RETRY_AFTER = "60"


def disk_full(error: BaseException) -> bool:
    """Whether a database error says the disk (or the database's size cap) is full."""
    orig = getattr(error, "orig", None)
    if getattr(orig, "sqlite_errorcode", None) == SQLITE_FULL:
        return True
    if getattr(orig, "sqlstate", None) == DISK_FULL_SQLSTATE:
        return True
    return "disk is full" in str(orig or error).lower()
