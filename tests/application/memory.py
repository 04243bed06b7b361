"""A second backend for the :class:`~scopa.store.protocol.Matches` protocol: plain dicts in
memory. It keeps facts and versions, and the line of the list each change is handed; it
never scores."""

from __future__ import annotations

import dataclasses
import threading
from datetime import UTC, datetime
from typing import Any

from scopa.changes import ChangeSettings, DeleteDeal, MatchChange, RestoreDeal
from scopa.errors import MatchNotFoundError
from scopa.made_names import PERSON, Seat
from scopa.match import Match
from scopa.names import name_key
from scopa.store import LogEntry, RemovedDeal, StoredMatch
from scopa.store.records import (
    FIRST_PAGE,
    PRESENCE,
    GameWrite,
    ListPage,
    MatchLine,
    Standing,
    TableRecord,
    TableWrite,
    stale_version,
)
from scopa.store.tables import TAKEOVER, TOUCH_EVERY


class MemoryMatches:
    def __init__(self) -> None:
        self._matches: dict[int, StoredMatch] = {}
        self._deleted: set[int] = set()
        self._log: dict[int, list[LogEntry]] = {}
        self._players: dict[str, datetime] = {}
        self._seats: dict[str, Seat] = {}
        """By name key: the seat the program gave a name (as the SQL store's ``players.seat``)."""
        self._standings: dict[int, Standing | None] = {}
        self._ids = 0
        self._lock = threading.Lock()

    def peek(self, match_id: int) -> StoredMatch | None:
        return None  # every change reads the match first

    def get(self, match_id: int, lock: bool = False) -> StoredMatch:
        if match_id not in self._matches or match_id in self._deleted:
            raise MatchNotFoundError(f"no match with id {match_id}")
        return self._matches[match_id]

    def all(self) -> list[StoredMatch]:
        live = [m for i, m in self._matches.items() if i not in self._deleted]
        return sorted(live, key=lambda m: (m.updated_at, m.id), reverse=True)

    def lines(self, page: ListPage = FIRST_PAGE) -> tuple[list[MatchLine], bool]:
        """The list, newest first (by id), from the lines kept with the changes."""
        found = []
        for match_id in sorted(self._matches, reverse=True):
            stored = self._matches[match_id]
            if match_id in self._deleted or (page.before is not None and match_id >= page.before):
                continue
            line = self._standings[match_id]
            if line is None:  # no line kept: listed whatever the filters, to be filled in
                line = Standing(stored.match.players, (), stored.match.variant, "", None, (), 0)
            elif (page.status and line.status != page.status) or (
                page.player and name_key(page.player) not in {name_key(p) for p in line.players}
            ):
                continue
            found.append(
                MatchLine(
                    line.players,
                    line.sides,
                    line.variant,
                    line.status,
                    line.winner,
                    line.totals,
                    line.deal_count,
                    id=match_id,
                    name=stored.match.name,
                    made=stored.match.made,
                    seat_kinds=stored.match.seat_kinds,
                    created_at=stored.created_at,
                    updated_at=stored.updated_at,
                    summarised=self._standings[match_id] is not None,
                )
            )
        return found[: page.limit], len(found) > page.limit

    def keep_standing(self, *, match_id: int, version: int, standing: Standing) -> None:
        with self._lock:
            current = self._matches.get(match_id)
            moved_on = current is None or current.version != version
            if not moved_on and self._standings[match_id] is None:
                self._standings[match_id] = standing

    def uncount(self, *, match_id: int, reason: str) -> None:
        with self._lock:
            current = self._matches.get(match_id)
            if current is not None and current.uncounted is None:
                self._matches[match_id] = dataclasses.replace(current, uncounted=reason)

    def history(self, match_id: int, last: int | None = None) -> list[LogEntry]:
        self.get(match_id)
        entries = list(self._log[match_id])
        return entries if last is None else entries[len(entries) - last :] if last > 0 else []

    def recent_history(self, match_id: int, last: int) -> tuple[list[LogEntry], int]:
        return self.history(match_id, last), len(self.history(match_id))

    def player_names(self) -> list[str]:
        people = [name for name in self._players if name_key(name) not in self._seats]
        return sorted(people, key=lambda name: (-self._players[name].timestamp(), name))

    def create(
        self, *, match: Match, action: str = "create", standing: Standing | None = None
    ) -> StoredMatch:
        with self._lock:
            self._ids += 1
            now = datetime.now(UTC)
            uncounted = None if standing is None else standing.uncounted
            stored = StoredMatch(self._ids, 1, match, now, now, (), uncounted)
            self._matches[stored.id] = stored
            self._players.update(dict.fromkeys(match.players, now))
            for name, seat in zip(match.players, match.seat_kinds, strict=False):
                if seat.kind != PERSON:
                    self._seats[name_key(name)] = seat
            self._log[stored.id] = []
            self._standings[stored.id] = standing
            self._write(stored, action, f"Match {action}d", {})
            return stored

    def change(self, change: MatchChange, standing: Standing | None = None) -> StoredMatch:
        with self._lock:
            current = self._current(change.match_id, change.version)
            match = change.after(current)
            removed = current.removed
            if isinstance(change, DeleteDeal):
                number = change.number
                gone = RemovedDeal(
                    1000 * current.id + len(removed) + 1,
                    number,
                    current.match.deals[number - 1],
                    datetime.now(UTC),
                )
                removed = (*removed, gone)
            elif isinstance(change, RestoreDeal):
                removed = tuple(r for r in removed if r.id != change.removed_id)
            stored = self._bump(current, standing, match, removed)
            if isinstance(change, ChangeSettings):  # its summary and what moved go in the log
                self._write(stored, change.action, change.summary, {"changes": change.changes})
            else:
                self._write(stored, change.action, change.action, {})
            return stored

    def _current(self, match_id: int, version: int | None) -> StoredMatch:
        current = self.get(match_id)
        if version is not None and version != current.version:
            raise stale_version(match_id, current.version, version)
        return current

    def _bump(
        self,
        current: StoredMatch,
        standing: Standing | None,
        match: Match,
        removed: tuple[RemovedDeal, ...],
    ) -> StoredMatch:
        """The next version of ``current``: ``match`` and ``removed``, its line ``standing``."""
        now = datetime.now(UTC)
        stored = StoredMatch(
            current.id,
            current.version + 1,
            match,
            current.created_at,
            now,
            removed,
            current.uncounted,
        )
        self._matches[stored.id] = stored
        self._standings[stored.id] = standing
        return stored

    def _write(self, stored: StoredMatch, action: str, summary: str, detail: Any) -> None:
        log = self._log[stored.id]
        log.append(
            LogEntry(len(log) + 1, stored.version, stored.updated_at, action, summary, detail)
        )

    def delete_match(self, *, match_id: int, version: int | None) -> None:
        with self._lock:
            current = self._current(match_id, version)
            stored = self._bump(current, None, current.match, current.removed)
            self._write(stored, "delete_match", "Match deleted", {})
            self._deleted.add(match_id)


