"""A second backend for the :class:`~scopa.store.protocol.Matches` protocol: plain dicts in
memory. It keeps facts and versions; its list lines are the summaries the SQL store keeps
(:func:`~scopa.store.summaries.summary_of`)."""

from __future__ import annotations

import dataclasses
import threading
from datetime import UTC, datetime
from typing import Any

from scopa.deal import Deal
from scopa.errors import DealNotFoundError, MatchNotFoundError
from scopa.match import Match
from scopa.names import name_key
from scopa.rules import Settings
from scopa.store import LogEntry, RemovedDeal, StoredMatch
from scopa.store.records import MatchLine, stale_version
from scopa.store.summaries import summary_of


class MemoryMatches:
    def __init__(self) -> None:
        self._matches: dict[int, StoredMatch] = {}
        self._deleted: set[int] = set()
        self._log: dict[int, list[LogEntry]] = {}
        self._players: dict[str, datetime] = {}
        self._ids = 0
        self._lock = threading.Lock()

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
        """The list, newest first (by id), as the SQL store's kept summaries give it."""
        found = []
        for match_id in sorted(self._matches, reverse=True):
            stored = self._matches[match_id]
            if match_id in self._deleted or (before is not None and match_id >= before):
                continue
            line = summary_of(stored.match)
            if status and line["status"] != status:
                continue
            if player and name_key(player) not in {name_key(p) for p in stored.match.players}:
                continue
            found.append(
                MatchLine(
                    id=match_id,
                    name=stored.match.name,
                    players=tuple(line["players"]),
                    sides=tuple(line["sides"]),
                    variant=line["variant"],
                    status=line["status"],
                    winner=line["winner"],
                    totals=tuple(line["totals"]),
                    deal_count=line["deal_count"],
                    created_at=stored.created_at,
                    updated_at=stored.updated_at,
                )
            )
        return found[:limit], len(found) > limit

    def history(self, match_id: int) -> list[LogEntry]:
        self.get(match_id)
        return list(self._log[match_id])

    def player_names(self) -> list[str]:
        return sorted(self._players, key=lambda name: (-self._players[name].timestamp(), name))

    def create(self, *, match: Match, action: str = "create") -> StoredMatch:
        with self._lock:
            self._ids += 1
            now = datetime.now(UTC)
            stored = StoredMatch(self._ids, 1, match, now, now)
            self._matches[stored.id] = stored
            self._players.update(dict.fromkeys(match.players, now))
            self._log[stored.id] = []
            self._write(stored, action, f"Match {action}d", {})
            return stored

    def _change(
        self,
        match_id: int,
        version: int | None,
        action: str,
        summary: str,
        detail: dict[str, Any],
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
            self._write(stored, action, summary, detail)
            return stored

    def _write(self, stored: StoredMatch, action: str, summary: str, detail: Any) -> None:
        log = self._log[stored.id]
        log.append(
            LogEntry(len(log) + 1, stored.version, stored.updated_at, action, summary, detail)
        )

    def add_deal(self, *, match_id: int, deal: Deal, version: int | None) -> StoredMatch:
        match = self.get(match_id).match
        deals = (*match.deals, deal)
        return self._change(
            match_id,
            version,
            "add_deal",
            f"Deal {len(deals)} recorded",
            {},
            match=match.with_deals(deals),
        )

    def replace_deal(
        self, *, match_id: int, number: int, deal: Deal, version: int | None
    ) -> StoredMatch:
        match = self.get(match_id).match
        if not 1 <= number <= len(match.deals):
            raise DealNotFoundError(f"match {match_id} has no deal {number}")
        deals = list(match.deals)
        deals[number - 1] = deal
        return self._change(
            match_id,
            version,
            "replace_deal",
            f"Deal {number} edited",
            {},
            match=match.with_deals(deals),
        )

    def delete_deal(self, *, match_id: int, number: int, version: int | None) -> StoredMatch:
        current = self.get(match_id)
        deals = list(current.match.deals)
        if not 1 <= number <= len(deals):
            raise DealNotFoundError(f"match {match_id} has no deal {number}")
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
            match=current.match.with_deals(deals),
            removed=(*current.removed, gone),
        )

    def restore_deal(self, *, match_id: int, removed_id: int, version: int | None) -> StoredMatch:
        current = self.get(match_id)
        back = next((r for r in current.removed if r.id == removed_id), None)
        if back is None:
            raise DealNotFoundError(f"match {match_id} has no removed deal {removed_id}")
        deals = list(current.match.deals)
        number = min(back.number, len(deals) + 1)
        deals.insert(number - 1, back.deal)
        removed = tuple(r for r in current.removed if r.id != removed_id)
        return self._change(
            match_id,
            version,
            "restore_deal",
            f"Deal {number} restored",
            {},
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
    ) -> StoredMatch:
        match = dataclasses.replace(self.get(match_id).match, settings=settings)
        return self._change(
            match_id, version, "settings", summary, {"changes": changes}, match=match
        )

    def rename(self, *, match_id: int, name: str | None, version: int | None) -> StoredMatch:
        match = dataclasses.replace(self.get(match_id).match, name=name or None)
        return self._change(match_id, version, "rename", "Renamed", {}, match=match)

    def delete_match(self, *, match_id: int, version: int | None) -> None:
        self._change(match_id, version, "delete_match", "Match deleted", {})
        self._deleted.add(match_id)
