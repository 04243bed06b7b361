"""Access over the network (``scopa serve --lan``): nothing but the join page without a code.

A device joins with the address the server prints (``/join?code=ABCD-EFGH``, also as a QR
code) or by typing the code on the join page; it then carries the code in a cookie. Codes are
checked against the store in constant time on every request, so a revoked code
(``scopa access revoke``) stops working within seconds. Requests from this computer itself
(loopback) need no code.
"""

from __future__ import annotations

import html
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlencode

from scopa.store import AccessCodes
from scopa.store.access import normalise_code

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "scopa_access"
COOKIE_MAX_AGE = 60 * 60 * 24 * 30
OPEN_PATHS = ("/join", "/static/")
MAX_FORM_BYTES = 1024


def is_loopback(client: tuple[str, int] | list[Any] | None) -> bool:
    if not client:
        return False
    try:
        return ipaddress.ip_address(str(client[0])).is_loopback
    except ValueError:
        return False


def join_page(error: str = "", next_path: str = "/") -> bytes:
    """The only page a device without a code gets."""
    message = f'<p class="error" role="alert">{html.escape(error)}</p>' if error else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Join the score sheet · scopa</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><main class="join">
<h1>Join the score sheet</h1>
<p>Type the access code shown on the computer that runs the sheet.</p>
{message}
<form method="post" action="/join">
<input type="hidden" name="next" value="{html.escape(next_path)}">
<label for="code">Access code</label>
<input id="code" name="code" autocomplete="one-time-code" autocapitalize="characters"
       placeholder="ABCD-EFGH" maxlength="20" required autofocus>
<button type="submit">Join</button>
</form></main></body></html>""".encode()


class AccessMiddleware:
    """Lets in loopback clients and devices holding an active access code."""

    def __init__(self, app: ASGIApp, store: AccessCodes, secure_cookie: bool = False) -> None:
        self.app = app
        self.store = store
        self.secure_cookie = secure_cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or is_loopback(scope.get("client")):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", "/"))
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if path == "/join":
            await self._join(scope, receive, send, query)
            return
        if path.startswith("/static/"):
            await self.app(scope, receive, send)
            return
        code = query.get("code", [""])[0]
        if code and self.store.check_access_code(code):
            rest = {k: v for k, v in query.items() if k != "code"}
            target = path + ("?" + urlencode(rest, doseq=True) if rest else "")
            await self._redirect(send, target, code)
            return
        held = self._cookie_code(scope)
        if held and self.store.check_access_code(held):
            await self.app(scope, receive, send)
            return
        if path.startswith("/api"):
            body = b'{"error": "an access code is needed: open /join", "where": "access"}'
            await self._respond(send, 401, body, b"application/json")
            return
        if scope.get("method") == "GET":
            await self._redirect(send, "/join?" + urlencode({"next": path}))
            return
        await self._respond(send, 401, join_page("Join with the access code first."))

    async def _join(
        self, scope: Scope, receive: Receive, send: Send, query: dict[str, list[str]]
    ) -> None:
        next_path = _safe_next(query.get("next", ["/"])[0])
        if scope.get("method") == "POST":
            form = await _read_form(receive)
            code = form.get("code", [""])[0]
            next_path = _safe_next(form.get("next", [next_path])[0])
            if code and self.store.check_access_code(code):
                await self._redirect(send, next_path, code)
            else:
                error = "That code is not valid (or was revoked). Check it and try again."
                await self._respond(send, 403, join_page(error, next_path))
            return
        code = query.get("code", [""])[0]
        if code and self.store.check_access_code(code):
            await self._redirect(send, next_path, code)
            return
        error = "That code is not valid (or was revoked)." if code else ""
        await self._respond(send, 403 if code else 200, join_page(error, next_path))

    def _cookie_code(self, scope: Scope) -> str:
        for key, value in scope.get("headers", []):
            if key == b"cookie":
                cookie: SimpleCookie = SimpleCookie()
                try:
                    cookie.load(value.decode("latin-1"))
                except Exception:
                    return ""
                if COOKIE in cookie:
                    return cookie[COOKIE].value
        return ""

    async def _redirect(self, send: Send, location: str, code: str | None = None) -> None:
        headers = [(b"location", location.encode("latin-1", "replace"))]
        if code is not None:
            attributes = f"Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax"
            if self.secure_cookie:
                attributes += "; Secure"
            value = normalise_code(code)
            headers.append((b"set-cookie", f"{COOKIE}={value}; {attributes}".encode()))
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _respond(
        self, send: Send, status: int, body: bytes, content_type: bytes = b"text/html"
    ) -> None:
        headers = [
            (b"content-type", content_type + b"; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _safe_next(target: str) -> str:
    """Only paths on this site (no ``//host`` or ``http://``) after joining."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


async def _read_form(receive: Receive) -> dict[str, list[str]]:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > MAX_FORM_BYTES or not message.get("more_body"):
            break
    return parse_qs(body[:MAX_FORM_BYTES].decode("utf-8", "replace"))
