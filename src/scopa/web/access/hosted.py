"""A hosted server (``scopa serve --hosted``): many groups, each seeing only its own matches.

Every request but the join page (``/join``), ``POST /api/join`` and the static files needs a
device token: ``Authorization: Bearer TOKEN`` (the API), or the HttpOnly cookie the join page
sets (the pages, and the API calls they make). Without a valid one the API answers 401 and a
page sends the device to the join page. Loopback is not trusted here: behind a proxy every
request comes from it.

The cookie holds one token per group the device joined, the group in use first; the home page
switches between them (``POST /groups/switch``). The request's group goes in the ASGI scope
(:data:`~scopa.web.deps.MEMBER`), where :func:`~scopa.web.deps.get_service` binds the use
cases to it. A group with a language of its own speaks it to a reader who chose none
(:mod:`scopa.web.language`).
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scopa import i18n
from scopa.i18n import _
from scopa.store.protocol import Groups
from scopa.store.records import Member
from scopa.web.access.lan import cookie_value
from scopa.web.deps import GROUPS, MEMBER

logger = logging.getLogger("scopa.web.access.hosted")

COOKIE = "scopa_groups"
COOKIE_MAX_AGE = 60 * 60 * 24 * 365
MAX_TOKENS = 12
"""The most groups one browser keeps (the cookie stays well under 1 KB)."""
GROUP_HEADER = b"x-scopa-group"
"""Names the group in use on every answer to a member (the service worker keeps each
group's pages apart by it)."""
OPEN_PATHS = frozenset({"/join", "/api/join", "/sw.js", "/manifest.webmanifest", "/healthz"})


SWEEP_SECONDS = 1.0
"""How often the tokens in use and the devices of open event streams are checked again."""


def cookie_tokens(scope: Scope) -> list[str]:
    """The tokens in the request's group cookie, the one in use first."""
    return [t for t in cookie_value(scope, COOKIE).split(".") if t][:MAX_TOKENS]


def bearer_token(scope: Scope) -> str | None:
    """The token of an ``Authorization: Bearer`` header ("" for another scheme), or ``None``
    when there is no such header."""
    for key, value in scope.get("headers", []):
        if key == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            return token.strip() if scheme.lower() == "bearer" else ""
    return None


def cookie_header(tokens: list[str], secure: bool) -> str:
    """The ``Set-Cookie`` value that keeps ``tokens`` (the one in use first)."""
    value = ".".join(tokens[:MAX_TOKENS])
    attributes = f"Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax"
    if not tokens:
        attributes = "Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
    return f"{COOKIE}={value}; {attributes}" + ("; Secure" if secure else "")


def document_bearer(app: Any) -> None:
    """Say in ``/api/openapi.json`` that the API takes a bearer token (all but the join)."""
    generate: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        schema = generate()
        schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
        if "device" not in schemes:
            schemes["device"] = {
                "type": "http",
                "scheme": "bearer",
                "description": "A device token from POST /api/join (the pages: its cookie).",
            }
            for path, operations in schema.get("paths", {}).items():
                for operation in operations.values():
                    if path != "/api/join":
                        operation["security"] = [{"device": []}]
        return schema

    app.openapi = openapi


def is_open(path: str) -> bool:
    return path in OPEN_PATHS or path.startswith("/static/")


class HostedMiddleware:
    """Lets in requests holding a valid device token, each bound to the token's group."""

    def __init__(self, app: ASGIApp, store: Groups) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        self._start_sweep(scope.get("app"))
        path = str(scope.get("path", "/"))
        bearer = bearer_token(scope)
        tokens = [bearer] if bearer is not None else cookie_tokens(scope)
        found = self._known(tokens)
        if found is None:
            found = await anyio.to_thread.run_sync(self._members, tokens)
        scope[GROUPS] = found
        scope[MEMBER] = found[0][1] if found else None
        if found:
            group = str(found[0][1].group).encode()

            private = not path.startswith("/static/")

            async def naming_the_group(message: Message) -> None:
                if message["type"] == "http.response.start":
                    headers = [*message.get("headers", []), (GROUP_HEADER, group)]
                    if private:  # a member's page is the group's: no shared cache keeps it
                        headers = [(k, v) for k, v in headers if k.lower() != b"cache-control"]
                        headers.append((b"cache-control", b"private, no-store"))
                    message["headers"] = headers
                await send(message)

            spoken = found[0][1].language
            if spoken is not None:  # the group's language, unless the reader chose one
                from scopa.web.language import SCOPE_KEY, negotiate

                scope[SCOPE_KEY] = negotiate(scope, spoken)
                with i18n.using(scope[SCOPE_KEY]):
                    await self.app(scope, receive, naming_the_group)
                return
            await self.app(scope, receive, naming_the_group)
            return
        if is_open(path):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if path.startswith("/api"):
            where = "Authorization" if bearer is not None else "access"
            text = (
                _("this device token is not valid (revoked, or its group was)")
                if bearer
                else _(
                    "a device token is needed: join a group (POST /api/join) and send "
                    "Authorization: Bearer TOKEN"
                )
            )
            code = "access.token_invalid" if bearer else "access.token_needed"
            body = json.dumps({"error": text, "where": where, "code": code}).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"www-authenticate", b'Bearer realm="scopa"'),
            ]
            await _respond(send, 401, body, headers)
            return
        if scope.get("method") in ("GET", "HEAD"):
            query = scope.get("query_string", b"").decode("latin-1")
            target = path + (f"?{query}" if query else "")
            location = "/join?" + urlencode({"next": target}) if target != "/" else "/join"
            await _respond(send, 303, b"", [(b"location", location.encode("latin-1"))])
            return
        title = html.escape(_("Join first"))
        first = html.escape(_("Join a group first:"))
        link = html.escape(_("join"))
        body = (
            f'<!doctype html><html lang="{i18n.language()}"><title>{title}</title>'
            f"<p>{first} <a href=/join>{link}</a>."
        ).encode()
        await _respond(send, 401, body, [(b"content-type", b"text/html; charset=utf-8")])

    def _start_sweep(self, app: Any) -> None:
        """Start the sweep in this event loop, once (the app's shutdown stops it)."""
        state = getattr(app, "state", None)
        task: asyncio.Task[None] | None = getattr(state, "sweeper", None)
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            task = asyncio.create_task(self._sweep(app), name="scopa token sweep")
            if state is not None:
                state.sweeper = task

    async def _sweep(self, app: Any) -> None:
        """Every :data:`SWEEP_SECONDS`: check the tokens in use again (so that requests find
        theirs checked, and a revoked one stops working), and end the event streams of
        devices that were shut out."""
        hub = getattr(getattr(app, "state", None), "events", None)
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await anyio.to_thread.run_sync(self.store.refresh)
                devices = hub.devices() if hub is not None else set()
                if devices and hub is not None:
                    active = await anyio.to_thread.run_sync(self.store.active_devices, devices)
                    hub.shut_out(devices - active)
            except Exception as error:  # the database is away: the next sweep tries again
                logger.warning("checking the device tokens failed: %s", error)

    def _known(self, tokens: list[str]) -> list[tuple[str, Member]] | None:
        """:meth:`_members` if the store knows every token without the database, else
        ``None``."""
        found: list[tuple[str, Member]] = []
        for token in tokens:
            known, member = self.store.known_member(token)
            if not known:
                return None
            if member is not None and all(m.group != member.group for _, m in found):
                found.append((token, member))
        return found

    def _members(self, tokens: list[str]) -> list[tuple[str, Member]]:
        """The valid tokens among ``tokens``, with what each lets in, in order."""
        found: list[tuple[str, Member]] = []
        for token in tokens:
            member = self.store.member(token)
            if member is not None and all(m.group != member.group for _, m in found):
                found.append((token, member))
        return found


async def _respond(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    headers = [
        *headers,
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
