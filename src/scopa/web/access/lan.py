"""Access over the network (``scopa serve --lan``): nothing but the join page without a code.

A device joins with the address the server prints (``/join?code=ABCD-EFGH``, also as a QR
code) or by typing the code on the join page. The code is checked once; the device then gets
its own random token in a cookie (the shared code never travels again), listed with a label
and its last use by ``scopa access devices`` and revocable one by one
(``scopa access revoke-device ID``). Codes expire (12 hours unless ``serve --code-hours``
says otherwise) and a new ``scopa serve --lan`` retires the previous serve's code.

Wrong codes are limited per address (:class:`~scopa.store.protocol.CodeChecks`: after a few,
429 with ``Retry-After`` until the window passes) and each is logged; beside that, a process
checks at most a few codes a second from all addresses together (429 past it), one at a time
and off the threads that serve the devices already in (:func:`check_code`), so that guesses
from many addresses at once do not delay the owner. Requests from this computer itself
(loopback) need no code.
"""

from __future__ import annotations

import html
import ipaddress
import json
import logging
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import anyio.to_thread
from starlette.types import ASGIApp, Receive, Scope, Send

from scopa import i18n
from scopa.i18n import _
from scopa.store.protocol import CodeChecks

logger = logging.getLogger("scopa.access")

COOKIE = "scopa_device"
COOKIE_MAX_AGE = 60 * 60 * 24 * 30
OPEN_PATHS = ("/join", "/static/", "/healthz")
MAX_FORM_BYTES = 1024


def cookie_value(scope: Scope, name: str) -> str:
    """The request's cookie ``name`` (``""`` if it has none, or a cookie header that does not
    parse)."""
    for key, value in scope.get("headers", []):
        if key == b"cookie":
            cookie: SimpleCookie = SimpleCookie()
            try:
                cookie.load(value.decode("latin-1"))
            except CookieError:
                return ""
            if name in cookie:
                return cookie[name].value
    return ""


class DeviceAccess(Protocol):
    """What the middleware needs of the store."""

    def join(self, code: str, label: str) -> str | None:
        """A new device token for a valid, unexpired code (``None`` for a wrong one)."""
        ...

    def check_device(self, token: str) -> bool:
        """Whether ``token`` belongs to a device not revoked."""
        ...


T = TypeVar("T")
CHECKING = "scopa.code_checks"


async def check_code(state: Any, check: Callable[[], T]) -> T:
    """Run ``check`` (a code's slow hash) in a worker thread, one at a time in this app
    (``state``: the app's or the middleware's, which keeps the limiter): the checks queue
    among themselves and never take the threads the requests of devices already in need."""
    limiter = getattr(state, CHECKING, None)
    if limiter is None:
        limiter = anyio.CapacityLimiter(1)
        setattr(state, CHECKING, limiter)
    return await anyio.to_thread.run_sync(check, limiter=limiter)


def too_busy() -> str:
    return _("Too many codes are being tried at the moment. Try again in a second.")


class LimitedAccess(DeviceAccess, Protocol):
    """A store with the wrong codes it counts."""

    @property
    def failures(self) -> CodeChecks: ...


def device_label(scope: Scope) -> str:
    """A label for a new device: what its browser says it is, and its address."""
    agent = ""
    for key, value in scope.get("headers", []):
        if key == b"user-agent":
            agent = value.decode("latin-1")
    kind = next(
        (
            name
            for token, name in (
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Android", "Android"),
                ("Windows", "Windows"),
                ("Macintosh", "Mac"),
                ("Linux", "Linux"),
            )
            if token in agent
        ),
        "device",
    )
    client = scope.get("client")
    address = str(client[0]) if client else "?"
    return f"{kind} at {address}"[:80]


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
    title = html.escape(_("Join the score sheet"))
    explained = html.escape(_("Type the access code shown on the computer that runs the sheet."))
    label = html.escape(_("Access code"))
    join = html.escape(_("Join"))
    return f"""<!doctype html>
<html lang="{i18n.language()}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · scopa</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><main class="join">
<h1>{title}</h1>
<p>{explained}</p>
{message}
<form method="post" action="/join">
<input type="hidden" name="next" value="{html.escape(next_path)}">
<label for="code">{label}</label>
<input id="code" name="code" autocomplete="one-time-code" autocapitalize="characters"
       placeholder="ABCD-EFGH" maxlength="20" required autofocus>
<button type="submit">{join}</button>
</form></main></body></html>""".encode()


