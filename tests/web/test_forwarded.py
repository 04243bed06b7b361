"""Issue 25, finding 5: ``X-Forwarded-For`` is believed only from the proxies named with
``--proxy``; a client on loopback that rotates it is still one address to the join limit."""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading

import pytest

from scopa.store import MatchStore
from scopa.web.serve.server import Limits
from tests.web.conftest import start
from tests.web.test_access import client as lan_client


def guesses(port: int, count: int) -> list[int]:
    """``count`` wrong codes, each naming another client in ``X-Forwarded-For``."""
    statuses = []
    for n in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        body = json.dumps({"code": "AAAA-BBBB-CCCC"})
        headers = {
            "Host": "127.0.0.1",
            "Content-Type": "application/json",
            "X-Forwarded-For": f"203.0.113.{n + 1}",
        }
        conn.request("POST", "/api/join", body=body, headers=headers)
        statuses.append(conn.getresponse().status)
        conn.close()
    return statuses


def test_a_forwarded_header_from_loopback_is_not_believed(store: MatchStore) -> None:
    server, _, thread, port = start(store, hosted=True)
    try:
        statuses = guesses(port, 8)
    finally:
        server.should_exit = True
        thread.join(10)
    assert statuses[:5] == [401] * 5
    assert statuses[5:] == [429] * 3, statuses


def test_a_named_proxy_is_believed(store: MatchStore) -> None:
    server, _, thread, port = start(store, Limits(proxies=("127.0.0.1",)), hosted=True)
    try:
        statuses = guesses(port, 8)
    finally:
        server.should_exit = True
        thread.join(10)
    assert statuses == [401] * 8  # eight clients behind the proxy, one wrong code each


def test_a_burst_of_guesses_hashes_a_few_and_never_under_the_write_lock(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--lan`` with six valid codes, 30 guesses at once from one address: the limiter
    counts each before its hash (so at most five guesses are hashed), the hash runs with no
    transaction open (another connection can write meanwhile), and nothing answers 500."""
    from scopa.store import devices

    store = MatchStore.open(sqlite_url)
    for n in range(6):
        store.new_access_code(f"code {n}")
    path = sqlite_url.removeprefix("sqlite:///")
    hashed: list[bool] = []
    whole = devices.code_matches

    def code_matches(code: str, stored: str) -> bool:
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # "database is locked" under a write lock
            other.execute("ROLLBACK")
            hashed.append(True)
        except sqlite3.OperationalError:
            hashed.append(False)
        finally:
            other.close()
        return whole(code, stored)

    monkeypatch.setattr(devices, "code_matches", code_matches)
    guesser = lan_client(store, host="192.168.1.66")
    statuses: list[int] = []

    def guess(n: int) -> None:
        statuses.append(guesser.post("/join", data={"code": f"AAAA-BBBB-{n:04d}"}).status_code)

    try:
        with guesser:
            threads = [threading.Thread(target=guess, args=(n,)) for n in range(30)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
        burst = len(hashed)
        hashed.clear()
        with lan_client(store, host="192.168.1.67") as alone:  # nothing else writing
            assert alone.post("/join", data={"code": "AAAA-BBBB-CCCC"}).status_code == 403
    finally:
        store.close()
    assert len(statuses) == 30
    assert 500 not in statuses
    assert sorted(set(statuses)) == [403, 429], statuses
    assert statuses.count(403) <= 5
    assert burst <= 5 * 6  # five guesses at most, six codes each
    assert len(hashed) == 6
    assert all(hashed), "a code was hashed under the database's write lock"
