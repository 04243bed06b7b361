"""``Idempotency-Key`` on every change request (docs/formats.md, "HTTP API").

A change (``POST``, ``PUT``, ``PATCH``, ``DELETE``) sent with the header is answered once.
The store runs it as a keyed change (:class:`scopa.store.protocol.Keys`): every store
operation of the request joins one transaction, and the key is kept with its answer in that
same transaction, so the change and its answer commit together or not at all. A server
killed half-way has committed neither, and the retry makes the change once; the same key
again gets the kept answer (status, headers and body, plus ``Idempotent-Replayed: true``)
and changes nothing (its change is made in its transaction, then rolled back when the key is
found kept); the same key with another method, path or body is refused with 422; a repeat
that arrives while the first is still being answered waits for it at the key and gets its
answer. On a hosted server each group has its own keys, and what is kept counts against the
group's bytes. Keys are kept 24 hours at least.

What is kept is small: a long answer (a whole sheet) is kept as a reference to the resource
(:func:`small_answer`). A 5xx answer is never kept: its change is rolled
back with it and the retry runs again. A full disk (at the change or at the commit) is 503.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from contextvars import ContextVar
from html import escape
from typing import Any

import anyio.to_thread
from sqlalchemy.exc import DBAPIError
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scopa.errors import QuotaExceededError
from scopa.i18n import N_, _
from scopa.store.protocol import KeyedChange, Keys
from scopa.store.records import KeptAnswer, KeyTaken
from scopa.web.api import diskfull
from scopa.web.deps import MEMBER

logger = logging.getLogger("scopa.web")

KEPT_BODY = 4096
"""The longest answer body kept as it is; a longer one is kept as a reference."""
KEPT_HEADERS = frozenset(
    {"content-type", "location", "etag", "content-disposition", "hx-redirect", "preference-applied"}
)


def small_answer(status: int, headers: list[tuple[str, str]], body: bytes, path: str) -> KeptAnswer:
    """What is kept of an answer: the answer itself if its body is short, else its status
    and headers with a short body that points to the resource (JSON: ``replayed``, the
    ``id`` and ``version`` the answer named, and ``see``: where to read it; a page: a
    request to reload, ``HX-Refresh``, that says whether the change was made or refused).

    >>> small_answer(201, [("content-type", "application/json")], b'{"id": 1}', "/x").body
    b'{"id": 1}'
    >>> big = json.dumps({"id": 4, "version": 9, "sheet": "x" * 5000}).encode()
    >>> small_answer(200, [("content-type", "application/json")], big, "/api/matches/4").body
    b'{"replayed":true,"id":4,"version":9,"see":"/api/matches/4"}'
    """
    kept = tuple((k, v) for k, v in headers if k in KEPT_HEADERS)
    if len(body) <= KEPT_BODY:
        return KeptAnswer(status, kept, body)
    kind = dict(kept).get("content-type", "")
    location = dict(kept).get("location", path)
    if kind.startswith("application/json"):
        short: dict[str, Any] = {"replayed": True}
        try:
            whole = json.loads(body)
        except ValueError:
            whole = None
        if isinstance(whole, dict):
            short.update({k: whole[k] for k in ("id", "version") if k in whole})
        short["see"] = location
        text = json.dumps(short, separators=(",", ":"), ensure_ascii=True).encode()
        return KeptAnswer(status, kept, text)
    # a page: said in the language of the request that made it, as its whole body was
    said = _("This change was already made.") if status < 400 else _(REFUSED)
    again = _("Reload the page")
    page = f'<p>{escape(said)} <a href="">{escape(again)}</a></p>'.encode()
    return KeptAnswer(status, (*kept, ("hx-refresh", "true")), page)


REFUSED = N_("This change was refused, and nothing was saved.")


CHANGE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HEADER = b"idempotency-key"


def key_problem(key: str) -> str | None:
    """What is wrong with a key, or None (1-100 printable ASCII characters).

    >>> key_problem("a1-b2"), key_problem(""), key_problem("é")
    (None, 'an Idempotency-Key has 1 to 100 characters', 'an Idempotency-Key is printable ASCII')
    """
    if not 1 <= len(key) <= 100:
        return N_("an Idempotency-Key has 1 to 100 characters")
    if any(not " " <= c <= "~" for c in key):
        return N_("an Idempotency-Key is printable ASCII")
    return None


def fingerprint(method: str, path: str, query: bytes, body: bytes) -> str:
    digest = hashlib.sha256()
    for part in (method.encode(), path.encode(), query, body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


class IdempotencyMiddleware:
    """Answers a change request carrying an ``Idempotency-Key`` at most once."""

    def __init__(self, app: ASGIApp, keys: Keys) -> None:
        self.app = app
        self.keys = keys
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    def slots(self) -> asyncio.Semaphore:
        """The open keyed changes' places (:attr:`Keys.at_once`), one set per event loop."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.keys.at_once))
        return self._slots[1]

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
            await refuse(send, 422, _(problem), code="idempotency.key_invalid")
            return
        if scope.get("path") == "/api/join":  # its answer is a token: never kept
            await self.app(scope, receive, send)
            return
        member = scope.get(MEMBER)
        group = None if member is None else int(member.group)  # hosted: a group's own keys
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
        keyed = self.keys.keyed(key, print_, group)
        answer: list[Message] = []  # sent once the change's place is free again

        async def later(message: Message) -> None:
            answer.append(message)

        async with self.slots():  # queued here, holding no thread and no connection
            await self._first(scope, body, later, keyed)
        for message in answer:
            await send(message)

    @staticmethod
    async def _kept(send: Send, keyed: KeyedChange) -> None:
        """The answer kept for the key, or the refusal of a key used for another change."""
        if keyed.found is not None:
            await replay(send, keyed.found)
            return
        text = _("this Idempotency-Key was used for another change (method, path or body)")
        await refuse(send, 422, text, code="idempotency.key_reused")

    async def _first(self, scope: Scope, body: bytes, send: Send, keyed: KeyedChange) -> None:
        """Answer the request in the key's transaction, keep the answer, commit, then send."""
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

        keyed.join()
        current = KEYED.set(keyed)
        try:
            await self.app(scope, replay_receive, capture)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(keyed.rollback)
            raise
        finally:
            KEYED.reset(current)
            keyed.release()
        status = int(start.get("status", 500))
        headers = [(bytes(k), bytes(v)) for k, v in start.get("headers", [])]
        content = b"".join(chunks)
        if not keyed.settled:  # not kept by the route in its own thread (:func:`keep_here`)
            with anyio.CancelScope(shield=True):
                if status >= 500:  # never kept: undone with its change, the retry runs again
                    await anyio.to_thread.run_sync(keyed.rollback)
                else:
                    named = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]
                    kept = small_answer(status, named, content, str(scope.get("path", "")))
                    await anyio.to_thread.run_sync(keyed.settle, kept)
        error = keyed.error
        if isinstance(error, KeyTaken):  # the same request, sent again, made the change
            await self._kept(send, keyed)
            return
        if isinstance(error, QuotaExceededError):
            await refuse(send, 403, error.text(), f"quota.{error.limit}", code=error.code)
            return
        if isinstance(error, DBAPIError) and diskfull.disk_full(error):
            await storage_full(send, error)
            return
        if error is not None:
            raise error
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})


