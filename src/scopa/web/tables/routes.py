"""Tables: playing together online (docs/formats.md "Tables: playing together online").

The API under ``/api/tables`` and the pages: ``/tables/new`` creates a table, ``/t/CODE``
joins it (the link its QR code holds), ``/tables/{id}`` is the table from one's seat and
``/tables/{id}/tv?code=CODE`` the read-only view for a television. Every answer, page,
fragment and event for a seat is made from :func:`~scopa.application.tables.seat_view`.

A seat proves itself with its token: ``Authorization: Bearer TOKEN`` on a plain server,
``X-Scopa-Seat: TOKEN`` on a hosted one (the bearer there is the group's), or the cookie the
pages set when the seat was taken (``HttpOnly``, one per table).
"""

from __future__ import annotations

import email.message
import io
import json
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Body, Form, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Send

from scopa import variants
from scopa.application import MatchService
from scopa.application.tables import (
    DEFAULT_CLOCK,
    MAX_SEATS,
    MAX_TABLES,
    Seated,
    SeatRefusedError,
    TableFullError,
    TableNotFoundError,
    Tables,
    clean_code,
)
from scopa.engine.ai import LEVELS
from scopa.engine.game import choices
from scopa.errors import (
    IllegalPlayError,
    InputError,
    QuotaExceededError,
    ScopaError,
    VersionConflictError,
)
from scopa.formats import load_json
from scopa.i18n import N_, _
from scopa.reading import ascii_digits, form_int
from scopa.store.protocol import Store
from scopa.store.records import Member, TableRecord
from scopa.web.access.lan import cookie_value
from scopa.web.api.idempotency import keep_here
from scopa.web.api.routes import BODY_ERROR, FastJSON, StrictJsonRoute
from scopa.web.deps import (
    DIGITS,
    MAX_ID,
    MEMBER,
    IdRoute,
    error_json,
    get_service,
    store_of,
    tables_of_request,
)
from scopa.web.tables import schemas
from scopa.web.tables.hub import TableHub, event_frame
from scopa.web.versions import last_seen

TableId = Annotated[int, DIGITS, Path(ge=1, le=MAX_ID, description="The table's id.")]
SEAT_HEADER = "x-scopa-seat"
COOKIE_PREFIX = "scopa_seat_"
COOKIE_MAX_AGE = 60 * 60 * 24 * 30
RAW_SEND = "scopa.raw_send"
"""The scope's key for the ``send`` the app was called with (an event stream's events go
there straight: :class:`ClosingStream`)."""

api = APIRouter(prefix="/api/tables", tags=["tables"], route_class=StrictJsonRoute)
"""In /api/openapi.json (bodies and answers: :mod:`scopa.web.tables.schemas`) and in
docs/tables.md."""
CODE_QUERY = {
    "name": "code",
    "in": "query",
    "required": False,
    "description": "The table's code: the television's view (no hand), without a seat's token. "
    "Wrong codes are counted per address: past a few a minute, 429.",
    "schema": {"type": "string", "maxLength": 40},
}
SEAT_HEADERS = [
    {
        "name": "X-Scopa-Seat",
        "in": "header",
        "required": False,
        "description": "The seat's token on a hosted server (on a plain one: "
        "`Authorization: Bearer TOKEN`).",
        "schema": {"type": "string"},
    }
]
pages = APIRouter(include_in_schema=False)


# How a request reaches its tables


def hosted(request: Request) -> bool:
    return bool(getattr(request.app.state, "hosted", False))


def tables_of(request: Request) -> Tables:
    """The tables this request may see (hosted: its group's), with its group's sheet."""
    state = request.app.state
    limits: tuple[int, int] = getattr(state, "table_limits", (MAX_TABLES, MAX_SEATS))
    member: Member | None = request.scope.get(MEMBER)
    if hosted(request) and member is not None:  # the group's own limits over the server's
        limits = (member.max_tables or limits[0], member.max_seats or limits[1])
    found = Tables(
        tables_of_request(request),
        get_service(request),
        state.table_clock,
        limits=limits,
        seeds=getattr(state, "table_seeds", None),
    )
    hub(request).start()
    return found


def hub(request: Request) -> TableHub:
    found: TableHub = request.app.state.tables
    return found


