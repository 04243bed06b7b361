"""The app factory: the JSON API, the pages, the static files, one place for errors.

Every error a client can cause ends here as a clear answer: 422 ``{"error", "where"}`` for
invalid input, 404 for unknown ids, 409 for a change based on an old version, 413 for a body
over the cap. Pages get the same answers as HTML.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from scopa.application import MatchService
from scopa.checks import validation_message
from scopa.errors import (
    InputError,
    NotFoundError,
    QuotaExceededError,
    SettingsChangeRefused,
    VersionConflictError,
)
from scopa.i18n import N_, _
from scopa.store import MatchStore, Store, database_url
from scopa.web import language
from scopa.web.access import join
from scopa.web.access.guard import GuardMiddleware, HeadAsGet
from scopa.web.access.hosted import HostedMiddleware, document_bearer
from scopa.web.access.lan import AccessMiddleware
from scopa.web.api import diskfull, events
from scopa.web.api import players as players_api
from scopa.web.api import routes as api
from scopa.web.api.docs import docs, install_body_schemas
from scopa.web.api.idempotency import IdempotencyMiddleware
from scopa.web.deps import STATIC_DIR, TEMPLATES_DIR
from scopa.web.pages import changelog, guide, play, rematch, shapes, tv
from scopa.web.pages import deals as deal_pages
from scopa.web.pages import matches as pages
from scopa.web.pages import players as players_pages
from scopa.web.pages.render import wants_json
from scopa.web.pages.views import Recent, register_filters
from scopa.web.phone import offline
from scopa.web.phone.chart import Chart
from scopa.web.phone.forms import run_asked
from scopa.web.serve import health
from scopa.web.serve.settings import WebSettings
from scopa.web.serve.static import Compression, PrecompressedStaticFiles
from scopa.web.tables import routes as tables
from scopa.web.tables.hub import TableHub
from scopa.web.tables.schemas import BODIES as TABLE_BODIES

logger = logging.getLogger("scopa.web")

NO_GROUP = -1
"""No group has this id."""


def create_app(store: Store | None = None, settings: WebSettings | None = None) -> FastAPI:
    """Build the web app on a store (any :class:`~scopa.store.Store`; ``None``: the SQL store
    of ``settings.database_url``, closed with the app) with its settings (``None``: the
    environment's, :meth:`WebSettings.from_env`). With ``lan``, devices other than this
    computer need an access code (:mod:`scopa.web.access.lan`). With ``hosted``, many groups
    share the server, each seeing only its own matches (:mod:`scopa.web.access.hosted`)."""
    settings = WebSettings.from_env() if settings is None else settings
    offline.app_version()  # the device's zip and the caches' name, before any request
    owned = store is None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.tables.loop = asyncio.get_running_loop()
        every_table = app.state.store.tables(None, every_group=True)
        if await asyncio.to_thread(every_table.any_playing):
            app.state.tables.start()  # a restart continues every table
        try:
            yield
        finally:
            await app.state.tables.close()
            sweeper = getattr(app.state, "sweeper", None)
            if sweeper is not None:
                sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                    await sweeper
                app.state.sweeper = None
            await app.state.events.close()
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
    if store is None:
        store = MatchStore.open(database_url(settings.database_url))
    hosted = settings.hosted
    app.state.store = store
    app.state.hosted = hosted
    # Hosted, each request gets a service bound to its group (scopa.web.deps.get_service);
    # this one then sees no match at all, should anything reach for it.
    app.state.service = MatchService(store.in_group(NO_GROUP) if hosted else store)
    app.state.events = events.EventHub.for_store(store)
    app.state.table_clock = time.time
    app.state.table_pause = settings.table_pause
    app.state.table_limits = (settings.max_tables, settings.max_seats)
    app.state.tables = TableHub(tables.background_tables(app), feed=store.table_feed())
    templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
    register_filters(templates.env)
    language.install(templates.env)
    templates.env.globals["log_lines"] = changelog.lines
    templates.env.globals["run_asked"] = run_asked  # the deal form's run of coins, if any
    app.state.templates = templates
    app.state.charts = Recent[Chart](1024)  # a chart per state of a match, laid out once
    app.state.changes = Recent[bytes](1024)  # a live update's change, made once per language
    if hosted:
        app.include_router(join.api)
        app.include_router(join.router)
        templates.env.globals["device_groups"] = join.groups_of
    app.include_router(health.router)
    app.include_router(api.matches)
    app.include_router(api.deals)
    app.router.routes.insert(0, api.RecordDeal())  # the documented route's fast twin
    app.router.routes[1:1] = tables.MOVES  # the tables' moves' fast twins
    app.include_router(api.transfer)
    app.include_router(players_api.api)
    app.include_router(events.router)
    app.include_router(docs)
    install_body_schemas(app, TABLE_BODIES)
    if hosted:
        document_bearer(app)
    for routes in (
        pages.matches,
        deal_pages.deals,
        pages.transfer,
        players_pages.pages,
        offline.router,
        rematch.router,
        shapes.router,
        guide.router,
        tv.router,
        play.router,
        tables.api,
        tables.pages,
    ):  # the pages, in the order they are matched
        app.include_router(routes)
    app.mount("/static", PrecompressedStaticFiles(directory=str(STATIC_DIR)), name="static")
    install_error_handlers(app)
    app.add_middleware(IdempotencyMiddleware, keys=store.keys)
    if hosted:
        app.add_middleware(HostedMiddleware, store=store.groups)
    elif settings.lan:
        app.add_middleware(AccessMiddleware, store=app.state.store)
    app.add_middleware(HeadAsGet)  # inside the guard, which lets HEAD through as safe
    app.add_middleware(
        GuardMiddleware,
        max_body_bytes=settings.max_body_bytes,
        allowed_hosts=settings.allowed_hosts,
    )
    app.add_middleware(language.LanguageMiddleware)  # every answer speaks it
    # Outermost: pages, JSON and the app's own scripts and styles compressed as they are sent
    # (level 6: most of level 9's gain for a third of its CPU); event streams and files sent
    # compressed already (the vendored ones' .gz copies) pass as they are.
    app.add_middleware(StreamsAside, minimum_size=1024, compresslevel=6)
    return app


STREAMS = ("/api/tables/", "/api/matches/")
"""Where the event streams are (``.../{id}/events``)."""


class StreamsAside:
    """The outermost middleware: :class:`Compression`, which an event stream does not go
    through at all (it is never compressed, and would cost a wrapper on every event); the
    stream's request carries the ``send`` the app was called with
    (:data:`~scopa.web.tables.routes.RAW_SEND`), where a table's stream sends its events
    straight (:class:`~scopa.web.tables.routes.ClosingStream`)."""

    def __init__(self, app: ASGIApp, minimum_size: int, compresslevel: int) -> None:
        self.app = app
        self.compressed = Compression(app, minimum_size=minimum_size, compresslevel=compresslevel)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = str(scope.get("path", ""))
            if path.endswith("/events") and path.startswith(STREAMS):
                scope[tables.RAW_SEND] = send
                await self.app(scope, receive, send)
                return
        await self.compressed(scope, receive, send)


def is_api(request: Request) -> bool:
    return request.url.path.startswith("/api")


def error_response(
    request: Request, status: int, error: str, where: str, code: str = "error"
) -> Response:
    """The one shape of an error: JSON for the API and the pages' JSON twins, a small page
    for people. A lone surrogate quoted from the input is shown escaped (UTF-8 cannot carry
    it)."""
    error = error.encode("utf-8", "backslashreplace").decode("utf-8")
    where = where.encode("utf-8", "backslashreplace").decode("utf-8")
    if is_api(request) or wants_json(request):
        return JSONResponse({"error": error, "where": where, "code": code}, status_code=status)
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


HTTP_DETAILS = (N_("Not Found"), N_("Method Not Allowed"))
"""The web framework's own answers to a wrong address or method, translated like the rest."""


def install_error_handlers(app: FastAPI) -> None:
    async def database_error(request: Request, exc: Exception) -> Response:
        if not diskfull.disk_full(exc):
            raise exc
        logger.error("the database's disk is full: %s", exc)
        response = error_response(request, 503, _(diskfull.MESSAGE), "storage", "storage.full")
        response.headers["Retry-After"] = diskfull.RETRY_AFTER
        return response

    async def input_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, InputError)
        return error_response(request, 422, exc.text(), exc.where, exc.code)

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, SettingsChangeRefused)
        return error_response(request, 422, exc.text(), "rules", exc.code)

    async def not_found(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, NotFoundError)
        return error_response(request, 404, exc.text(), exc.named_by, exc.code)

    async def over_quota(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, QuotaExceededError)
        return error_response(request, 403, exc.text(), f"quota.{exc.limit}", exc.code)

    async def conflict(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, VersionConflictError)
        return error_response(request, 409, exc.text(), "version", exc.code)

    async def invalid_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = validation_place(first.get("loc", ()))
        kind = str(first.get("type", ""))
        code = f"request.{kind or 'invalid'}"
        body_error = request.scope.get(api.BODY_ERROR)
        if kind == "json_invalid" and isinstance(body_error, InputError):
            message = body_error.text()  # the core's own sentence: what and where
            where = "body"
        elif kind == "json_invalid":
            message = _("not valid JSON")
            ctx = first.get("ctx") or {}
            if ctx.get("error"):
                message = _("not valid JSON: {error}").format(error=ctx["error"])
            where = "body"
        elif kind == "missing" and where == "body":
            message = _("a JSON body is needed")
            code = "request.body_missing"
        else:
            ctx = first.get("ctx") or {}
            message = validation_message(kind, ctx, str(first.get("msg", "invalid request")))
        return error_response(request, 422, message, where, code)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        text = _(str(exc.detail)) if exc.detail else "error"
        response = error_response(request, exc.status_code, text, "", f"http.{exc.status_code}")
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    app.add_exception_handler(InputError, input_error)
    app.add_exception_handler(OperationalError, database_error)
    app.add_exception_handler(SettingsChangeRefused, refused)
    app.add_exception_handler(NotFoundError, not_found)
    app.add_exception_handler(VersionConflictError, conflict)
    app.add_exception_handler(QuotaExceededError, over_quota)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
