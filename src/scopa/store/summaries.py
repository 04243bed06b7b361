"""Each match's line of the list, kept on its row (``matches.summary``, ``status``,
``player_key``) and written in the same transaction as every change, so that the list reads
summaries only, whatever the number of matches.

The line is the :class:`~scopa.store.records.Standing` the change was handed: worked out
above the store by :mod:`scopa.application`, never scored here. A change handed none, and a
row written before lines were kept, has no line: the list gives it as not ``summarised``, and
the application fills it in (:meth:`~scopa.store.matches.SqlMatches.keep_standing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, load_only

from scopa.made_names import Seat, made_from_row
from scopa.names import name_key
from scopa.store.database import aware
from scopa.store.models import MatchRow
from scopa.store.records import ListPage, MatchLine, Standing
from scopa.store.tallies import write_tally
from scopa.tally import MatchTally

STATUSES = ("in_progress", "won")


def player_key(players: list[str] | tuple[str, ...]) -> str:
    """``|anna|bruno|``: each player's name key between separators, for the filter."""
    return "|" + "|".join(name_key(p) for p in players) + "|"


def write_summary(
    session: Session,
    row: MatchRow,
    standing: Standing | None,
    old: Sequence[Mapping[Any, Any]] | None = None,
) -> None:
    """Keep the line a change was handed on its row, and the match's tally (in the caller's
    transaction); with none, the row has no line until the application fills it in.
    ``old``: the match's tally rows if they were read with its row."""
    write_tally(session, row, set_line(row, standing), old)


def set_line(row: MatchRow, standing: Standing | None) -> MatchTally | None:
    """Put the line on ``row`` (not written yet); the tally to keep with it."""
    if standing is None:
        row.summary = row.status = row.player_key = None
        return None
    row.summary = summary_of(standing)
    row.status = standing.status
    row.player_key = player_key(standing.players)
    if standing.uncounted is not None:
        row.uncounted = standing.uncounted
    # A match that does not count keeps no tally: it is in no figure, rating or record.
    return None if row.uncounted else standing.tally


def summary_of(standing: Standing) -> dict[str, Any]:
    """The line as its row keeps it (JSON): the standing's fields but its tally (what
    ``dataclasses.asdict`` gives without it, made directly: it runs on every change)."""
    return {
        "players": list(standing.players),
        "sides": list(standing.sides),
        "variant": standing.variant,
        "status": standing.status,
        "winner": standing.winner,
        "totals": list(standing.totals),
        "deal_count": standing.deal_count,
        "uncounted": standing.uncounted,
    }


def line_of(row: MatchRow) -> MatchLine:
    """The list's line from a row whose summary is kept."""
    summary = row.summary or {}
    return MatchLine(
        id=row.id,
        name=row.name,
        made=made_from_row(row.name_kind, row.name_args),
        seat_kinds=tuple(Seat.from_json(s) for s in row.seat_kinds or ()),
        players=tuple(summary.get("players", row.players)),
        sides=tuple(summary.get("sides", ())),
        variant=str(summary.get("variant", "scopa")),
        status=str(summary.get("status", "in_progress")),
        winner=summary.get("winner"),
        totals=tuple(int(t) for t in summary.get("totals", ())),
        deal_count=int(summary.get("deal_count", 0)),
        created_at=aware(row.created_at),
        updated_at=aware(row.updated_at),
        summarised=row.summary is not None,
    )


def list_rows(session: Session, mine: Any, page: ListPage) -> list[MatchRow]:
    """Rows of the list, newest first (the summary columns and a few more; never deals),
    of one group (``mine``: the condition on the group): one more than the page's limit, to
    tell whether more follow."""
    query = select(MatchRow).where(MatchRow.deleted_at.is_(None), mine)
    if page.before is not None:
        query = query.where(MatchRow.id < page.before)
    if page.status:
        # a row without its line has no status: the line is filled in once it is met
        query = query.where(or_(MatchRow.status == page.status, MatchRow.status.is_(None)))
    if page.player.strip():
        wanted = f"|{name_key(page.player)}|"
        query = query.where(
            or_(MatchRow.player_key.contains(wanted, autoescape=True), MatchRow.summary.is_(None))
        )
    query = query.options(
        load_only(
            MatchRow.id,
            MatchRow.name,
            MatchRow.name_kind,
            MatchRow.name_args,
            MatchRow.seat_kinds,
            MatchRow.players,
            MatchRow.summary,
            MatchRow.status,
            MatchRow.created_at,
            MatchRow.updated_at,
        )
    )
    return list(session.scalars(query.order_by(MatchRow.id.desc()).limit(page.limit + 1)))