OPEN_SEEDS = 20
"""As :data:`scopa.store.games.OPEN_SEEDS`: the seeds kept issued and not yet used."""


class MemoryGames:
    """A second backend for :class:`~scopa.store.protocol.GameStore`: the games against the
    computer as dicts, one group's (another group's game is not found)."""

    def __init__(self, kept: dict[int, dict[str, Any]] | None = None, group: int | None = None):
        self._kept: dict[int, dict[str, Any]] = {} if kept is None else kept
        self.group = group
        self._lock = threading.Lock()

    def _mine(self, game_id: int) -> dict[str, Any] | None:
        found = self._kept.get(game_id)
        return found if found is not None and found["group"] == self.group else None

    def create(
        self, *, variant: str, players: int, level: str, seed: int, unverified: str | None = None
    ) -> int:
        with self._lock:
            game_id = len(self._kept) + 1
            now = datetime.now(UTC)
            self._kept[game_id] = {
                "id": game_id,
                "variant": variant,
                "players": players,
                "level": level,
                "seed": seed,
                "log": [[]],
                "step": 0,
                "status": "playing",
                "match_id": None,
                "created_at": now,
                "updated_at": now,
                "unverified": unverified,
                "group": self.group,
            }
            return game_id

    def load(self, game_id: int) -> dict[str, Any] | None:
        found = self._mine(game_id)
        if found is None:
            return None
        return {k: v for k, v in found.items() if k != "group"}

    def save(self, game_id: int, move: GameWrite) -> bool:
        with self._lock:
            found = self._mine(game_id)
            if found is None or found["step"] != move.based_on:
                return False
            found.update(
                log=move.log, step=move.step, status=move.status, updated_at=datetime.now(UTC)
            )
            if move.unverified is not None and found["unverified"] is None:
                found["unverified"] = move.unverified
            return True

    def attach_match(self, game_id: int, match_id: int) -> bool:
        with self._lock:
            found = self._mine(game_id)
            if found is None or found["match_id"] is not None:
                return False
            found["match_id"] = match_id
            return True

    def playing(self, limit: int = 20) -> list[dict[str, Any]]:
        mine = [
            g for g in map(self._mine, self._kept) if g is not None and g["status"] == "playing"
        ]
        mine.sort(key=lambda g: (g["updated_at"], g["id"]), reverse=True)
        return [{k: v for k, v in g.items() if k != "group"} for g in mine[:limit]]


class MemorySeeds:
    """A second backend for :class:`~scopa.store.protocol.SeedStore`: the seeds issued to a
    group's devices."""

    def __init__(self, group: int | None = None) -> None:
        self.group = group
        self._issued: dict[int, int] = {}
        self._tickets = 0
        self._lock = threading.Lock()

    def issue(self, seed: int) -> int:
        with self._lock:
            self._tickets += 1
            self._issued[self._tickets] = seed
            for old in sorted(self._issued)[:-OPEN_SEEDS]:
                del self._issued[old]
            return self._tickets

    def claim(self, ticket: int, seed: int) -> str:
        with self._lock:
            if ticket not in self._issued:
                return "unknown"
            if self._issued[ticket] != seed:
                return "other"
            del self._issued[ticket]
            return "ok"


