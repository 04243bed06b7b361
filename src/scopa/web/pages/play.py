"""The Play page: a game against the computer, which thinks on the server.

``GET /play`` chooses the variant, the players and the level (and lists the games to
resume); ``POST /play`` starts a game and opens its table, ``/play/{id}``. The table's script
(``static/play.js``) reads ``/play/{id}/state`` and sends each move as JSON with the step it
saw: ``/play/{id}/play`` (your card and the cards it takes), ``/play/{id}/computer`` (the
computer seat to move plays once) and ``/play/{id}/next`` (the next deal). A move on a stale
step is refused with 409, an unknown card or an illegal capture with 422; nothing changes.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Form, HTTPException, Path, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from scopa.application import bodies
from scopa.application.computer import (
    PLAY_VARIANTS,
    UNVERIFIED_TEXT,
    ComputerGames,
    GameLine,
    GameNotFoundError,
    PlayedGame,
    parse_play,
    parse_thinking,
)
from scopa.engine.ai import LEVELS
from scopa.engine.game import choices, parse_seed
from scopa.engine.variants import get_variant
from scopa.errors import IllegalPlayError, InputError, VersionConflictError, describe
from scopa.i18n import N_, _
from scopa.reading import ascii_digits
from scopa.web.api.routes import StrictJsonRoute
from scopa.web.deps import DIGITS, MAX_ID, Service, error_json, games_of_request, seeds_of_request
from scopa.web.pages.render import JSON_ONLY, View, render
from scopa.web.phone.play_view import table_json

router = APIRouter(include_in_schema=False, route_class=StrictJsonRoute)


def game_to_json(played: PlayedGame) -> dict[str, Any]:
    """Everything the page shows, from seat 0's side of the table (as the phone draws a game
    it plays itself: :func:`~scopa.web.phone.play_view.table_json`), and whether the server
    vouches for it (``unverified``: why not, and ``unverified_text`` says so)."""
    data = table_json(played.game, played.id, played.match_id, played.made)
    data["unverified"] = played.unverified
    data["unverified_text"] = (
        None if played.unverified is None else _(UNVERIFIED_TEXT[played.unverified])
    )
    return data


GameId = Annotated[int, DIGITS, Path(ge=1, le=MAX_ID, description="The game's id.")]
MAX_STEP = 10_000


def games_of(request: Request, service: Service) -> ComputerGames:
    """The games kept next to the matches, as this request may see them: on a hosted
    server, its group's games only, with ``service`` (its group's matches) for their deals."""
    return ComputerGames(games_of_request(request), service, seeds_of_request(request))


def answer(run: Any) -> Response:
    """The game as JSON after ``run``, or the error in the API's one shape."""
    try:
        played: PlayedGame = run()
    except GameNotFoundError as exc:
        return error_json(404, exc, "id")
    except VersionConflictError as exc:
        return error_json(409, exc, "step")
    except InputError as exc:
        return error_json(422, exc, exc.where)
    except IllegalPlayError as exc:
        return error_json(422, exc, "play")
    return JSONResponse(game_to_json(played), headers=NOT_KEPT)


NOT_KEPT = {"Cache-Control": "no-store"}
"""On every answer that shows the player's hand: no cache keeps it."""


def step_of(body: Any) -> int:
    return bodies.step_of(body, MAX_STEP, "play.step_move_based_whole")


def log_of(body: Any) -> list[list[tuple[int, int]]]:
    """The plays a device made: ``[[[card, capture], ...], ...]``, deal by deal (the engine's
    card index, 0-39, and capture mask)."""
    log = body.get("log") if isinstance(body, dict) else None
    problem = N_("the plays are a list of deals, each a list of [card, capture] pairs")
    if not isinstance(log, list) or not log or not all(isinstance(d, list) for d in log):
        raise InputError("log", problem, code="play.log_shape")
    if sum(len(deal) for deal in log) + len(log) > MAX_STEP:
        raise InputError(
            "log",
            N_("a game has at most {max_step} steps"),
            code="play.game_most_steps",
            max_step=MAX_STEP,
        )
    plays: list[list[tuple[int, int]]] = []
    for deal in log:
        pairs = []
        for pair in deal:
            if not isinstance(pair, list) or len(pair) != 2 or not all(whole(x) for x in pair):
                raise InputError("log", problem, code="play.log_shape")
            card, capture = pair
            if not 0 <= card < 40 or not 0 <= capture < 2**40:
                raise InputError(
                    "log",
                    N_("{pair} is not a card's index and a capture"),
                    code="play.not_card_index_capture",
                    pair=json.dumps(pair),  # as sent (JSON), whatever Python would write
                )
            pairs.append((card, capture))
        plays.append(pairs)
    return plays


def whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


PLAY_LABELS = {
    "variant": N_("Game"),
    "players": N_("Players"),
    "level": N_("Level"),
    "seed": N_("Seed"),
}
"""The setup form's fields, as it labels them: an error's place as the reader sees it."""


def setup_context(playing: list[GameLine], error: str) -> dict[str, Any]:
    offered = choices()
    return {
        "variants": offered,
        "titles": {v["name"]: v["title"] for v in offered},
        "levels": list(LEVELS),
        "playing": playing,
        "error": error,
    }


@router.get("/play")
def setup(request: Request, service: Service) -> Response:
    """Choose a game, or resume one."""
    games = games_of(request, service)
    playing = games.playing()
    data = {
        "variants": choices(),
        "levels": list(LEVELS),
        "playing": [{"id": g.id, "variant": g.variant, "deals": g.deals} for g in playing],
    }
    return render(request, View("play.html", data, setup_context(playing, "")))


Choice = Annotated[str, Form(max_length=20)]
"""A word the form sends: the variant's name, the level's, the seed."""


@router.post("/play")
def start(
    request: Request,
    service: Service,
    variant: Choice = "scopa",
    players: Annotated[str, Form(max_length=10)] = "2",
    level: Choice = "normal",
    seed: Choice = "",
) -> Response:
    """Start a game and open its table (the form's choice ``4t``: four in partnerships,
    which is what Scopone is)."""
    games = games_of(request, service)
    try:
        count = ascii_digits(players.strip(), 2)
        if count is None:
            raise InputError(
                "players",
                N_("{players} is not a number of players"),
                code="play.not_number_players",
                players=describe(players),
            )
        if variant in PLAY_VARIANTS and len(get_variant(variant).players) == 1:
            count = None  # Scopone: four, whatever the form says
        number = parse_seed(seed) if seed.strip() else None  # none: a new shuffle
        played = games.start(variant=variant, players=count, level=level, seed=number)
    except InputError as exc:
        place = _(PLAY_LABELS[exc.where]) if exc.where in PLAY_LABELS else exc.where
        context = setup_context(games.playing(), f"{place}: {exc.text()}")
        return render(request, View("play.html", {"error": exc.text()}, context, status=422))
    return RedirectResponse(f"/play/{played.id}", status_code=303)


@router.get("/play/here")
def here(request: Request) -> Response:
    """The table of a game played on this device (its script reads the game kept there, by
    the id after ``#``): the same page whatever the game, kept by the service worker so it
    opens with no connection."""
    return render(request, View("play_table.html", {"device": True}, {"state": None}))


@router.get("/play/{game_id}")
def table(request: Request, service: Service, game_id: GameId) -> Response:
    """The table of a game (its script draws it from ``/play/{id}/state``)."""
    try:
        played = games_of(request, service).resume(game_id=game_id)
    except GameNotFoundError as exc:
        raise HTTPException(404, exc.text()) from exc
    state = game_to_json(played)
    response = render(request, View("play_table.html", state, {"state": state}))
    response.headers.update(NOT_KEPT)
    return response


@router.get("/play/{game_id}/state", tags=[JSON_ONLY])
def state(request: Request, service: Service, game_id: GameId) -> Response:
    """The game as it stands, from your seat."""
    return answer(lambda: games_of(request, service).resume(game_id=game_id))


@router.get("/play/{game_id}/coach", tags=[JSON_ONLY])
def coach(request: Request, service: Service, game_id: GameId) -> Response:
    """The coach, from your seat: on your turn, ``{"advice": [...]}`` (every legal play, best
    first, with the points it is expected to bring); once the deal is over, ``{"review":
    [...]}`` (your plays that cost the most, with the best play then); otherwise both empty.
    ``lighter``: the coach searched lighter than the player's tree (no native kernel)."""
    try:
        game = games_of(request, service).resume(game_id=game_id).game
    except GameNotFoundError as exc:
        return error_json(404, exc, "id")
    advice = [a.to_json() for a in game.advice()]
    mistakes = [m.to_json() for m in game.review()] if game.deal_over else []
    return JSONResponse(
        {"step": game.step, "advice": advice, "review": mistakes, "lighter": game.coach_lighter},
        headers=NOT_KEPT,
    )


