"""Issue 9 against the real server (uvicorn with :mod:`scopa.web.serve.server`), over raw sockets on
loopback: slow or half-sent requests are closed after a deadline, one address cannot hold
every connection, the Host check and ``--allowed-host``, ``--host ::``, and an aborted upload
that logs no traceback."""

from __future__ import annotations

import asyncio
import functools
import logging
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from scopa.store import MatchStore
from scopa.web import create_app
from scopa.web.serve.server import Limits, Server
from tests.netns import namespace, socket_in
from tests.servers import scopa_serve
from tests.waiting import until
from tests.web.conftest import start

pytestmark = pytest.mark.system

SCOPA = str(Path(sys.executable).parent / "scopa")


class Running:
    def __init__(self, port: int, server: Server) -> None:
        self.port = port
        self.server = server

    def settled(self) -> bool:
        """Whether the server holds no connection and runs no request (as once a client
        that went away has been noticed and its request ended)."""
        state = self.server.server_state
        return not state.connections and not state.tasks

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        # A bound for a broken server, not a time anything waits for: the server closes a
        # slow connection after half a second.
        sock = socket.create_connection(
            ("127.0.0.1", self.port), timeout=60, source_address=(source, 0)
        )
        return sock

    def request(self, raw: bytes, source: str = "127.0.0.1") -> bytes:
        with self.connect(source) as sock:
            sock.sendall(raw)
            return read_all(sock)


def read_all(sock: socket.socket) -> bytes:
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return data + b"<still open>"
        if not chunk:
            return data
        data += chunk


@pytest.fixture
def server(sqlite_url: str) -> Iterator[Running]:
    store = MatchStore.open(sqlite_url)
    limits = Limits(header_timeout=0.5, body_timeout=0.5, per_client=4)
    running, _app, thread, port = start(store, limits)
    yield Running(port, running)
    running.should_exit = True
    thread.join(10)
    store.close()


GET = b"GET /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def test_half_sent_headers_closed_after_the_deadline(server: Running) -> None:
    with server.connect() as sock:
        sock.sendall(b"GET /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        answer = read_all(sock)
        assert answer.startswith(b"HTTP/1.1 408 ")


def test_silent_connection_closed_after_the_deadline(server: Running) -> None:
    with server.connect() as sock:
        assert read_all(sock).startswith(b"HTTP/1.1 408 ")


def test_half_sent_body_closed_after_the_deadline(server: Running) -> None:
    head = (
        b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    with server.connect() as sock:
        sock.sendall(head + b'{"players": ')
        answer = read_all(sock)
        assert b"<still open>" not in answer
        assert b"201" not in answer
    assert server.request(GET).endswith(b"[]")


def test_one_address_cannot_take_every_connection(server: Running) -> None:
    held = [server.connect() for _ in range(4)]
    try:
        for sock in held:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with server.connect() as extra:
            assert read_all(extra).startswith(b"HTTP/1.1 503 ")  # answered at once, closed
        other = server.request(GET, source="127.0.0.2")
        assert other.startswith(b"HTTP/1.1 200 "), other
    finally:
        for sock in held:
            sock.close()
    # the closed connections leave the count as the server notices them
    until(lambda: server.request(GET).startswith(b"HTTP/1.1 200 "), "the connections let go")


def test_normal_keep_alive_requests_unaffected(server: Running) -> None:
    """Requests one after the other on a kept-alive connection are all answered, and each
    answer starts the deadline for the next request's headers again (read from the
    connection's timer: no time has to pass for the test)."""
    armed: list[float] = []
    with server.connect() as sock:
        for _ in range(3):
            sock.sendall(b"GET /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = b""
            while not answer.endswith(b"[]"):
                chunk = sock.recv(65536)
                assert chunk, answer
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200 ")
            # The guarded protocol's own fields (scopa.web.serve.server.guarded_protocol).
            (connection,) = server.server.server_state.connections
            guarded: Any = connection  # the server's own protocol (GuardedH11Protocol)

            def waiting(c: Any = guarded) -> bool:
                return bool(c._phase == "headers")

            until(waiting, "the next request's deadline")
            deadline = guarded._deadline
            assert deadline is not None
            armed.append(deadline.when())
    assert armed == sorted(set(armed)), "each answer restarts the headers' deadline"


def test_rebinding_host_refused_over_the_wire(server: Running) -> None:
    body = b'{"players": ["A", "B"]}'
    post = (
        b"POST /api/matches HTTP/1.1\r\nHost: evil.example:%d\r\nOrigin: http://evil.example:%d\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
    ) % (server.port, server.port, len(body), body)
    assert server.request(post).startswith(b"HTTP/1.1 421 ")
    assert server.request(GET).endswith(b"[]")


def test_aborted_upload_logs_no_traceback(
    server: Running, caplog: pytest.LogCaptureFixture
) -> None:
    head = (
        b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: 100000\r\n\r\n"
        b'--XX\r\nContent-Disposition: form-data; name="file"; filename="m.json"\r\n\r\n{"pl'
    )
    uvicorn_log = logging.getLogger("uvicorn.error")  # uvicorn's own, not propagated
    uvicorn_log.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.INFO):
            with server.connect() as sock:
                sock.sendall(head)
                until(lambda: bool(server.server.server_state.tasks), "the upload to start")
            until(server.settled, "the server to end the aborted upload")
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_client_disconnect_mid_body_is_not_an_error(store: Any) -> None:
    """The same without a server: the app sees the disconnect and raises nothing."""
    app = create_app(store)
    sent: list[Any] = []
    parts: list[dict[str, Any]] = [
        {
            "type": "http.request",
            "body": b'--XX\r\nContent-Disposition: form-data; name="text"\r\n\r\n{',
            "more_body": True,
        },
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        return parts.pop(0) if parts else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/import",
        "raw_path": b"/import",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"multipart/form-data; boundary=XX"),
            (b"content-length", b"100000"),
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))
    assert store.all() == []


