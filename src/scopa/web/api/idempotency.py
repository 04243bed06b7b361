"""``Idempotency-Key`` on every change request (docs/formats.md, "HTTP API").

A change (``POST``, ``PUT``, ``PATCH``, ``DELETE``) sent with the header is answered once: the
key, a fingerprint of the method, path and body, and the first answer are kept in the
``idempotency_keys`` table. The same key again gets that answer (status, headers and body, plus
``Idempotent-Replayed: true``) and changes nothing; the same key with another method, path or
body is refused with 422; a repeat that arrives while the first is still being answered
gets 409. On a hosted server each group has its own keys. Keys are kept 24 hours at least
(older ones are purged now and then).

The answer is stored before it is sent, so an answer lost on the way (a phone that lost its
signal) followed by a retry never records a deal twice. A 5xx answer is not kept: the retry
runs again.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import anyio.to_thread
from sqlalchemy import Engine, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scopa.store.models import IdempotencyKeyRow
from scopa.web.deps import MEMBER

CHANGE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HEADER = b"idempotency-key"
KEEP = timedelta(hours=25)
"""How long a key is kept (docs/formats.md asks for at least 24 hours)."""
STALE_CLAIM = timedelta(minutes=2)
"""A first request still unanswered after this long is taken to have died with its server."""
PURGE_EVERY = 600.0
"""Seconds between two purges of the old keys (the first claim purges at once)."""
KEPT_HEADERS = frozenset(
    {b"content-type", b"location", b"etag", b"content-disposition", b"hx-redirect"}
)


def key_problem(key: str) -> str | None:
    """What is wrong with a key, or None (1-100 printable ASCII characters).

    >>> key_problem("a1-b2"), key_problem(""), key_problem("é")
    (None, 'an Idempotency-Key has 1 to 100 characters', 'an Idempotency-Key is printable ASCII')
    """
    if not 1 <= len(key) <= 100:
        return "an Idempotency-Key has 1 to 100 characters"
    if any(not " " <= c <= "~" for c in key):
        return "an Idempotency-Key is printable ASCII"
    return None


def fingerprint(method: str, path: str, query: bytes, body: bytes) -> str:
    digest = hashlib.sha256()
    for part in (method.encode(), path.encode(), query, body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Stored:
    """What the table says about a key when a request claims it."""

    outcome: str
    """``claimed`` (answer it), ``replay``, ``mismatch`` or ``busy``."""
    status: int = 0
    headers: tuple[tuple[bytes, bytes], ...] = ()
    body: bytes = b""


class IdempotencyKeys:
    """The ``idempotency_keys`` table, on the store's engine. ``clock`` (seconds, any origin:
    ``time.monotonic`` by default) times the purges."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.monotonic) -> None:
        self.engine = engine
        self._clock = clock
        self._last_purge: float | None = None

    def claim(self, key: str, print_: str) -> Stored:
        now = datetime.now(UTC)
        self._purge(now)
        try:
            with Session(self.engine) as session, session.begin():
                session.add(IdempotencyKeyRow(key=key, fingerprint=print_, created_at=now))
            return Stored("claimed")
        except IntegrityError:
            pass
        with Session(self.engine) as session, session.begin():
            row = session.get(IdempotencyKeyRow, key, with_for_update=True)
            if row is None:  # purged in between: claim it afresh
                session.add(IdempotencyKeyRow(key=key, fingerprint=print_, created_at=now))
                return Stored("claimed")
            if row.fingerprint != print_:
                return Stored("mismatch")
            if row.status is None:
                started = row.created_at
                if started.tzinfo is None:
                    started = started.replace(tzinfo=UTC)
                if now - started < STALE_CLAIM:
                    return Stored("busy")
                row.created_at = now
                return Stored("claimed")
            headers = tuple(
                (str(k).encode("latin-1"), str(v).encode("latin-1")) for k, v in row.headers or []
            )
            return Stored("replay", row.status, headers, row.body or b"")

    def keep(self, key: str, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        kept = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in headers if k in KEPT_HEADERS]
        with Session(self.engine) as session, session.begin():
            row = session.get(IdempotencyKeyRow, key)
            if row is not None:
                row.status, row.headers, row.body = status, kept, body

    def release(self, key: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(delete(IdempotencyKeyRow).where(IdempotencyKeyRow.key == key))

    def count(self) -> int:
        with Session(self.engine) as session:
            return len(session.scalars(select(IdempotencyKeyRow.key)).all())

    def _purge(self, now: datetime) -> None:
        at = self._clock()
        if self._last_purge is not None and at - self._last_purge < PURGE_EVERY:
            return
        self._last_purge = at
        with Session(self.engine) as session, session.begin():
            session.execute(
                delete(IdempotencyKeyRow).where(IdempotencyKeyRow.created_at < now - KEEP)
            )


class IdempotencyMiddleware:
    """Answers a change request carrying an ``Idempotency-Key`` at most once."""

    def __init__(self, app: ASGIApp, engine: Engine) -> None:
        self.app = app
        self.keys = IdempotencyKeys(engine)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in CHANGE_METHODS:
            await self.app(scope, receive, send)
            return
        raw = next((v for k, v in scope.get("headers", []) if k == HEADER), None)
        if raw is None:
            await self.app(scope, receive, send)
            return
        key = raw.decode("latin-1").strip()
        problem = key_problem(key)
        if problem:
            await refuse(send, 422, problem)
            return
        if scope.get("path") == "/api/join":  # its answer is a token: never kept
            await self.app(scope, receive, send)
            return
        member = scope.get(MEMBER)
        if member is not None:  # hosted: each group has its own keys
            key = f"{member.group}:{key}"
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        method, path = str(scope["method"]), str(scope.get("path", ""))
        print_ = fingerprint(method, path, scope.get("query_string", b""), body)
        stored = await anyio.to_thread.run_sync(self.keys.claim, key, print_)
        if stored.outcome == "mismatch":
            text = "this Idempotency-Key was used for another change (method, path or body)"
            await refuse(send, 422, text)
            return
        if stored.outcome == "busy":
            await refuse(send, 409, "a request with this Idempotency-Key is still being answered")
            return
        if stored.outcome == "replay":
            headers = [*stored.headers, (b"idempotent-replayed", b"true")]
            headers.append((b"content-length", str(len(stored.body)).encode()))
            await send({"type": "http.response.start", "status": stored.status, "headers": headers})
            await send({"type": "http.response.body", "body": stored.body})
            return
        await self._first(scope, body, send, key)

    async def _first(self, scope: Scope, body: bytes, send: Send, key: str) -> None:
        """Answer the request, keep the answer, then send it."""
        sent_body = False

        async def replay_receive() -> Message:
            nonlocal sent_body
            if sent_body:
                return {"type": "http.disconnect"}
            sent_body = True
            return {"type": "http.request", "body": body, "more_body": False}

        start: Message = {}
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))

        try:
            await self.app(scope, replay_receive, capture)
        except BaseException:
            await anyio.to_thread.run_sync(self.keys.release, key)
            raise
        status = int(start.get("status", 500))
        headers = [(bytes(k), bytes(v)) for k, v in start.get("headers", [])]
        content = b"".join(chunks)
        if status >= 500:
            await anyio.to_thread.run_sync(self.keys.release, key)
        else:
            await anyio.to_thread.run_sync(self.keys.keep, key, status, headers, content)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})


async def refuse(send: Send, status: int, text: str) -> None:
    body = json.dumps({"error": text, "where": "Idempotency-Key"}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
