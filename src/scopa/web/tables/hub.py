"""What keeps the tables moving in one server process: the seats' event streams and the
computer's plays, both off the request path.

- :class:`TableHub` fans each change of a table out to the open streams of this process.
  It learns of a change at once when this process made it (the route hands over the table
  and its new version), and from the store's feed of the tables' versions
  (:meth:`~scopa.store.protocol.Store.table_feed`: PostgreSQL's notices, SQLite's change
  counter) when another process did; with no feed, it reads the followed tables' versions
  every :data:`POLL` seconds. For each new version it deals and plays the table once, and
  sends each stream the view of its own seat (:func:`~scopa.application.tables.seat_view`,
  the one function every event goes through), each view's JSON written once.
- The same task has the computer play where it is to (:meth:`Tables.run_due`): the computer
  seats, the human seats away longer than the table's grace, those whose turn clock ran out.
  It looks when a table changed here (then again once the computer's pause has passed since
  that change) and otherwise every :data:`SLOW_POLL` seconds (a grace or a turn clock running
  out, a table another process stopped playing): the process that wrote a table's last move
  is the one that plays the computer's next one there, so a change elsewhere needs no look
  here. The search runs in a worker thread, so the event loop (and every other table) never
  waits for it; two processes do not both play for one table (the step decides).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson

from scopa.application.tables import HEARTBEAT, TableGame, Tables, seat_view
from scopa.store.protocol import Feed
from scopa.web.api.events import let_go

logger = logging.getLogger("scopa.web.tables.hub")

POLL = 0.1
"""Seconds between two looks at the followed tables' versions when the store has no feed."""
SLOW_POLL = 1.0
"""Seconds between two looks for the computer's turns when nothing changed in this process
(a grace or a turn clock running out, a table taken over from another process)."""
RECHECK = 5.0
"""Seconds between two reads of every followed table's version even with a feed (a notice
lost while the listening connection was broken is found then)."""
MARGIN = 0.02
"""Seconds past the computer's pause at which the table changed here is looked at."""
RETRY_MS = 2000
THINKERS = 2
"""Tables the computer thinks for at once in one process (the machine's cores)."""
THINKER_NAME = "scopa-computer"
"""The name the computer's threads carry in the system (``top -H``, ``/proc/PID/task``): its
plays' CPU (the read, the search, the write) told apart from the rest of the server's
(``bench/tables.py`` does)."""


def name_thread(name: str = THINKER_NAME) -> None:
    """Give the calling thread ``name`` in the system (Linux; elsewhere nothing)."""
    with contextlib.suppress(OSError):
        Path(f"/proc/self/task/{threading.get_native_id()}/comm").write_text(name)


class Follower:
    """One open stream: its table, its seat (``None``: a television), the last version it
    was sent, and the events waiting to go out."""

    __slots__ = ("beat", "queue", "released", "seat", "table_id", "version")

    def __init__(self, table_id: int, seat: int | None, version: int) -> None:
        self.table_id = table_id
        self.seat = seat
        self.version = version
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.beat: asyncio.Future[None] | None = None
        """The sign of life being written (in a worker thread), if any: the seat's leaving
        is written after it, never before."""
        self.released = False
        """Whether its stream is over and the seat's leaving is under way."""