@pytest.fixture
def store(sqlite_url: str) -> Iterator[MatchStore]:
    opened = MatchStore.open(sqlite_url)
    yield opened
    opened.close()


def wait_http(
    family: int,
    address: str,
    port: int,
    raw: bytes,
    make: Callable[[int], socket.socket] = socket.socket,
) -> bytes:
    """``raw`` sent to ``address``, the answer read whole, once the server listens (``make``:
    how a socket of ``family`` is made, :func:`tests.netns.socket_in` in a namespace)."""
    deadline = time.monotonic() + 120
    while True:
        try:
            with make(family) as sock:
                sock.settimeout(60)
                sock.connect((address, port))
                sock.sendall(raw)
                return read_all(sock)
        except ConnectionRefusedError:
            assert time.monotonic() < deadline
            time.sleep(0.1)


@pytest.mark.slow
def test_serve_allowed_host_and_ipv6_any(tmp_path: Path) -> None:
    with on_any_address(tmp_path, "--insecure-open", "--allowed-host", "scopa.example.org") as (
        port,
        output,
        make,
    ):
        assert f"http://[::1]:{port}/" in output
        named = b"GET /api/matches HTTP/1.1\r\nHost: scopa.example.org\r\nConnection: close\r\n\r\n"
        assert wait_http(socket.AF_INET6, "::1", port, named, make).startswith(b"HTTP/1.1 200 ")
        other = named.replace(b"scopa.example.org", b"other.example.org")
        assert wait_http(socket.AF_INET6, "::1", port, other, make).startswith(b"HTTP/1.1 421 ")


@contextmanager
def on_any_address(
    tmp_path: Path, *args: str
) -> Iterator[tuple[int, str, Callable[[int], socket.socket]]]:
    """``scopa serve --host :: ARGS`` in a network namespace of the test's own, where every
    address is the namespace's (the machine's real networks cannot reach a server listening
    on all of them, and every port is free): its port, what it printed until it listens, and
    how to make a socket of a family in that namespace (for :func:`wait_http`)."""
    with namespace() as name:
        port = 8000
        with scopa_serve(
            "--host", "::", "--port", str(port), "--db", str(tmp_path / "s.db"), *args,
            within=("ip", "netns", "exec", name),
        ) as (_, output):  # fmt: skip
            yield port, output, functools.partial(socket_in, name)


@pytest.mark.slow
def test_lan_on_ipv6_any_with_one_worker_takes_ipv4_too(tmp_path: Path) -> None:
    """``--lan --host ::`` with one worker listens on both families (issue 25, finding 7:
    it listened on IPv6 only while the join link it printed is IPv4)."""
    with on_any_address(tmp_path, "--lan") as (port, output, make):
        assert "phones join at:" in output
        for family, address, host in (
            (socket.AF_INET, "127.0.0.1", "127.0.0.1"),
            (socket.AF_INET6, "::1", "[::1]"),
        ):
            raw = f"GET /static/icon.svg HTTP/1.1\r\nHost: {host}:{port}\r\n"
            request = f"{raw}Connection: close\r\n\r\n".encode()
            answer = wait_http(family, address, port, request, make)
            assert answer.startswith(b"HTTP/1.1 200 "), (address, answer[:200])


def test_open_file_limit_raised_at_start() -> None:
    code = (
        "import resource\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))\n"
        "from scopa.web.serve.server import raise_open_file_limit\n"
        "raise_open_file_limit()\n"
        "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard or hard == -1)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "True\n"
