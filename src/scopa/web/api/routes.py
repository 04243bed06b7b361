"""The JSON API under ``/api`` (docs/formats.md, "HTTP API"): one router per resource.

A change may name the version it is based on, as an ``If-Match`` header or a ``"version"``
key in the body; a stale one is refused with 409 and nothing is stored. Bodies are read as
JSON and validated by the core; :mod:`scopa.web.api.schemas` describes them and the answers, so
``/api/openapi.json`` shows every shape and ``/api/docs`` lets a person try them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import APIRouter, Depends, Header, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool

from scopa.application import MatchService, ScoredMatch
from scopa.changes import read_entry
from scopa.deal import Deal
from scopa.errors import InputError
from scopa.formats import load_json, parse_deal, parse_match
from scopa.i18n import _
from scopa.match import Match
from scopa.rules import Settings
from scopa.web.api import schemas
from scopa.web.api.idempotency import keep_here
from scopa.web.api.schemas import change_to_json, log_to_json, stored_to_json, summary_to_json
from scopa.web.deps import (
    DealNumber,
    IdRoute,
    IfMatch,
    Listing,
    MatchId,
    RemovedId,
    Service,
    get_service,
    if_match_version,
)
from scopa.web.versions import pick_version, split_version

BODY_ERROR = "scopa.body_error"
"""The request scope's key for the core's refusal of a body that is not JSON it accepts
(:class:`StrictJsonRequest`): the 422's message is that refusal's own sentence, which
already says what was wrong ("not valid JSON: … at line 1 column 2", "the key 'x' is given
twice in one object")."""

MATCH_EXAMPLE = {
    "players": ["Anna", "Bruno"],
    "rules": {"target": 11, "primiera": True},
    "deals": [],
}
DEAL_EXAMPLE = {
    "piles": {
        "Anna": {
            "count": 22,
            "coins": ["A", "2", "3", "5", "7", "K"],
            "best": {"c": "7", "s": "7", "b": "6"},
        },
        "Bruno": {
            "count": 18,
            "coins": ["4", "6", "J", "H"],
            "best": {"c": "5", "s": "6", "b": "7"},
        },
    },
    "sweeps": {"Anna": 1, "Bruno": 2},
    "last_capture": "Bruno",
    "version": 1,
}


async def json_body(request: Request) -> Any:
    """The request body read as JSON, whatever its content type (``None`` when empty).

    The API reads bodies itself so that a syntax error names its line and column and a
    body of the wrong shape gets the core's message about what was expected there.
    """
    raw = await request.body()
    if not raw.strip():
        return None
    return load_json(raw, "body")


class StrictJsonRequest(Request):
    """A request whose JSON body is read as :func:`json_body` reads one, for FastAPI's own
    ``Body()`` parameters: a key given twice in one object is refused (FastAPI's reader
    keeps the last one silently), answered as any JSON error is (422, ``where: "body"``)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            raw = await self.body()
            try:
                self._json = load_json(raw, "body")
            except InputError as exc:
                self.scope[BODY_ERROR] = exc
                doc = raw.decode("utf-8", "replace")
                raise json.JSONDecodeError(exc.text(), doc, 0) from None
        return self._json


class StrictJsonRoute(APIRoute):
    """A route whose body parameters are read by :class:`StrictJsonRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict


def body_doc(model: type[schemas.Shape], example: Any, required: bool = True) -> dict[str, Any]:
    """The OpenAPI description of a JSON body: its model (see :func:`install_body_schemas`)."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {
        "requestBody": {
            "description": (model.__doc__ or "").strip(),
            "required": required,
            "content": {"application/json": {"schema": schema, "example": example}},
        }
    }


@dataclass(frozen=True, slots=True)
class Versioned:
    """A change's body without its ``"version"``, and the version the change is based on
    (from ``If-Match`` or the body; they must agree)."""

    data: Any
    version: int | None


async def versioned_body(request: Request, if_match: IfMatch) -> Versioned:
    data, version = split_version(await json_body(request))
    return Versioned(data, pick_version(if_match, version))


Json = Annotated[Any, Depends(json_body)]


def match_file(body: Json) -> Match:
    """The match file in the request body, read by the core."""
    return parse_match(body)


MatchFile = Annotated[Match, Depends(match_file)]
Change = Annotated[Versioned, Depends(versioned_body)]
Handler = TypeVar("Handler", bound=Callable[..., Any])

MATCH_DOC = body_doc(schemas.Match, MATCH_EXAMPLE)
DEAL_DOC = body_doc(schemas.DealBody, DEAL_EXAMPLE)
RULES_DOC = body_doc(schemas.RulesBody, {"primiera": False, "version": 4})
VERSION_DOC = body_doc(schemas.VersionBody, {"version": 4}, required=False)

ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": schemas.Error, "description": "No such match (or deal)"},
    409: {"model": schemas.Error, "description": "Based on an old version; nothing stored"},
    413: {"model": schemas.Error, "description": "The request body is over the cap"},
    422: {"model": schemas.Error, "description": "Invalid input; nothing stored"},
}

matches = APIRouter(prefix="/api/matches", tags=["matches"], responses=ERRORS)
deals = APIRouter(prefix="/api/matches", tags=["deals"], responses=ERRORS)
transfer = APIRouter(prefix="/api", tags=["export and import"], responses=ERRORS)


MINIMAL = "return=minimal"


class FastJSON(JSONResponse):
    """A JSON answer encoded by orjson (the same compact UTF-8 JSON, several times faster on
    a whole sheet)."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


async def prefers_minimal(
    prefer: Annotated[
        str | None,
        Header(
            description=(
                "`return=minimal`: answer a change with what changed (the rows from the "
                "first one that moved, the totals, the status, the version; schema "
                "`Recorded`) instead of the whole match and sheet (RFC 7240). The pages and "
                "the offline outbox ask for it; without it the answer is the whole match."
            ),
        ),
    ] = None,
) -> bool:
    """Whether the request asked for the small answer (``Prefer: return=minimal``);
    ``async``: no I/O, so no hop to a worker thread."""
    if not prefer:
        return False
    wanted = (part.strip().lower() for item in prefer.split(",") for part in item.split(";"))
    return MINIMAL in (part.replace(" ", "") for part in wanted)


Minimal = Annotated[bool, Depends(prefers_minimal)]


def answer(
    scored: ScoredMatch,
    status: int = 200,
    *,
    small: bool = False,
    first: int = 1,
    **extra: Any,
) -> JSONResponse:
    """A match as the API answers it, with its version as the ``ETag``; ``small``: only
    what changed, the sheet's rows from deal ``first`` on (:func:`change_to_json`)."""
    headers = {"ETag": f'"{scored.version}"'}
    if small:
        body = change_to_json(scored, first)
        headers["Preference-Applied"] = MINIMAL
    else:
        body = stored_to_json(scored)
    body.update(extra)
    return FastJSON(body, status_code=status, headers=headers)


def body_route(
    route: Callable[..., Callable[[Handler], Handler]],
    path: str,
    summary: str,
    body: dict[str, Any] = VERSION_DOC,
    response_model: Any = schemas.StoredMatch,
    **extra: Any,
) -> Callable[[Handler], Handler]:
    """A route whose handler reads its JSON body itself (:func:`json_body`), so the OpenAPI
    document learns the body's shape from ``body`` (:func:`body_doc`; by default an optional
    version). It answers a stored match unless ``response_model`` says otherwise."""
    return route(path, summary=summary, openapi_extra=body, response_model=response_model, **extra)


@body_route(matches.post, "", "Create a match (deals optional)", MATCH_DOC, status_code=201)
def create_match(service: Service, match: MatchFile) -> JSONResponse:
    return answer(service.create(match=match), 201)


@matches.get("", summary="The matches, newest first", response_model=list[schemas.ListItem])
def list_matches(service: Service, query: Listing) -> JSONResponse:
    """A page of the list (read from the summaries kept with every change); when more
    follow, a ``Link: </api/matches?limit=N&before=ID>; rel="next"`` header."""
    found, older = query.page(service, "/api/matches")
    answer = FastJSON([summary_to_json(s) for s in found])
    if older:
        answer.headers["Link"] = f'<{older}>; rel="next"'
    return answer


@matches.get(
    "/{match_id}", summary="A match and its score sheet", response_model=schemas.StoredMatch
)
def get_match(service: Service, match_id: MatchId) -> JSONResponse:
    return answer(service.get(match_id=match_id))


@body_route(matches.delete, "/{match_id}", "Delete a match", response_model=schemas.Deleted)
def delete_match(service: Service, match_id: MatchId, change: Change) -> Response:
    service.delete_match(match_id=match_id, version=change.version)
    return JSONResponse({"id": match_id, "deleted": True})


@body_route(
    matches.patch,
    "/{match_id}/rules",
    "Change settings; the match re-scores",
    RULES_DOC,
    response_model=schemas.RulesChanged,
)
def change_rules(service: Service, match_id: MatchId, change: Change, small: Minimal) -> Response:
    rules = change.data
    if not isinstance(rules, Mapping):
        Settings.parse(rules, "rules")  # no body: no change; any other shape: the core's error
        rules = {}
    scored, changes = service.change_rules(match_id=match_id, rules=rules, version=change.version)
    return answer(scored, small=small, changes=changes.to_dict())


@matches.get(
    "/{match_id}/history",
    summary="The change log of a match",
    response_model=list[schemas.LogItem],
)
def history(service: Service, match_id: MatchId) -> JSONResponse:
    return FastJSON([log_to_json(entry) for entry in service.history(match_id=match_id)])


def deal_of(service: Service, match_id: int, change: Change) -> Deal:
    """The deal in a change's body, read for the match as it is."""
    return parse_deal(change.data, service.get(match_id=match_id).match)


@body_route(deals.post, "/{match_id}/deals", "Record a deal", DEAL_DOC, status_code=201)
def add_deal(service: Service, match_id: MatchId, change: Change, small: Minimal) -> JSONResponse:
    scored = service.record_deal(
        match_id=match_id,
        deal=lambda match: parse_deal(change.data, match),
        version=change.version,
    )
    return answer(scored, 201, small=small, first=scored.sheet.deal_count)


class RecordDeal(IdRoute):
    """``POST /api/matches/{id}/deals`` answered without FastAPI's dependency solving: the
    route the phones call after every deal, so what it costs is what a hosted server can
    take (docs/hosted.md). It runs :func:`add_deal` with what its dependencies would hand
    it, read by the same functions; it is placed before the documented route, which answers
    every request this one declines (another method, an id out of range, one that is not
    digits), so the OpenAPI document, the answers and the errors are the same
    (``tests/web/test_write_path.py`` sends both the same requests)."""

    def __init__(self) -> None:
        super().__init__("/api/matches/{match_id}/deals", record_deal, "match_id")


async def record_deal(request: Request) -> Response:
    """:func:`add_deal` with its dependencies read as FastAPI reads them."""
    service = get_service(request)
    if_match = await if_match_version(request.headers.get("if-match"))
    small = await prefers_minimal(request.headers.get("prefer"))
    change = await versioned_body(request, if_match)
    match_id = int(request.path_params["match_id"])
    path = str(request.scope.get("path", ""))
    answered: Response = await run_in_threadpool(
        add_and_keep, service, match_id, change, small, path
    )
    return answered


def add_and_keep(
    service: MatchService, match_id: int, change: Versioned, small: bool, path: str
) -> Response:
    """:func:`add_deal`, and its answer kept for the request's key in the same thread
    (:func:`~scopa.web.api.idempotency.keep_here`)."""
    answered = add_deal(service, match_id, change, small)
    keep_here(answered, path)
    return answered


@body_route(deals.put, "/{match_id}/deals/{number}", "Replace deal n; all re-scored", DEAL_DOC)
def replace_deal(
    service: Service, match_id: MatchId, number: DealNumber, change: Change, small: Minimal
) -> JSONResponse:
    deal = deal_of(service, match_id, change)
    scored = service.replace_deal(
        match_id=match_id, number=number, deal=deal, version=change.version
    )
    return answer(scored, small=small, first=number)


@body_route(deals.delete, "/{match_id}/deals/{number}", "Remove deal n (it can be restored)")
def delete_deal(
    service: Service, match_id: MatchId, number: DealNumber, change: Change, small: Minimal
) -> JSONResponse:
    scored = service.delete_deal(match_id=match_id, number=number, version=change.version)
    return answer(scored, small=small, first=number)


@body_route(
    deals.post,
    "/{match_id}/removed/{removed_id}/restore",
    "Restore a removed deal at the number it had (undo)",
)
def restore_deal(
    service: Service, match_id: MatchId, removed_id: RemovedId, change: Change, small: Minimal
) -> JSONResponse:
    removed = {r.id: r.number for r in service.get(match_id=match_id).removed}
    scored = service.restore_deal(match_id=match_id, removed_id=removed_id, version=change.version)
    first = min(removed.get(removed_id, 1), max(scored.sheet.deal_count, 1))
    return answer(scored, small=small, first=first)


CHANGE_EXAMPLE = {
    "kind": "rules",
    "body": {"primiera": False},
    "base": {"version": 4, "rules": {"primiera": True}},
}


@body_route(
    matches.post,
    "/{match_id}/changes",
    "Make a change made on an older state of the match (the merge policy)",
    body_doc(schemas.ChangeBody, CHANGE_EXAMPLE),
    response_model=schemas.ChangeMerged,
)
def merge_change(service: Service, match_id: MatchId, body: Json) -> JSONResponse:
    service.get(match_id=match_id)  # no such match here (or another group's): 404 before the body
    merged = service.merge(match_id=match_id, entry=read_entry(body))
    plan = merged.plan
    if "conflict" in plan:
        error = _("this change clashes with another device's: choose which to keep")
        conflict = {"error": error, "where": "", "code": "merge.conflict", **plan}
        return FastJSON(conflict, status_code=409, headers={"ETag": f'"{merged.scored.version}"'})
    extra: dict[str, Any] = {"outcome": merged.outcome}
    if "drop" in plan:  # said in the reader's language
        extra["why"] = _(plan["drop"]).format(**plan.get("said", {}))
    else:
        extra["merged"] = bool(plan["send"].get("merged"))
    if merged.changes is not None:
        extra["changes"] = merged.changes.to_dict()
    return answer(merged.scored, **extra)


def attachment(text: str, media_type: str, filename: str) -> Response:
    """A download: ``text`` saved as ``filename``."""
    disposition = f'attachment; filename="{filename}"'
    return Response(text, media_type=media_type, headers={"Content-Disposition": disposition})


@transfer.get(
    "/matches/{match_id}/export.json",
    summary="The match file (docs/formats.md)",
    response_model=schemas.Match,
)
def export_json(service: Service, match_id: MatchId) -> Response:
    text = service.export(match_id=match_id)
    return attachment(text, "application/json", f"scopa-match-{match_id}.json")


@transfer.get(
    "/matches/{match_id}/export.csv",
    summary="The score sheet as CSV",
    response_class=Response,
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
)
def export_csv(service: Service, match_id: MatchId) -> Response:
    text = service.export(match_id=match_id, kind="csv")
    return attachment(text, "text/csv; charset=utf-8", f"scopa-sheet-{match_id}.csv")


@body_route(transfer.post, "/import", "Import a match file", MATCH_DOC, status_code=201)
def import_match(service: Service, match: MatchFile) -> JSONResponse:
    return answer(service.import_match(match=match), 201)
