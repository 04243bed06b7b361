"""``scopa play``: a match against the computer in the terminal, stored like any other.

The game is stored in the same database as the sheet (``--db``, else ``$SCOPA_DATABASE_URL``,
else the user's data folder) when its first deal ends, then deal by deal, named "Against the
computer (...)"; ``scopa matches list`` and the web sheet show it.
"""

from __future__ import annotations

from typing import Annotated

import typer

from scopa.cli_common import UserError
from scopa.cli_store import DbOption, service_on
from scopa.engine.ai import parse_level
from scopa.i18n import N_, _
from scopa.words import DECKS, ITALIAN, shown_name, use_deck


def play_command(
    variant: Annotated[
        str, typer.Option("--variant", help="The variant: {engine_variants}.")
    ] = "scopa",
    players: Annotated[
        int | None,
        typer.Option("--players", help="2, 3, 4 or 6 (default: the variant's first)."),
    ] = None,
    level: Annotated[
        str,
        typer.Option(
            "--level", help="easy, normal or strong (or a thinking time per move: 500ms)."
        ),
    ] = "normal",
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the shuffles.")] = None,
    deck: Annotated[
        str,
        typer.Option(
            "--deck",
            help="How cards show: italian (named: 7 of coins, sette di denari) or french "
            "(7♦, J Q K).",
        ),
    ] = ITALIAN,
    db: DbOption = None,
) -> None:
    """Play a match against the computer (keys: 1-9 play a card, h hint, Enter next deal,
    q quit)."""
    from scopa.application.game_record import GameRecorder
    from scopa.engine.game import Game
    from scopa.play.tui import PlayApp

    parse_level(level)
    if deck not in DECKS:
        raise UserError(
            N_("--deck {deck!r}: expected italian or french"), code="usage.deck", deck=deck
        )
    use_deck(deck)  # the coach's and the table's sentences name the cards that way too
    game = Game(variant, players, level, seed)
    with service_on(db) as service:
        recorder = GameRecorder(service)
        PlayApp(game, recorder, deck=deck).run()
    if recorder.match_id is not None:
        said = _("Stored as match {id}: {name}")
        typer.echo(
            said.format(
                id=recorder.match_id, name=shown_name(game.match.name or "", game.match.made)
            )
        )


def register(app: typer.Typer) -> None:
    """Add ``play`` to the ``scopa`` app."""
    app.command("play")(play_command)
