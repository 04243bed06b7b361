"""A game against the computer as the Play page's script reads it (JSON).

Only what seat 0 (you) may see: your hand, the table, how many cards each seat holds, the
cards Cirulla's declarations showed, every play so far, the piles' sizes, and the sheet.
"""

from __future__ import annotations

from typing import Any

from scopa import i18n, variants, words
from scopa.cards import CardSet
from scopa.engine.game import Game, Move
from scopa.i18n import _
from scopa.match import Match
from scopa.variants import deal_points
from scopa.words import side_name

SUIT_NAMES = {"d": "coins", "c": "cups", "s": "swords", "b": "clubs"}
RANK_NAMES = {
    "A": "ace",
    "J": "jack",
    "H": "horse",
    "K": "king",
}


def card_name(card: str) -> str:
    """What a card is called aloud.

    >>> card_name("7d"), card_name("Hb")
    ('7 of coins', 'horse of clubs')
    """
    return f"{RANK_NAMES.get(card[:-1], card[:-1])} of {SUIT_NAMES[card[-1]]}"


def cards(mask: CardSet) -> list[str]:
    return mask.to_list()


def move_to_json(move: Move, match: Match) -> dict[str, Any]:
    return {
        "seat": move.seat,
        "name": side_name(move.name, match),
        "card": str(move.play.card),
        "capture": cards(move.play.capture),
        "sweep": move.sweep,
        "text": describe(move, match),
    }


def describe(move: Move, match: Match) -> str:
    """``Computer plays the 7 of coins and takes the 3 of cups and the 4 of swords: sweep!``"""
    you = move.seat == 0
    if i18n.language() != "en":
        card = words.card_name(str(move.play.card))
        taken_ = [words.card_name(c) for c in cards(move.play.capture)]
        if taken_:
            said = (
                _("{name} play {card} and take {cards}")
                if you
                else _("{name} plays {card} and takes {cards}")
            )
        else:
            said = _("{name} play {card}") if you else _("{name} plays {card}")
        text = said.format(name=side_name(move.name, match), card=card, cards=", ".join(taken_))
        return text + (" " + _("— scopa!") if move.sweep else "")
    named = words.card_name  # "7 of coins", or "7 of diamonds" in French suits
    text = f"{move.name} {'play' if you else 'plays'} the {named(str(move.play.card))}"
    taken = [f"the {named(c)}" for c in cards(move.play.capture)]
    if taken:
        listed = taken[0] if len(taken) == 1 else ", ".join(taken[:-1]) + " and " + taken[-1]
        text += f" and {'take' if you else 'takes'} {listed}"
    return text + (": sweep!" if move.sweep else "")


def table_json(
    game: Game, ident: int | None, match_id: int | None, made: tuple[Move, ...]
) -> dict[str, Any]:
    """The table as the page draws it, for a game on the server (``ident``) or on the
    device (``None``). ``replay`` is what the device needs to go on with the game when the
    server cannot be reached: the seed (so the cards still hidden) and every play so far."""
    state = game.state
    sheet = game.sheet
    settings = game.match.settings
    shown = CardSet(state.shown)
    seats = [
        {
            "name": side_name(name, game.match),
            "cards": state.hands[seat].bit_count(),
            "taken": state.piles[seat].bit_count(),
            "sweeps": state.sweeps[seat],
            "shown": cards(CardSet(state.hands[seat]) & shown) if seat else [],
        }
        for seat, name in enumerate(game.names)
    ]
    last_row = sheet.deals[-1] if sheet.deals and game.deal_over else None
    points = deal_points(variants.get(settings.variant), last_row.points) if last_row else None
    your_turn = game.your_turn
    return {
        "id": ident,
        "step": game.step,
        "variant": settings.variant,
        "title": variants.get(settings.variant).title,
        "level": game.level,
        "names": list(game.names),
        "deal": len(game.log),
        "dealer": state.dealer,
        "turn": None if state.finished else state.turn,
        "your_turn": your_turn,
        "deal_over": game.deal_over,
        "match_over": game.over,
        "hand": cards(game.hand),
        "table": cards(state.table_cards),
        "stock": len(state.stock),
        "seats": seats,
        "moves": [move_to_json(m, game.match) for m in game.moves],
        "made": [move_to_json(m, game.match) for m in made],
        "legal": [{"card": str(p.card), "capture": cards(p.capture)} for p in game.options_all()]
        if your_turn
        else [],
        "leftovers": (
            {
                "name": side_name(game.names[state.leftovers_to], game.match),
                "cards": cards(game.leftovers),
            }
            if game.deal_over and state.leftovers_to is not None
            else None
        ),
        "score": {
            "sides": [side_name(side, game.match) for side in sheet.sides],
            "totals": list(sheet.totals),
            "target": settings.target,
            "winner": None if sheet.winner is None else side_name(sheet.winner, game.match),
            # the variant's own keys and words for the deal's points (play.js draws them)
            "last": points["points"] if points else None,
            "keys": points["keys"] if points else [],
            "labels": points["labels"] if points else {},
        },
        "match_id": match_id,
        "sheet": f"/matches/{match_id}" if match_id else None,
        "replay": {
            "variant": settings.variant,
            "players": game.players,
            "level": game.level,
            "seed": None if game.seed is None else str(game.seed),  # exact in JavaScript
            "log": [[list(pair) for pair in plays] for plays in game.log],
        },
    }
