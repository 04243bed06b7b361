"""The JSON API under ``/api`` (FORMATS.md, "HTTP API"): one router per resource.

A change may name the version it is based on, as an ``If-Match`` header or a ``"version"``
key in the body; a stale one is refused with 409 and nothing is stored.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from scopa.formats import dump_json, load_json, match_to_json, sheet_to_csv
from scopa.store import StoredMatch
from scopa.web import service
from scopa.web.deps import DealNumber, IfMatch, MatchId, RemovedId, Store

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


def body_doc(description: str, example: Any) -> dict[str, Any]:
    """The OpenAPI description of a JSON object body."""
    return {
        "requestBody": {
            "description": description,
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}, "example": example}},
        }
    }


Json = Annotated[Any, Depends(json_body)]
MATCH_DOC = body_doc("A match (FORMATS.md): players, optional teams, rules, deals.", MATCH_EXAMPLE)
DEAL_DOC = body_doc(
    'A deal (FORMATS.md), optionally with the `"version"` it is based on.', DEAL_EXAMPLE
)
RULES_DOC = body_doc(
    'Some of the six settings by name, optionally with `"version"`.',
    {"primiera": False, "version": 4},
)
VERSION_DOC = body_doc('Optional: `{"version": N}`, the version the change is based on.', {})
VERSION_DOC["requestBody"]["required"] = False

ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such match (or deal)"},
    409: {"description": "The change was based on an old version; nothing stored"},
    413: {"description": "The request body is over the cap"},
    422: {"description": 'Invalid input, `{"error", "where"}`; nothing stored'},
}

matches = APIRouter(prefix="/api/matches", tags=["matches"], responses=ERRORS)
deals = APIRouter(prefix="/api/matches", tags=["deals"], responses=ERRORS)
transfer = APIRouter(prefix="/api", tags=["export and import"], responses=ERRORS)


def answer(stored: StoredMatch, status: int = 200, **extra: Any) -> JSONResponse:
    body = service.stored_to_json(stored)
    body.update(extra)
    return JSONResponse(body, status_code=status, headers={"ETag": f'"{stored.version}"'})


@matches.post(
    "", status_code=201, summary="Create a match (deals optional)", openapi_extra=MATCH_DOC
)
def create_match(store: Store, body: Json) -> JSONResponse:
    return answer(service.create_match(store, body), 201)


@matches.get("", summary="The matches, newest first")
def list_matches(store: Store) -> list[dict[str, Any]]:
    return [service.summary_to_json(s) for s in store.list()]


@matches.get("/{match_id}", summary="A match and its score sheet")
def get_match(store: Store, match_id: MatchId) -> JSONResponse:
    return answer(store.get(match_id))


@matches.delete("/{match_id}", summary="Delete a match", openapi_extra=VERSION_DOC)
def delete_match(store: Store, match_id: MatchId, if_match: IfMatch, body: Json) -> dict[str, Any]:
    _, version = service.split_version(body)
    store.delete_match(match_id, service.pick_version(if_match, version))
    return {"id": match_id, "deleted": True}


@matches.patch(
    "/{match_id}/rules", summary="Change settings; the match re-scores", openapi_extra=RULES_DOC
)
def change_rules(store: Store, match_id: MatchId, if_match: IfMatch, body: Json) -> Response:
    data, version = service.split_version(body)
    stored, changes = service.change_settings(
        store, match_id, data, service.pick_version(if_match, version)
    )
    return answer(stored, changes=changes.to_dict())


@matches.get("/{match_id}/history", summary="The change log of a match")
def history(store: Store, match_id: MatchId) -> list[dict[str, Any]]:
    return [service.log_to_json(entry) for entry in store.history(match_id)]


@deals.post("/{match_id}/deals", status_code=201, summary="Record a deal", openapi_extra=DEAL_DOC)
def add_deal(store: Store, match_id: MatchId, if_match: IfMatch, body: Json) -> JSONResponse:
    data, version = service.split_version(body)
    stored = service.add_deal(store, match_id, data, service.pick_version(if_match, version))
    return answer(stored, 201)


@deals.put(
    "/{match_id}/deals/{number}", summary="Replace deal n; all re-scored", openapi_extra=DEAL_DOC
)
def replace_deal(
    store: Store, match_id: MatchId, number: DealNumber, if_match: IfMatch, body: Json
) -> JSONResponse:
    data, version = service.split_version(body)
    stored = service.replace_deal(
        store, match_id, number, data, service.pick_version(if_match, version)
    )
    return answer(stored)


@deals.delete(
    "/{match_id}/deals/{number}",
    summary="Remove deal n (it can be restored)",
    openapi_extra=VERSION_DOC,
)
def delete_deal(
    store: Store,
    match_id: MatchId,
    number: DealNumber,
    if_match: IfMatch,
    body: Json,
) -> JSONResponse:
    _, version = service.split_version(body)
    stored = service.delete_deal(store, match_id, number, service.pick_version(if_match, version))
    return answer(stored)


@deals.post(
    "/{match_id}/removed/{removed_id}/restore",
    summary="Restore a removed deal at the number it had (undo)",
    openapi_extra=VERSION_DOC,
)
def restore_deal(
    store: Store,
    match_id: MatchId,
    removed_id: RemovedId,
    if_match: IfMatch,
    body: Json,
) -> JSONResponse:
    _, version = service.split_version(body)
    stored = service.restore_deal(
        store, match_id, removed_id, service.pick_version(if_match, version)
    )
    return answer(stored)


@transfer.get(
    "/matches/{match_id}/export.json",
    summary="The match file (FORMATS.md)",
    response_class=PlainTextResponse,
)
def export_json(store: Store, match_id: MatchId) -> Response:
    stored = store.get(match_id)
    return Response(
        dump_json(match_to_json(stored.match)) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="scopa-match-{match_id}.json"'},
    )


@transfer.get(
    "/matches/{match_id}/export.csv",
    summary="The score sheet as CSV",
    response_class=PlainTextResponse,
)
def export_csv(store: Store, match_id: MatchId) -> Response:
    stored = store.get(match_id)
    return Response(
        sheet_to_csv(stored.sheet),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="scopa-sheet-{match_id}.csv"'},
    )


@transfer.post("/import", status_code=201, summary="Import a match file", openapi_extra=MATCH_DOC)
def import_match(store: Store, body: Json) -> JSONResponse:
    return answer(service.create_match(store, body, action="import"), 201)


@transfer.get("/players", summary="Names remembered from earlier matches, most recent first")
def players(store: Store) -> list[str]:
    return store.player_names()
