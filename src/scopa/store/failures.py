"""Wrong codes per address, kept in the database (``join_failures``): every process of a
server (``scopa serve --workers N``) counts the same failures, so a guesser cannot spread its
tries over the processes. Used for the ``--lan`` access codes and the hosted join codes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import delete, func, select

from scopa.store.database import aware
from scopa.store.devices import Transaction
from scopa.store.models import JoinFailureRow, utcnow

MAX_FAILURES = 5
FAILURE_WINDOW = 60.0
PURGE_EVERY = 60.0


class StoredFailures:
    """At most ``most`` wrong codes from one address in any ``window`` seconds. ``clock``
    (seconds, any origin: ``time.monotonic`` by default) times the purges of old failures."""

    def __init__(
        self,
        transaction: Transaction,
        most: int = MAX_FAILURES,
        window: float = FAILURE_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._transaction = transaction
        self.most = most
        self.window = window
        self._clock = clock
        self._last_purge: float | None = None

    def retry_after(self, address: str) -> int:
        """Seconds until ``address`` may try a code again (0: now)."""
        now = utcnow()
        since = now - timedelta(seconds=self.window)
        with self._transaction() as session:
            count, oldest = session.execute(
                select(func.count(), func.min(JoinFailureRow.at)).where(
                    JoinFailureRow.address == address[:64], JoinFailureRow.at > since
                )
            ).one()
        if int(count) < self.most or oldest is None:
            return 0
        wait = (aware(oldest) - since).total_seconds()
        return max(1, int(wait + 0.999))

    def failed(self, address: str) -> int:
        """Count a wrong code from ``address``; returns how many in the window."""
        now = utcnow()
        since = now - timedelta(seconds=self.window)
        with self._transaction() as session:
            at = self._clock()
            if self._last_purge is None or at - self._last_purge >= PURGE_EVERY:
                self._last_purge = at
                session.execute(delete(JoinFailureRow).where(JoinFailureRow.at <= since))
            session.add(JoinFailureRow(address=address[:64], at=now))
            session.flush()
            count = session.scalar(
                select(func.count()).where(
                    JoinFailureRow.address == address[:64], JoinFailureRow.at > since
                )
            )
        return int(count or 0)

    def forgive(self, address: str) -> None:
        """Take back the newest attempt counted for ``address`` (its code was right)."""
        with self._transaction() as session:
            newest = session.scalar(
                select(func.max(JoinFailureRow.id)).where(JoinFailureRow.address == address[:64])
            )
            if newest is not None:
                session.execute(delete(JoinFailureRow).where(JoinFailureRow.id == newest))