def background_tables(app: Any) -> Callable[[], Tables]:
    """The use cases the background player runs with: every group's tables, each table's
    deals on its own group's sheet."""
    store: Store = app.state.store
    hosted_server = bool(getattr(app.state, "hosted", False))

    def sheet_of(group: int | None) -> MatchService:
        if hosted_server and group is not None:
            return MatchService(store.in_group(group))
        service: MatchService = app.state.service
        return service

    def make() -> Tables:
        return Tables(
            store.tables(None, every_group=True),
            app.state.service,
            app.state.table_clock,
            pause=app.state.table_pause,
            matches_for=sheet_of,
            limits=getattr(app.state, "table_limits", (MAX_TABLES, MAX_SEATS)),
            seeds=getattr(app.state, "table_seeds", None),
        )

    return make


def seat_token(request: Request, table_id: int) -> str | None:
    """The seat's token: ``X-Scopa-Seat``, else (not hosted) the bearer, else the cookie."""
    header = request.headers.get(SEAT_HEADER)
    if header:
        return header.strip()
    if not hosted(request):
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return token.strip()
    return cookie_value(request.scope, f"{COOKIE_PREFIX}{table_id}") or None


# Wrong tables' codes, counted per address


class TooManyCodesError(ScopaError):
    """Too many wrong tables' codes from one address (or its /64) lately."""

    def __init__(self, wait: int) -> None:
        super().__init__(
            N_("too many wrong table codes from this address; try again in {wait} seconds"),
            code="table.too_many_codes",
            wait=wait,
        )
        self.wait = wait


WRONG_CODES = frozenset({"table.code_not_table", "table.no_table_code"})
"""The refusals that count as a wrong code (a guess)."""
T = TypeVar("T")


def code_checked(request: Request, attempt: Callable[[], T]) -> T:
    """``attempt`` (which checks a table's code), counted against the client's address as
    the join codes are (:class:`~scopa.store.protocol.Failures`, an IPv6 address by
    its /64): counted before the check, forgiven unless the code was wrong; past a few
    wrong codes a minute, :class:`TooManyCodesError` without trying."""
    failures = store_of(request).table_failures
    address = request.client.host if request.client else "?"
    if failures.failed(address) > failures.most:
        raise TooManyCodesError(max(1, failures.retry_after(address)))
    try:
        result = attempt()
    except SeatRefusedError as exc:
        if exc.code not in WRONG_CODES:
            failures.forgive(address)
        raise
    except BaseException:
        failures.forgive(address)
        raise
    failures.forgive(address)
    return result


def answer(run: Callable[[], Any], status: int = 200) -> Response:
    """The use case's answer as JSON, or the error in the API's one shape."""
    try:
        result = run()
    except TooManyCodesError as exc:
        return error_json(429, exc, "code", {"Retry-After": str(exc.wait)})
    except TableNotFoundError as exc:
        return error_json(404, exc, "id")
    except SeatRefusedError as exc:
        return error_json(401, exc, "code" if exc.code in WRONG_CODES else "token")
    except TableFullError as exc:
        return error_json(409, exc, "seat")
    except VersionConflictError as exc:
        return error_json(409, exc, "step")
    except QuotaExceededError as exc:
        return error_json(403, exc, f"quota.{exc.limit}")
    except InputError as exc:
        return error_json(422, exc, exc.where)
    except IllegalPlayError as exc:
        return error_json(422, exc, "play")
    if isinstance(result, Response):
        return result
    # a seat's view holds its hand, and a new seat its token: never kept by a cache; its
    # JSON by orjson, as its events' (the same text)
    return FastJSON(result, status_code=status, headers={"Cache-Control": "no-store"})


def seated_as(request: Request, table_id: int) -> tuple[Tables, int]:
    tables = tables_of(request)
    return tables, tables.seat_for(table_id, seat_token(request, table_id))


def changed(request: Request, seated: Seated) -> dict[str, Any]:
    hub(request).poke(seated.record.id, seated.record.version)
    return seated.view()


# The API


