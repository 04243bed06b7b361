"""The tables' hub alone: a seat's stream that closes while its sign of life is being
written is marked away after that write, never before (else the late write brings the seat
back, and the seat shows "here" for the whole presence after its phone left)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
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
