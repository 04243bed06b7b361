"""The API's answers as JSON (FORMATS.md, "HTTP API")."""

from __future__ import annotations

from typing import Any

from scopa.application import MatchSummary, ScoredMatch
from scopa.formats import deal_to_json, match_to_json, sheet_to_json
from scopa.store import LogEntry, RemovedDeal


def stored_to_json(scored: ScoredMatch) -> dict[str, Any]:
    """The API's answer for one match: ``{"id", "version", "match", "sheet", ...}``."""
    return {
        "id": scored.id,
        "version": scored.version,
        "match": match_to_json(scored.match),
        "sheet": sheet_to_json(scored.sheet),
        "removed": [removed_to_json(r) for r in scored.removed],
        "created_at": scored.created_at.isoformat(),
        "updated_at": scored.updated_at.isoformat(),
    }


def removed_to_json(removed: RemovedDeal) -> dict[str, Any]:
    return {
        "id": removed.id,
        "number": removed.number,
        "removed_at": removed.removed_at.isoformat(),
        "deal": deal_to_json(removed.deal),
    }


def summary_to_json(summary: MatchSummary) -> dict[str, Any]:
    return {
        "id": summary.id,
        "name": summary.name,
        "players": list(summary.players),
        "sides": list(summary.sides),
        "status": summary.status,
        "winner": summary.winner,
        "totals": dict(zip(summary.sides, summary.totals, strict=False)),
        "deal_count": summary.deal_count,
        "created_at": summary.created_at.isoformat(),
        "updated_at": summary.updated_at.isoformat(),
    }


def log_to_json(entry: LogEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "version": entry.version,
        "at": entry.at.isoformat(),
        "action": entry.action,
        "summary": entry.summary,
    }
