"""Issue 25, findings 7 and 8 (the smaller ones): members' pages are never kept by a shared
cache, HTTPS answers carry HSTS, ``?player=%00`` is a 422 (PostgreSQL refused the NUL with a
500), and a name that looks blank (U+3164 and its kind) is refused."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from tests.netns import namespace
from tests.pg import free_port
from tests.servers import serve_command, started
from tests.web.hosted_helpers import join

MATCH = {"players": ["Anna", "Bruno"]}


def test_members_pages_are_private_and_not_stored(store: MatchStore) -> None:
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as c:
        rossi = join(c, store, "Rossi")
        made = c.post("/api/matches", json=MATCH, headers=rossi.auth).json()["id"]
        for path in ("/", f"/matches/{made}", f"/api/matches/{made}", "/api/matches"):
            answer = c.get(path, headers=rossi.auth)
            assert answer.status_code == 200, path
            assert answer.headers.get_list("cache-control") == ["private, no-store"], path
        static = c.get("/static/style.css", headers=rossi.auth)
        assert "no-store" not in static.headers.get("cache-control", "")


def test_https_answers_carry_hsts(store: MatchStore) -> None:
    with TestClient(create_app(store), base_url="https://127.0.0.1") as secure:
        hsts = secure.get("/").headers["strict-transport-security"]
        assert hsts.startswith("max-age=")
        assert int(hsts.split("=")[1]) >= 15552000
    with TestClient(create_app(store), base_url="http://127.0.0.1") as plain:
        assert "strict-transport-security" not in plain.get("/").headers


def test_a_nul_in_the_player_filter_is_422(client: TestClient) -> None:
    assert client.post("/api/matches", json=MATCH).status_code == 201
    for path in ("/api/matches", "/"):
        answer = client.get(path, params={"player": "\x00"})
        assert answer.status_code == 422, (path, answer.status_code)
    answer = client.get("/api/matches", params={"player": "anna"})
    assert [m["players"] for m in answer.json()] == [["Anna", "Bruno"]]


def test_blank_looking_names_are_refused(client: TestClient) -> None:
    for blank in ("\u3164", "\u3164\u3164", "\u115f", "\uffa0", "\u2800", "A\u3164"):
        answer = client.post("/api/matches", json={"players": [blank, "Bruno"]})
        assert answer.status_code == 422, repr(blank)
        assert answer.json()["where"] == "players[0]"
    assert client.get("/api/matches").json() == []


def test_a_network_listener_without_an_access_mode_is_refused(tmp_path: Path) -> None:
    """``--host 0.0.0.0`` alone is never open: exit 2, a message naming the ways out, nothing
    listening and no database made (issue 48)."""
    port = free_port()
    db = tmp_path / "s.db"
    done = subprocess.run(
        serve_command("--host", "0.0.0.0", "--port", str(port), "--db", str(db)),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert "--host 0.0.0.0: other devices could reach this address" in done.stderr
    assert "--lan" in done.stderr
    assert "--hosted" in done.stderr
    assert "--insecure-open" in done.stderr
    assert not db.exists()


@pytest.mark.system
def test_insecure_open_serves_on_the_network_with_a_loud_warning(tmp_path: Path) -> None:
    """In a network namespace of the test's own: the server listens on every address, and
    the machine's real networks must not reach it."""
    port = free_port()
    command = serve_command(
        "--host", "0.0.0.0", "--insecure-open", "--port", str(port), "--db", str(tmp_path / "s.db")
    )  # fmt: skip
    with (
        namespace() as name,
        started(
            ["ip", "netns", "exec", name, *command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        ) as server,
    ):
        assert server.stderr is not None
        line = server.stderr.readline()
    assert "WARNING: listening on 0.0.0.0 without --lan or --hosted" in line
    assert "anyone who can reach this address can read and change every match" in line


def test_a_client_that_never_reads_a_large_file_is_dropped(store: MatchStore) -> None:
    """It asks for a large static file and reads nothing: once the socket's buffers are full,
    the server waits ``send_timeout`` and drops the connection (issue 25, finding 8)."""
    import socket
    import time

    from scopa.web.serve.server import Limits
    from tests.web.conftest import start

    server, _, thread, port = start(store, Limits(send_timeout=0.5))
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        sock.connect(("127.0.0.1", port))
        path = "/static/vendor/pyodide/pyodide.asm.wasm"
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        deadline = time.monotonic() + 120
        while server.server_state.connections and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not server.server_state.connections, "the connection is still held"
    finally:
        sock.close()
        server.should_exit = True
        thread.join(10)


def test_leaving_the_last_group_clears_what_the_phone_kept(store: MatchStore) -> None:
    """Leaving a group while another remains keeps the phone's storage (the other group's
    pages and unsent changes); leaving the last one clears it: its Cache Storage held both
    groups' pages (issue 25, finding 7)."""
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as c:
        rossi = join(c, store, "Rossi")
        c.cookies.clear()
        c.post("/join", data={"code": rossi.code})
        bianchi = join(c, store, "Bianchi")
        c.post("/join", data={"code": bianchi.code})
        first = c.post("/groups/leave")
        assert first.status_code == 303
        assert "clear-site-data" not in first.headers
        last = c.post("/groups/leave")
        assert last.status_code == 303
        assert last.headers["location"] == "/join"
        assert '"storage"' in last.headers["clear-site-data"]
        assert '"cache"' in last.headers["clear-site-data"]
