"""The players' pages: the Players leaderboard (sortable, filtered by variant and period,
with Scopone's best and worst partnerships), a page per player (figures, results over time,
categories against the table's average, opponents, partners, latest matches), head to head,
and the players' log with *Undo*. Each has its JSON twin (``?format=json``).

Views read the figures through :class:`~scopa.application.players.PlayerService`, which
sums the tallies kept per match: nothing is scored on a page view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response

from scopa import variants
from scopa.application.players import PERIODS, SORTS, change_text
from scopa.errors import InputError
from scopa.i18n import N_, _
from scopa.made_names import YOU, Seat
from scopa.names import name_key
from scopa.store.records import Played
from scopa.tally import Figures, category_keys
from scopa.web.api.players import ChangeId, Name, Period, Players, Variant, rating_json
from scopa.web.language import fixed
from scopa.web.language import percent as pct
from scopa.web.pages.player_views import player_chart, share_chart
from scopa.web.pages.render import Form, View, render

pages = APIRouter(include_in_schema=False)


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
        "periods": [("", N_("All time")), ("30d", N_("Last 30 days")), ("365d", N_("Last year"))],
        "sorts": [
            ("win_rate", N_("Win rate")),
            ("matches", N_("Matches")),
            ("points_per_deal", N_("Points per deal")),
            ("rating", N_("Rating")),
        ],
    }


NameQuery = Annotated[str, Query(max_length=100)]
"""A player's name in the query (as long as the API's :data:`Name` may be)."""


def person(name: str, seats: Mapping[str, Seat]) -> bool:
    """Whether a name belongs in the family's ranking: a person's, or ``You`` (the one who
    played the computer on this device). The computer's seats (``Computer``, ``Computer 2``,
    ``Partner``: ``seats``, the names the program gave a seat, as the store keeps them) are
    not a member of the family: they are left out of the ranking, its head-to-head choice
    and Scopone's partnerships, and stay on a player's own page among their opponents, named
    in the page's language. A person called "Computer 2" is one of the family."""
    seat = seats.get(name_key(name))
    return seat is None or seat.kind == YOU


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
    seats = players.seats()
    board = [f for f in players.leaderboard(wanted, sort) if person(f.name, seats)]
    rated = players.ratings_by_name()
    pairs = players.partnerships(wanted) if wanted.variant == "scopone" else []
    pairs = [p for p in pairs if p.record.matches and all(person(n, seats) for n in p.names)]
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
        "seats": seats,
        **choices(),
    }
    return render(request, View("players.html", data, context))


@pages.get("/players/vs")
def head_to_head(
    request: Request,
    players: Players,
    a: NameQuery = "",
    b: NameQuery = "",
    variant: Variant = "",
) -> Response:
    """Two players on one page: each one's record against and with the other."""
    if not a.strip() or not b.strip():
        raise InputError(
            "b" if a.strip() else "a",
            N_("name two players to compare"),
            code="players.name_two_players_compare",
        )
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
        "seats": players.seats(),
        **choices(),
    }
    return render(request, View("head_to_head.html", data, context))


def won_of(figures: Figures) -> str:
    return _("{won} of {finished}").format(won=figures.won, finished=figures.finished)


def compare_rows(one: Figures, other: Figures) -> list[tuple[str, str, str]]:

    rows = [
        (N_("Matches"), str(one.matches), str(other.matches)),
        (N_("Won"), won_of(one), won_of(other)),
        (N_("Win rate"), pct(one.win_rate), pct(other.win_rate)),
        (N_("Points per deal"), fixed(one.points_per_deal), fixed(other.points_per_deal)),
        (N_("Sweeps per deal"), fixed(one.sweeps_per_deal), fixed(other.sweeps_per_deal)),
    ]
    theirs = other.shares()
    for key, share in one.shares().items():
        label = variants.get("scopa").label(key)
        rows.append((label, pct(share), pct(theirs.get(key, 0.0))))
    return rows


@pages.get("/players/changes")
def changes_page(request: Request, players: Players) -> Response:
    log = players.log()
    data = [{"id": c.id, "action": c.action, "summary": c.summary, "undone": c.undone} for c in log]
    return render(
        request, View("player_changes.html", data, {"log": log, "change_text": change_text})
    )


@pages.post("/players/changes/{change}/undo")
def undo_page(players: Players, change: ChangeId) -> Response:
    players.undo(change=change)
    return RedirectResponse("/players/changes", status_code=303)


def played_variant(played: Sequence[Played], figures: Figures) -> str:
    """The variant whose words a player's page uses when no variant is chosen: the one they
    played, when every match counted is of one variant (an Escoba family reads Oros and
    Setenta, not Scopa's Settebello and Primiera); Scopa's when they played several."""
    found = {p.variant for p in played}
    if len(found) == 1:
        (only,) = found
        if tuple(key for key, _n in figures.categories) == category_keys({only}):
            return only
    return "scopa"


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
                "title": p.shown,
                "generated_name": p.made.to_json() if p.made else None,
                "variant": p.variant,
                "finished": p.finished,
                "won": p.won,
                "deals": p.deals,
                "points": p.points,
            }
            for p in page.played
        ],
    }
    labels = variants.get(wanted.variant or played_variant(page.played, figures)).labels
    context = {
        "page": page,
        "figures": figures,
        "labels": labels,
        "variant": wanted.variant,
        "period": period,
        "results": player_chart(page.played),
        "shares": share_chart(figures.shares(), page.average.shares(), labels),
        "path": "/players/" + quote(page.person.name, safe=""),
        "generated": datetime.now(UTC),
        "seats": players.seats(),
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
