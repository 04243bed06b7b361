"""Wrong codes per address.

- :class:`MemoryFailures`, for the ``--lan`` access codes and the hosted join codes: kept in
  the process's memory, in a bounded table, with a budget of code checks per second for all
  addresses together beside the one per address. A wrong code then costs no write to the
  database: guesses from many addresses at once neither wait on nor hold SQLite's write lock,
  and the owner's requests are not queued behind them.
- :class:`StoredFailures`, for the tables' codes: kept in the database (``join_failures``),
  so that every process of a server (``scopa serve --workers N``) counts the same failures.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select

from scopa.store.database import aware
from scopa.store.devices import Transaction
from scopa.store.models import JoinFailureRow, utcnow

MAX_FAILURES = 5
FAILURE_WINDOW = 60.0
PURGE_EVERY = 60.0


def counted_as(address: str) -> str:
    """Whom a failure is counted against: an IPv4 address, or an IPv6 address's /64 (one
    device or home gets a whole /64 and may pick any address in it).

    >>> counted_as("192.0.2.7"), counted_as("2001:db8:1:2::99"), counted_as("::ffff:192.0.2.7")
    ('192.0.2.7', '2001:db8:1:2::/64', '192.0.2.7')
    """
    try:
        found = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address[:64]
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.ip_network(f"{found}/64", strict=False))
    return str(found)


class StoredFailures:
    """At most ``most`` wrong codes from one address in any ``window`` seconds. ``clock``
    (seconds, any origin: ``time.monotonic`` by default) times the purges of old failures;
    ``now`` (the wall clock, ``utcnow`` by default) dates each failure and the window.
    ``kind`` keeps apart what is guessed (``"table "``: tables' codes; ``""``: the access
    and group codes)."""

    def __init__(
        self,
        transaction: Transaction,
        most: int = MAX_FAILURES,
        window: float = FAILURE_WINDOW,
        clock: Callable[[], float] = time.monotonic,
        kind: str = "",
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self._transaction = transaction
        self._kind = kind
        self.most = most
        self.window = window
        self._clock = clock
        self._now = now
        self._last_purge: float | None = None

    def _who(self, address: str) -> str:
        return f"{self._kind}{counted_as(address)}"[:64]

    def retry_after(self, address: str) -> int:
        """Seconds until ``address`` may try a code again (0: now)."""
        now = self._now()
        since = now - timedelta(seconds=self.window)
        with self._transaction() as session:
            count, oldest = session.execute(
                select(func.count(), func.min(JoinFailureRow.at)).where(
                    JoinFailureRow.address == self._who(address), JoinFailureRow.at > since
                )
            ).one()
        if int(count) < self.most or oldest is None:
            return 0
        wait = (aware(oldest) - since).total_seconds()
        return max(1, int(wait + 0.999))

    def failed(self, address: str) -> int:
        """Count a wrong code from ``address``; returns how many in the window."""
        now = self._now()
        since = now - timedelta(seconds=self.window)
        with self._transaction() as session:
            at = self._clock()
            if self._last_purge is None or at - self._last_purge >= PURGE_EVERY:
                self._last_purge = at
                session.execute(delete(JoinFailureRow).where(JoinFailureRow.at <= since))
            session.add(JoinFailureRow(address=self._who(address), at=now))
            session.flush()
            count = session.scalar(
                select(func.count()).where(
                    JoinFailureRow.address == self._who(address), JoinFailureRow.at > since
                )
            )
        return int(count or 0)

    def forgive(self, address: str) -> None:
        """Take back the newest attempt counted for ``address`` (its code was right)."""
        with self._transaction() as session:
            newest = session.scalar(
                select(func.max(JoinFailureRow.id)).where(
                    JoinFailureRow.address == self._who(address)
                )
            )
            if newest is not None:
                session.execute(delete(JoinFailureRow).where(JoinFailureRow.id == newest))


CHECKS_PER_SECOND = 8
"""Code checks (each a scrypt hash of some tens of milliseconds) one server process works
out in any second, from all addresses together: past it, a code offered is answered 429 at
once, so that guesses from many addresses cannot take the processor from the owner."""
MOST_ADDRESSES = 4096
"""Addresses a :class:`MemoryFailures` remembers; past it, the one whose newest failure is
oldest is forgotten first."""


class MemoryFailures:
    """Wrong codes per address, kept in this process's memory (no write to the database, so
    that a burst of guesses never waits on, or holds, SQLite's write lock): at most ``most``
    in any ``window`` seconds from one address, at most ``per_second`` code checks in any
    second from all of them together (:meth:`busy`), and at most ``capacity`` addresses
    remembered. ``clock`` (seconds, any origin) is ``time.monotonic`` unless a test injects
    one. Each process of ``scopa serve --workers N`` counts its own."""

    def __init__(
        self,
        most: int = MAX_FAILURES,
        window: float = FAILURE_WINDOW,
        clock: Callable[[], float] = time.monotonic,
        per_second: int = CHECKS_PER_SECOND,
        capacity: int = MOST_ADDRESSES,
    ) -> None:
        self.most = most
        self.window = window
        self.per_second = per_second
        self.capacity = capacity
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._checks: deque[float] = deque()

    def remembered(self) -> int:
        """How many addresses are remembered."""
        return len(self._seen)

    def _recent(self, who: str, now: float) -> deque[float]:
        times = self._seen.get(who)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._seen[who]
        return times

    def retry_after(self, address: str) -> int:
        """Seconds until ``address`` may try a code again (0: now)."""
        with self._lock:
            now = self._clock()
            times = self._recent(counted_as(address), now)
            if len(times) < self.most:
                return 0
            return max(1, int(times[0] + self.window - now + 0.999))

    def failed(self, address: str) -> int:
        """Count a wrong code from ``address``; returns how many in the window."""
        who = counted_as(address)
        with self._lock:
            now = self._clock()
            times = self._recent(who, now)
            times.append(now)
            self._seen[who] = times
            self._seen.move_to_end(who)
            while len(self._seen) > self.capacity:
                self._seen.popitem(last=False)
            return len(times)

    def forgive(self, address: str) -> None:
        """Take back the newest attempt counted for ``address`` (its code was right, or it
        was never checked)."""
        who = counted_as(address)
        with self._lock:
            times = self._seen.get(who)
            if times:
                times.pop()
                if not times:
                    del self._seen[who]

    def busy(self) -> bool:
        """Take one of this second's code checks; ``True`` (and nothing taken) when all of
        them are spent."""
        with self._lock:
            now = self._clock()
            while self._checks and self._checks[0] <= now - 1.0:
                self._checks.popleft()
            if len(self._checks) >= self.per_second:
                return True
            self._checks.append(now)
            return False
