"""The use cases over matches: what the pages, the API and the CLI do, in one place.

They take and return core records (keyword-only arguments), check what the rules of the game
require, score through the core, and hand facts to a :class:`~scopa.store.Store`. Errors are
the core's and the store's; each edge turns them into its own answer once.

A change checks its facts against the match as read and writes with that version, so what
was checked is what is changed. A change that names no version is retried on a fresh read
when another one got in between.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from scopa.application.records import MatchSummary, ScoredMatch
from scopa.deal import Deal
from scopa.errors import InvalidMatchError, VersionConflictError
from scopa.formats import (
    MAX_DEALS,
    dump_json,
    match_to_json,
    owners_of,
    sheet_to_csv,
    sheet_to_json,
)
from scopa.match import Changes, Match, Sheet, rescore, score_match
from scopa.rules import Settings
from scopa.store.cache import StateCache
from scopa.store.protocol import Matches
from scopa.store.records import LogEntry, StoredMatch, stale_version

RETRIES = 20
"""How often a change without a version is retried when other changes keep getting in."""

ExportKind = Literal["match", "sheet", "csv"]


class MatchService:
    """The use cases over the matches in a store."""

    def __init__(self, store: Matches, cache_size: int = 64) -> None:
        self.store = store
        self._sheets = StateCache[Sheet](cache_size)

    # Reading

    def get(self, *, match_id: int) -> ScoredMatch:
        """A match and its sheet."""
        return self._scored(self.store.get(match_id))

    def list_matches(self) -> list[MatchSummary]:
        """The list of matches, most recently changed first, with status and totals."""
        return [MatchSummary.of(self._scored(stored)) for stored in self.store.all()]

    def history(self, *, match_id: int) -> list[LogEntry]:
        """The change log of a match, oldest first."""
        return self.store.history(match_id)

    def player_names(self) -> list[str]:
        """Names remembered from earlier matches, most recently played first."""
        return self.store.player_names()

    def export(self, *, match_id: int, kind: ExportKind = "match") -> str:
        """The match file (FORMATS.md), or its sheet as JSON or CSV, as text."""
        scored = self.get(match_id=match_id)
        if kind == "csv":
            return sheet_to_csv(scored.sheet)
        data = match_to_json(scored.match) if kind == "match" else sheet_to_json(scored.sheet)
        return dump_json(data) + "\n"

    # Changing

    def create(self, *, match: Match) -> ScoredMatch:
        """Store a new match (deals optional)."""
        return self._scored(self.store.create(match=match))

    def import_match(self, *, match: Match) -> ScoredMatch:
        """Store a match read from a match file (logged as an import)."""
        return self._scored(self.store.create(match=match, action="import"))

    def record_deal(self, *, match_id: int, deal: Deal, version: int | None) -> ScoredMatch:
        """Record a deal after the last one (at most :data:`~scopa.formats.MAX_DEALS`)."""

        def change(current: StoredMatch) -> StoredMatch:
            _check_room(current.match)
            _check_owners(deal, current.match)
            return self.store.add_deal(match_id=match_id, deal=deal, version=current.version)

        return self._scored(self._change(match_id, version, change))

    def replace_deal(
        self, *, match_id: int, number: int, deal: Deal, version: int | None
    ) -> ScoredMatch:
        """Replace deal ``number`` (1-based); the deals after it re-score."""

        def change(current: StoredMatch) -> StoredMatch:
            _check_owners(deal, current.match)
            return self.store.replace_deal(
                match_id=match_id, number=number, deal=deal, version=current.version
            )

        return self._scored(self._change(match_id, version, change))

    def delete_deal(self, *, match_id: int, number: int, version: int | None) -> ScoredMatch:
        """Remove deal ``number``; it can be restored (:meth:`restore_deal`)."""
        stored = self.store.delete_deal(match_id=match_id, number=number, version=version)
        return self._scored(stored)

    def restore_deal(self, *, match_id: int, removed_id: int, version: int | None) -> ScoredMatch:
        """Put a removed deal back at the number it had (or last, if the match is shorter)."""

        def change(current: StoredMatch) -> StoredMatch:
            if any(r.id == removed_id for r in current.removed):
                _check_room(current.match)
            return self.store.restore_deal(
                match_id=match_id, removed_id=removed_id, version=current.version
            )

        return self._scored(self._change(match_id, version, change))

    def change_rules(
        self, *, match_id: int, rules: Mapping[str, Any], version: int | None
    ) -> tuple[ScoredMatch, Changes]:
        """Change some house rules by name (the others stay); the match re-scores from its
        facts. :class:`~scopa.errors.SettingsChangeRefused` when the facts cannot follow."""
        done: list[tuple[Sheet, Changes]] = []

        def change(current: StoredMatch) -> StoredMatch:
            settings = Settings.parse(rules, "rules", base=current.match.settings)
            _, sheet, changes = rescore(current.match, settings)
            stored = self.store.change_settings(
                match_id=match_id,
                settings=settings,
                version=current.version,
                summary=changes.summary(),
                changes=changes.to_dict(),
            )
            done.append((sheet, changes))
            return stored

        stored = self._change(match_id, version, change)
        sheet, changes = done[-1]
        return self._scored(stored, sheet), changes

    def rename(self, *, match_id: int, name: str | None, version: int | None) -> ScoredMatch:
        """Give the match a name (or none)."""
        return self._scored(self.store.rename(match_id=match_id, name=name, version=version))

    def delete_match(self, *, match_id: int, version: int | None) -> None:
        """Hide a match from the list; its facts and log stay."""
        self.store.delete_match(match_id=match_id, version=version)

    # Internals

    def _change(
        self, match_id: int, version: int | None, change: Callable[[StoredMatch], StoredMatch]
    ) -> StoredMatch:
        """Run ``change`` on the match as it is, with the version it was read at."""
        for attempt in range(RETRIES + 1):
            current = self.store.get(match_id)
            if version is not None and version != current.version:
                raise stale_version(match_id, current.version, version)
            try:
                return change(current)
            except VersionConflictError:
                if version is not None or attempt == RETRIES:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _scored(self, stored: StoredMatch, sheet: Sheet | None = None) -> ScoredMatch:
        key = (stored.id, stored.version, stored.updated_at)
        if sheet is None:
            sheet = self._sheets.get(key)
        if sheet is None:
            sheet = score_match(stored.match)
        self._sheets.put(key, sheet)
        return ScoredMatch.of(stored, sheet)


def _check_room(match: Match) -> None:
    if len(match.deals) >= MAX_DEALS:
        raise InvalidMatchError("deals", f"a match holds at most {MAX_DEALS} deals")


def _check_owners(deal: Deal, match: Match) -> None:
    """A deal read for the match as it was, checked against the match as it is (another
    device may have turned partnerships on or off in between): the owners are the only facts
    of a deal that depend on its match."""
    owners_of(dict.fromkeys(deal.owners), match, "piles")
