"""The guard in front of everything: the Host check (DNS rebinding), cross-site changes
refused, the body cap, security headers on every answer, and a client that leaves mid-request
dropped without a traceback.
"""

from __future__ import annotations

import html
import ipaddress
import logging
from urllib.parse import urlsplit

from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scopa import i18n
from scopa.i18n import _
from scopa.web import language

logger = logging.getLogger("scopa.web")

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
        b"img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")
"""Sent on every answer over HTTPS (``scopa serve --certfile``)."""


class BodyTooLarge(Exception):
    pass


def _with(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *extra]
        await send(message)

    return sending


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def cross_site(scope: Scope) -> bool:
    """Whether a request comes from a page of another site (a cross-site form or fetch).

    Browsers say so in ``Sec-Fetch-Site``, and send ``Origin`` with every cross-origin post;
    a client that sends neither (curl, scripts, the test client) is not a browser page.
    """
    wanted = (b"sec-fetch-site", b"origin", b"host")
    headers: dict[bytes, bytes] = {k: v for k, v in scope.get("headers", []) if k in wanted}
    if headers.get(b"sec-fetch-site") == b"cross-site":
        return True
    origin = headers.get(b"origin")
    if origin is None:
        return False
    host = headers.get(b"host", b"")
    return urlsplit(origin.decode("latin-1")).netloc.encode("latin-1") != host


def host_name(header: bytes) -> str:
    """The host of a ``Host`` header, without its port, in lower case.

    >>> host_name(b"[::1]:8000"), host_name(b"Example.org:80"), host_name(b"10.0.0.2")
    ('::1', 'example.org', '10.0.0.2')
    """
    text = header.decode("latin-1").strip().lower()
    if text.startswith("["):
        return text[1:].partition("]")[0]
    return text.rpartition(":")[0] if text.count(":") == 1 else text


def host_allowed(scope: Scope, allowed: frozenset[str]) -> bool:
    """Whether the request names this server as an IP address, ``localhost`` or a host name
    the operator allowed. Any other name reached this server by DNS rebinding (a foreign
    domain resolving to this address), so its page must not be served or obeyed.

    Starlette's test client, which goes through no network, says ``testserver``.
    """
    header = next((v for k, v in scope.get("headers", []) if k == b"host"), None)
    if header is None:
        return True  # HTTP/1.0 without Host: not a browser
    name = host_name(header).rstrip(".")
    if name == "localhost" or name in allowed:
        return True
    client = scope.get("client")
    if name == "testserver" and client and client[0] == "testclient":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HeadAsGet:
    """``HEAD`` answered wherever ``GET`` is, with the same status and headers and no body
    (RFC 9110, 9.3.2): the routes declare ``GET`` only, and an uptime monitor or a proxy's
    check that asks ``HEAD /healthz`` (or ``HEAD /``) got 405. The request goes on as a
    ``GET``; the first part of the body ends the answer, empty, and what the app sends after
    it (an event stream's next events) goes nowhere."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return
        ended = False

        async def headers_only(message: Message) -> None:
            nonlocal ended
            if ended:
                return
            if message["type"] == "http.response.body":
                ended = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def back_to(scope: Scope) -> str:
    """Where a refused page leads back to: the page of this server the request came from
    (its ``Referer``: the path and query), else the matches."""
    headers: dict[bytes, bytes] = {
        k: v for k, v in scope.get("headers", []) if k in (b"referer", b"host")
    }
    referer = urlsplit(headers.get(b"referer", b"").decode("latin-1"))
    same = referer.netloc and referer.netloc == headers.get(b"host", b"").decode("latin-1")
    if not same or not referer.path.startswith("/"):
        return "/"
    return referer.path + (f"?{referer.query}" if referer.query else "")


class GuardMiddleware:
    """The Host check first; security headers on every answer; request bodies over the cap
    refused with 413."""

    def __init__(
        self, app: ASGIApp, max_body_bytes: int, allowed_hosts: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.max_body = max_body_bytes
        self.allowed_hosts = frozenset(h.lower().rstrip(".") for h in allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        is_api = str(scope.get("path", "")).startswith("/api")
        if not host_allowed(scope, self.allowed_hosts):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            text = _(
                "this server does not answer to that host name (add it with "
                "`scopa serve --allowed-host NAME`)"
            )
            headers = [(k, v) for k, v in SECURITY_HEADERS]
            refuse = _with(send, headers)
            await self._refuse(421, text, "host", is_api, refuse, "request.host_not_allowed")
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.extend(SECURITY_HEADERS)
                if secure:  # served with --certfile: browsers keep to HTTPS from now on
                    headers.append(HSTS)
                message["headers"] = headers
            await send(message)

        if scope.get("method", "GET") not in SAFE_METHODS and cross_site(scope):
            await self._refuse(
                403,
                _("a change sent from another site is refused (cross-site request)"),
                "origin",
                is_api,
                send_with_headers,
                "request.cross_site",
            )
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length" and (
                not value.isdigit() or len(value) > 15 or int(value) > self.max_body
            ):
                await self._too_large(is_api, send_with_headers, back_to(scope))
                return
        received = 0
        started = False

        async def capped_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send_with_headers(message)

        try:
            await self.app(scope, capped_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._too_large(is_api, send_with_headers, back_to(scope))
        except ClientDisconnect:
            # The client went away mid-request (an aborted upload): nobody to answer, and
            # nothing was stored, since a change runs only once its body is in.
            logger.info("%s %s: the client disconnected", scope.get("method"), scope.get("path"))

    async def _too_large(self, is_api: bool, send: Send, back: str = "/") -> None:
        if is_api:
            said = _("the request body is over the limit of {max_body} bytes")
            text = said.format(max_body=self.max_body)
        else:  # a person who sent a form or a file: in their words
            said = _("That is too much to send at once: at most {size} MB. Nothing was saved.")
            text = said.format(size=language.number(self.max_body / 2**20, 1))
        await self._refuse(413, text, "body", is_api, send, "request.body_too_large", back)

    async def _refuse(
        self,
        status: int,
        text: str,
        where: str,
        is_api: bool,
        send: Send,
        code: str,
        back: str = "/",
    ) -> None:
        response: Response
        if is_api:
            body = {"error": text, "where": where, "code": code}
            response = JSONResponse(body, status_code=status)
        else:
            # A page of its own (the app's templates are past the guard): the style, the
            # message, and the way back to the page the form was on.
            title = html.escape(_("Refused"))
            page = (
                f'<!doctype html><html lang="{i18n.language()}"><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<link rel="stylesheet" href="/static/style.css"><title>{title}</title>'
                f'<main><h1>{title}</h1><p class="alert" role="alert">{html.escape(text)}</p>'
                f'<p><a href="{html.escape(back)}">← {html.escape(_("Back"))}</a></p></main>'
            )
            response = HTMLResponse(page, status)

        async def no_receive() -> Message:
            return {"type": "http.disconnect"}

        await response({"type": "http"}, no_receive, send)
