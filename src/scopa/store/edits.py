"""How each change of a match writes its rows: the deal rows it adds, moves or marks removed,
the new version and the log entry with what was there before. (Helpers of
:meth:`scopa.store.matches.SqlMatches.change`, inside its transaction.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, assert_never

from sqlalchemy import update
from sqlalchemy.orm import Session

from scopa import changes
from scopa.changes import no_removed_deal, restored_number
from scopa.formats import deal_to_json
from scopa.match import Match
from scopa.store.database import aware, driver_rows, dump_json
from scopa.store.models import DealRow, MatchRow, utcnow
from scopa.store.notify import CHANNEL
from scopa.store.quotas import check_charge, stored_size
from scopa.store.records import RemovedDeal, Standing, StoredMatch
from scopa.store.rows import add_deal_row, bump, deal_row
from scopa.store.summaries import set_line
from scopa.store.tallies import TALLY_AT_ONCE, read_tally, run_tally_writes, tally_writes

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


def added(number: int, change: changes.AddDeal) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """What a deal added as deal ``number`` stores: its facts, and its log entry's summary
    and detail."""
    facts = deal_to_json(change.deal)
    return facts, f"Deal {number} recorded", {"number": number, "after": facts, **change.points}


def _add(session: Session, row: MatchRow, number: int, change: changes.AddDeal) -> int:
    """Insert the deal's row; its id."""
    facts, summary, detail = added(number, change)
    new = add_deal_row(session, row.id, number, facts)
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
    row.name_kind = row.name_args = None  # a name a person typed
    summary = f"Renamed to {change.name!r}" if change.name else "Name removed"
    bump(session, row, change.action, summary, {"before": before, "after": row.name})


ADD_AT_ONCE = f"""
WITH {TALLY_AT_ONCE}, deal AS (
    INSERT INTO deals (match_id, position, facts, created_at)
    VALUES (%(match)s, %(number)s, %(facts)s::json, %(at)s) RETURNING id
), logged AS (
    INSERT INTO changes (match_id, version, at, action, summary, detail)
    VALUES (%(match)s, %(version)s, %(at)s, %(action)s, %(summary)s, %(detail)s::json)
), moved AS (
    UPDATE matches SET version = %(version)s, updated_at = %(at)s, summary = %(line)s::json,
        status = %(status)s, player_key = %(player_key)s, uncounted = %(uncounted)s
    WHERE id = %(match)s
), charged AS (
    UPDATE groups SET used_deals = used_deals + 1, used_bytes = used_bytes + %(size)s
    WHERE id = %(group)s
    RETURNING used_matches, used_deals, used_bytes, max_matches, max_deals, max_bytes
)
SELECT deal.id, pg_notify('{CHANNEL}', %(payload)s), charged.*
FROM deal LEFT JOIN charged ON true
"""
"""A deal added on PostgreSQL, in one statement: the deal's row, the log entry, the match's
row (version, time, line), the group's charge (none for the one table: no group's row has
the id ``NULL``), the notice, and the tally's rows and the totals it moves
(:data:`~scopa.store.tallies.TALLY_AT_ONCE`), with the deal's id and the charge's counts
back. The main query reads the deal and the charge, so the group's row is locked before the
totals are written (after it, with the statements no row of the answer reads), as on the
general path."""


def add_at_once(
    session: Session,
    row: MatchRow,
    stored: StoredMatch,
    change: changes.AddDeal,
    standing: Standing | None,
    old: Sequence[Mapping[Any, Any]] | None = None,
) -> Outcome:
    """:func:`edit` and :func:`~scopa.store.summaries.write_summary` of a deal added, on
    PostgreSQL: what they write, in one round trip (:data:`ADD_AT_ONCE`), the tally's
    common writes with it (the rarer ones after it: a tally row made or dropped, the
    outcomes moved). The same rows, the same charge, refused the same way, in the same
    order (the group's row locked before the totals). ``old``: the match's tally rows, if
    read with its row."""
    number = len(stored.match.deals) + 1
    facts, summary, detail = added(number, change)
    row.version += 1
    row.updated_at = utcnow()
    tally = set_line(row, standing)
    group = row.group_id
    size = 0 if group is None else stored_size((facts, summary, detail))
    values = {
        "match": row.id,
        "number": number,
        "facts": dump_json(facts),
        "at": row.updated_at,
        "version": row.version,
        "action": change.action,
        "summary": summary,
        "detail": dump_json(detail),
        "line": None if row.summary is None else dump_json(row.summary),
        "status": row.status,
        "player_key": row.player_key,
        "uncounted": row.uncounted,
        "size": size,
        "group": group,
        "payload": f"{row.id}:{row.version}",
    }
    writes = tally_writes(row, tally, read_tally(session, row.id) if old is None else old)
    values.update(writes.folded())
    (found,) = driver_rows(session, ADD_AT_ONCE, values)
    if group is not None:
        check_charge(tuple(found[2:]), matches=0, deals=1, size=size)
    run_tally_writes(session, row, writes, folded=True)
    ids = (*stored.deal_ids, int(found[0]))
    return change.after(stored), stored.removed, ids if len(ids) == number else None
