"""Wrong codes per address, kept in the database (``join_failures``): every process of a
server (``scopa serve --workers N``) counts the same failures, so a guesser cannot spread its
tries over the processes. Used for the ``--lan`` access codes and the hosted join codes.
"""

from __future__ import annotations

import ipaddress
import time
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
