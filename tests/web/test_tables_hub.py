"""The tables' hub alone: a seat's stream that closes while its sign of life is being
written is marked away after that write, never before (else the late write brings the seat
back, and the seat shows "here" for the whole presence after its phone left)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scopa.web.tables import hub as hub_module
from scopa.web.tables.hub import Follower, TableHub
from scopa.web.tables.routes import ClosingStream


class Seats:
    """The two writes of a seat's presence, in the order they land."""

    def __init__(self) -> None:
        self.landed: list[str] = []

    def seen(self, table_id: int, seat: int) -> None:
        self.landed.append("seen")

    def left(self, table_id: int, seat: int) -> None:
        self.landed.append("left")


class Workers:
    """``asyncio.to_thread`` on the loop, in order: a write goes on when its caller is
    cancelled (as a thread does), and a sign of life waits until the test lets it go (as a
    busy database would)."""

    def __init__(self) -> None:
        self.writing = asyncio.Event()
        self.release = asyncio.Event()
        self.running: list[asyncio.Future[Any]] = []

    async def to_thread(self, func: Callable[..., Any], *args: Any) -> Any:
        async def work() -> Any:
            if getattr(func, "__name__", "") == "seen":
                self.writing.set()
                await self.release.wait()
            return func(*args)

        job = asyncio.ensure_future(work())
        self.running.append(job)
        return await asyncio.shield(job)


def quiet_hub(monkeypatch: pytest.MonkeyPatch) -> tuple[Workers, Seats, Any, TableHub]:
    """A hub with no computer over :class:`Seats`, its worker threads :class:`Workers`
    (call it inside the test's event loop)."""
    workers = Workers()
    monkeypatch.setattr(asyncio, "to_thread", workers.to_thread)
    seats = Seats()
    service: Any = seats
    return workers, seats, service, TableHub(lambda: service, run_computer=False)


def test_a_stream_closed_during_its_sign_of_life_leaves_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hub_module, "HEARTBEAT", 0.0)  # the sign of life at once

    async def run() -> list[str]:
        workers, seats, service, hub = quiet_hub(monkeypatch)
        follower = Follower(1, 0, 0)
        hub.followers[1] = {follower}

        async def client() -> None:
            async for _ in hub.stream(follower, None, service):
                pass

        reading = asyncio.create_task(client())
        await workers.writing.wait()  # the sign of life is being written
        reading.cancel()  # the phone leaves
        with pytest.raises(asyncio.CancelledError):
            await reading
        for _ in range(20):  # the leaving goes as far as it may
            await asyncio.sleep(0)
        workers.release.set()
        await asyncio.gather(*hub._leaving)
        await asyncio.gather(*workers.running)
        assert not hub.followers
        return seats.landed

    assert asyncio.run(run()) == ["seen", "left"]


def test_a_client_gone_before_its_stream_began_leaves_and_is_not_followed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The phone closes while its stream's answer is still starting (a busy server): the
    stream's text never begins, so its ``finally`` never runs; the answer itself lets the
    follower go and marks the seat away (before: followed for ever, and "here" for the
    whole presence after the phone left)."""

    async def run() -> list[str]:
        _, seats, service, hub = quiet_hub(monkeypatch)
        follower = hub.follow(1, 0, 0)
        answer = ClosingStream(
            hub.stream(follower, None, service),
            lambda: hub.release(follower, service),
            media_type="text/event-stream",
        )
        never = asyncio.Event()

        async def send(message: dict[str, Any]) -> None:
            await never.wait()  # the answer's head never goes out

        async def receive() -> dict[str, Any]:
            return {"type": "http.disconnect"}

        scope = {"type": "http", "asgi": {"spec_version": "2.3"}}
        await answer(scope, receive, send)
        await asyncio.gather(*hub._leaving)
        await hub.close()
        assert not hub.followers
        return seats.landed

    assert asyncio.run(run()) == ["left"]


class Played:
    """The use cases the events read: the table as this process kept it (a play made here),
    or read again; the versions read, counted (with a feed, only a change nobody named)."""

    def __init__(self) -> None:
        self.version = 1
        self.reads: list[list[int]] = []
        self.views = 0
        self.tables = self

    def versions(self, ids: list[int]) -> dict[int, int]:
        self.reads.append(list(ids))
        return dict.fromkeys(ids, self.version)

    def kept(self, table_id: int, version: int) -> Any:
        return None

    def view(self, table_id: int, seat: int | None, *, alive: bool = True) -> Any:
        self.views += 1
        record = type("Record", (), {"version": self.version})()
        return type("Seated", (), {"record": record, "game": None, "now": 0.0})()


class QuietFeed:
    """A feed that tells what the test says, when it says it."""

    def __init__(self) -> None:
        self.publish: Callable[[int, int | None], None] | None = None

    async def run(self, watched: Any, publish: Any, ready: asyncio.Event) -> None:
        self.publish = publish
        ready.set()
        await asyncio.Event().wait()


MADE: list[int | None] = []
"""The seats whose view was made."""


def a_view(record: Any, game: Any, follower: Follower, now: float) -> dict[str, Any]:
    MADE.append(follower.seat)
    return {"step": record.version, "version": record.version, "you": follower.seat}


def test_the_events_come_from_the_changes_not_from_reading_the_versions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a feed the hub reads the followed tables' versions only when a stream opens (or
    a change here names no table): a play made here is handed over with its version, and
    another process's comes as the feed's notice; each seat's view is made once, however
    many streams show it (before: every followed table's version read ten times a second)."""
    monkeypatch.setattr(TableHub, "view", staticmethod(a_view))

    async def run() -> tuple[Played, list[list[str]]]:
        played = Played()
        feed = QuietFeed()
        service: Any = played
        hub = TableHub(lambda: service, run_computer=False, feed=feed)
        streams = [hub.follow(7, 0, 1), hub.follow(7, 0, 1), hub.follow(7, 1, 1)]
        hub.poke()  # a stream opened: its table's version read once
        async with asyncio.timeout(30):  # a bound for a broken hub, not a latency
            while feed.publish is None or not played.reads:
                await asyncio.sleep(0)
            played.version = 2
            hub.poke(7, 2)  # a play made here
            got = [[await s.queue.get()] for s in streams]
            played.version = 3
            feed.publish(7, 3)  # another process's
            for s, texts in zip(streams, got, strict=True):
                texts.append(await s.queue.get())
        await hub.close()
        frames = [[t for t in texts if isinstance(t, bytes)] for texts in got]  # as sent
        assert got[0][0] is got[1][0]  # one frame for the seat's two streams
        return played, [[t.decode().split("\n")[1] for t in texts] for texts in frames]

    MADE.clear()
    played, ids = asyncio.run(run())
    assert ids == [["id: 2", "id: 3"]] * 3
    # a view per seat and change, not per stream
    assert sorted(seat or 0 for seat in MADE) == [0, 0, 1, 1]
    assert played.reads == [[7]]
    assert played.views == 2  # the table read once a change (kept: none here)