class AccessMiddleware:
    """Lets in loopback clients and devices holding a device token."""

    def __init__(
        self,
        app: ASGIApp,
        store: LimitedAccess,
        secure_cookie: bool = False,
        limiter: CodeChecks | None = None,
    ) -> None:
        self.app = app
        self.store = store
        self.secure_cookie = secure_cookie
        self.limiter = limiter or store.failures

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or is_loopback(scope.get("client")):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", "/"))
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if path == "/join":
            await self._join(scope, receive, send, query)
            return
        if path.startswith("/static/") or path == "/healthz":
            await self.app(scope, receive, send)
            return
        code = query.get("code", [""])[0]
        if code and scope["type"] == "http":
            rest = {k: v for k, v in query.items() if k != "code"}
            target = path + ("?" + urlencode(rest, doseq=True) if rest else "")
            await self._try_code(scope, send, code, safe_next(quote(target, safe=SAFE_CHARS)))
            return
        token = cookie_value(scope, COOKIE)
        if token and self.store.check_device(token):
            await self.app(scope, receive, send)
            return
        if path.startswith("/api"):
            said = _("an access code is needed: open /join")
            answer = {"error": said, "where": "access", "code": "access.code_needed"}
            await self._respond(send, 401, json.dumps(answer).encode(), b"application/json")
            return
        if scope.get("method") == "GET":
            await self._redirect(send, "/join?" + urlencode({"next": path}))
            return
        await self._respond(send, 401, join_page(_("Join with the access code first.")))

    async def _join(
        self, scope: Scope, receive: Receive, send: Send, query: dict[str, list[str]]
    ) -> None:
        next_path = safe_next(query.get("next", ["/"])[0])
        if scope.get("method") == "POST":
            form = await _read_form(receive)
            next_path = safe_next(form.get("next", [next_path])[0])
            await self._try_code(scope, send, form.get("code", [""])[0], next_path)
            return
        code = query.get("code", [""])[0]
        if code:
            await self._try_code(scope, send, code, next_path)
            return
        await self._respond(send, 200, join_page("", next_path))

    async def _try_code(self, scope: Scope, send: Send, code: str, next_path: str) -> None:
        """A code offered: a device token and on to ``next_path``, or the join page again."""
        if not code.strip():  # nothing typed: no guess, so not counted against the device
            said = _("Type the access code first (it looks like ABCD-EFGH).")
            await self._respond(send, 422, join_page(said, next_path))
            return
        client = scope.get("client")
        address = str(client[0]) if client else "?"
        # Counted before the (slow) hash, so that a burst of guesses hashes at most a few.
        count = self.limiter.failed(address)
        if count > self.limiter.most:
            wait = self.limiter.retry_after(address)
            logger.warning("access: %s is still blocked after too many wrong codes", address)
            said = _("Too many wrong codes from this device. Try again in {wait} seconds.")
            text = said.format(wait=wait)
            await self._respond(
                send, 429, join_page(text, next_path), extra=[(b"retry-after", str(wait).encode())]
            )
            return
        if self.limiter.busy():
            self.limiter.forgive(address)
            await self._respond(
                send, 429, join_page(too_busy(), next_path), extra=[(b"retry-after", b"1")]
            )
            return
        else:
            label = device_label(scope)
            token = await check_code(self, lambda: self.store.join(code, label))
        if token is not None:
            self.limiter.forgive(address)
            logger.info("access: a device joined from %s", address)
            await self._redirect(send, next_path, token)
            return
        logger.warning(
            "access: wrong access code from %s (%d in the last %d s)",
            address,
            count,
            int(self.limiter.window),
        )
        error = _("That code is not valid (expired or revoked). Check it and try again.")
        await self._respond(send, 403, join_page(error, next_path))

    async def _redirect(self, send: Send, location: str, token: str | None = None) -> None:
        headers = [(b"location", location.encode("latin-1", "replace"))]
        if token is not None:
            attributes = f"Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax"
            if self.secure_cookie:
                attributes += "; Secure"
            headers.append((b"set-cookie", f"{COOKIE}={token}; {attributes}".encode()))
        headers.append((b"cache-control", b"no-store"))
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _respond(
        self,
        send: Send,
        status: int,
        body: bytes,
        content_type: bytes = b"text/html",
        extra: list[tuple[bytes, bytes]] | None = None,
    ) -> None:
        headers = [
            (b"content-type", content_type + b"; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
            *(extra or []),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


SAFE_CHARS = "/?&=%+:@,;!$'()*~-._"


def safe_next(target: str) -> str:
    """Only paths on this site after joining: ``/`` then a character that is not another
    ``/`` or ``\\``, printable ASCII throughout (a browser drops tabs and line breaks from a
    URL, so ``/\t/evil.example`` would go off-site; a CR/LF would break the header).

    >>> safe_next("/matches/3?x=1"), safe_next("//evil.example"), safe_next("/\t/evil.example")
    ('/matches/3?x=1', '/', '/')
    """
    if not target.startswith("/") or len(target) > 2000:
        return "/"
    if any(not " " < ch < "\x7f" for ch in target) or "\\" in target:
        return "/"
    if target.startswith("//") or urlsplit(target).netloc:
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
