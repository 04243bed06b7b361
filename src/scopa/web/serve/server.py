"""The HTTP server under ``scopa serve``: uvicorn's h11 protocol with deadlines and a cap.

uvicorn closes an idle keep-alive connection, but it waits forever for a request whose headers
or body never finish arriving, and it takes any number of connections from one address; a few
hundred half-open sockets exhaust the open-file limit and normal requests stall. Here:

- a connection must deliver a request's headers within ``header_timeout`` seconds of opening
  (or of the previous answer), and its body within ``body_timeout`` seconds of the headers;
  otherwise it is answered 408 (when nothing else was sent) and closed;
- one client address holds at most ``per_client`` connections; more are answered 503 and
  closed;
- :func:`raise_open_file_limit` lifts the soft limit on open files to the hard one at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
from collections import Counter
from dataclasses import dataclass
from typing import Any

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


REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 37\r\n\r\nthe request did not arrive in time.\r\n"
)
TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\nretry-after: 5\r\ncontent-length: 43\r\n\r\n"
    b"too many connections from this address.\r\n\r\n"
)


def guarded_protocol(limits: Limits) -> type[H11Protocol]:
    """An h11 protocol class enforcing ``limits`` (one per server: it counts connections)."""
    open_by_client: Counter[str] = Counter()

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _phase: str | None = None
        _counted: str | None = None
        _stalled: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = str(self.client[0]) if self.client else ""
            open_by_client[address] += 1
            self._counted = address
            if open_by_client[address] > limits.per_client:
                transport.write(TOO_MANY)
                transport.close()
                return
            self._sync_deadline()

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
            if self._counted is not None:
                open_by_client[self._counted] -= 1
                if open_by_client[self._counted] <= 0:
                    del open_by_client[self._counted]
                self._counted = None
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
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(limits),
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

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        hub = getattr(getattr(self.scopa_app, "state", None), "events", None)
        if hub is not None:
            hub.stop_streams()
            await asyncio.sleep(0)  # the streams send their last chunk
        await super().shutdown(sockets)