@api.post(
    "",
    status_code=201,
    summary="Create a table (the creator holds seat 0)",
    responses={201: {"model": schemas.TableCreated}, **schemas.errors(403, 413, 422)},
    openapi_extra=schemas.body_of(schemas.NewTable, required=False),
)
def create(request: Request, body: Annotated[Any, Body()] = None) -> Response:
    def run() -> dict[str, Any]:
        seated = tables_of(request).create(body)
        hub(request).poke()
        return created(seated)

    return answer(run, 201)


def created(seated: Seated) -> dict[str, Any]:
    record = seated.record
    return {
        "table": record.id,
        "code": record.code,
        "join": f"/t/{record.code}",
        "seat": seated.seat,
        "token": seated.token,
        "match": record.match_id,
    }


@api.post(
    "/{table_id}/seats",
    status_code=201,
    summary="Take a seat with the table's code",
    responses={201: {"model": schemas.TableSeatTaken}, **schemas.errors(401, 404, 409, 422, 429)},
    openapi_extra=schemas.body_of(schemas.TableSeatBody),
)
def take_seat(request: Request, table_id: TableId, body: Annotated[Any, Body()] = None) -> Response:
    def run() -> dict[str, Any]:
        fields = body if isinstance(body, dict) else {}
        tables = tables_of(request)
        seated = code_checked(
            request, lambda: tables.join(table_id, fields.get("code"), fields.get("name"))
        )
        hub(request).poke()
        return {"seat": seated.seat, "token": seated.token, "match": seated.record.match_id}

    return answer(run, 201)


@api.get(
    "/{table_id}",
    summary="The table from your seat (or a television's, with ?code=)",
    responses={200: {"model": schemas.TableView}, **schemas.errors(401, 404, 422, 429)},
    openapi_extra={"parameters": [CODE_QUERY, *SEAT_HEADERS]},
)
def view(request: Request, table_id: TableId) -> Response:
    def run() -> dict[str, Any]:
        code = request.query_params.get("code")
        if code is not None and seat_token(request, table_id) is None:
            tables = tables_of(request)
            return code_checked(request, lambda: tables.spectate(table_id, code)).view()
        tables, seat = seated_as(request, table_id)
        return tables.view(table_id, seat).view()

    return answer(run)


SeatMove = Callable[[Tables, int, int, object, TableRecord], Seated]
"""A use case's move: the tables, the table, the seat, the body, the table as read."""


def seat_move(
    path: str, summary: str, body_model: type[Any], move: SeatMove
) -> Callable[[Request, int, Any], Response]:
    """The API's route of a move made from a seat (a play, the next deal): the seat its token
    holds, the move made on the table as read to find it, the seat's new view (the other
    seats told). Its endpoint is returned for the move's fast twin (:class:`MoveRoute`)."""

    def made(request: Request, table_id: TableId, body: Annotated[Any, Body()] = None) -> Response:
        def run() -> dict[str, Any]:
            tables = tables_of(request)
            seat, read = tables.seat_at(table_id, seat_token(request, table_id))
            return changed(request, move(tables, table_id, seat, body, read))

        return answer(run)

    api.post(
        path,
        name=move.__name__,
        summary=summary,
        responses={200: {"model": schemas.TableView}, **schemas.errors(401, 404, 409, 413, 422)},
        openapi_extra={**schemas.body_of(body_model), "parameters": SEAT_HEADERS},
    )(made)
    return made


play = seat_move(
    "/{table_id}/plays",
    "Your play: the step you saw, the card, the capture",
    schemas.TablePlayBody,
    Tables.play,
)
next_deal = seat_move(
    "/{table_id}/next",
    "The next deal (or, once the match is over, a rematch)",
    schemas.TableStepBody,
    Tables.next_deal,
)


