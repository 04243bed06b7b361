"""A least-recently-used cache of committed states: the store reads a match's rows into
records once per state (the sheet is kept on the match by the core), and a change's own
answer is remembered once it has committed, so the next read of that state needs no rows.

Entries are keyed by what identifies a committed state of a match: its id, version and
last-change time. Every write bumps the version and the time, so an entry never goes stale,
and a database rewound to an older backup cannot hit an entry of the state it replaced
unless that state is the very same one. One state is kept per match (the newest seen), with
the group the match belongs to, so that :meth:`StateCache.latest` can offer it to a change
as a guess that the change's own transaction then checks (see
:meth:`scopa.store.matches.SqlMatches.peek`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import Generic, TypeVar

V = TypeVar("V")
StateKey = tuple[int, int, datetime]
"""(match id, version, last change)."""
SIZE = 2048
"""Matches remembered per process (a state of a 30-deal match takes about 30 KB)."""


class StateCache(Generic[V]):
    """Thread-safe LRU map from a match to the newest committed state read or written of
    it (with its group)."""

    def __init__(self, size: int = SIZE) -> None:
        self._size = size
        self._entries: OrderedDict[int, tuple[StateKey, int | None, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: StateKey) -> V | None:
        """The state ``key`` if it is the one kept for its match."""
        with self._lock:
            entry = self._entries.get(key[0])
            if entry is None or entry[0] != key:
                return None
            self._entries.move_to_end(key[0])
            return entry[2]

    def latest(self, match_id: int, group: int | None) -> tuple[StateKey, V] | None:
        """The newest state kept of match ``match_id`` if it belongs to ``group``."""
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is None or entry[1] != group:
                return None
            return entry[0], entry[2]

    def put(self, key: StateKey, value: V, group: int | None = None) -> None:
        """Keep ``value`` as the state ``key`` of its match, unless a newer version of that
        match is kept already (a slow reader does not push back a change's answer)."""
        with self._lock:
            entry = self._entries.get(key[0])
            if entry is not None and entry[0][1] > key[1]:
                return
            self._entries[key[0]] = (key, group, value)
            self._entries.move_to_end(key[0])
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def drop(self, match_id: int) -> None:
        with self._lock:
            self._entries.pop(match_id, None)
