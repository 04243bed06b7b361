"""Live updates pushed: ``GET /api/matches/{id}/events``, a Server-Sent Events stream.

After each change of the match, whichever process made it, the stream sends::

    event: change
    id: 8
    data: {"id": 3, "version": 8}

and a ``: keep-alive`` comment when nothing happened for :data:`KEEP_ALIVE` seconds. The
event's ``id`` is the version, so a browser that reconnects says where it was
(``Last-Event-ID``; or ``?since=V``) and hears at once of a change it missed. A deleted match
sends ``"deleted": true`` and the stream ends. On a hosted server a stream also ends within
a couple of seconds once its device token (or its group) is revoked
(:mod:`scopa.web.access.hosted` checks the devices of the open streams every second).

One :class:`EventHub` per process fans the changes of one feed out to every open stream
(:mod:`scopa.store.notify`: PostgreSQL's ``LISTEN``, SQLite's change counter): a stream costs
an entry in a dict and a waiting task, no database connection. The match is loaded through the
same service as every other route before the stream starts, so an unknown match (or one the
caller may not see) is a 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import AsyncIterator, Collection, Hashable
from typing import TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from scopa.i18n import _
from scopa.store.protocol import Feed, Store
from scopa.store.records import Member
from scopa.web.api import schemas
from scopa.web.deps import MEMBER, MatchId, Service
from scopa.web.versions import last_seen

logger = logging.getLogger("scopa.web.api.events")

KEEP_ALIVE = 15.0
"""Seconds of silence before a ``: keep-alive`` comment (the contract asks for at most 30)."""
RETRY_MS = 2000
"""How long a browser waits before it reconnects a dropped stream."""
READY_WAIT = 5.0
"""Seconds a new stream waits for the change feed to start listening."""
FEED_RESTART = 1.0
"""Seconds before a failed change feed starts again."""


Key = TypeVar("Key", bound=Hashable)
Stream = TypeVar("Stream", bound=Hashable)


def let_go(streams: dict[Key, set[Stream]], key: Key, stream: Stream) -> None:
    """Take ``stream`` out of the open streams under ``key`` (what they follow: a match, a
    table), and the key with it once no stream is left on it. The events hub and the tables'
    hub keep their streams so."""
    held = streams.get(key)
    if held is not None:
        held.discard(stream)
        if not held:
            del streams[key]


class Subscription:
    """One open stream: the last version it knows (0 before the match is read; ``None``
    once deleted), the device it was opened with (hosted), and a flag raised on a newer
    version (or at shutdown, or when the device is shut out)."""

    __slots__ = ("changed", "device", "match_id", "shut_out", "version")

    def __init__(self, match_id: int, version: int | None = 0, device: int | None = None) -> None:
        self.match_id = match_id
        self.version = version
        self.device = device
        self.shut_out = False
        self.changed = asyncio.Event()

    def start(self, read: int) -> None:
        """The stream starts from the version ``read`` (the match read once subscribed). A
        version the feed told meanwhile that is not newer (its first read of the followed
        matches, a recheck, the change that made the version read) is no change after it,
        and is not sent; a newer one, or the match deleted, is sent at once."""
        told = self.version
        if told == 0 or (told is not None and told <= read):
            self.version = read
            self.changed.clear()

    def offer(self, version: int | None) -> None:
        if version != self.version:
            self.version = version
            self.changed.set()


class EventHub:
    """The streams of one process and the feed that wakes them."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.closing = False
        self._streams: dict[int, set[Subscription]] = {}
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._start = asyncio.Lock()

    @classmethod
    def for_store(cls, store: Store) -> EventHub:
        return cls(store.feed())

    def watched(self) -> Collection[int]:
        return list(self._streams)

    @property
    def streams(self) -> int:
        return sum(len(s) for s in self._streams.values())

    def publish(self, match_id: int, version: int | None) -> None:
        for subscription in self._streams.get(match_id, ()):
            subscription.offer(version)

    def devices(self) -> set[int]:
        """The devices holding open streams (hosted)."""
        return {s.device for streams in self._streams.values() for s in streams if s.device}

    def shut_out(self, devices: Collection[int]) -> None:
        """End the streams of ``devices`` (their tokens were revoked)."""
        for streams in self._streams.values():
            for subscription in streams:
                if subscription.device in devices:
                    subscription.shut_out = True
                    subscription.changed.set()

    async def subscribe(self, match_id: int, device: int | None = None) -> Subscription:
        """Register a stream; the feed is running (and listening) when this returns."""
        await self._started()
        subscription = Subscription(match_id, device=device)
        self._streams.setdefault(match_id, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        let_go(self._streams, subscription.match_id, subscription)

    async def _started(self) -> None:
        async with self._start:
            if self._task is None:
                self._task = asyncio.create_task(self._run(), name="scopa change feed")
        # A feed that cannot start yet (the database is away) does not hold the stream up:
        # it reads the watched versions once it is back.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(READY_WAIT):
                await self._ready.wait()

    async def _run(self) -> None:
        """Run the feed; if it fails (the database went away), log it and start it again:
        the feed reads the watched versions when it starts, so nothing is missed."""
        while True:
            try:
                await self.feed.run(self.watched, self.publish, self._ready)
            except Exception as error:
                logger.warning("the change feed failed (%s); starting it again", error)
                await asyncio.sleep(FEED_RESTART)

    def stop_streams(self) -> None:
        """Shutting down: every stream ends now, new ones are refused."""
        self.closing = True
        for streams in self._streams.values():
            for subscription in streams:
                subscription.changed.set()

    async def close(self) -> None:
        """End every stream and stop the feed (the hub can start again afterwards, in
        another event loop: the test client's)."""
        self.stop_streams()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._ready = asyncio.Event()
        self.closing = False

    async def stream(self, subscription: Subscription, since: int | None) -> AsyncIterator[str]:
        """The text of one stream until the match is deleted, the client leaves (the task
        is cancelled) or the server shuts down."""
        try:
            yield f"retry: {RETRY_MS}\n: open\n\n"
            if since is not None and subscription.version != since:
                subscription.changed.clear()
                yield event_text(subscription.match_id, subscription.version)
                if subscription.version is None:
                    return
            while not self.closing and not subscription.shut_out:
                try:
                    async with asyncio.timeout(KEEP_ALIVE):
                        await subscription.changed.wait()
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                subscription.changed.clear()
                if self.closing or subscription.shut_out:
                    return
                yield event_text(subscription.match_id, subscription.version)
                if subscription.version is None:  # deleted: that was the last word
                    return
        finally:
            self.unsubscribe(subscription)


@functools.lru_cache(maxsize=4096)
def event_text(match_id: int, version: int | None) -> str:
    """One ``change`` event (``version`` ``None``: the match was deleted); written once for
    all the streams of the match.

    >>> print(event_text(3, 8), end="")
    event: change
    id: 8
    data: {"id": 3, "version": 8}
    <BLANKLINE>
    """
    if version is None:
        data = json.dumps({"id": match_id, "version": None, "deleted": True})
        return f"event: change\ndata: {data}\n\n"
    data = json.dumps({"id": match_id, "version": version})
    return f"event: change\nid: {version}\ndata: {data}\n\n"


def since_of(request: Request) -> int | None:
    """The version the client has: the ``Last-Event-ID`` header (a browser reconnecting
    sends the last event's), else ``?since=V``."""
    return last_seen(request.headers.get("last-event-id"), request.query_params.get("since"))


router = APIRouter(prefix="/api/matches", tags=["live updates"])


@router.get(
    "/{match_id}/events",
    summary="Live updates: a Server-Sent Events stream of the match's versions",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}},
        404: {"model": schemas.Error, "description": "No such match"},
        422: {"model": schemas.Error, "description": "Invalid match id"},
        503: {"model": schemas.Error, "description": "The server is shutting down"},
    },
)
async def events(request: Request, service: Service, match_id: MatchId) -> Response:
    hub: EventHub = request.app.state.events
    if hub.closing:
        return JSONResponse(
            {"error": _("the server is shutting down"), "where": "", "code": "server.closing"},
            status_code=503,
            headers={"Retry-After": "2"},
        )
    since = since_of(request)  # a bad one is 422 before anything is held
    member: Member | None = request.scope.get(MEMBER)
    subscription = await hub.subscribe(match_id, None if member is None else member.device)
    try:
        scored = await run_in_threadpool(lambda: service.get(match_id=match_id))
    except BaseException:
        hub.unsubscribe(subscription)
        raise
    subscription.start(scored.version)
    return StreamingResponse(
        hub.stream(subscription, since),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
