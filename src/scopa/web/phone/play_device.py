"""The Play page's game on the device: what the phone's Pyodide worker runs when the server
cannot be reached. JSON text in, JSON text out (:func:`run`), as :mod:`scopa.web.phone.device`.

A game on the device is kept by the page (IndexedDB) as the same plain values the server
keeps: ``{"variant", "players", "level", "seed", "log"}``, and ``"thinking": "iterations"``
while every computer play made here was made by the phone's numbers of iterations
(:func:`answer`). Each operation deals and plays it
again (:meth:`Game.replay`, the engine's one play path, every play checked), makes the move
and answers with the table as the page draws it (:func:`scopa.web.phone.play_view.table_json`, the
server's own view) and the game to keep. The search player thinks here, in the browser, on
the native kernel's WebAssembly build where the package has it: ``normal`` and ``strong`` grow
the same tree as on the server, for the phone's numbers of iterations
(:data:`~scopa.engine.ai.levels.PHONE_LEVELS`) instead of the server's times, so that they play
the same plays however fast the phone is. Without it they search sampled deals by the
pure-Python alpha-beta instead, for the level's time on the wall clock.

Operations (``op``; every payload has ``game``, moves also the ``step`` they were based on):

- ``start`` (``variant``, ``players``?, ``level``, ``seed``) → ``state``, ``game``;
- ``state`` → ``state``, ``game``: the game as it stands;
- ``play`` (``step``, ``card``, ``capture``) → your play;
- ``computer`` (``step``) → the computer seat to move plays once;
- ``next`` (``step``) → the next deal, once the last one is over;
- ``coach`` → the coach's hint on your turn: ``step``, ``advice``, ``review`` (empty) and
  ``lighter`` (true without the kernel: the coach's lighter search, said on the page);
- ``engine`` → what the search runs on here: ``engine`` (``kernel`` or ``python``), ``build``
  (``webassembly`` or ``c``, with the kernel) and ``reason`` (why not, without);
- ``speed`` (``iterations``, ``seed``) → how fast the search grows here: the tree of the
  levels (:func:`level_tree`) grown from the game's position for ``iterations`` iterations,
  drawing from ``seed``, and the time it took: ``iterations``, ``ms`` (the wall clock: a
  worker has no other) and ``build`` (``bench/phone.py`` reads it).

A refusal is ``{"error", "where", "status"}`` with the status the server would answer (409 a
stale step, 422 an illegal play or a bad choice).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from scopa.cards import Card, CardSet
from scopa.engine.ai import observe
from scopa.engine.ai.inference import Inference
from scopa.engine.ai.ismcts import KernelTree
from scopa.engine.ai.playouts import playout_code
from scopa.engine.game import Game, Move, check_choice, level_here, parse_seed
from scopa.engine.state import Play
from scopa.errors import IllegalPlayError, InputError, ScopaError, describe
from scopa.i18n import N_
from scopa.web.phone.play_view import table_json


class StaleStepError(ScopaError):
    """The move was based on a step the game has left (another tab moved it on)."""


def run(op: str, payload: str) -> str:
    """Answer one request of the worker (see the module's docstring)."""
    data = json.loads(payload)
    handler = OPERATIONS.get(op)
    if handler is None:
        return json.dumps({"error": f"unknown operation {op!r}", "where": "op", "status": 422})
    try:
        answer = handler(data)
    except StaleStepError as error:
        answer = {"error": error.text(), "where": "step", "status": 409, "code": error.code}
    except InputError as error:
        answer = {"error": error.text(), "where": error.where, "status": 422, "code": error.code}
    except ScopaError as error:
        answer = {"error": error.text(), "where": "play", "status": 422, "code": error.code}
    return json.dumps(answer)


def choice(variant: object, players: object, level: object) -> tuple[str, int, str]:
    """The variant, the number of players and the level from JSON, checked as the server
    checks them (:func:`scopa.engine.game.check_choice`).

    >>> choice("scopone", None, "easy")
    ('scopone', 4, 'easy')
    """
    if not isinstance(variant, str) or not isinstance(level, str):
        raise InputError(
            "variant", N_("the variant and the level are names"), code="play.variant_level_names"
        )
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise InputError(
            "players",
            N_("{players} is not a number of players"),
            code="play.not_number_players",
            players=describe(players),
        )
    return variant, check_choice(variant, players, level), level


def load(data: Mapping[str, Any]) -> Game:
    """The kept game, dealt and played again (every play checked by the engine)."""
    kept = data.get("game")
    if not isinstance(kept, Mapping):
        raise InputError("game", N_("the game to play is missing"), code="play.game_play_missing")
    variant, players, level = choice(kept.get("variant"), kept.get("players"), kept.get("level"))
    log = kept.get("log")
    if not isinstance(log, list) or not log or not all(isinstance(d, list) for d in log):
        raise InputError(
            "log",
            N_("the plays are a list of deals, each a list of plays"),
            code="play.plays_list_deals_each",
        )
    try:
        plays = [[(int(card), int(capture)) for card, capture in deal] for deal in log]
    except (TypeError, ValueError) as error:
        raise InputError(
            "log",
            N_("each play is a card's index and a capture's mask"),
            code="play.each_play_card_index",
        ) from error
    return Game.replay(variant, players, level, parse_seed(kept.get("seed")), plays)


def by_iterations(data: Mapping[str, Any]) -> bool:
    """Whether the kept game says every computer play made on this device so far was made
    by the phone's numbers of iterations (``"thinking": "iterations"``; see :func:`answer`)."""
    kept = data.get("game")
    return isinstance(kept, Mapping) and kept.get("thinking") == "iterations"


def answer(game: Game, made: tuple[Move, ...] = (), iterations: bool = True) -> dict[str, Any]:
    """The table and the game to keep. The game keeps ``"thinking": "iterations"`` while
    every computer play made on this device was made by the phone's numbers of iterations
    (``iterations``: so far; the page marks a game with no play made here yet): the server
    then replays them at those numbers (``/play/games``, ``/play/{id}/sync``). Where the
    search thinks for a time here (no kernel, or a level given as a time) it is dropped, and
    a game from an older core, which never had it, never gets it."""
    state = table_json(game, None, None, made)
    kept = dict(state["replay"])
    if iterations and level_here(game.level).think_ms is None:
        kept["thinking"] = "iterations"
    return {"state": state, "game": kept}


def based_on(game: Game, data: Mapping[str, Any]) -> None:
    step = data.get("step")
    if step != game.step:
        raise StaleStepError(
            N_("the game moved on (step {step}, not {step2})"),
            code="play.game_moved",
            step=game.step,
            step2=step,
        )


def finish(game: Game) -> None:
    """Score a deal that just ended (the one scorer, on the device)."""
    if game.deal_over and len(game.match.deals) < len(game.log):
        game.finish_deal()


def start(data: Mapping[str, Any]) -> dict[str, Any]:
    variant, players, level = choice(data.get("variant"), data.get("players"), data.get("level"))
    return answer(Game(variant, players, level, parse_seed(data.get("seed"))))


def state(data: Mapping[str, Any]) -> dict[str, Any]:
    return answer(load(data), (), by_iterations(data))


def play(data: Mapping[str, Any]) -> dict[str, Any]:
    game = load(data)
    based_on(game, data)
    capture = data.get("capture", [])
    if not isinstance(capture, list) or not all(isinstance(c, str) for c in capture):
        raise InputError(
            "capture",
            N_("the cards taken are a list (empty to trail)"),
            code="play.cards_taken_list",
        )
    taken = CardSet.parse(capture, "capture")
    if len(taken) != len(capture):
        raise InputError(
            "capture",
            N_("a card is named twice among the cards taken"),
            code="play.card_named_twice_among",
        )
    move = game.play(Play(Card.parse(data.get("card"), "card"), taken))
    finish(game)
    return answer(game, (move,), by_iterations(data))


def computer(data: Mapping[str, Any]) -> dict[str, Any]:
    game = load(data)
    based_on(game, data)
    move = game.computer_plays()
    finish(game)
    return answer(game, (move,), by_iterations(data))


def next_deal(data: Mapping[str, Any]) -> dict[str, Any]:
    game = load(data)
    based_on(game, data)
    if not game.deal_over:
        raise IllegalPlayError(N_("the deal is not over yet"), code="play.deal_not_over_yet")
    game.next_deal()
    return answer(game, (), by_iterations(data))


def coach(data: Mapping[str, Any]) -> dict[str, Any]:
    """The coach's hint on your turn, as ``GET /play/{id}/coach`` answers it; without the
    kernel the lighter search, which ``lighter`` says."""
    game = load(data)
    advice = [a.to_json() for a in game.advice()]
    return {"step": game.step, "advice": advice, "review": [], "lighter": game.coach_lighter}


def engine(data: Mapping[str, Any]) -> dict[str, Any]:
    """What the search runs on here (the kernel instantiated if it is there)."""
    from scopa.engine import native
    from scopa.engine.native.wasm import Kernel

    if not native.AVAILABLE:
        return {"engine": "python", "build": None, "reason": native.REASON}
    build = "webassembly" if isinstance(native.kernel(), Kernel) else "c"
    return {"engine": "kernel", "build": build, "reason": ""}


MAX_SPEED_ITERATIONS = 1_000_000
"""The most iterations ``speed`` grows at once (some seconds on a phone)."""


def level_tree(game: Game, seed: int) -> KernelTree:
    """The tree ``normal`` and ``strong`` grow for the seat to move in ``game`` (greedy
    playouts, the others' plays read), drawing from ``seed``, not yet grown: on the kernel in
    use (the WebAssembly build here, the C extension on the server)."""
    state = game.state
    k = observe(state, state.turn)
    rng = random.Random(seed)
    return KernelTree(
        k, game.match.settings, rng, code=playout_code(True, False), inference=Inference(k)
    )


def speed(data: Mapping[str, Any]) -> dict[str, Any]:
    """How fast the levels' tree grows here, from the game's position (the module's
    docstring)."""
    from scopa.engine import native
    from scopa.engine.native.wasm import Kernel

    game = load(data)
    iterations = data.get("iterations")
    if (
        isinstance(iterations, bool)
        or not isinstance(iterations, int)
        or not 1 <= iterations <= MAX_SPEED_ITERATIONS
    ):
        raise InputError(
            "iterations",
            N_("the iterations are a whole number from 1 to {most}"),
            code="play.iterations_whole_number",
            most=MAX_SPEED_ITERATIONS,
        )
    if game.deal_over:
        raise IllegalPlayError(N_("the deal is over"), code="play.deal_over")
    if not native.AVAILABLE:
        raise IllegalPlayError(
            N_("the search tree needs the kernel, which is not here"), code="play.no_kernel"
        )
    tree = level_tree(game, parse_seed(data.get("seed", 0)))
    start = time.perf_counter()
    tree.run(iterations)
    ms = (time.perf_counter() - start) * 1000.0
    build = "webassembly" if isinstance(native.kernel(), Kernel) else "c"
    return {"iterations": tree.iterations, "ms": ms, "build": build}


OPERATIONS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "start": start,
    "state": state,
    "play": play,
    "computer": computer,
    "next": next_deal,
    "coach": coach,
    "engine": engine,
    "speed": speed,
}
