"""The HTTP server under ``scopa serve``: uvicorn's h11 protocol with deadlines and a cap.

uvicorn closes an idle keep-alive connection, but it waits forever for a request whose headers
or body never finish arriving, and it takes any number of connections from one address; a few
hundred half-open sockets exhaust the open-file limit and normal requests stall. Here:

- a connection must deliver a request's headers within ``header_timeout`` seconds of opening
  (or of the previous answer), and its body within ``body_timeout`` seconds of the headers;
  otherwise it is answered 408 (when nothing else was sent) and closed;
- one client address holds at most ``per_client`` connections; more are answered 503 and
  closed;
- the process holds at most ``total`` connections (:func:`connection_budget`: fewer when the
  open-file limit is lower, so that a flood of idle connections never runs the process out of
  descriptors); a connection past it takes the place of the oldest idle connection (one
  waiting for a request) of the address that holds the most, when that is another address
  with more than its share, and is otherwise answered 503 and closed;
- the connections refused are logged once a second, with how many and from where, not once
  each;
- :func:`raise_open_file_limit` lifts the soft limit on open files to the hard one at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol


@dataclass(frozen=True, slots=True)
class Limits:
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    per_client: int = 64
    send_timeout: float = 30.0
    """Seconds an answer may wait on a client that reads none of it (the socket's buffer
    full) before the connection is dropped: a client that asks for a large file and never
    reads it does not hold the connection, and its slot, for ever."""
    proxies: tuple[str, ...] = ()
    """The addresses (or networks) of the proxies in front whose ``X-Forwarded-For`` is
    believed (``--proxy``); from anyone else the header is ignored, loopback included."""
    total: int = 65536
    """Open connections the process holds from all addresses together, at most; lowered
    to what the open-file limit leaves by :func:`connection_budget`, which is the bound in
    practice."""


RESERVED_FILES = 256
"""Descriptors kept out of the connections' budget: the database and its journal, the
connection pool, the static files being sent, the worker processes' pipes."""

ACCEPT_BURST = 64
"""How many connections asyncio accepts in one go before any of them is looked at (the
``backlog`` it is given, and listens with before :meth:`Server.startup` widens the queue to
:data:`LISTEN_QUEUE`): a burst stays within :data:`RESERVED_FILES`, so a flood
never takes the descriptors past the open-file limit before the budget is applied."""

LISTEN_QUEUE = 2048
"""The kernel's queue of connections not yet accepted (set again after asyncio's listen)."""

logger = logging.getLogger("scopa.web.serve")


def open_file_limit() -> int | None:
    """The soft limit on open files in force (``None``: no limit, or no way to know)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def connection_budget(total: int, files: int | None) -> int:
    """The connections a process may hold: ``total``, or fewer when the open-file limit
    ``files`` leaves less beside :data:`RESERVED_FILES` (at least 16).

    >>> connection_budget(65536, 1024), connection_budget(4096, 1_048_576)
    (768, 4096)
    >>> connection_budget(65536, 100), connection_budget(8, 1024)
    (16, 8)
    """
    if files is None:
        return total
    return min(total, max(16, files - RESERVED_FILES))


REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 37\r\n\r\nthe request did not arrive in time.\r\n"
)
TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\nretry-after: 5\r\ncontent-length: 43\r\n\r\n"
    b"too many connections from this address.\r\n\r\n"
)
FULL = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\nretry-after: 5\r\ncontent-length: 46\r\n\r\n"
    b"the server holds all the connections it can.\r\n"
)


class Refusals:
    """The connections refused, told to the log once a second at most: how many, why, and
    the addresses that sent the most."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._by_why: Counter[str] = Counter()
        self._by_address: Counter[str] = Counter()
        self._pending: asyncio.TimerHandle | None = None

    def note(self, why: str, address: str) -> None:
        self._by_why[why] += 1
        self._by_address[address] += 1
        if self._pending is None:
            self._pending = self._loop.call_later(1.0, self.flush)

    def flush(self) -> None:
        self._pending = None
        if not self._by_why:
            return
        whys = ", ".join(f"{count} {why}" for why, count in sorted(self._by_why.items()))
        most = ", ".join(f"{a} ({n})" for a, n in self._by_address.most_common(3))
        logger.warning(
            "connections refused in the last second: %s; the most from %s (%d addresses)",
            whys,
            most,
            len(self._by_address),
        )
        self._by_why.clear()
        self._by_address.clear()


