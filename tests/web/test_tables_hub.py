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


def test_a_stream_closed_during_its_sign_of_life_leaves_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hub_module, "HEARTBEAT", 0.0)  # the sign of life at once

    async def run() -> list[str]:
        workers = Workers()
        monkeypatch.setattr(asyncio, "to_thread", workers.to_thread)
        seats = Seats()
        service: Any = seats
        hub = TableHub(lambda: service, run_computer=False)
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
