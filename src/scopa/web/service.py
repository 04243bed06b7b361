"""The service functions that the JSON API and the pages both call.

Each takes parsed JSON (what a client sent), reads it with :mod:`scopa.formats`, and hands
core records to the store. Nothing here scores: the store's records carry the sheet that
:func:`scopa.match.score_match` computed, and a settings change goes through
:func:`scopa.match.rescore`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scopa.errors import InputError
from scopa.formats import (
    deal_to_json,
    describe,
    match_to_json,
    parse_deal,
    parse_match,
    sheet_to_json,
)
from scopa.match import Changes
from scopa.rules import Settings
from scopa.store import LogEntry, MatchStore, MatchSummary, RemovedDeal, StoredMatch
from scopa.web.forms import whole

MAX_VERSION = 2**53


def split_version(data: object, where: str = "") -> tuple[object, int | None]:
    """Take an optional ``"version"`` out of a JSON object body; the rest is the document."""
    if not isinstance(data, Mapping) or "version" not in data:
        return data, None
    rest = {k: v for k, v in data.items() if k != "version"}
    return rest, read_version(data["version"], "version" if not where else f"{where}.version")


def read_version(value: object, where: str) -> int | None:
    """A match version: a whole number from 1, or ``null`` for "no check"."""
    if value is None:
        return None
    if isinstance(value, str) and whole(value.strip(), 16):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_VERSION:
        raise InputError(
            where, f"expected the match's version (a whole number), found {describe(value)}"
        )
    return value


def parse_if_match(header: str | None) -> int | None:
    """The version in an ``If-Match`` header: ``3``, ``"3"`` or ``W/"3"``; ``*`` = no check."""
    if header is None or header.strip() in ("", "*"):
        return None
    text = header.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not whole(text, 16):
        raise InputError("If-Match", f"expected the match's version, found {describe(header)}")
    return read_version(int(text), "If-Match")


def pick_version(header: int | None, body: int | None) -> int | None:
    """The version a change is based on, from the header or the body (they must agree)."""
    if header is not None and body is not None and header != body:
        raise InputError("version", f"If-Match says {header} but the body says {body}")
    return header if header is not None else body


def create_match(store: MatchStore, data: object, action: str = "create") -> StoredMatch:
    """Read a match (deals optional) and store it."""
    match = parse_match(data)
    return store.create(match, action=action)


def add_deal(store: MatchStore, match_id: int, data: object, version: int | None) -> StoredMatch:
    stored = store.get(match_id)
    deal = parse_deal(data, stored.match)
    return store.add_deal(match_id, deal, version)


def replace_deal(
    store: MatchStore, match_id: int, number: int, data: object, version: int | None
) -> StoredMatch:
    stored = store.get(match_id)
    deal = parse_deal(data, stored.match)
    return store.replace_deal(match_id, number, deal, version)


def delete_deal(store: MatchStore, match_id: int, number: int, version: int | None) -> StoredMatch:
    return store.delete_deal(match_id, number, version)


def restore_deal(
    store: MatchStore, match_id: int, removed_id: int, version: int | None
) -> StoredMatch:
    return store.restore_deal(match_id, removed_id, version)


def change_settings(
    store: MatchStore, match_id: int, data: object, version: int | None
) -> tuple[StoredMatch, Changes]:
    """Apply some settings by name; the store re-scores and says what changed."""
    stored = store.get(match_id)
    settings = Settings.parse(data, "rules", base=stored.match.settings)
    return store.change_settings(match_id, settings, version)


def stored_to_json(stored: StoredMatch) -> dict[str, Any]:
    """The API's answer for one match: ``{"id", "version", "match", "sheet", ...}``."""
    return {
        "id": stored.id,
        "version": stored.version,
        "match": match_to_json(stored.match),
        "sheet": sheet_to_json(stored.sheet),
        "removed": [removed_to_json(r) for r in stored.removed],
        "created_at": stored.created_at.isoformat(),
        "updated_at": stored.updated_at.isoformat(),
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


def settings_from_form(form: Mapping[str, str], base: Settings) -> dict[str, Any]:
    """The six settings as posted by a page's form (checkboxes absent = off)."""
    return {
        "target": form_int(form.get("target", ""), "rules.target", "the target"),
        "primiera": "primiera" in form,
        "napola": form.get("napola", base.napola),
        "partnerships": "partnerships" in form,
        "last_capture_sweep": "last_capture_sweep" in form,
        "ties": form.get("ties", base.ties),
    }


def form_int(text: str, where: str, what: str) -> int:
    """A whole number typed into a form field."""
    text = text.strip()
    if not text:
        raise InputError(where, f"enter {what}")
    if not whole(text):
        raise InputError(where, f"{describe(text)} is not a whole number ({what})")
    return int(text)
