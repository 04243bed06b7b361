"""A small least-recently-used cache of committed states.

Entries are keyed by what identifies a committed state of a match: its id, version and
last-change time. Every write bumps the version and the time, so an entry never goes stale,
and a database rewound to an older backup cannot hit an entry of the state it replaced
unless that state is the very same one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import Generic, TypeVar

V = TypeVar("V")
StateKey = tuple[int, int, datetime]
"""(match id, version, last change)."""


class StateCache(Generic[V]):
    """Thread-safe LRU map from a committed state to something computed from it."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._entries: OrderedDict[StateKey, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: StateKey) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: StateKey, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
