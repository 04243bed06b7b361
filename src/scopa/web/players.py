"""The players: their figures in the JSON API (FORMATS.md, "Player statistics") and the pages
(the Players leaderboard, a page per player, head to head, the players' log), and the players
as people (rename, merge, remove, each logged and undoable).

Views read the figures through :class:`~scopa.application.players.PlayerService`, which
sums the tallies kept per match: nothing is scored on a page view.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from scopa import variants
from scopa.application.players import PERIODS, SORTS, PlayerService
from scopa.errors import InputError
from scopa.formats import load_json
from scopa.store.figures import SqlPlayers
from scopa.store.ratings import Rating
from scopa.tally import Figures
from scopa.web.deps import Service
from scopa.web.player_views import player_chart, share_chart
from scopa.web.render import Form, View, render

api = APIRouter(prefix="/api", tags=["players"])
pages = APIRouter(include_in_schema=False)


def get_players(service: Service) -> PlayerService:
    """The players of the request's group (the one table when not hosted)."""
    store = service.store
    transaction = getattr(getattr(store, "db", None), "transaction", None)
    if transaction is None:
        raise HTTPException(404, "this store keeps no players' figures")
    return PlayerService(SqlPlayers(transaction, getattr(store, "group", None)), service)


Players = Annotated[PlayerService, Depends(get_players)]
Name = Annotated[str, Path(min_length=1, max_length=100, description="The player's name.")]
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
        raise InputError("body", "expected a JSON object")
    return data