@dataclasses.dataclass
class _Table:
    record: TableRecord
    turn: int | None = None
    player: str | None = None


class MemoryTables:
    """A second backend for the :class:`~scopa.store.protocol.TableStore` protocol: the
    tables of one group in a dict, with the SQL store's rules (a move written only on the
    step it was based on, the computer due for a computer seat, a person away longer than
    the grace, or a turn clock run out, on the tables whose last move this process wrote and
    on the others once :data:`TAKEOVER` seconds late)."""

    def __init__(self, group: int | None = None, player: str = "memory") -> None:
        self._tables: dict[int, _Table] = {}
        self.group = group
        self.player = player
        self._lock = threading.Lock()

    def _seat(self, table_id: int, seat: int, **changes: Any) -> None:
        kept = self._tables[table_id]
        seats = tuple(
            dataclasses.replace(s, **changes) if s.seat == seat else s for s in kept.record.seats
        )
        kept.record = dataclasses.replace(kept.record, seats=seats)

    def _bump(self, table_id: int) -> None:
        kept = self._tables[table_id]
        kept.record = dataclasses.replace(kept.record, version=kept.record.version + 1)

    def create(self, record: TableRecord) -> int:
        with self._lock:
            table_id = len(self._tables) + 1
            stored = dataclasses.replace(record, id=table_id, group_id=self.group, match_id=None)
            self._tables[table_id] = _Table(stored)
            return table_id

    def load(self, table_id: int) -> TableRecord | None:
        kept = self._tables.get(table_id)
        return None if kept is None else kept.record

    def by_code(self, code: str) -> TableRecord | None:
        return next(
            (t.record for t in self._tables.values() if code and t.record.code == code), None
        )

    def take_seat(self, table_id: int, seat: int, name: str, token_hash: str, now: float) -> bool:
        with self._lock:
            kept = self._tables.get(table_id)
            if kept is None or any(s.seat == seat and s.taken for s in kept.record.seats):
                return False
            self._seat(table_id, seat, name=name, token_hash=token_hash, seen_at=now)
            self._bump(table_id)
            return True

    def save(self, table_id: int, move: TableWrite) -> int | None:
        with self._lock:
            kept = self._tables.get(table_id)
            if kept is None or kept.record.step != move.based_on:
                return None
            record = dataclasses.replace(
                kept.record,
                log=move.log,
                status=move.status,
                step=move.based_on + 1,
                version=kept.record.version + 1,
                moved_at=move.now,
                seed=kept.record.seed if move.seed is None else move.seed,
                match_id=kept.record.match_id if move.match_id is None else move.match_id,
            )
            kept.record, kept.turn, kept.player = record, move.turn, self.player
            if move.seen is not None:
                self._seat(table_id, move.seen, seen_at=move.now)
            return kept.record.version

    def attach_match(self, table_id: int, match_id: int) -> bool:
        with self._lock:
            kept = self._tables.get(table_id)
            if kept is None or kept.record.match_id is not None:
                return False
            kept.record = dataclasses.replace(kept.record, match_id=match_id)
            return True

    def touch(self, table_id: int, seat: int, seen_at: float, now: float) -> bool:
        with self._lock:
            kept = self._tables.get(table_id)
            found = (
                None
                if kept is None
                else next((s for s in kept.record.seats if s.seat == seat), None)
            )
            if found is None:
                return False
            was = found.seen_at
            if was is not None and 0 <= seen_at - was < TOUCH_EVERY:
                return False
            self._seat(table_id, seat, seen_at=seen_at)
            return was is None or now - was > PRESENCE

    def bump(self, table_id: int) -> None:
        with self._lock:
            if table_id in self._tables:
                self._bump(table_id)

    def due(self, now: float, pause: float) -> list[tuple[int, int]]:
        found = []
        for kept in sorted(self._tables.values(), key=lambda t: t.record.moved_at):
            record = kept.record
            if record.status != "playing" or kept.turn is None or record.moved_at > now - pause:
                continue
            if kept.player not in (None, self.player) and record.moved_at > now - pause - TAKEOVER:
                continue
            mover = next(s for s in record.seats if s.seat == kept.turn)
            clock_out = (
                mover.kind == "human"
                and record.clock > 0
                and record.moved_at <= now - record.clock
                and mover.seen_at is not None
                and mover.seen_at >= now - PRESENCE
            )
            someone_there = any(
                s.kind == "human" and not s.away_too_long(now, record.grace) for s in record.seats
            )
            if someone_there and (
                mover.kind == "computer" or mover.away_too_long(now, record.grace) or clock_out
            ):
                found.append((record.id, record.step))
        return found[:200]

    def counts(self, since: float) -> tuple[int, int]:
        live = [
            t.record
            for t in self._tables.values()
            if t.record.status != "match_over" and t.record.moved_at >= since
        ]
        return len(live), sum(1 for r in live for s in r.seats if s.kind == "human")

    def versions(self, ids: list[int]) -> dict[int, int]:
        return {i: self._tables[i].record.version for i in sorted(ids)[:1000] if i in self._tables}

    def any_playing(self) -> bool:
        return any(t.record.status == "playing" for t in self._tables.values())
