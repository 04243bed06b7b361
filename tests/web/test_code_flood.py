"""Wrong codes from many addresses at once cost the guessers, not the owner (issue 49, F2):
the failures are counted in memory (a bounded table), a process checks at most a few codes a
second from all addresses together, and the checks never take the threads that serve the
devices already in. The owner's latency under such a flood is measured by bench/flood.py."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.store.failures import MemoryFailures
from scopa.web.access.lan import COOKIE, AccessMiddleware
from tests.web.test_access import inner_app


@pytest.fixture
def store(sqlite_url: str) -> Iterator[MatchStore]:
    opened = MatchStore.open(sqlite_url)
    yield opened
    opened.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_failures_per_address_in_a_window_of_the_injected_clock() -> None:
    clock = Clock()
    failures = MemoryFailures(most=3, window=60, clock=clock)
    assert [failures.failed("10.0.0.1") for _ in range(3)] == [1, 2, 3]
    assert failures.retry_after("10.0.0.1") == 60
    assert failures.retry_after("10.0.0.2") == 0
    clock.now += 45
    assert failures.retry_after("10.0.0.1") == 15
    failures.forgive("10.0.0.1")
    assert failures.retry_after("10.0.0.1") == 0
    clock.now += 15
    assert failures.failed("10.0.0.1") == 1  # the window passed: the old ones are gone
    # an IPv6 address by its /64, as the stored failures count it
    for n in range(3):
        failures.failed(f"2001:db8:1:2::{n + 1}")
    assert failures.retry_after("2001:db8:1:2:ffff::9") == 60


def test_the_table_of_addresses_is_bounded() -> None:
    failures = MemoryFailures(most=2, capacity=100, clock=Clock())
    for n in range(5000):
        failures.failed(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
        assert failures.remembered() <= 100
    assert failures.retry_after("10.0.19.135") == 0 or failures.remembered() == 100
    # the newest are the ones kept
    failures.failed("10.0.19.135")
    assert failures.retry_after("10.0.19.135") >= 1


def test_code_checks_per_second_from_all_addresses_together() -> None:
    clock = Clock()
    failures = MemoryFailures(per_second=4, clock=clock)
    assert [failures.busy() for _ in range(6)] == [False] * 4 + [True] * 2
    clock.now += 0.5
    assert failures.busy()
    clock.now += 0.5
    assert [failures.busy() for _ in range(5)] == [False] * 4 + [True]


def owner_token(store: MatchStore, code: str) -> str:
    app: Any = AccessMiddleware(inner_app(), store)
    owner = TestClient(app, client=("192.168.1.2", 50000), follow_redirects=False)
    joined = owner.get(f"/join?code={code}")
    assert joined.status_code == 303
    return str(owner.cookies[COOKIE])


def test_ten_addresses_guessing_at_once_get_at_most_the_second_s_checks(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _ = store.new_access_code()
    clock = Clock()
    limiter = MemoryFailures(clock=clock, per_second=4)
    app: Any = AccessMiddleware(inner_app(), store, limiter=limiter)
    checked = 0
    join = store.join

    def counted(offered: str, label: str) -> str | None:
        nonlocal checked
        checked += 1
        return join(offered, label)

    monkeypatch.setattr(store, "join", counted)
    answers: list[int] = []
    for n in range(10):
        guesser = TestClient(app, client=(f"10.0.0.{n + 1}", 50000), follow_redirects=False)
        for _ in range(2):
            answer = guesser.post("/join", data={"code": "AAAA-AAAA"})
            answers.append(answer.status_code)
            if answer.status_code == 429:
                assert answer.headers["retry-after"] == "1"
                assert "Too many codes are being tried at the moment" in answer.text
    assert answers.count(403) == 4
    assert answers.count(429) == 16
    assert checked == 4
    # a refused try is not held against its address: with the next second, the owner's
    # phone at one of those addresses joins
    clock.now += 1
    phone = TestClient(app, client=("10.0.0.10", 50000), follow_redirects=False)
    assert phone.post("/join", data={"code": code}).status_code == 303
    assert checked == 5


def test_the_owner_is_served_while_the_code_checks_are_all_busy(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty code checks held at once (more than the threads a server has for requests):
    the owner's device, holding its token, still gets its page. Before, each check took one of
    those threads, and the owner waited until the guesses were worked out."""
    code, _ = store.new_access_code()
    token = owner_token(store, code)
    release = threading.Event()
    started = threading.Semaphore(0)
    join = store.join

    def held(offered: str, label: str) -> str | None:
        started.release()
        release.wait(30)
        return join(offered, label)

    monkeypatch.setattr(store, "join", held)
    limiter = MemoryFailures(per_second=1000)
    app: Any = AccessMiddleware(inner_app(), store, limiter=limiter)
    statuses: list[int] = []

    async def guess(n: int) -> None:
        transport = httpx.ASGITransport(app=app, client=(f"10.0.{n // 200}.{n % 200 + 1}", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://sheet") as guesser:
            answer = await guesser.post("/join", data={"code": "AAAA-AAAA"})
            statuses.append(answer.status_code)

    async def main() -> str:
        async with anyio.create_task_group() as group:
            for n in range(50):
                group.start_soon(guess, n)
            await anyio.to_thread.run_sync(started.acquire)  # a check is being worked out
            transport = httpx.ASGITransport(app=app, client=("192.168.1.2", 5000))
            async with httpx.AsyncClient(
                transport=transport, base_url="http://sheet", cookies={COOKIE: token}
            ) as owner:
                with anyio.fail_after(20):
                    page = await owner.get("/")
            release.set()
        assert page.status_code == 200
        return page.text

    try:
        assert anyio.run(main) == "the sheet"
    finally:
        release.set()
    assert statuses == [403] * 50
