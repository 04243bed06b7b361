"""The app factory: the JSON API, the pages, the static files, one place for errors.

Every error a client can cause ends here as a clear answer: 422 ``{"error", "where"}`` for
invalid input, 404 for unknown ids, 409 for a change based on an old version, 413 for a body
over the cap. Pages get the same answers as HTML.
"""

from __future__ import annotations

import html
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from scopa.application import MatchService
from scopa.errors import (
    DealNotFoundError,
    InputError,
    MatchNotFoundError,
    SettingsChangeRefused,
    VersionConflictError,
)
from scopa.store import MatchStore, database_url
from scopa.web import api, offline, pages
from scopa.web.access import AccessMiddleware
from scopa.web.deps import STATIC_DIR, TEMPLATES_DIR
from scopa.web.docs import docs, install_body_schemas
from scopa.web.idempotency import IdempotencyMiddleware
from scopa.web.views import register_filters

MAX_BODY_BYTES = 2 * 1024 * 1024
"""The largest request body accepted (a 500-deal match file in full fits with room to spare)."""

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

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class WebSettings:
    """How to build the app: the database to open and the body cap."""

    database_url: str | None = None
    max_body_bytes: int = MAX_BODY_BYTES
    lan: bool = False
    """Listening on the network: other devices need an access code."""


class BodyTooLarge(Exception):
    pass


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


class GuardMiddleware:
    """Security headers on every answer; request bodies over the cap refused with 413."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_api = str(scope.get("path", "")).startswith("/api")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.extend(SECURITY_HEADERS)
                message["headers"] = headers
            await send(message)

        if scope.get("method", "GET") not in SAFE_METHODS and cross_site(scope):
            await self._refuse(
                403,
                "a change sent from another site is refused (cross-site request)",
                "origin",
                is_api,
                send_with_headers,
            )
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                await self._too_large(is_api, send_with_headers)
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
                await self._too_large(is_api, send_with_headers)

    async def _too_large(self, is_api: bool, send: Send) -> None:
        text = f"the request body is over the limit of {self.max_body} bytes"
        await self._refuse(413, text, "body", is_api, send)

    async def _refuse(self, status: int, text: str, where: str, is_api: bool, send: Send) -> None:
        response: Response
        if is_api:
            response = JSONResponse({"error": text, "where": where}, status_code=status)
        else:
            page = f"<!doctype html><title>Refused</title><p>{html.escape(text)}</p>"
            response = HTMLResponse(page, status)

        async def no_receive() -> Message:
            return {"type": "http.disconnect"}

        await response({"type": "http"}, no_receive, send)


def create_app(
    store_or_settings: MatchStore | WebSettings | str | None = None, *, lan: bool = False
) -> FastAPI:
    """Build the web app on a store (or open one from settings, a database URL, or the
    default database). With ``lan``, devices other than this computer need an access code
    (:mod:`scopa.web.access`)."""
    settings = store_or_settings if isinstance(store_or_settings, WebSettings) else WebSettings()
    owned = not isinstance(store_or_settings, MatchStore)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if owned:
                app.state.store.close()

    app = FastAPI(
        title="scopa",
        summary="The Scopa score sheet: matches, deals and house rules that re-score live.",
        version="1",
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    if isinstance(store_or_settings, MatchStore):
        app.state.store = store_or_settings
    else:
        url = store_or_settings if isinstance(store_or_settings, str) else settings.database_url
        app.state.store = MatchStore.open(database_url(url))
    app.state.service = MatchService(app.state.store)
    templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
    register_filters(templates.env)
    app.state.templates = templates
    app.include_router(api.matches)
    app.include_router(api.deals)
    app.include_router(api.transfer)
    app.include_router(docs)
    install_body_schemas(app)
    app.include_router(pages.matches)
    app.include_router(pages.deals)
    app.include_router(pages.transfer)
    app.include_router(offline.router)
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    install_error_handlers(app)
    app.add_middleware(IdempotencyMiddleware, engine=app.state.store.engine)
    if lan or settings.lan:
        app.add_middleware(AccessMiddleware, store=app.state.store)
    app.add_middleware(GuardMiddleware, max_body_bytes=settings.max_body_bytes)
    return app


def is_api(request: Request) -> bool:
    return request.url.path.startswith("/api")


def error_response(request: Request, status: int, error: str, where: str) -> Response:
    """The one shape of an error: JSON for the API, a small page for people."""
    if is_api(request):
        return JSONResponse({"error": error, "where": where}, status_code=status)
    templates: Jinja2Templates = request.app.state.templates
    return templates.TemplateResponse(
        request,
        "error.html",
        {"status": status, "error": error, "where": where},
        status_code=status,
    )


def validation_place(loc: tuple[Any, ...] | list[Any]) -> str:
    """FastAPI's error location as a place: ``("path", "match_id")`` → ``match_id``.

    >>> validation_place(("body", "piles", 0)), validation_place(("header", "If-Match"))
    ('body.piles[0]', 'If-Match')
    """
    parts = list(loc)
    head = parts[0] if parts else ""
    if head in ("path", "query", "header", "cookie"):
        parts = parts[1:]
    place = ""
    for part in parts:
        if isinstance(part, int):
            place += f"[{part}]"
        else:
            place = f"{place}.{part}" if place else str(part)
    return place or "body"


def install_error_handlers(app: FastAPI) -> None:
    async def input_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, InputError)
        return error_response(request, 422, exc.message, exc.where)

    async def refused(request: Request, exc: Exception) -> Response:
        return error_response(request, 422, str(exc), "rules")

    async def not_found(request: Request, exc: Exception) -> Response:
        where = "number" if isinstance(exc, DealNotFoundError) else "id"
        return error_response(request, 404, str(exc), where)

    async def conflict(request: Request, exc: Exception) -> Response:
        return error_response(request, 409, str(exc), "version")

    async def invalid_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = validation_place(first.get("loc", ()))
        kind = str(first.get("type", ""))
        if kind == "json_invalid":
            message = "not valid JSON"
            ctx = first.get("ctx") or {}
            if ctx.get("error"):
                message = f"not valid JSON: {ctx['error']}"
            where = "body"
        elif kind == "missing" and where == "body":
            message = "a JSON body is needed"
        else:
            message = str(first.get("msg", "invalid request"))
        return error_response(request, 422, message, where)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        text = str(exc.detail) if exc.detail else "error"
        response = error_response(request, exc.status_code, text, "")
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    app.add_exception_handler(InputError, input_error)
    app.add_exception_handler(SettingsChangeRefused, refused)
    app.add_exception_handler(MatchNotFoundError, not_found)
    app.add_exception_handler(DealNotFoundError, not_found)
    app.add_exception_handler(VersionConflictError, conflict)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