def text_field(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InputError(key, f"expected a name, found {value!r}")
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
def undo_change(players: Players, change: Annotated[int, Path(ge=1, le=2**31 - 1)]) -> JSONResponse:
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
    new = text_field(await body_of(request), "name")
    return JSONResponse({"summary": players.rename(name=name, new=new)})


@api.post("/players/{name}/merge", summary="Make one player of two names")
async def merge(request: Request, players: Players, name: Name) -> JSONResponse:
    into = text_field(await body_of(request), "into")
    return JSONResponse({"summary": players.merge(name=name, into=into)})


@api.post("/players/{name}/remove", summary="Remove a player's figures, at their request")
def remove(players: Players, name: Name) -> JSONResponse:
    return JSONResponse({"summary": players.remove(name=name)})


# The pages


def board_address(variant: str, period: str, sort: str) -> str:
    """The Players page with these filters and order.

    >>> board_address("scopone", "", "matches")
    '/players?variant=scopone&sort=matches'
    """
    query = {"variant": variant, "period": period, "sort": sort}
    return "/players?" + urlencode({k: v for k, v in query.items() if v})


def choices() -> dict[str, Any]:
    return {
        "variants": [(v.name, v.title) for v in variants.all_variants()],
        "periods": [("", "All time"), ("30d", "Last 30 days"), ("365d", "Last year")],
        "sorts": [
            ("win_rate", "Win rate"),
            ("matches", "Matches"),
            ("points_per_deal", "Points per deal"),
            ("rating", "Rating"),
        ],
    }


@pages.get("/players")
def players_page(
    request: Request,
    players: Players,
    variant: Variant = "",
    period: Period = "",
    sort: Annotated[str, Query(max_length=20)] = "win_rate",
) -> Response:
    """The leaderboard: the players who played a match counted, sortable and filtered."""
    if sort not in SORTS:
        sort = "win_rate"
    if period not in PERIODS:
        period = ""
    wanted = players.filter(variant, period)
    board = players.leaderboard(wanted, sort)
    rated = players.ratings_by_name()
    pairs = players.partnerships(wanted) if wanted.variant in ("", "scopone") else []
    pairs = [p for p in pairs if p.record.matches]
    data = {
        "players": [
            {**f.to_json(), "win_rate": f.win_rate, "rating": rating_json(rated.get(f.name))}
            for f in board
        ],
        "partnerships": [
            {"names": list(p.names), "matches": p.record.matches, "won": p.record.won}
            for p in pairs
        ],
        "variant": wanted.variant or None,
        "period": period or None,
        "sort": sort,
    }
    context = {
        "board": board,
        "rated": rated,
        "best": pairs[:3],
        "worst": list(reversed(pairs[3:]))[:3] if len(pairs) > 3 else [],
        "variant": wanted.variant,
        "period": period,
        "sort": sort,
        "query": lambda sort: board_address(wanted.variant, period, sort),
        "log": players.log()[:10],
        **choices(),
    }
    return render(request, View("players.html", data, context))


@pages.get("/players/vs")
def head_to_head(
    request: Request,
    players: Players,
    a: Annotated[str, Query(max_length=100)] = "",
    b: Annotated[str, Query(max_length=100)] = "",
    variant: Variant = "",
) -> Response:
    """Two players on one page: each one's record against and with the other."""
    if not a.strip() or not b.strip():
        raise InputError("b" if a.strip() else "a", "name two players to compare")
    wanted = players.filter(variant)
    one, other = players.head_to_head(a, b, wanted)
    against = dict(one.opponents).get(other.name)
    together = dict(one.partners).get(other.name)
    data = {
        "players": [one.to_json(), other.to_json()],
        "against": None
        if against is None
        else {"matches": against.matches, one.name: against.won, other.name: against.lost},
        "together": None
        if together is None
        else {"matches": together.matches, "won": together.won},
    }
    context = {
        "one": one,
        "other": other,
        "against": against,
        "together": together,
        "variant": wanted.variant,
        "rows": compare_rows(one, other),
        **choices(),
    }
    return render(request, View("head_to_head.html", data, context))


def compare_rows(one: Figures, other: Figures) -> list[tuple[str, str, str]]:
    def pct(value: float) -> str:
        return f"{value:.0%}"

    rows = [
        ("Matches", str(one.matches), str(other.matches)),
        ("Won", f"{one.won} of {one.finished}", f"{other.won} of {other.finished}"),
        ("Win rate", pct(one.win_rate), pct(other.win_rate)),
        ("Points per deal", f"{one.points_per_deal:.2f}", f"{other.points_per_deal:.2f}"),
        ("Sweeps per deal", f"{one.sweeps_per_deal:.2f}", f"{other.sweeps_per_deal:.2f}"),
    ]
    theirs = other.shares()
    for key, share in one.shares().items():
        label = variants.get("scopa").labels.get(key, key)
        rows.append((label, pct(share), pct(theirs.get(key, 0.0))))
    return rows


@pages.get("/players/changes")
def changes_page(request: Request, players: Players) -> Response:
    log = players.log()
    data = [{"id": c.id, "action": c.action, "summary": c.summary, "undone": c.undone} for c in log]
    return render(request, View("player_changes.html", data, {"log": log}))


@pages.post("/players/changes/{change}/undo")
def undo_page(players: Players, change: Annotated[int, Path(ge=1, le=2**31 - 1)]) -> Response:
    players.undo(change=change)
    return RedirectResponse("/players/changes", status_code=303)


@pages.get("/players/{name}")
def player_page(
    request: Request, players: Players, name: Name, variant: Variant = "", period: Period = ""
) -> Response:
    """A player's page: the figures, results over time, categories against the table's
    average, opponents and partners, their latest matches."""
    if period not in PERIODS:
        period = ""
    wanted = players.filter(variant, period)
    page = players.page(name, wanted)
    figures = page.figures
    data = {
        **figures.to_json(),
        "win_rate": figures.win_rate,
        "rating": rating_json(page.rating),
        "average": {
            "categories": page.average.shares(),
            "points_per_deal": page.average.points_per_deal,
        },
        "names": list(page.person.names),
        "recent": [
            {
                "match": p.match_id,
                "title": p.title,
                "variant": p.variant,
                "finished": p.finished,
                "won": p.won,
                "deals": p.deals,
                "points": p.points,
            }
            for p in page.played
        ],
    }
    labels = variants.get(wanted.variant or "scopa").labels
    context = {
        "page": page,
        "figures": figures,
        "labels": labels,
        "variant": wanted.variant,
        "period": period,
        "results": player_chart(page.played),
        "shares": share_chart(figures.shares(), page.average.shares(), labels),
        "path": "/players/" + quote(page.person.name, safe=""),
        **choices(),
    }
    return render(request, View("player.html", data, context))


@pages.post("/players/{name}/rename")
def rename_page(players: Players, name: Name, form: Form) -> Response:
    new = form.get("name")
    players.rename(name=name, new=new)
    return RedirectResponse("/players/" + quote(new.strip(), safe=""), status_code=303)


@pages.post("/players/{name}/merge")
def merge_page(players: Players, name: Name, form: Form) -> Response:
    into = form.get("into")
    players.merge(name=name, into=into)
    return RedirectResponse("/players/" + quote(into.strip(), safe=""), status_code=303)


@pages.post("/players/{name}/remove")
def remove_page(players: Players, name: Name) -> Response:
    players.remove(name=name)
    return RedirectResponse("/players/changes", status_code=303)