def guarded_protocol(limits: Limits, files: int | None = None) -> type[H11Protocol]:
    """An h11 protocol class enforcing ``limits`` (one per server: it counts connections).
    ``files``: the open-file limit the connections' budget stays under (the process's own
    when not given)."""
    open_by_client: dict[str, dict[Any, None]] = {}
    budget = connection_budget(limits.total, open_file_limit() if files is None else files)
    held = [0]
    refusals: list[Refusals] = []

    def refused(loop: asyncio.AbstractEventLoop, why: str, address: str) -> None:
        if not refusals:
            refusals.append(Refusals(loop))
        refusals[0].note(why, address)

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _phase: str | None = None
        _counted: str | None = None
        _stalled: asyncio.TimerHandle | None = None
        refusals: ClassVar[list[Refusals]] = []
        """The refusals not yet logged (flushed at shutdown too)."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = str(self.client[0]) if self.client else ""
            mine = open_by_client.setdefault(address, {})
            mine[self] = None
            held[0] += 1
            self._counted = address
            if len(mine) > limits.per_client:
                refused(self.loop, "too many from one address", address)
                transport.write(TOO_MANY)
                transport.close()
                return
            if held[0] > budget and not self._make_room(address):
                refused(self.loop, "with the server full", address)
                transport.write(FULL)
                transport.close()
                return
            self._sync_deadline()

        def _make_room(self, address: str) -> bool:
            """Close the oldest idle connection of the address holding the most, if that is
            another address holding more than this one would after taking its place."""
            busiest = max(open_by_client, key=lambda a: len(open_by_client[a]))
            if busiest == address or len(open_by_client[busiest]) <= len(open_by_client[address]):
                return False
            for other in open_by_client[busiest]:
                if other is not self and other._idle():
                    refused(self.loop, "idle, for a new address", busiest)
                    other.transport.close()
                    other._uncount()
                    return True
            return False

        def _idle(self) -> bool:
            """Waiting for a request (none in progress, nothing being sent)."""
            return (
                not self.transport.is_closing()
                and self.conn.their_state is h11.IDLE
                and (self.cycle is None or self.cycle.response_complete)
            )

        def _uncount(self) -> None:
            if self._counted is not None:
                mine = open_by_client.get(self._counted, {})
                mine.pop(self, None)
                if not mine:
                    open_by_client.pop(self._counted, None)
                held[0] -= 1
                self._counted = None

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._stalled is None:
                self._stalled = self.loop.call_later(limits.send_timeout, self._not_reading)

        def resume_writing(self) -> None:
            super().resume_writing()
            if self._stalled is not None:
                self._stalled.cancel()
                self._stalled = None

        def _not_reading(self) -> None:
            self._stalled = None
            if not self.transport.is_closing():
                self.transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._stalled is not None:
                self._stalled.cancel()
                self._stalled = None
            self._cancel_deadline()
            self._uncount()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            self._sync_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._sync_deadline()

        def _sync_deadline(self) -> None:
            """Arm the deadline of what the client is sending now: headers (waiting for a
            request), the body (headers in), or none (the request is in, the app answers)."""
            if self.transport.is_closing():
                self._cancel_deadline()
                return
            state = self.conn.their_state
            phase = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
            if phase == self._phase:
                return
            self._cancel_deadline()
            self._phase = phase
            if phase is not None:
                seconds = limits.header_timeout if phase == "headers" else limits.body_timeout
                self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _cancel_deadline(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            self._phase = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or self.cycle.response_complete:
                self.transport.write(REQUEST_TIMEOUT)
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
            self.transport.close()

    GuardedH11Protocol.refusals = refusals
    return GuardedH11Protocol


COLLECTOR = (50_000, 20, 100)
"""The cyclic garbage collector's thresholds in a server process (Python's are 700, 10,
10). A request makes thousands of short-lived objects; at 700 a young collection runs
every few requests and moves whatever is in flight to the older generations, so the full
collections, which go through every object the process holds (its caches, its open
streams), came every few seconds and stalled each worker for 50 to 140 ms at 500 tables
(docs/hosted.md, "Load"). With these, full collections are about ten times rarer."""


def settle_collector() -> None:
    """Ready the collector for serving: what is loaded now lives as long as the process,
    so it is kept out of every collection (``gc.freeze``), and the thresholds are
    :data:`COLLECTOR`'s."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR)


def raise_open_file_limit() -> int | None:
    """Lift the soft limit on open files to the hard limit (where the system has one);
    returns the limit now in force."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft == resource.RLIM_INFINITY or (soft != resource.RLIM_INFINITY and soft >= wanted):
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft
    return wanted


def uvicorn_config(
    app: Any,
    host: str,
    port: int,
    limits: Limits,
    certfile: str | None = None,
    keyfile: str | None = None,
) -> Any:
    """The uvicorn configuration ``scopa serve`` runs with (HTTPS with a certificate)."""
    budget = connection_budget(limits.total, open_file_limit())
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(limits),
        # uvicorn's own bound, past the guard's (which makes room for a new address):
        # requests in progress stay below the open-file limit too
        limit_concurrency=budget + limits.per_client,
        backlog=ACCEPT_BURST,
        log_level="warning",
        access_log=False,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=10,
        proxy_headers=bool(limits.proxies),
        forwarded_allow_ips=list(limits.proxies) or [],
        ssl_certfile=certfile,
        ssl_keyfile=keyfile,
    )


class Server(uvicorn.Server):
    """uvicorn's server, which at shutdown first ends the app's event streams (uvicorn
    waits for every open response to finish, and a stream never would)."""

    def __init__(self, config: uvicorn.Config, app: Any) -> None:
        super().__init__(config)
        self.scopa_app = app

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        # asyncio listened with ACCEPT_BURST, which is also its accept loop's burst: the
        # kernel's queue is widened again, so a burst of connections (a flood, many phones
        # at once) waits there instead of being dropped to a SYN retry a second later
        for server in getattr(self, "servers", ()):
            for listening in server.sockets:
                with socket.fromfd(listening.fileno(), listening.family, listening.type) as same:
                    same.listen(LISTEN_QUEUE)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for refusals in getattr(self.config.http, "refusals", ()):
            refusals.flush()  # the last second's refusals, not left untold
        hub = getattr(getattr(self.scopa_app, "state", None), "events", None)
        if hub is not None:
            hub.stop_streams()
            await asyncio.sleep(0)  # the streams send their last chunk
        await super().shutdown(sockets)