class Due:
    """The computer's use cases: when every table was looked at, and when the computer
    played at a table changed here (a computer seat to move at version 2)."""

    pause = 0.3

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.played: list[tuple[float, int, int]] = []

    def due(self) -> list[tuple[int, int]]:
        self.asked.append(time.monotonic())  # the loop's clock (asked from a worker thread)
        return []

    def computer_turn(self, table_id: int, version: int) -> int | None:
        return 5 if (table_id, version) == (7, 2) else None

    def play_for(self, table_id: int, step: int) -> None:
        self.played.append((time.monotonic(), table_id, step))


def test_the_computer_plays_at_a_table_changed_here_once_its_pause_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No look at every table ten times a second: one when the hub starts, then every
    SLOW_POLL seconds; a table changed here with a computer seat to move is played once the
    computer's pause has passed since the change, and a change where a person is to move
    starts nothing."""
    monkeypatch.setattr(hub_module, "SLOW_POLL", 3600.0)

    async def run() -> tuple[Due, float]:
        due = Due()
        service: Any = due
        hub = TableHub(lambda: service, feed=QuietFeed())
        hub.start()
        async with asyncio.timeout(30):  # a bound for a broken hub, not a latency
            while not due.asked:
                await asyncio.sleep(0)
            changed = time.monotonic()
            hub.poke(7, 1)  # a person to move: nothing to play
            hub.poke(7, 2)
            while not due.played:
                await asyncio.sleep(0.01)
        await hub.close()
        return due, changed

    due, changed = asyncio.run(run())
    assert len(due.asked) == 1
    assert [(table, step) for _, table, step in due.played] == [(7, 5)]
    assert due.played[0][0] - changed >= Due.pause  # past the pause, not before


class OneDue(Due):
    """One table due; its play records the name of the system's thread it runs in."""

    pause = 0.0

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[str] = []

    def due(self) -> list[tuple[int, int]]:
        super().due()
        return [] if self.threads else [(7, 3)]

    def play_for(self, table_id: int, step: int) -> None:
        task = Path(f"/proc/self/task/{threading.get_native_id()}/comm")
        self.threads.append(task.read_text().strip())


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="the threads' names: Linux")
def test_the_computer_plays_in_threads_of_its_own_name() -> None:
    """The computer's plays run in threads named for it, so its CPU (the read, the search,
    the write) is told apart from the rest of the server's (bench/tables.py reads it)."""

    async def run() -> list[str]:
        due = OneDue()
        service: Any = due
        hub = TableHub(lambda: service, feed=QuietFeed())
        hub.start()
        async with asyncio.timeout(30):  # a bound for a broken hub, not a latency
            while not due.threads:
                await asyncio.sleep(0.01)
        await hub.close()
        return due.threads

    assert asyncio.run(run()) == [hub_module.THINKER_NAME]


class FeedFailingToStop:
    """A feed whose first stop fails: cancelled, it raises a ``RuntimeError`` (as a thread
    that cannot be started at the interpreter's exit does) instead of the cancellation. A
    feed started again stops as it should."""

    def __init__(self) -> None:
        self.runs = 0

    async def run(self, watched: Any, publish: Any, ready: asyncio.Event) -> None:
        self.runs += 1
        ready.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if self.runs == 1:
                raise RuntimeError("cannot schedule new futures after shutdown") from None
            raise


def test_a_feed_whose_stop_fails_does_not_hold_the_hub_s_close() -> None:
    """A loop of the hub asked to stop ends even when what it awaited turned the cancellation
    into another error (``hub.stop_if_cancelled``): before, the feed's loop took it for a
    failure, started the feed again, and the close waited for ever (a server's stop never
    ended)."""

    async def run() -> tuple[bool, int]:
        feed = FeedFailingToStop()
        service: Any = Played()
        hub = TableHub(lambda: service, run_computer=False, feed=feed)
        hub.follow(7, 0, 1)
        async with asyncio.timeout(30):  # a bound for a broken hub, not a latency
            while feed.runs == 0:
                await asyncio.sleep(0)
        closing = asyncio.ensure_future(hub.close())
        done, _ = await asyncio.wait({closing}, timeout=30)  # a bound, not a latency
        return closing in done, feed.runs

    closed, runs = asyncio.run(run())
    assert closed, "the hub's close never ended"
    assert runs == 1  # not started again
