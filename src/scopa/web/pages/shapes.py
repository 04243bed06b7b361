"""The pages of a match started on a phone with no connection, before the server has it.

The server cannot render them then, so it renders them ahead, once per shape of match (the
variant, the number of players, in partnerships or not): the real sheet and deal form
templates, for a match that is never stored, whose id and player names are markers
(:data:`SHAPE_ID`, :func:`shape_names`). The service worker keeps them (``/offline/shapes``
lists them) and, offline, answers ``/matches/-N`` (a match kept only on the phone) with the
shape of that match, its markers replaced by the match's id and names (``static/sw.js``).
The page's scripts then score and draw it on the device, as any sheet with changes waiting.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from scopa import variants
from scopa.application import ScoredMatch
from scopa.errors import InputError
from scopa.formats import parse_match
from scopa.i18n import N_
from scopa.match import Match, score_match
from scopa.reading import ascii_digits
from scopa.teams import MAX_PLAYERS, MIN_PLAYERS
from scopa.web.pages.deals import deal_form_view
from scopa.web.pages.render import render, sheet_view
from scopa.web.phone.forms import blank_form

router = APIRouter(include_in_schema=False)

SHAPE_ID = 987654321
"""The id of a shape's match: replaced by the phone's own (negative) id."""
SHAPE_VERSION = 1
"""A match's version once created (the phone's match counts its changes from it)."""


def shape_names(players: int) -> list[str]:
    """The markers for the players' names: ``Qq0Zz``, ``Qq1Zz``, ...

    >>> shape_names(3)
    ['Qq0Zz', 'Qq1Zz', 'Qq2Zz']
    """
    return [f"Qq{i}Zz" for i in range(players)]


def shape_match(variant: str, players: int, teams: bool) -> Match | None:
    """The match of a shape (None: no such match, e.g. Scopone for 3)."""
    data = {"players": shape_names(players), "variant": variant, "rules": {"partnerships": teams}}
    try:
        return parse_match(data)
    except InputError:
        return None


def shape_keys() -> list[str]:
    """Every shape a new match can have: ``scopa-2-0`` ... ``scopone-4-1``."""
    keys = []
    for variant in variants.all_variants():
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            for teams in (False, True):
                if shape_match(variant.name, players, teams) is not None:
                    keys.append(f"{variant.name}-{players}-{int(teams)}")
    return keys


@router.get("/offline/shapes")
def shapes() -> Response:
    """The shapes' pages to keep: each shape's sheet and deal form (quick tally, and who took
    each point: the entry "Record a deal" opens unless this phone chose another)."""
    pages = ("sheet", "deal", "deal?mode=categories")
    urls = [f"/offline/shape/{key}/{page}" for key in shape_keys() for page in pages]
    return JSONResponse({"id": SHAPE_ID, "names": shape_names(MAX_PLAYERS), "urls": urls})


@router.get("/offline/shape/{key}/{page}")
def shape(request: Request, key: str, page: str) -> Response:
    """One shape's page (``sheet`` or ``deal``; ``?mode=cards`` for card by card)."""
    variant, _, rest = key.partition("-")
    players, _, teams = rest.partition("-")
    count = ascii_digits(players, 1)
    match = None
    if count is not None and teams in ("0", "1") and page in ("sheet", "deal"):
        match = shape_match(variant, count, teams == "1")
    if match is None:
        raise HTTPException(404, N_("no such shape"))
    now = datetime.now(UTC)
    sheet = score_match(match)
    scored = ScoredMatch(SHAPE_ID, SHAPE_VERSION, match, sheet, now, now, ())
    if page == "deal":
        mode = request.query_params.get("mode", "tally")
        return render(request, deal_form_view(scored, blank_form(sheet.sides, mode), None))
    return render(request, sheet_view(request, scored, history=()))
