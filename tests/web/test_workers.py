"""``scopa serve --workers 2`` through the entry point, on SQLite and PostgreSQL: two
processes racing on one match lose no update, and a change made through one process reaches
an event stream held by the other (pushed, not polled: bench/ measures how soon)."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from tests.conftest import BACKENDS, fresh_postgres_database
from tests.web.conftest import anna_deal, bruno_deal
from tests.web.sse import EventReader
from tests.web.workers import Serve

pytestmark = [
    pytest.mark.slow,
    pytest.mark.system,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)"),
]


@pytest.fixture(scope="module", params=BACKENDS)
def serve(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Serve]:
    """One server with two worker processes per database, for this module's tests (each
    works on a match of its own)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('workers') / 'scopa.db'}"
    else:
        url = fresh_postgres_database(request.getfixturevalue("postgres_admin_url"))
    running = Serve(url, 2)
    try:
        assert len(running.pids) == 2
        yield running
    finally:
        output = running.stop()
        assert running.process.returncode == 0, output
        assert "Traceback" not in output
        assert "ERROR" not in output


def test_two_processes_racing_on_one_match_lose_no_update(serve: Serve) -> None:
    first = serve.connect(serve.pids[0])
    status, created, _ = first.call("POST", "/api/matches", {"players": ["Anna", "Bruno"]})
    assert status == 201
    match_id = created["id"]
    path = f"/api/matches/{match_id}"
    status, _, _ = first.call("POST", f"{path}/deals", anna_deal())  # deal 1, to edit
    assert status == 201
    first.close()
    done: dict[int, list[str]] = {pid: [] for pid in serve.pids}
    refused: list[int] = []
    failures: list[str] = []

    def racer(pid: int, turn: int) -> None:
        conn = serve.connect(pid)
        try:
            for i in range(6):
                for _ in range(40):
                    _, match, _ = conn.call("GET", path)
                    version = str(match["version"])
                    if (i + turn) % 3 == 2:  # an edit of deal 1 based on that version
                        deal = bruno_deal() if i % 2 else anna_deal(i % 3, 1)
                        status, _, _ = conn.call(
                            "PUT", f"{path}/deals/1", deal, {"If-Match": version}
                        )
                        kind = "edit"
                    else:
                        status, _, _ = conn.call(
                            "POST", f"{path}/deals", anna_deal(), {"If-Match": version}
                        )
                        kind = "append"
                    if status in (200, 201):
                        done[pid].append(kind)
                        break
                    if status != 409:
                        failures.append(f"{kind}: {status}")
                        return
                    refused.append(pid)
                else:
                    failures.append("never got in")
        finally:
            conn.close()

    threads = [
        threading.Thread(target=racer, args=(pid, turn)) for turn in range(2) for pid in serve.pids
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not failures
    assert all(done[pid] for pid in serve.pids), "both processes took changes"
    conn = serve.connect()
    _, match, _ = conn.call("GET", path)
    _, log, _ = conn.call("GET", f"{path}/history")
    conn.close()
    changes = [kind for kinds in done.values() for kind in kinds]
    assert len(changes) == 4 * 6
    assert match["version"] == 2 + len(changes)  # created, deal 1, then every change once
    assert len(match["match"]["deals"]) == 1 + changes.count("append")
    assert [entry["version"] for entry in log] == list(range(1, match["version"] + 1))


def test_a_change_made_in_one_process_reaches_a_stream_held_by_the_other(serve: Serve) -> None:
    one, other = serve.pids
    conn = serve.connect(one)
    status, created, _ = conn.call("POST", "/api/matches", {"players": ["Anna", "Bruno"]})
    assert status == 201
    match_id = created["id"]
    url = f"http://127.0.0.1:{serve.port}/api/matches/{match_id}/events"
    streams: list[EventReader] = []
    # The workers share one listening socket and the kernel wakes whichever waits: on a loaded
    # machine one of them took ten streams in a row, so up to 40 are opened until both hold
    # one (below the cap of 64 a client a worker).
    for _ in range(40):
        reader = EventReader(url)
        streams.append(reader)
        if len({pid_of(serve, r) for r in streams} - {None}) == 2:
            break
    held = {pid_of(serve, r) for r in streams}
    assert held >= {one, other}, "streams on both processes"
    try:
        for pid in (one, other):
            writer = serve.connect(pid)
            status, stored, _ = writer.call("POST", f"/api/matches/{match_id}/deals", anna_deal())
            writer.close()
            assert status == 201
            for reader in streams:
                event = reader.next(timeout=60)
                assert event.data == {"id": match_id, "version": stored["version"]}
            # The other process's cached state is checked against the database's version.
            reader_side = serve.connect(other if pid == one else one)
            _, seen, _ = reader_side.call("GET", f"/api/matches/{match_id}")
            reader_side.close()
            assert seen["version"] == stored["version"]
        # An Idempotency-Key used on one process is known to the other.
        key = {"Idempotency-Key": "phone-7-deal-3"}
        answers = []
        for pid in (one, other):
            writer = serve.connect(pid)
            answers.append(writer.call("POST", f"/api/matches/{match_id}/deals", anna_deal(), key))
            writer.close()
        assert answers[0][0] == answers[1][0] == 201
        assert answers[1][2].get("idempotent-replayed") == "true"
        assert answers[0][1] == answers[1][1]
        assert len(answers[1][1]["match"]["deals"]) == 3
    finally:
        conn.close()
        for reader in streams:
            reader.close()


def pid_of(serve: Serve, reader: EventReader) -> int | None:
    from tests.web.workers import owner

    port = reader._sock.getsockname()[1]
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        pid = owner(port, serve.port, serve.pids)
        if pid is not None:
            return pid
        time.sleep(0.01)
    return None


def test_every_worker_keeps_the_connection_cap(sqlite_url: str) -> None:
    """The guarded h11 protocol runs in each worker: with one connection per address, the
    two workers answer at most one held connection each and refuse the others with 503."""
    running = Serve(sqlite_url, 2, "--max-per-client", "1")
    held: list[socket.socket] = []
    answers = []
    try:
        for _ in range(6):
            sock = socket.create_connection(("127.0.0.1", running.port), timeout=60)
            held.append(sock)
            sock.sendall(b"GET /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answers.append(sock.recv(65536).split(b" ", 2)[1])
    finally:
        for sock in held:
            sock.close()
        output = running.stop()
    assert 1 <= answers.count(b"200") <= 2, answers
    assert answers.count(b"503") == 6 - answers.count(b"200"), answers
    assert "Traceback" not in output
