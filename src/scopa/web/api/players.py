"""The players in the JSON API: their figures (docs/formats.md, "Player statistics"), ratings,
exports, and the players as people (rename, merge, remove, each logged and undoable).

The figures come from :class:`~scopa.application.players.PlayerService`, which sums the
tallies kept per match: nothing is scored on a request.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from scopa.application.players import PlayerService
from scopa.errors import InputError, describe
from scopa.formats import load_json
from scopa.i18n import N_
from scopa.store.records import Rating
from scopa.web.api import schemas
from scopa.web.deps import DIGITS, MAX_ID, Service, players_of_request

api = APIRouter(
    prefix="/api",
    tags=["players"],
    responses={
        404: {"model": schemas.Error, "description": "No such player (or log entry)"},
        422: {"model": schemas.Error, "description": "Invalid input; nothing changed"},
    },
)


def get_players(request: Request, service: Service) -> PlayerService:
    """The players of the request's group (the one table when not hosted)."""
    return PlayerService(players_of_request(request), service)


Players = Annotated[PlayerService, Depends(get_players)]
Name = Annotated[str, Path(min_length=1, max_length=100, description="The player's name.")]
ChangeId = Annotated[int, DIGITS, Path(ge=1, le=MAX_ID, description="The log entry's id.")]
Variant = Annotated[
    str, Query(max_length=20, description="Only the matches of this variant (`scopa`, ...).")
]
Period = Annotated[
    str, Query(max_length=8, description="Only the matches of the last `30d` or `365d`.")
]


def rating_json(rating: Rating | None) -> dict[str, Any] | None:
    if rating is None:
        return None
    return {
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "ordinal": round(rating.ordinal, 3),
        "matches": rating.matches,
    }


async def body_of(request: Request) -> dict[str, Any]:
    raw = await request.body()
    data = load_json(raw, "body") if raw.strip() else None
    if not isinstance(data, dict):
        raise InputError("body", N_("expected a JSON object"), code="players.expected_json_object")
    return data


def text_field(data: dict[str, Any], key: str) -> str:
    """The name under ``key``: absent, or anything but a name, is refused there (what was
    found as JSON says it: ``null``, ``an object``, never as Python writes it)."""
    if key not in data:
        raise InputError(key, N_("missing (expected a name)"), code="players.name_missing")
    value = data[key]
    if not isinstance(value, str) or not value.strip():
        raise InputError(
            key,
            N_("expected a name, found {value}"),
            code="players.expected_name_found",
            value=describe(value),
        )
    return value


# The JSON API


@api.get("/players", summary="Every player remembered, with their figures")
def list_players(players: Players, variant: Variant = "", period: Period = "") -> JSONResponse:
    wanted = players.filter(variant, period)
    return JSONResponse([f.to_json() for f in players.everyone(wanted)])


@api.get("/player-changes", summary="The players' log: renames, merges, removals")
def player_changes(players: Players) -> JSONResponse:
    return JSONResponse(
        [
            {
                "id": c.id,
                "at": c.at.isoformat(),
                "action": c.action,
                "summary": c.summary,
                "undone": c.undone,
            }
            for c in players.log()
        ]
    )


@api.post("/player-changes/{change}/undo", summary="Undo an entry of the players' log")
def undo_change(players: Players, change: ChangeId) -> JSONResponse:
    return JSONResponse({"summary": players.undo(change=change)})


@api.get("/ratings", summary="Each player's rating (OpenSkill, Plackett-Luce)")
def ratings(players: Players) -> JSONResponse:
    found = players.ratings_by_name()
    ordered = sorted(found.items(), key=lambda item: (-item[1].ordinal, item[0]))
    return JSONResponse([{"name": name, **(rating_json(r) or {})} for name, r in ordered])


@api.get("/players/{name}", summary="One player's figures")
def one_player(
    players: Players, name: Name, variant: Variant = "", period: Period = ""
) -> JSONResponse:
    return JSONResponse(players.figures(name, players.filter(variant, period)).to_json())


@api.get("/players/{name}/export.json", summary="A player's figures as a JSON file")
def export_json(players: Players, name: Name, variant: Variant = "") -> Response:
    text = players.export(name, "json", players.filter(variant))
    return download(text, "application/json", name, "json")


@api.get("/players/{name}/export.csv", summary="A player's figures as CSV")
def export_csv(players: Players, name: Name, variant: Variant = "") -> Response:
    text = players.export(name, "csv", players.filter(variant))
    return download(text, "text/csv; charset=utf-8", name, "csv")


def download(text: str, media_type: str, name: str, ext: str) -> Response:
    safe = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in name) or "player"
    disposition = (
        f'attachment; filename="scopa-player-{safe}.{ext}"; '
        f"filename*=UTF-8''scopa-player-{quote(name)}.{ext}"
    )
    return Response(text, media_type=media_type, headers={"Content-Disposition": disposition})


@api.post("/players/{name}/rename", summary="Show a player under a new name everywhere")
async def rename(request: Request, players: Players, name: Name) -> JSONResponse:
    players.known(name)
    new = text_field(await body_of(request), "name")
    return JSONResponse({"summary": players.rename(name=name, new=new)})


@api.post("/players/{name}/merge", summary="Make one player of two names")
async def merge(request: Request, players: Players, name: Name) -> JSONResponse:
    players.known(name)
    into = text_field(await body_of(request), "into")
    return JSONResponse({"summary": players.merge(name=name, into=into)})


@api.post("/players/{name}/remove", summary="Remove a player's figures, at their request")
def remove(players: Players, name: Name) -> JSONResponse:
    return JSONResponse({"summary": players.remove(name=name)})
