"""Idle connections from many addresses (issue 49, F4): the process holds a bounded number of
connections, under its open-file limit; past it a new address takes the place of an idle
connection of the address holding the most, and otherwise gets 503; the refusals are logged
once a second. The owner's latency under the flood is measured by bench/flood.py."""

from __future__ import annotations

import contextlib
import logging
import resource
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scopa.store import MatchStore
from scopa.web.serve.server import RESERVED_FILES, Limits, connection_budget
from tests.pg import free_port
from tests.servers import scopa_serve, stop
from tests.waiting import until
from tests.web.conftest import start
from tests.web.test_server import read_all

OWNER = b"GET /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def connect(port: int, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def ask(port: int, source: str = "127.0.0.1") -> bytes:
    with connect(port, source) as sock:
        sock.sendall(OWNER)
        return read_all(sock)


def test_the_budget_stays_under_the_open_file_limit() -> None:
    assert connection_budget(4096, None) == 4096
    assert connection_budget(4096, 1024) == 1024 - RESERVED_FILES
    assert connection_budget(4096, 200) == 16
    assert connection_budget(8, 1024) == 8


@pytest.fixture
def full_at_six(sqlite_url: str) -> Iterator[int]:
    store = MatchStore.open(sqlite_url)
    running, _app, thread, port = start(store, Limits(total=6, per_client=64))
    try:
        yield port
    finally:
        running.should_exit = True
        thread.join(10)
        store.close()


def test_a_full_server_makes_room_for_a_new_address_and_answers_503_past_it(
    full_at_six: int, caplog: pytest.LogCaptureFixture
) -> None:
    port = full_at_six
    with caplog.at_level(logging.WARNING, logger="scopa.web.serve"):
        held = [connect(port, "127.0.0.10") for _ in range(6)]
        try:
            # the greediest address holds all six: one more from it is refused
            with connect(port, "127.0.0.10") as extra:
                assert read_all(extra).startswith(b"HTTP/1.1 503 ")
            # the owner, from another address, takes the place of an idle one
            assert ask(port).startswith(b"HTTP/1.1 200 ")
            closed = 0
            for sock in held:
                sock.settimeout(0.01)
                with contextlib.suppress(TimeoutError):
                    closed += sock.recv(100) == b""
            assert closed >= 1
        finally:
            for sock in held:
                sock.close()
        until(lambda: "connections refused in the last second" in caplog.text, "the log")
    lines = [r for r in caplog.records if "connections refused" in r.getMessage()]
    assert len(lines) == 1
    assert "127.0.0.10" in lines[0].getMessage()


@pytest.mark.slow
@pytest.mark.system
def test_the_owner_is_served_with_20_addresses_holding_64_idle_connections(
    tmp_path: Path,
) -> None:
    """``scopa serve`` with an open-file limit of 1,024 that it cannot raise: 20 addresses
    open 64 idle connections each (1,280, more than the process has descriptors). Before,
    the accepts failed with "Too many open files", logged on every try, and the owner's
    request was never answered."""
    port = free_port()

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    flood: list[socket.socket] = []
    with scopa_serve("--port", str(port), "--db", str(tmp_path / "s.db"), preexec_fn=low_limit) as (
        process,
        _,
    ):
        try:
            until(lambda: ask(port).startswith(b"HTTP/1.1 200 "), "the server to answer")
            for address in range(20):
                for _ in range(64):
                    flood.append(connect(port, f"127.0.0.{address + 10}"))
            answers = [ask(port) for _ in range(5)]
            assert all(answer.startswith(b"HTTP/1.1 200 ") for answer in answers), answers
            assert all(answer.endswith(b"[]") for answer in answers)
        finally:
            for sock in flood:
                sock.close()
        output = stop(process)
    assert "Too many open files" not in output
    refused = [line for line in output.splitlines() if "connections refused" in line]
    assert 1 <= len(refused) <= 30, output[-2000:]
    assert sys.platform == "linux"