class MoveRoute(IdRoute):
    """``POST /api/tables/{id}/plays`` (and ``/next``) answered without FastAPI's dependency
    solving: the request every play of a person makes, so what it costs is what a table
    costs (docs/tables.md). It reads the body as the documented route reads it
    (:func:`body_as_documented`) and runs the same function (:func:`play`,
    :func:`next_deal`), its answer kept for an ``Idempotency-Key`` in the same thread
    (:func:`~scopa.web.api.idempotency.keep_here`). It is placed before the documented
    route, which answers every request this one declines (another method, an id out of
    range, one that is not digits), so the OpenAPI document, the answers and the errors
    are the same (``tests/web/test_tables_fast.py`` sends both the same requests)."""

    def __init__(self, action: str, move: Callable[[Request, int, Any], Response]) -> None:
        self.move = move

        async def endpoint(request: Request) -> Response:
            table_id = int(request.path_params["table_id"])
            body = await body_as_documented(request)
            path = str(request.scope.get("path", ""))
            answered: Response = await run_in_threadpool(
                move_and_keep, self.move, request, table_id, body, path
            )
            return answered

        super().__init__(f"/api/tables/{{table_id}}/{action}", endpoint, "table_id")


def move_and_keep(
    move: Callable[[Request, int, Any], Response],
    request: Request,
    table_id: int,
    body: Any,
    path: str,
) -> Response:
    answered = move(request, table_id, body)
    keep_here(answered, path)
    return answered


async def body_as_documented(request: Request) -> Any:
    """The body as FastAPI hands a ``Body()`` of any type to the documented route
    (:class:`~scopa.web.api.routes.StrictJsonRoute`): ``None`` when empty, JSON (a key
    given twice refused) when its type says JSON, else the bytes; JSON that does not parse
    raises FastAPI's own error (422, ``where: "body"``), a body that cannot be read at all
    its 400."""
    raw = await request.body()
    if not raw:
        return None
    kind = request.headers.get("content-type")
    if not kind:
        return raw
    if kind != "application/json":
        header = email.message.Message()
        header["content-type"] = kind
        subtype = header.get_content_subtype()
        if header.get_content_maintype() != "application" or not (
            subtype == "json" or subtype.endswith("+json")
        ):
            return raw
    try:
        return load_json(raw, "body")
    except InputError as exc:
        request.scope[BODY_ERROR] = exc
        error = {"type": "json_invalid", "loc": ("body", 0), "msg": "JSON decode error"}
        raise RequestValidationError(
            [{**error, "input": {}, "ctx": {"error": exc.text()}}],
            body=raw.decode("utf-8", "replace"),
        ) from None
    except ValueError:  # not UTF-8, UTF-16 or UTF-32
        raise StarletteHTTPException(400, "There was an error parsing the body") from None


MOVES = (MoveRoute("plays", play), MoveRoute("next", next_deal))
"""The fast twins of the two moves' documented routes (the app puts them first)."""


def number_or(text: str, default: int) -> int:
    """A form's whole number in ASCII digits, else ``default``."""
    found = ascii_digits(text.strip(), 9)
    return default if found is None else found


