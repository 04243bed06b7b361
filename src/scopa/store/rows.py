"""The rows every change of a match writes: its new version, the change log entry, the
group's charge and the notice to the other processes; and the record a change answers with.
(Helpers of :mod:`scopa.store.matches`.)"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, insert, select
from sqlalchemy.orm import Session

from scopa.changes import no_deal
from scopa.match import Match
from scopa.store.database import aware, valid_id
from scopa.store.models import ChangeRow, DealRow, MatchRow, utcnow
from scopa.store.notify import notify_change
from scopa.store.quotas import charge
from scopa.store.records import RemovedDeal, StoredMatch

_deals = cast(Table, DealRow.__table__)
ADD_DEAL = insert(_deals)
"""A new deal's row (a Core statement: no unit of work for one insert)."""
LOG = insert(cast(Table, ChangeRow.__table__))
"""A change log entry's row."""


def add_deal_row(session: Session, match_id: int, number: int, facts: dict[str, Any]) -> int:
    """Insert a deal's row at ``number``; its id."""
    values = {"match_id": match_id, "position": number, "facts": facts}
    found = session.connection().execute(ADD_DEAL, values).inserted_primary_key
    assert found is not None
    return int(found[0])


def deal_row(session: Session, match_id: int, number: int) -> DealRow:
    deal_row = (
        session.scalars(
            select(DealRow).where(DealRow.match_id == match_id, DealRow.position == number)
        ).one_or_none()
        if valid_id(number)
        else None
    )
    if deal_row is None:
        raise no_deal(match_id, number)
    return deal_row


def bump(
    session: Session,
    row: MatchRow,
    action: str,
    summary: str,
    detail: dict[str, Any],
    *,
    matches: int = 0,
    deals: int = 0,
    stored: tuple[Any, ...] = (),
) -> None:
    """A new version, logged; what the change stores (``stored`` and the log entry) is
    charged to the group in one statement."""
    row.version += 1
    row.updated_at = utcnow()
    charge(session, row.group_id, matches=matches, deals=deals, stored=(*stored, summary, detail))
    log_change(session, row, action, summary, detail)
    session.flush()
    notify_change(session, row)  # PostgreSQL: NOTIFY, sent when this transaction commits


def log_change(
    session: Session, row: MatchRow, action: str, summary: str, detail: dict[str, Any]
) -> None:
    values = {
        "match_id": row.id,
        "version": row.version,
        "at": row.updated_at,
        "action": action,
        "summary": summary,
        "detail": detail,
    }
    session.connection().execute(LOG, values)


def live_ids(session: Session, match_id: int) -> tuple[int, ...]:
    """The identities of a match's live deals, in order (:attr:`StoredMatch.deal_ids`)."""
    found = session.scalars(
        select(DealRow.id)
        .where(DealRow.match_id == match_id, DealRow.position.is_not(None))
        .order_by(DealRow.position)
    )
    return tuple(found)


def record_of(
    row: MatchRow,
    match: Match,
    removed: tuple[RemovedDeal, ...] = (),
    deal_ids: tuple[int, ...] = (),
) -> StoredMatch:
    """The record of a match from facts in hand (a change answers from the state it changed
    instead of reading every deal back; only the deals' identities are read)."""
    removed = tuple(sorted(removed, key=lambda r: r.id))  # as they are read back
    return StoredMatch(
        row.id,
        row.version,
        match,
        aware(row.created_at),
        aware(row.updated_at),
        removed,
        row.uncounted,
        deal_ids,
    )