def stop_if_cancelled(error: Exception) -> None:
    """End the task's loop if it was asked to stop, whatever the awaited code made of that:
    a cancellation can come back as another error (a feed's clean-up that cannot start a
    thread as the interpreter stops raised ``RuntimeError``), and a loop that took it for a
    failure to retry ran on for ever while the hub's close waited for it."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError from error


def event_frame(view: dict[str, Any]) -> bytes:
    """One ``table`` event as it is sent, in bytes: the seat's view, with its version as the
    event's id (its JSON by orjson: the same text as the standard library's, without its
    spaces). Made once per change and seat, however many streams of that seat send it."""
    data = orjson.dumps({"step": view["step"], "version": view["version"], "view": view})
    return b"event: table\nid: %d\ndata: %b\n\n" % (view["version"], data)


def event_text(view: dict[str, Any]) -> str:
    """:func:`event_frame` as text."""
    return event_frame(view).decode()


OPENING = f"retry: {RETRY_MS}\n: open\n\n".encode()
KEEP_ALIVE = b": keep-alive\n\n"


class TableHub:
    """The streams of one process and the task that feeds them and plays for the computer."""

    def __init__(
        self,
        tables: Callable[[], Tables],
        *,
        run_computer: bool = True,
        feed: Feed | None = None,
    ) -> None:
        self.tables = tables
        """The use cases over every group's tables (each call: a fresh one)."""
        self.run_computer = run_computer
        self.feed = feed
        """The store's feed of the tables' versions (``None``: read them every :data:`POLL`
        seconds)."""
        self.followers: dict[int, set[Follower]] = {}
        self.stale: dict[int, int] = {}
        """Followed tables with a newer version than some of their streams were sent."""
        self.recheck = True
        """Whether to read every followed table's version (a change here with no table
        named, a stream opened)."""
        self._task: asyncio.Task[None] | None = None
        self._thinker: asyncio.Task[None] | None = None
        self._feeder: asyncio.Task[None] | None = None
        self._thinkers: ThreadPoolExecutor | None = None
        self._wake: asyncio.Event | None = None
        self._think: asyncio.Event | None = None
        self._moments: list[tuple[float, int, int]] = []
        """The computer's plays to make: when (the loop's clock: once the computer's pause
        has passed), at which table, at which step (a table changed here, a computer seat to
        move)."""
        self._look = True
        """Whether to look at every table for the computer's turns now (a change here with
        no table named)."""
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
        if self.feed is not None and (self._feeder is None or self._feeder.done()):
            self._feeder = loop.create_task(
                self._follow_feed(self.feed),
                name="scopa tables' feed",
                context=contextvars.Context(),
            )
        if self.run_computer and (self._thinker is None or self._thinker.done()):
            self._think = asyncio.Event()
            self._thinker = loop.create_task(
                self._computer(), name="scopa tables' computer", context=contextvars.Context()
            )

    def poke(self, table_id: int | None = None, version: int | None = None) -> None:
        """A table changed here (``table_id`` at ``version``, else any followed table): tell
        its streams now and look for the computer's turn (from any thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._changed(table_id, version)
        else:
            loop.call_soon_threadsafe(self._changed, table_id, version)

    async def close(self) -> None:
        self.closing = True
        for followers in self.followers.values():
            for follower in followers:
                follower.queue.put_nowait(None)
        tasks = [self._task, self._thinker, self._feeder]
        self._task = self._thinker = self._feeder = None
        for task in tasks:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._thinkers is not None:
            self._thinkers.shutdown(wait=False)
            self._thinkers = None
        self.loop = None
        self.closing = False

    async def _run(self) -> None:
        """The events: after a change here or a notice of the feed at once; with no feed,
        every :data:`POLL` seconds."""
        loop = asyncio.get_running_loop()
        checked = loop.time()
        while True:
            try:
                if self.followers:
                    if self.feed is None or loop.time() - checked >= RECHECK:
                        self.recheck = True
                    if self.recheck:
                        self.recheck = False
                        checked = loop.time()
                        await self._read_versions()
                    await self._publish()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away: try again
                stop_if_cancelled(error)
                logger.warning("the tables' events failed (%s)", error)
                self.recheck = True
                await asyncio.sleep(1.0)
            await self._rest(self._wake, POLL if self.feed is None else RECHECK)

    async def _follow_feed(self, feed: Feed) -> None:
        """The feed's notices of the followed tables' versions, until cancelled (started
        again after a failure)."""
        ready = asyncio.Event()
        while True:
            try:
                await feed.run(lambda: list(self.followers), self._noticed, ready)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                stop_if_cancelled(error)
                logger.warning("the tables' feed failed (%s)", error)
            self.recheck = True
            self._wake_soon()
            await asyncio.sleep(1.0)

    def _noticed(self, table_id: int, version: int | None) -> None:
        """A table is at ``version`` (``None``: gone): its streams behind it are told."""
        followers = self.followers.get(table_id)
        if version is None or not followers:
            return
        if all(f.version >= version for f in followers):
            return
        self.stale[table_id] = max(version, self.stale.get(table_id, 0))
        self._wake_soon()

    def _changed(self, table_id: int | None, version: int | None) -> None:
        if table_id is None or version is None:
            self.recheck = True
            self._look = True
            self._wake_soon()
            self._think_soon()
            return
        self._noticed(table_id, version)
        loop = self.loop
        if not self.run_computer or loop is None:
            return
        service = self.tables()
        step = service.computer_turn(table_id, version)
        if step is not None:  # a computer seat to move: its play once the pause has passed
            self._moments.append((loop.time() + service.pause + MARGIN, table_id, step))
            self._think_soon()

    async def _computer(self) -> None:
        """The computer's plays, apart from the events (a search never holds them up), each
        in a thread of the computer's own (:data:`THINKER_NAME`), :data:`THINKERS` at a
        time: at a table changed here where a computer seat is to move, once the pause has
        passed since the change (no look at every table: the process that wrote a table's
        last move plays the computer's next one there); and every table :meth:`Tables.due`
        gives, looked for every :data:`SLOW_POLL` seconds (a person away past the grace, a
        turn clock run out, a table another process stopped playing) or at once after a
        change here that named no table."""
        loop = asyncio.get_running_loop()
        if self._thinkers is None:
            self._thinkers = ThreadPoolExecutor(
                THINKERS, thread_name_prefix=THINKER_NAME, initializer=name_thread
            )
        thinkers = self._thinkers

        async def one(table_id: int, step: int) -> None:
            fresh = contextvars.Context()  # each play a context of its own, never a request's
            seated = await loop.run_in_executor(
                thinkers, fresh.run, self.tables().play_for, table_id, step
            )
            if seated is not None:
                self._changed(seated.record.id, seated.record.version)

        looked = -SLOW_POLL
        while True:
            now = loop.time()
            wanted: dict[int, int] = {}
            try:
                if self._look or now - looked >= SLOW_POLL:
                    self._look, looked = False, now
                    wanted.update(await asyncio.to_thread(self.tables().due))
                    now = loop.time()
                for _, table_id, step in sorted(m for m in self._moments if m[0] <= now):
                    wanted.setdefault(table_id, step)
                self._moments = [m for m in self._moments if m[0] > now]
                await asyncio.gather(*(one(table_id, step) for table_id, step in wanted.items()))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                stop_if_cancelled(error)
                logger.warning("the computer's round failed (%s)", error)
                await asyncio.sleep(1.0)
                continue
            now = loop.time()
            await self._rest(
                self._think, min([looked + SLOW_POLL - now, *(m[0] - now for m in self._moments)])
            )

    @staticmethod
    async def _rest(event: asyncio.Event | None, seconds: float = POLL) -> bool:
        """Wait for ``event`` or ``seconds``; whether the event came."""
        assert event is not None
        came = False
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, seconds)):
                await event.wait()
                came = True
        event.clear()
        return came

    def _wake_soon(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _think_soon(self) -> None:
        if self._think is not None:
            self._think.set()

    async def _read_versions(self) -> None:
        watched = list(self.followers)
        versions = await asyncio.to_thread(self.tables().tables.versions, watched)
        for table_id, version in versions.items():
            self._noticed(table_id, version)

    async def _publish(self) -> None:
        stale, self.stale = self.stale, {}
        if not stale:
            return
        service = self.tables()
        for table_id, version in stale.items():
            followers = self.followers.get(table_id)
            if not followers or all(f.version >= version for f in followers):
                continue
            seated = service.kept(table_id, version)  # the play made here: handed over
            if seated is None:
                seated = await asyncio.to_thread(service.view, table_id, None, alive=False)
            record, game, now = seated.record, seated.game, seated.now
            frames: dict[int | None, bytes] = {}  # one view (and its frame) per seat
            for follower in list(followers):
                if follower.version < record.version:
                    follower.version = record.version
                    frame = frames.get(follower.seat)
                    if frame is None:
                        frame = frames[follower.seat] = event_frame(
                            self.view(record, game, follower, now)
                        )
                    follower.queue.put_nowait(frame)

    @staticmethod
    def view(record: Any, game: TableGame, follower: Follower, now: float) -> dict[str, Any]:
        return seat_view(record, game, follower.seat, now)

    def follow(self, table_id: int, seat: int | None, version: int) -> Follower:
        follower = Follower(table_id, seat, version)
        self.followers.setdefault(table_id, set()).add(follower)
        self.start()
        return follower

    def unfollow(self, follower: Follower) -> None:
        let_go(self.followers, follower.table_id, follower)

    def others_here(self, follower: Follower) -> bool:
        """Whether another stream of this process holds the same seat (another tab)."""
        return any(
            f is not follower and f.seat == follower.seat
            for f in self.followers.get(follower.table_id, ())
        )

    async def stream(
        self, follower: Follower, first: bytes | None, service: Tables
    ) -> AsyncIterator[bytes]:
        """The frames of one stream, in bytes: the view at once when the client missed
        something, then an event per change (the frame made once for every stream of its
        seat); a sign of life of the seat every :data:`HEARTBEAT` seconds."""
        try:
            yield OPENING
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
                    yield KEEP_ALIVE
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
