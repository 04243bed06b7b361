"""``scopa serve --workers N`` run through the entry point, for the tests: its worker
processes, and connections pinned to a chosen worker (Linux: which process holds the
accepted socket is read from /proc)."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx

from tests.pg import free_port
from tests.servers import read_banner, serve_command, spawn, stop

T = TypeVar("T")


def first_answer(
    request: Callable[[], T], seconds: float = 120, alive: Callable[[], bool] = lambda: True
) -> T:
    """``request()`` tried again while the server does not take connections yet (a transport
    error) until it answers: :class:`RuntimeError` once ``seconds`` have passed or ``alive()``
    says the server has stopped."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return request()
        except httpx.TransportError:
            if time.monotonic() > deadline or not alive():
                raise RuntimeError("the server did not start") from None
            time.sleep(0.05)


def children(pid: int, mark: bytes = b"spawn_main") -> list[int]:
    """The processes whose parent is ``pid`` and whose command line holds ``mark`` (by
    default a server's worker processes; ``b""``: every child)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and mark in cmdline:
            found.append(int(entry))
    return sorted(found)


def _inodes_by_remote_port(port: int, server_port: int) -> set[str]:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if int(local.rsplit(":", 1)[1], 16) == server_port and (
                int(remote.rsplit(":", 1)[1], 16) == port
            ):
                inodes.add(inode)
    return inodes


def owner(client_port: int, server_port: int, pids: list[int]) -> int | None:
    """The worker holding the server side of the connection from ``client_port``."""
    inodes = _inodes_by_remote_port(client_port, server_port)
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                return pid
    return None


class Serve:
    """``scopa serve --workers N`` on a loopback port, ready when each worker has taken a
    connection; stopped with its workers by :meth:`stop` (or at the end of a ``with`` block),
    and at once if it does not get ready."""

    def __init__(self, db: str, workers: int = 2, *extra: str) -> None:
        self.port = free_port()
        self.process = spawn(
            serve_command("--port", str(self.port), "--db", db, "--workers", str(workers), *extra),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            self.banner = read_banner(self.process)
            deadline = time.monotonic() + 120
            while len(self.workers()) < workers:
                assert time.monotonic() < deadline, "the workers did not start"
                time.sleep(0.1)
            self.pids = self.workers()
            # Ready when each worker has accepted a connection.
            for pid in self.pids:
                self.connect(pid, deadline=time.monotonic() + 120).close()
        except BaseException:
            stop(self.process)
            raise

    def __enter__(self) -> Serve:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def workers(self) -> list[int]:
        return children(self.process.pid)

    def connect(self, pid: int | None = None, deadline: float | None = None) -> Pinned:
        """A keep-alive connection accepted by worker ``pid`` (any worker: None)."""
        deadline = deadline or time.monotonic() + 120
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                conn.connect()
            except ConnectionRefusedError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
                continue
            assert conn.sock is not None
            client_port = conn.sock.getsockname()[1]
            held = None
            settle = time.monotonic() + 2
            while held is None and time.monotonic() < settle:
                held = owner(client_port, self.port, self.pids or self.workers())
                if held is None:
                    time.sleep(0.01)
            if held is not None and (pid is None or held == pid):
                return Pinned(conn, held)
            conn.close()
            assert time.monotonic() < deadline, f"no connection reached worker {pid}"

    def stop(self) -> str:
        """Stop the server and its workers (see :func:`tests.servers.stop`): all it printed."""
        return self.banner + stop(self.process)


class Pinned:
    """A connection to one worker."""

    def __init__(self, conn: http.client.HTTPConnection, pid: int) -> None:
        self.conn = conn
        self.pid = pid

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        sent = {"Host": "127.0.0.1", **(headers or {})}
        raw = None
        if body is not None:
            raw = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        self.conn.request(method, path, body=raw, headers=sent)
        response = self.conn.getresponse()
        data = response.read()
        parsed = json.loads(data) if data else None
        return response.status, parsed, {k.lower(): v for k, v in response.getheaders()}

    def close(self) -> None:
        self.conn.close()
