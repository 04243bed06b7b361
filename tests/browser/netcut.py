"""A phone's signal that a test can really cut: a forward HTTP proxy on loopback between one
browser context and the servers it reaches.

Playwright's ``set_offline`` emulates no network in the page and, since 1.65, in its service
worker; but a service worker started (or restarted) in the moment the emulation is sent can
still reach the server, and a test of the phone with no signal then fails now and then. A
context made by :func:`context_with_signal` goes through a :class:`Signal`; :func:`go_offline`
cuts it (every open connection closed, new ones refused) as well as emulating, so nothing the
page or its workers send leaves the phone, and :func:`back_online` gives it back. The test's
own requests (httpx) go to the server directly and are never cut.

Only loopback is forwarded: anything else gets a 403 from the proxy.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
HEAD_LIMIT = 1 << 16
# Hop-by-hop headers the proxy answers for itself (RFC 9110, 7.6.1).
HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer"}


class Signal:
    """The proxy, served by its own event loop in a thread; ``url`` is its address."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.up = True
        self.live: set[asyncio.StreamWriter] = set()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: asyncio.Server | None = self._call(self._listen())
        port = self.server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=10)

    async def _listen(self) -> asyncio.Server:
        return await asyncio.start_server(self._client, "127.0.0.1", 0, limit=HEAD_LIMIT)

    def drop(self) -> None:
        """The signal lost: every connection open through the proxy is reset, and new ones are
        refused until :meth:`restore`."""
        self._call(self._drop())

    async def _drop(self) -> None:
        self.up = False
        for writer in list(self.live):
            writer.transport.abort()
        self.live.clear()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        """Stops listening, ends every connection and the loop (each once)."""
        if self.server is None:
            return
        self._call(self._close())
        self.server = None
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()

    async def _close(self) -> None:
        await self._drop()
        assert self.server is not None
        self.server.close()
        # The connections' tasks end here, not as garbage once the loop is gone.
        tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.transport.abort()
            return
        self.live.add(writer)
        upstream: asyncio.StreamWriter | None = None
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            line, *fields = head[:-4].split("\r\n")
            method, target, version = line.split(" ", 2)
            if method == "CONNECT":
                host, _, port = target.rpartition(":")
                path = ""
            else:
                parts = urlsplit(target)
                host, port = parts.hostname or "", str(parts.port or 80)
                path = parts.path or "/"
                if parts.query:
                    path += "?" + parts.query
            host = host.strip("[]")
            if host not in LOOPBACK:
                writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
                return
            up_reader, upstream = await asyncio.open_connection(host, int(port))
            self.live.add(upstream)
            if method == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                upgrade = any(f.lower().startswith("upgrade:") for f in fields)
                kept = [f for f in fields if f.split(":", 1)[0].strip().lower() not in HOP]
                # One request a connection: the answer ends the tunnel, so nothing has to be
                # parsed after the head (an upgrade keeps its Connection header).
                kept.append("Connection: upgrade" if upgrade else "Connection: close")
                upstream.write(
                    ("\r\n".join([f"{method} {path} {version}", *kept]) + "\r\n\r\n").encode(
                        "latin-1"
                    )
                )
            await asyncio.gather(_pipe(reader, upstream), _pipe(up_reader, writer))
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            for end in (writer, upstream):
                if end is not None:
                    self.live.discard(end)
                    end.transport.abort()


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    """Copies ``source`` to ``sink`` until it ends; then ``sink`` is told no more is coming."""
    with contextlib.suppress(OSError):
        while chunk := await source.read(1 << 16):
            sink.write(chunk)
            await sink.drain()
        if sink.can_write_eof():
            sink.write_eof()


SIGNALS: weakref.WeakKeyDictionary[BrowserContext, Signal] = weakref.WeakKeyDictionary()


def context_with_signal(make: Callable[..., BrowserContext], **options: Any) -> BrowserContext:
    """A new context (``make`` is ``Browser.new_context`` or pytest-playwright's
    ``new_context``) whose every request goes through a :class:`Signal` of its own, closed
    with the context."""
    signal = Signal()
    context = make(**options, proxy={"server": signal.url})
    SIGNALS[context] = signal
    context.on("close", lambda _: signal.close())
    return context


def signal_of(context: BrowserContext) -> Signal:
    """The context's :class:`Signal`: a test that goes offline must really be cut off."""
    signal = SIGNALS.get(context)
    assert signal is not None, "a context that goes offline is made by context_with_signal"
    return signal


def go_offline(context: BrowserContext) -> None:
    """No signal: the connection really cut, and the emulation (the page's
    ``navigator.onLine`` is false)."""
    signal_of(context).drop()
    context.set_offline(True)


def back_online(context: BrowserContext, page: Page | None = None) -> None:
    """The network back: Chromium tells the page with an ``online`` event, sent here again
    for a page that missed it. The page may already be syncing and reloading, in which case
    the second event has nowhere to go and is not needed."""
    signal_of(context).restore()
    context.set_offline(False)
    if page is None:
        return
    try:
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
    except PlaywrightError as error:
        if "Execution context was destroyed" not in error.message:
            raise
