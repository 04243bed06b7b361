"""A second backend for the :class:`~scopa.store.protocol.Matches` protocol: plain dicts in
memory. It keeps facts and versions, and the line of the list each change is handed; it
never scores."""

from __future__ import annotations

import dataclasses
import threading
from datetime import UTC, datetime
from typing import Any

from scopa.deal import Deal
from scopa.errors import MatchNotFoundError
from scopa.match import Match
from scopa.names import name_key
from scopa.rules import Settings
from scopa.store import LogEntry, RemovedDeal, StoredMatch
from scopa.store.records import (
    MatchLine,
    Standing,
    no_deal,
    no_removed_deal,
    restored_number,
    stale_version,
)


class MemoryMatches:
    def __init__(self) -> None:
        self._matches: dict[int, StoredMatch] = {}
        self._deleted: set[int] = set()
        self._log: dict[int, list[LogEntry]] = {}
        self._players: dict[str, datetime] = {}
        self._standings: dict[int, Standing | None] = {}
        self._ids = 0
        self._lock = threading.Lock()

    def peek(self, match_id: int) -> StoredMatch | None:
        return None  # every change reads the match first

    def get(self, match_id: int) -> StoredMatch:
        if match_id not in self._matches or match_id in self._deleted:
            raise MatchNotFoundError(f"no match with id {match_id}")
        return self._matches[match_id]

    def all(self) -> list[StoredMatch]:
        live = [m for i, m in self._matches.items() if i not in self._deleted]
        return sorted(live, key=lambda m: (m.updated_at, m.id), reverse=True)

    def lines(
        self, *, limit: int = 50, before: int | None = None, player: str = "", status: str = ""
    ) -> tuple[list[MatchLine], bool]:
        """The list, newest first (by id), from the lines kept with the changes."""
        found = []
        for match_id in sorted(self._matches, reverse=True):
            stored = self._matches[match_id]
            if match_id in self._deleted or (before is not None and match_id >= before):
                continue
            line = self._standings[match_id]
            if line is None:  # no line kept: listed whatever the filters, to be filled in
                line = Standing(stored.match.players, (), stored.match.variant, "", None, (), 0)
            elif (status and line.status != status) or (
                player and name_key(player) not in {name_key(p) for p in line.players}
            ):
                continue
            found.append(
                MatchLine(
                    match_id,
                    stored.match.name,
                    line.players,
                    line.sides,
                    line.variant,
                    line.status,
                    line.winner,
                    line.totals,
                    line.deal_count,
                    stored.created_at,
                    stored.updated_at,
                    summarised=self._standings[match_id] is not None,
                )
            )
        return found[:limit], len(found) > limit

    def keep_standing(self, *, match_id: int, version: int, standing: Standing) -> None:
        with self._lock:
            current = self._matches.get(match_id)
            moved_on = current is None or current.version != version
            if not moved_on and self._standings[match_id] is None:
                self._standings[match_id] = standing

    def history(self, match_id: int) -> list[LogEntry]:
        self.get(match_id)
        return list(self._log[match_id])

    def player_names(self) -> list[str]:
        return sorted(self._players, key=lambda name: (-self._players[name].timestamp(), name))

    def create(
        self, *, match: Match, action: str = "create", standing: Standing | None = None
    ) -> StoredMatch:
        with self._lock:
            self._ids += 1
            now = datetime.now(UTC)
            stored = StoredMatch(self._ids, 1, match, now, now)
            self._matches[stored.id] = stored
            self._players.update(dict.fromkeys(match.players, now))
            self._log[stored.id] = []
            self._standings[stored.id] = standing
            self._write(stored, action, f"Match {action}d", {})
            return stored

    def _change(
        self,
        match_id: int,
        version: int | None,
        action: str,
        summary: str,
        detail: dict[str, Any],
        standing: Standing | None = None,
        **changes: Any,
    ) -> StoredMatch:
        with self._lock:
            current = self.get(match_id)
            if version is not None and version != current.version:
                raise stale_version(match_id, current.version, version)
            stored = dataclasses.replace(
                current, version=current.version + 1, updated_at=datetime.now(UTC), **changes
            )
            self._matches[match_id] = stored
            self._standings[match_id] = standing
            self._write(stored, action, summary, detail)
            return stored

    def _write(self, stored: StoredMatch, action: str, summary: str, detail: Any) -> None:
        log = self._log[stored.id]
        log.append(
            LogEntry(len(log) + 1, stored.version, stored.updated_at, action, summary, detail)
        )

    def add_deal(
        self,
        *,
        match_id: int,
        deal: Deal,
        version: int | None,
        standing: Standing | None = None,
        stamp: datetime | None = None,
    ) -> StoredMatch:
        match = self.get(match_id).match
        deals = (*match.deals, deal)
        return self._change(
            match_id,
            version,
            "add_deal",
            f"Deal {len(deals)} recorded",
            {},
            standing,
            match=match.with_deals(deals),
        )

    def replace_deal(
        self,
        *,
        match_id: int,
        number: int,
        deal: Deal,
        version: int | None,
        standing: Standing | None = None,
    ) -> StoredMatch:
        match = self.get(match_id).match
        if not 1 <= number <= len(match.deals):
            raise no_deal(match_id, number)
        deals = list(match.deals)
        deals[number - 1] = deal
        return self._change(
            match_id,
            version,
            "replace_deal",
            f"Deal {number} edited",
            {},
            standing,
            match=match.with_deals(deals),
        )

    def delete_deal(
        self,
        *,
        match_id: int,
        number: int,
        version: int | None,
        standing: Standing | None = None,
    ) -> StoredMatch:
        current = self.get(match_id)
        deals = list(current.match.deals)
        if not 1 <= number <= len(deals):
            raise no_deal(match_id, number)
        gone = RemovedDeal(
            1000 * match_id + len(current.removed) + 1,
            number,
            deals.pop(number - 1),
            datetime.now(UTC),
        )
        return self._change(
            match_id,
            version,
            "delete_deal",
            f"Deal {number} deleted",
            {},
            standing,
            match=current.match.with_deals(deals),
            removed=(*current.removed, gone),
        )

    def restore_deal(
        self,
        *,
        match_id: int,
        removed_id: int,
        version: int | None,
        standing: Standing | None = None,
    ) -> StoredMatch:
        current = self.get(match_id)
        back = next((r for r in current.removed if r.id == removed_id), None)
        if back is None:
            raise no_removed_deal(match_id, removed_id)
        deals = list(current.match.deals)
        number = restored_number(back, len(deals))
        deals.insert(number - 1, back.deal)
        removed = tuple(r for r in current.removed if r.id != removed_id)
        return self._change(
            match_id,
            version,
            "restore_deal",
            f"Deal {number} restored",
            {},
            standing,
            match=current.match.with_deals(deals),
            removed=removed,
        )

    def change_settings(
        self,
        *,
        match_id: int,
        settings: Settings,
        version: int | None,
        summary: str,
        changes: dict[str, Any],
        standing: Standing | None = None,
    ) -> StoredMatch:
        match = dataclasses.replace(self.get(match_id).match, settings=settings)
        detail = {"changes": changes}
        return self._change(match_id, version, "settings", summary, detail, standing, match=match)

    def rename(
        self,
        *,
        match_id: int,
        name: str | None,
        version: int | None,
        standing: Standing | None = None,
    ) -> StoredMatch:
        match = dataclasses.replace(self.get(match_id).match, name=name or None)
        return self._change(match_id, version, "rename", "Renamed", {}, standing, match=match)

    def delete_match(self, *, match_id: int, version: int | None) -> None:
        self._change(match_id, version, "delete_match", "Match deleted", {})
        self._deleted.add(match_id)
