"""A group's limits (hosted mode): how many matches, deals and bytes it may store.

What a group has stored is counted on its row (``groups.used_*``) and charged in the same
transaction as the change that stores it, with the group's row locked (one ``UPDATE …
RETURNING``): a change that would go over a limit raises
:class:`~scopa.errors.QuotaExceededError` and the whole transaction, the change included, is
rolled back, so a refused write stores nothing.

- matches: the matches on the group's list (deleting one frees its place);
- deals: every deal recorded in the group's matches (removed ones included: they are kept);
- bytes: the JSON written for the group's deals and change log (nothing is ever erased, so
  this only grows; it is what a group can make the server's disk hold), and the answers kept
  for its ``Idempotency-Key``s (given back when a key is purged, :mod:`scopa.store.keys`).
"""

from __future__ import annotations

import json
from typing import Any, cast

from sqlalchemy import Table, bindparam, case, update
from sqlalchemy.orm import Session

from scopa.errors import QuotaExceededError
from scopa.i18n import N_
from scopa.store.models import GroupRow

MAX_MATCHES = 1_000
MAX_DEALS = 50_000
MAX_BYTES = 64 * 1024 * 1024
"""The defaults for a new group: room for years of weekly play at a few tables."""


def size_of(value: Any) -> int:
    """The bytes ``value`` takes as stored JSON (about)."""
    if isinstance(value, str):
        return len(value.encode("utf-8", "replace"))
    return len(
        json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")
    )


def stored_size(values: tuple[Any, ...]) -> int:
    """The bytes a change stores for ``values`` (its facts, log entry...), as charged."""
    return sum(size_of(value) for value in values)


_groups = cast(Table, GroupRow.__table__)
_table = _groups.c
_after = _table.used_matches + bindparam("matches")
CHARGE = (
    update(_groups)
    .where(_table.id == bindparam("group"))
    .values(
        used_matches=case((_after < 0, 0), else_=_after),
        used_deals=_table.used_deals + bindparam("deals"),
        used_bytes=_table.used_bytes + bindparam("size"),
    )
    .returning(
        _table.used_matches,
        _table.used_deals,
        _table.used_bytes,
        _table.max_matches,
        _table.max_deals,
        _table.max_bytes,
    )
)
"""The charge, one statement built once (a Core statement: nothing of the session's is
flushed or synchronised for it)."""


def charge(
    session: Session,
    group: int | None,
    *,
    matches: int = 0,
    deals: int = 0,
    stored: tuple[Any, ...] = (),
    size: int = 0,
) -> None:
    """Count what a change stores for ``group`` (matches, deals, and the bytes of the
    ``stored`` values), or refuse it when it would go over a limit. Nothing is counted (or
    measured) for the one table of a server that is not hosted (``group`` ``None``).

    One statement: the counts are added under the row's lock and the new counts come back
    with the limits; over one, the caller's transaction is rolled back with the error."""
    if group is None:
        return
    size += stored_size(stored)
    found = (
        session.connection()
        .execute(CHARGE, {"group": group, "matches": matches, "deals": deals, "size": size})
        .one_or_none()
    )
    if found is None:  # pragma: no cover - a match's group is never removed
        return
    check_charge(tuple(found), matches=matches, deals=deals, size=size)


LIMITS = (
    (
        "matches",
        N_(
            "this group has reached its limit of {most} matches; delete finished matches or "
            "ask the server's operator to raise the limit"
        ),
    ),
    (
        "deals",
        N_(
            "this group has reached its limit of {most} deals recorded; ask the server's "
            "operator to raise the limit"
        ),
    ),
    (
        "bytes",
        N_(
            "this group has reached its limit of {most} bytes stored; ask the server's "
            "operator to raise the limit"
        ),
    ),
)
"""Each limit, in the order :data:`CHARGE` returns the counts, and its refusal."""


def check_charge(found: tuple[Any, ...], *, matches: int, deals: int, size: int) -> None:
    """Refuse a charge that went over a limit: ``found`` is what :data:`CHARGE` returns
    (the counts after it, then the limits)."""
    used, limits = found[:3], found[3:]
    for (what, message), added, count, limit in zip(
        LIMITS, (matches, deals, size), used, limits, strict=True
    ):
        if added > 0 and count > limit:
            raise QuotaExceededError(
                what, message, code=f"quota.group_reached_limit_{what}", most=limit
            )


def refund(session: Session, group: int, size: int) -> None:
    """Give ``group`` back ``size`` bytes of what it stored (kept answers that were purged)."""
    session.execute(
        update(_groups)
        .where(_table.id == group)
        .values(used_bytes=case((_table.used_bytes < size, 0), else_=_table.used_bytes - size))
    )
