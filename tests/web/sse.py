"""A Server-Sent Events reader for the tests: a thread reads a stream (over a plain or TLS
socket, HTTP/1.1, chunked) into a queue, each event with the moment it arrived."""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict[str, Any]
    id: str | None
    at: float


class EventReader:
    """Reads ``url``'s event stream until closed; ``comments`` keeps the ``:`` lines."""

    def __init__(
        self,
        url: str,
        headers: dict[str, str] | None = None,
        tls: ssl.SSLContext | None = None,
        source: str | None = None,
    ) -> None:
        parts = urlsplit(url)
        self.events: queue.Queue[Event | None] = queue.Queue()
        self.comments: list[str] = []
        self.status = 0
        self.head: dict[str, str] = {}
        self.ended = threading.Event()
        self.opened = threading.Event()
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        raw = socket.create_connection(
            (host, port), timeout=60, source_address=(source, 0) if source else None
        )
        self._sock: socket.socket = (
            tls.wrap_socket(raw, server_hostname=host) if tls is not None else raw
        )
        lines = [f"GET {parts.path}{'?' + parts.query if parts.query else ''} HTTP/1.1"]
        lines += [f"Host: {parts.netloc}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self._sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self._sock.settimeout(None)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        assert self.opened.wait(10), "the stream did not open"

    @property
    def content_type(self) -> str:
        return self.head.get("content-type", "")

    def _read(self) -> None:
        buffer = b""
        try:
            while b"\r\n\r\n" not in buffer:
                buffer += self._recv()
            head, buffer = buffer.split(b"\r\n\r\n", 1)
            first, *fields = head.decode("latin-1").split("\r\n")
            self.status = int(first.split()[1])
            self.head = {k.strip().lower(): v.strip() for k, v in (f.split(":", 1) for f in fields)}
            self.opened.set()
            chunked = self.head.get("transfer-encoding", "").lower() == "chunked"
            text = ""
            while True:
                if chunked:
                    while b"\r\n" not in buffer:
                        buffer += self._recv()
                    size_line, buffer = buffer.split(b"\r\n", 1)
                    size = int(size_line.split(b";")[0], 16)
                    while len(buffer) < size + 2:
                        buffer += self._recv()
                    piece, buffer = buffer[:size], buffer[size + 2 :]
                    if size == 0:
                        return
                else:
                    piece, buffer = buffer or self._recv(), b""
                text += piece.decode()
                while "\n\n" in text:
                    block, text = text.split("\n\n", 1)
                    self._block(block)
        except (OSError, EOFError, ValueError):
            return
        finally:
            self.opened.set()
            self.ended.set()
            self.events.put(None)

    def _recv(self) -> bytes:
        data = self._sock.recv(65536)
        if not data:
            raise EOFError
        return data

    def _block(self, block: str) -> None:
        kind, data, ident = "message", "", None
        for line in block.split("\n"):
            if line.startswith(":"):
                self.comments.append(line)
            elif line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data += line[5:].strip()
            elif line.startswith("id:"):
                ident = line[3:].strip()
        if data:
            self.events.put(Event(kind, json.loads(data), ident, time.monotonic()))

    def next(self, timeout: float = 30.0) -> Event:
        event = self.events.get(timeout=timeout)
        assert event is not None, "the stream ended"
        return event

    def wait_comment(self, text: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in c for c in self.comments):
            assert time.monotonic() < deadline, self.comments
            time.sleep(0.02)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        self._thread.join(5)
