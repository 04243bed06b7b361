"""How each change of a match writes its rows: the deal rows it adds, moves or marks removed,
the new version and the log entry with what was there before. (Helpers of
:meth:`scopa.store.matches.SqlMatches.change`, inside its transaction.)"""

from __future__ import annotations

from typing import assert_never

from sqlalchemy import update
from sqlalchemy.orm import Session

from scopa import changes
from scopa.changes import no_removed_deal, restored_number
from scopa.formats import deal_to_json
from scopa.match import Match
from scopa.store.database import aware
from scopa.store.models import DealRow, MatchRow, utcnow
from scopa.store.records import RemovedDeal, StoredMatch
from scopa.store.rows import add_deal_row, bump, deal_row

Outcome = tuple[Match, tuple[RemovedDeal, ...], tuple[int, ...] | None]
"""What a change makes: the match, its removed deals and, when the change knows them
without reading them back, its live deals' ids (else ``None``)."""


def edit(
    session: Session, row: MatchRow, stored: StoredMatch, change: changes.MatchChange
) -> Outcome:
    """Write ``change`` to the rows of the match ``row`` (locked, its state ``stored``) and
    bump its version; answer what the match and its removed deals become."""
    removed = stored.removed
    ids: tuple[int, ...] | None = None
    match change:
        case changes.AddDeal():
            new = _add(session, row, len(stored.match.deals) + 1, change)
            if len(stored.deal_ids) == len(stored.match.deals):
                ids = (*stored.deal_ids, new)
        case changes.ReplaceDeal():
            _replace(session, row, change)
        case changes.DeleteDeal():
            removed = (*removed, _delete(session, row, stored, change))
        case changes.RestoreDeal():
            _restore(session, row, stored, change)
            removed = tuple(r for r in removed if r.id != change.removed_id)
        case changes.ChangeSettings():
            _change_settings(session, row, change)
        case changes.Rename():
            _rename(session, row, change)
        case _:
            assert_never(change)
    return change.after(stored), removed, ids


def _add(session: Session, row: MatchRow, number: int, change: changes.AddDeal) -> int:
    """Insert the deal's row; its id."""
    facts = deal_to_json(change.deal)
    new = add_deal_row(session, row.id, number, facts)
    summary = f"Deal {number} recorded"
    detail = {"number": number, "after": facts, **change.points}
    bump(session, row, change.action, summary, detail, deals=1, stored=(facts,))
    return new


def _replace(session: Session, row: MatchRow, change: changes.ReplaceDeal) -> None:
    number = change.number
    one = deal_row(session, row.id, number)
    before = one.facts
    one.facts = deal_to_json(change.deal)
    detail = {"number": number, "before": before, "after": one.facts, **change.points}
    bump(session, row, change.action, f"Deal {number} edited", detail)


def _delete(
    session: Session, row: MatchRow, stored: StoredMatch, change: changes.DeleteDeal
) -> RemovedDeal:
    """Mark the deal's row removed and move the later ones up; answer the removed deal."""
    number = change.number
    one = deal_row(session, row.id, number)
    one.position = None
    one.removed_at = utcnow()
    one.removed_number = number
    session.flush()
    session.execute(
        update(DealRow)
        .where(DealRow.match_id == row.id, DealRow.position > number)
        .values(position=DealRow.position - 1)
    )
    detail = {"number": number, "removed_id": one.id, "before": one.facts, **change.points}
    bump(session, row, change.action, f"Deal {number} deleted", detail)
    return RemovedDeal(one.id, number, stored.match.deals[number - 1], aware(one.removed_at))


def _restore(
    session: Session, row: MatchRow, stored: StoredMatch, change: changes.RestoreDeal
) -> None:
    back = change.back(stored)
    one = session.get(DealRow, change.removed_id)
    if one is None:
        raise no_removed_deal(stored.id, change.removed_id)
    number = restored_number(back, len(stored.match.deals))
    session.execute(
        update(DealRow)
        .where(DealRow.match_id == row.id, DealRow.position >= number)
        .values(position=DealRow.position + 1)
    )
    one.position = number
    one.removed_at = None
    one.removed_number = None
    detail = {"number": number, "removed_id": change.removed_id, "after": one.facts}
    detail.update(change.points)
    bump(session, row, change.action, f"Deal {number} restored", detail)


def _change_settings(session: Session, row: MatchRow, change: changes.ChangeSettings) -> None:
    before = row.rules
    row.rules = change.settings.to_dict()
    detail = {"before": before, "after": row.rules, "changes": change.changes}
    bump(session, row, change.action, change.summary, detail)


def _rename(session: Session, row: MatchRow, change: changes.Rename) -> None:
    before = row.name
    row.name = change.name or None
    summary = f"Renamed to {change.name!r}" if change.name else "Name removed"
    bump(session, row, change.action, summary, {"before": before, "after": row.name})
