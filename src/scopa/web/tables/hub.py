"""What keeps the tables moving in one server process: the seats' event streams and the
computer's plays, both off the request path.

- :class:`TableHub` fans each change of a table out to the open streams of this process.
  It watches the versions of the tables someone follows (one query every :data:`POLL`
  seconds, or at once when this process changed a table), so a change made by any worker
  process reaches every stream; for each new version it deals and plays the table once, and
  sends each stream the view of its own seat (:func:`~scopa.application.tables.seat_view`,
  the one function every event goes through).
- The same task has the computer play where it is to (:meth:`Tables.run_due`): the computer
  seats, and the human seats away longer than the table's grace. The search runs in a
  worker thread, so the event loop (and every other table) never waits for it; two processes
  cannot both play for one table (the claim, then the step, decide).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from scopa.application.tables import HEARTBEAT, TableGame, Tables, seat_view

logger = logging.getLogger("scopa.web.tables.hub")

POLL = 0.1
"""Seconds between two looks at the followed tables' versions and at the computer's turns."""
RETRY_MS = 2000
THINKERS = 2
"""Tables the computer thinks for at once in one process (the machine's cores)."""


class Follower:
    """One open stream: its table, its seat (``None``: a television), the last version it
    was sent, and the events waiting to go out."""

    __slots__ = ("beat", "queue", "released", "seat", "table_id", "version")

    def __init__(self, table_id: int, seat: int | None, version: int) -> None:
        self.table_id = table_id
        self.seat = seat
        self.version = version
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.beat: asyncio.Future[None] | None = None
        """The sign of life being written (in a worker thread), if any: the seat's leaving
        is written after it, never before."""
        self.released = False
        """Whether its stream is over and the seat's leaving is under way."""


def event_text(view: dict[str, Any]) -> str:
    """One ``table`` event: the seat's view, with its version as the event's id."""
    data = json.dumps({"step": view["step"], "version": view["version"], "view": view})
    return f"event: table\nid: {view['version']}\ndata: {data}\n\n"


class TableHub:
    """The streams of one process and the task that feeds them and plays for the computer."""

    def __init__(self, tables: Callable[[], Tables], *, run_computer: bool = True) -> None:
        self.tables = tables
        """The use cases over every group's tables (each call: a fresh one)."""
        self.run_computer = run_computer
        self.followers: dict[int, set[Follower]] = {}
        self.versions: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._thinker: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._think: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._leaving: set[asyncio.Task[None]] = set()
        self.closing = False

    def start(self) -> None:
        """Start the tasks unless they run (from the server's loop, or from a route's thread
        once the loop is known).

        Each task runs in a context of its own, never the caller's: started by a request,
        it would carry that request's context variables for ever, among them the keyed
        transaction its store operations join (:data:`scopa.store.database.JOINED`), and
        every play of the computer would go through that request's session (issue 47: on
        SQLite the request answered 500, on PostgreSQL the computer never moved again)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            if self.loop is not None and not self.loop.is_closed():
                self.loop.call_soon_threadsafe(self.start, context=contextvars.Context())
            return
        self.loop = loop
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = loop.create_task(
                self._run(), name="scopa tables' events", context=contextvars.Context()
            )
        if self.run_computer and (self._thinker is None or self._thinker.done()):
            self._think = asyncio.Event()
            self._thinker = loop.create_task(
                self._computer(), name="scopa tables' computer", context=contextvars.Context()
            )

    def poke(self) -> None:
        """A table changed here: look now (from any thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._both()
        else:
            loop.call_soon_threadsafe(self._both)

    async def close(self) -> None:
        self.closing = True
        for followers in self.followers.values():
            for follower in followers:
                follower.queue.put_nowait(None)
        tasks = [self._task, self._thinker]
        self._task = self._thinker = None
        for task in tasks:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.loop = None
        self.closing = False

    async def _run(self) -> None:
        """The events: after a change here at once, else every :data:`POLL` seconds."""
        while True:
            try:
                if self.followers:
                    await self._publish()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away: try again
                logger.warning("the tables' events failed (%s)", error)
                await asyncio.sleep(1.0)
            await self._rest(self._wake)

    async def _computer(self) -> None:
        """The computer's plays, apart from the events (a search never holds them up): every
        table due now, :data:`THINKERS` at a time, each in a worker thread."""
        limit = asyncio.Semaphore(THINKERS)

        async def one(table_id: int, step: int) -> None:
            async with limit:
                if await asyncio.to_thread(self.tables().play_for, table_id, step):
                    self._wake_soon()
                    self._think_soon()

        while True:
            try:
                due = await asyncio.to_thread(lambda: self.tables().due())
                await asyncio.gather(*(one(table_id, step) for table_id, step in due))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                logger.warning("the computer's round failed (%s)", error)
                await asyncio.sleep(1.0)
            await self._rest(self._think)

    @staticmethod
    async def _rest(event: asyncio.Event | None) -> None:
        assert event is not None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(POLL):
                await event.wait()
        event.clear()

    def _wake_soon(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _think_soon(self) -> None:
        if self._think is not None:
            self._think.set()

    def _both(self) -> None:
        self._wake_soon()
        self._think_soon()

    async def _publish(self) -> None:
        watched = list(self.followers)
        service = self.tables()
        versions = await asyncio.to_thread(service.tables.versions, watched)
        for table_id in watched:
            version = versions.get(table_id)
            followers = self.followers.get(table_id)
            if version is None or not followers:
                continue
            if all(f.version >= version for f in followers):
                continue
            seated = service.kept(table_id, version)  # the play made here: handed over
            if seated is None:
                seated = await asyncio.to_thread(service.view, table_id, None, alive=False)
            record, game, now = seated.record, seated.game, seated.now
            for follower in list(followers):
                if follower.version < record.version:
                    follower.version = record.version
                    follower.queue.put_nowait(event_text(self.view(record, game, follower, now)))

    @staticmethod
    def view(record: Any, game: TableGame, follower: Follower, now: float) -> dict[str, Any]:
        return seat_view(record, game, follower.seat, now)

    def follow(self, table_id: int, seat: int | None, version: int) -> Follower:
        follower = Follower(table_id, seat, version)
        self.followers.setdefault(table_id, set()).add(follower)
        self.start()
        return follower

    def unfollow(self, follower: Follower) -> None:
        followers = self.followers.get(follower.table_id)
        if followers is not None:
            followers.discard(follower)
            if not followers:
                del self.followers[follower.table_id]

    def others_here(self, follower: Follower) -> bool:
        """Whether another stream of this process holds the same seat (another tab)."""
        return any(
            f is not follower and f.seat == follower.seat
            for f in self.followers.get(follower.table_id, ())
        )

    async def stream(
        self, follower: Follower, first: str | None, service: Tables
    ) -> AsyncIterator[str]:
        """The text of one stream: the view at once when the client missed something, then
        an event per change; a sign of life of the seat every :data:`HEARTBEAT` seconds."""
        try:
            yield f"retry: {RETRY_MS}\n: open\n\n"
            if first is not None:
                yield first
            while not self.closing:
                try:
                    async with asyncio.timeout(HEARTBEAT):
                        text = await follower.queue.get()
                except TimeoutError:
                    if follower.seat is not None:
                        follower.beat = asyncio.ensure_future(
                            asyncio.to_thread(service.seen, follower.table_id, follower.seat)
                        )
                        # Shielded: a client leaving meanwhile cancels the stream, not the
                        # write, which its leaving then waits for.
                        await asyncio.shield(follower.beat)
                    yield ": keep-alive\n\n"
                    continue
                if text is None:
                    return
                yield text
        finally:
            self.release(follower, service)

    def release(self, follower: Follower, service: Tables) -> None:
        """The stream is over: its client left, or was gone before the stream's first word
        (its text never began, so only its answer can say so). The follower goes, and the
        seat leaves unless another stream of this process holds it; once only."""
        if follower.released:
            return
        follower.released = True
        self.unfollow(follower)
        if follower.seat is not None and not self.others_here(follower):
            # A task of its own: the stream's task is being cancelled (the client left),
            # and its cancel scope would cancel any wait here too.
            leaving = asyncio.get_running_loop().create_task(
                self._leave(service, follower.table_id, follower.seat, follower.beat),
                context=contextvars.Context(),
            )
            self._leaving.add(leaving)
            leaving.add_done_callback(self._leaving.discard)

    async def _leave(
        self, service: Tables, table_id: int, seat: int, beat: asyncio.Future[None] | None = None
    ) -> None:
        """The seat's stream closed: it is away from now on (written after the stream's last
        sign of life, if one was being written); the others are told."""
        try:
            if beat is not None:
                with contextlib.suppress(Exception):
                    await beat
            await asyncio.to_thread(service.left, table_id, seat)
        except Exception as error:  # the database away: its presence times out instead
            logger.warning("could not mark seat %s of table %s away (%s)", seat, table_id, error)
        self.poke()