class ClosingStream(StreamingResponse):
    """A stream whose text is closed as soon as the answer ends, the client gone: its
    ``finally`` (the seat leaving) runs now, not whenever the garbage is collected (Starlette
    stops iterating when the client leaves, but leaves a generator waiting at a ``yield``
    open). ``over`` runs then too: a client gone before the text's first word leaves a
    generator that never began, whose ``finally`` never runs.

    Its head and its end go through every middleware, as any answer's do (the security
    headers, the language's ``Vary``, the group's name); its events, already bytes, go
    straight to the server's ``send`` the app was called with (:data:`RAW_SEND`, set by
    :class:`~scopa.web.serve.app.StreamsAside`), since every middleware passes an answer's
    body as it is: no chain of wrappers for each event."""

    def __init__(self, content: Any, over: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.over = over
        self.raw: Send | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.raw = scope.get(RAW_SEND)
        try:
            await super().__call__(scope, receive, send)
        finally:
            close = getattr(self.body_iterator, "aclose", None)
            if close is not None:
                await close()
            self.over()

    async def stream_response(self, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        out = send if self.raw is None else self.raw
        async for chunk in self.body_iterator:
            await out({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def last_event_id(request: Request) -> int | None:
    return last_seen(request.headers.get("last-event-id"), request.query_params.get("since"))


@api.get(
    "/{table_id}/events",
    summary="The table's changes, as your seat sees them (SSE)",
    responses={
        200: {
            "description": '`event: table`, `id: VERSION`, `data: {"step", "version", '
            '"view"}` after each change (the view: TableView)',
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **schemas.errors(401, 404, 422, 429),
    },
    openapi_extra={
        "parameters": [
            CODE_QUERY,
            *SEAT_HEADERS,
            {
                "name": "since",
                "in": "query",
                "required": False,
                "description": "The last version seen (as `Last-Event-ID`).",
                "schema": {"type": "integer", "minimum": 0},
            },
        ]
    },
)
async def events(request: Request, table_id: TableId) -> Response:
    def run() -> tuple[Tables, Seated]:
        code = request.query_params.get("code")
        if code is not None and seat_token(request, table_id) is None:
            tables = tables_of(request)
            return tables, code_checked(request, lambda: tables.spectate(table_id, code))
        tables, seat = seated_as(request, table_id)
        return tables, tables.view(table_id, seat)

    try:
        tables, seated = await run_in_threadpool(run)
    except Exception as exc:  # the one error shape
        problem = exc

        def fail() -> Any:
            raise problem

        return answer(fail)
    since = last_event_id(request)
    version = seated.record.version
    first = None if since is not None and since >= version else event_frame(seated.view())
    follower = hub(request).follow(table_id, seated.seat, version)
    hub(request).poke()
    return ClosingStream(
        hub(request).stream(follower, first, tables),
        lambda: hub(request).release(follower, tables),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


# The pages


def set_seat_cookie(request: Request, response: Response, seated: Seated) -> None:
    response.set_cookie(
        f"{COOKIE_PREFIX}{seated.record.id}",
        seated.token or "",
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def page(request: Request, template: str, status: int = 200, **context: Any) -> Response:
    """A page answered with ``status``, which its template reads too (``status`` in its
    context: the join page's "no table has the code", the error page's heading)."""
    templates = request.app.state.templates
    context = {"status": status, **context}
    response: Response = templates.TemplateResponse(request, template, context, status_code=status)
    response.headers["Cache-Control"] = "no-store"
    return response


def computer_seats(players: int, count: int) -> dict[str, str]:
    """Which seats the computer takes: opposite the creator first, so that two people at a
    table of four are partners.

    >>> computer_seats(4, 2), computer_seats(2, 1), computer_seats(4, 1)
    ({'1': '', '3': ''}, {'1': ''}, {'3': ''})
    """
    order = {2: [1], 3: [2, 1], 4: [3, 1, 2]}.get(players, [])
    return {str(seat): "" for seat in sorted(order[:count])}


@pages.get("/tables/new")
def new_table(request: Request) -> Response:
    return page(
        request,
        "table_new.html",
        variants=choices(),
        levels=list(LEVELS),
        error="",
        clock=DEFAULT_CLOCK,
    )


FORM_LABELS = {
    "variant": N_("Game"),
    "players": N_("Players"),
    "names": N_("Your name"),
    "computer": N_("The computer's level"),
    "level": N_("The computer's level"),
    "grace": N_("Seconds a player may be away before the computer plays for them"),
    "clock": N_("Seconds for each play"),
    "rules": N_("Points to win"),
    "computers": N_("Seats for the computer"),
}
"""The new table form's fields by the first part of an error's place, as the form labels them."""


def form_place(where: str) -> str:
    """An error's place as the new table form names it, in the reader's language (a place
    the form has no field for stays as it is).

    >>> form_place("names[0]"), form_place("computer.1"), form_place("quota.tables")
    ('Your name', "The computer's level", 'quota.tables')
    """
    head = where.replace("[", ".").split(".")[0]
    return _(FORM_LABELS[head]) if head in FORM_LABELS else where


@pages.post("/tables/new")
def create_table(
    request: Request,
    variant: Annotated[str, Form(max_length=20)] = "scopa",
    players: Annotated[str, Form(max_length=4)] = "2",
    name: Annotated[str, Form(max_length=200)] = "",
    computers: Annotated[str, Form(max_length=2)] = "0",
    level: Annotated[str, Form(max_length=20)] = "normal",
    grace: Annotated[str, Form(max_length=6)] = "60",
    target: Annotated[str, Form(max_length=6)] = "",
    clock: Annotated[str, Form(max_length=6)] = str(DEFAULT_CLOCK),
) -> Response:
    try:
        # a number not typed as one is refused as typed (a stand-in such as -1 or 0 was
        # named by the checks instead, as if the player had typed it); the label says where
        count = form_int(players, "players")
        known = variants.VARIANTS.get(variant)
        if known is not None and len(known.players) == 1:
            count = known.players[0]  # Scopone: 4
        wanted = form_int(computers, "computers")
        seats = computer_seats(count, wanted)
        body = {
            "variant": variant,
            "players": count,
            "names": [name] if name.strip() else [],
            "computer": dict.fromkeys(seats, level),
            "grace": number_or(grace, -1),
            "level": level,
            "clock": number_or(clock, -1),
        }
        if target.strip():  # else the game's usual target
            body["rules"] = {"target": form_int(target, "rules.target")}
        seated = tables_of(request).create(body)
    except (InputError, QuotaExceededError) as exc:
        where = form_place(getattr(exc, "where", ""))
        message = exc.text()
        return page(
            request,
            "table_new.html",
            422,
            variants=choices(),
            levels=list(LEVELS),
            error=f"{where}: {message}" if where else message,
            clock=number_or(clock, DEFAULT_CLOCK),
        )
    hub(request).poke()
    response = RedirectResponse(f"/tables/{seated.record.id}", status_code=303)
    set_seat_cookie(request, response, seated)
    return response


def seat_cookie_table(request: Request, code: str) -> int | None:
    """The table of this code, if this browser already holds one of its seats."""
    tables = tables_of(request)
    record = tables.tables.by_code(clean_code(code))
    if record is None:
        return None
    token = cookie_value(request.scope, f"{COOKIE_PREFIX}{record.id}")
    if token:
        try:
            tables.seat_for(record.id, token)
        except SeatRefusedError:
            return None
        return record.id
    return None


@pages.get("/t/join")
def join_by_form(request: Request) -> Response:
    """The join form's answer: on to the table's own join page."""
    code = clean_code(request.query_params.get("code", ""))
    return RedirectResponse(f"/t/{code}" if code else "/tables/new", status_code=303)


def too_many_page(request: Request, code: str, exc: TooManyCodesError) -> Response:
    """The join page, refusing for a while (429, ``Retry-After``)."""
    response = page(request, "table_join.html", 429, code=code, record=None, error=exc.text())
    response.headers["Retry-After"] = str(exc.wait)
    return response


def by_code(tables: Tables, code: str) -> TableRecord:
    record = tables.tables.by_code(clean_code(code))
    if record is None:
        raise SeatRefusedError(N_("no table has this code"), code="table.no_table_code")
    return record


@pages.get("/t/{code}")
def join_page(request: Request, code: Annotated[str, Path(max_length=40)]) -> Response:
    mine = seat_cookie_table(request, code)
    if mine is not None:
        return RedirectResponse(f"/tables/{mine}", status_code=303)
    tables = tables_of(request)
    try:
        record = code_checked(request, lambda: by_code(tables, code))
    except TooManyCodesError as exc:
        return too_many_page(request, code, exc)
    except SeatRefusedError:
        return page(request, "table_join.html", 404, code=code, record=None, error="")
    return page(request, "table_join.html", code=record.code, record=record, error="")


@pages.post("/t/{code}")
def join_table(
    request: Request,
    code: Annotated[str, Path(max_length=40)],
    name: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    tables = tables_of(request)
    try:
        seated = code_checked(request, lambda: tables.join_by_code(code, name))
    except TooManyCodesError as exc:
        return too_many_page(request, clean_code(code), exc)
    except (InputError, SeatRefusedError, TableFullError) as exc:
        record = tables.tables.by_code(clean_code(code))
        status = 422 if isinstance(exc, InputError) else 409 if record else 404
        message = exc.text()
        return page(
            request,
            "table_join.html",
            status,
            code=clean_code(code),
            record=record,
            error=message,
        )
    hub(request).poke()
    response = RedirectResponse(f"/tables/{seated.record.id}", status_code=303)
    set_seat_cookie(request, response, seated)
    return response


def seat_page(
    request: Request,
    table_id: int,
    template: str,
    notice: str = "",
    status: int = 200,
    *,
    alive: bool = True,
) -> Response:
    """The table from the request's seat. ``alive``: the request counts as the seat's sign
    of life (not the fragment a page fetches after its stream's event: a late one, from a
    page just closed, would bring the seat back after its stream said it left)."""
    tables = tables_of(request)
    try:
        seat = tables.seat_for(table_id, seat_token(request, table_id))
    except SeatRefusedError:
        return page(
            request,
            "table_join.html",
            401,
            code="",
            record=None,
            error=_("this browser holds no seat at this table: join it with its code"),
        )
    except TableNotFoundError as exc:
        return page(request, "error.html", 404, error=exc.text(), where="id")
    view = tables.view(table_id, seat, alive=alive).view()
    return page(request, template, status, view=view, notice=notice, tv=False)


@pages.get("/tables/{table_id}")
def table_page(request: Request, table_id: TableId) -> Response:
    return seat_page(request, table_id, "table_seat.html")


@pages.get("/tables/{table_id}/fragment")
def table_fragment(request: Request, table_id: TableId) -> Response:
    """The table drawn again after an event of the page's stream (the stream, not this
    fetch, is the page's sign of life)."""
    return seat_page(request, table_id, "_table_felt.html", alive=False)


def wants_fragment(request: Request) -> bool:
    return request.headers.get("x-scopa-fragment") == "1"


def move_page(request: Request, table_id: int, run: Callable[[Tables, int], Seated]) -> Response:
    """A move from the page's form: back to the table (the script: the table's fragment)."""
    tables = tables_of(request)
    try:
        seat = tables.seat_for(table_id, seat_token(request, table_id))
        run(tables, seat)
    except (VersionConflictError, IllegalPlayError, InputError) as exc:
        notice = exc.text()
        status = 409 if isinstance(exc, VersionConflictError) else 422
        template = "_table_felt.html" if wants_fragment(request) else "table_seat.html"
        return seat_page(request, table_id, template, notice, status)
    except (SeatRefusedError, TableNotFoundError):
        return seat_page(request, table_id, "table_seat.html")
    hub(request).poke()
    if wants_fragment(request):
        return seat_page(request, table_id, "_table_felt.html")
    return RedirectResponse(f"/tables/{table_id}", status_code=303)


@pages.post("/tables/{table_id}/play")
def play_form(
    request: Request,
    table_id: TableId,
    step: Annotated[str, Form(max_length=8)] = "",
    card: Annotated[str, Form(max_length=4)] = "",
    capture: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    body = {
        "step": number_or(step, -1),
        "card": card,
        "capture": capture.split(),
    }
    return move_page(request, table_id, lambda t, seat: t.play(table_id, seat, body))


@pages.post("/tables/{table_id}/next")
def next_form(
    request: Request, table_id: TableId, step: Annotated[str, Form(max_length=8)] = ""
) -> Response:
    body = {"step": number_or(step, -1)}
    return move_page(request, table_id, lambda t, seat: t.next_deal(table_id, seat, body))


@pages.get("/tables/{table_id}/tv")
def tv_page(request: Request, table_id: TableId) -> Response:
    """The television's view: the board and the score, no hand (anyone with the code)."""
    code = request.query_params.get("code", "")
    tables = tables_of(request)
    try:
        view = code_checked(request, lambda: tables.spectate(table_id, code)).view()
    except TooManyCodesError as exc:
        response = page(request, "error.html", 429, error=exc.text(), where="code")
        response.headers["Retry-After"] = str(exc.wait)
        return response
    except (SeatRefusedError, TableNotFoundError):
        return page(request, "error.html", 404, error=_("no such table"), where="code")
    template = "_table_felt.html" if wants_fragment(request) else "table_seat.html"
    return page(request, template, view=view, notice="", tv=True)


@pages.get("/t/{code}/qr.svg")
def qr_code(request: Request, code: Annotated[str, Path(max_length=40)]) -> Response:
    """The table's join link as a QR code (SVG), for the phones around the table."""
    import qrcode
    import qrcode.image.svg

    link = str(request.base_url).rstrip("/") + f"/t/{clean_code(code)}"
    image = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, box_size=12)
    out = io.BytesIO()
    image.save(out)
    return Response(
        out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )


def view_json(view: dict[str, Any]) -> str:
    """The view for the page's script (``<script type="application/json">``)."""
    return json.dumps(view).replace("</", "<\\/")