KEYED: ContextVar[KeyedChange | None] = ContextVar("scopa_keyed", default=None)
"""The keyed change of the request being answered, if it has a key."""


def keep_here(response: Response, path: str) -> None:
    """Keep ``response`` for the request's key and commit, in the thread that made it (a
    route answered in one thread: one hop to a thread less than keeping it after it is
    sent). What is kept is what :class:`IdempotencyMiddleware` would keep of it once sent,
    and an error is answered by the middleware as if it had committed there. A request with
    no key, or a 5xx answer (never kept), is left as it is."""
    keyed = KEYED.get()
    if keyed is None or response.status_code >= 500:
        return
    named = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in response.raw_headers]
    keyed.settle(small_answer(response.status_code, named, bytes(response.body), path))


async def replay(send: Send, kept: KeptAnswer) -> None:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in kept.headers]
    headers.append((b"idempotent-replayed", b"true"))
    headers.append((b"content-length", str(len(kept.body)).encode()))
    await send({"type": "http.response.start", "status": kept.status, "headers": headers})
    await send({"type": "http.response.body", "body": kept.body})


async def storage_full(send: Send, error: BaseException) -> None:
    logger.error("the database's disk is full: %s", error)
    await refuse(
        send, 503, _(diskfull.MESSAGE), "storage", [(b"retry-after", b"60")], code="storage.full"
    )


async def refuse(
    send: Send,
    status: int,
    text: str,
    where: str = "Idempotency-Key",
    extra: list[tuple[bytes, bytes]] | None = None,
    code: str = "error",
) -> None:
    body = json.dumps({"error": text, "where": where, "code": code}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += extra or []
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