@router.post("/play/{game_id}/play", tags=[JSON_ONLY])
def play(
    request: Request, service: Service, game_id: GameId, body: Annotated[Any, Body()] = None
) -> Response:
    """Your play: ``{"step": 4, "card": "7d", "capture": ["3c", "4s"]}`` (``[]`` trails)."""

    def run() -> PlayedGame:
        step = step_of(body)
        made = parse_play(body.get("card"), body.get("capture", []))
        return games_of(request, service).play(game_id=game_id, step=step, play=made)

    return answer(run)


@router.post("/play/{game_id}/computer", tags=[JSON_ONLY])
def computer(
    request: Request, service: Service, game_id: GameId, body: Annotated[Any, Body()] = None
) -> Response:
    """The computer seat to move plays once: ``{"step": 5}``."""
    return answer(lambda: games_of(request, service).computer(game_id=game_id, step=step_of(body)))


@router.post("/play/{game_id}/next", tags=[JSON_ONLY])
def next_deal(
    request: Request, service: Service, game_id: GameId, body: Annotated[Any, Body()] = None
) -> Response:
    """Deal the next deal: ``{"step": 36}``."""
    return answer(lambda: games_of(request, service).next_deal(game_id=game_id, step=step_of(body)))


@router.post("/play/seeds", tags=[JSON_ONLY])
def issue_seed(request: Request, service: Service) -> Response:
    """A seed for a game this device may deal later with no connection, and its ticket:
    ``{"ticket": 12, "seed": "88301772499671790"}`` (the seed as digits: a JavaScript number
    holds only 53 bits). A game sent to ``/play/games`` with the ticket and that seed is
    one the server can vouch for."""
    try:
        issued = games_of(request, service).issue_seed()
    except InputError as exc:
        return error_json(422, exc, exc.where)
    return JSONResponse({"ticket": issued.ticket, "seed": str(issued.seed)})


@router.post("/play/games", tags=[JSON_ONLY])
def adopt(request: Request, service: Service, body: Annotated[Any, Body()] = None) -> Response:
    """A game played on a device while the server could not be reached, kept here from now
    on: ``{"variant": "scopa", "players": 2, "level": "easy", "seed": "7", "ticket": 12,
    "thinking": "iterations", "log": [[...]]}`` (``ticket``: the one ``/play/seeds`` gave
    with the seed; without it the game is kept but marked unverified, and does not count in
    the players' figures; ``thinking``: the device's computer thought by the phone's numbers
    of iterations, so its plays at ``normal`` and ``strong`` are replayed here too)."""

    def run() -> PlayedGame:
        fields = body if isinstance(body, dict) else {}
        variant, level, players, seed, ticket = (
            fields.get(k) for k in ("variant", "level", "players", "seed", "ticket")
        )
        if ticket is not None and (not whole(ticket) or not 1 <= ticket <= MAX_ID):
            raise InputError(
                "ticket",
                N_("{ticket} is not a seed's ticket (a whole number from /play/seeds)"),
                code="play.not_seed_ticket",
                ticket=describe(ticket),
            )
        if not isinstance(variant, str) or not isinstance(level, str):
            raise InputError(
                "variant",
                N_("the variant and the level are names"),
                code="play.variant_level_names",
            )
        if players is not None and not whole(players):
            raise InputError(
                "players",
                N_("{players} is not a number of players"),
                code="play.not_number_players",
                players=describe(players),
            )
        seed = parse_seed(seed)
        return games_of(request, service).adopt(
            variant=variant,
            players=players,
            level=level,
            seed=seed,
            log=log_of(body),
            ticket=ticket,
            phone=parse_thinking(fields.get("thinking")),
        )

    return answer(run)


@router.post("/play/{game_id}/sync", tags=[JSON_ONLY])
def sync(
    request: Request, service: Service, game_id: GameId, body: Annotated[Any, Body()] = None
) -> Response:
    """The plays a device made on this game while the server could not be reached (all the
    game's plays: the ones kept here must begin them): ``{"log": [[[card, capture], ...]],
    "thinking": "iterations"}`` (``thinking`` as with ``/play/games``)."""

    def run() -> PlayedGame:
        phone = parse_thinking(body.get("thinking") if isinstance(body, dict) else None)
        return games_of(request, service).sync(game_id=game_id, log=log_of(body), phone=phone)

    return answer(run)
