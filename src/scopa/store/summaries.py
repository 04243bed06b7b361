"""Each match's line of the list, kept on its row (``matches.summary``, ``status``,
``player_key``) and written in the same transaction as every change, so that the list reads
summaries only, whatever the number of matches.

The line is the match's players, sides, variant, status, winner, totals and deal count: what
the core's scorer says of the facts being written (:func:`summary_of`). Rows written before
summaries were kept get theirs the first time the list meets them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, load_only

from scopa.match import Match
from scopa.names import name_key
from scopa.store.database import aware
from scopa.store.models import MatchRow
from scopa.store.records import MatchLine

STATUSES = ("in_progress", "won")


def summary_of(match: Match) -> dict[str, Any]:
    """The list's line for a match (scored by the core)."""
    from scopa.match import score_match

    sheet = score_match(match)
    return {
        "players": list(match.players),
        "sides": list(sheet.sides),
        "variant": match.variant,
        "status": sheet.status,
        "winner": sheet.winner,
        "totals": list(sheet.totals),
        "deal_count": len(match.deals),
    }


def player_key(players: list[str] | tuple[str, ...]) -> str:
    """``|anna|bruno|``: each player's name key between separators, for the filter."""
    return "|" + "|".join(name_key(p) for p in players) + "|"


def write_summary(row: MatchRow, match: Match) -> None:
    """Keep ``match``'s line on its row (in the caller's transaction)."""
    summary = summary_of(match)
    row.summary = summary
    row.status = summary["status"]
    row.player_key = player_key(match.players)


def line_of(row: MatchRow) -> MatchLine:
    """The list's line from a row whose summary is kept."""
    summary = row.summary or {}
    return MatchLine(
        id=row.id,
        name=row.name,
        players=tuple(summary.get("players", row.players)),
        sides=tuple(summary.get("sides", ())),
        variant=str(summary.get("variant", "scopa")),
        status=str(summary.get("status", "in_progress")),
        winner=summary.get("winner"),
        totals=tuple(int(t) for t in summary.get("totals", ())),
        deal_count=int(summary.get("deal_count", 0)),
        created_at=aware(row.created_at),
        updated_at=aware(row.updated_at),
    )


def list_rows(
    session: Session, mine: Any, limit: int, before: int | None, player: str, status: str
) -> list[MatchRow]:
    """Rows of the list, newest first (the summary columns and a few more; never deals),
    of one group (``mine``: the condition on the group)."""
    query = select(MatchRow).where(MatchRow.deleted_at.is_(None), mine)
    if before is not None:
        query = query.where(MatchRow.id < before)
    if status:
        # a row not summarised yet has no status: it is summarised once it is met
        query = query.where(or_(MatchRow.status == status, MatchRow.status.is_(None)))
    if player.strip():
        wanted = f"|{name_key(player)}|"
        query = query.where(
            or_(MatchRow.player_key.contains(wanted, autoescape=True), MatchRow.summary.is_(None))
        )
    query = query.options(
        load_only(
            MatchRow.id,
            MatchRow.name,
            MatchRow.players,
            MatchRow.summary,
            MatchRow.status,
            MatchRow.created_at,
            MatchRow.updated_at,
        )
    )
    return list(session.scalars(query.order_by(MatchRow.id.desc()).limit(limit)))
