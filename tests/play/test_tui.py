"""``scopa play`` driven through its key presses (Textual's pilot), and the game it stores."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from scopa import i18n, words
from scopa.application.game_record import GameRecorder
from scopa.application.matches import MatchService
from scopa.engine.ai.coach import Advice
from scopa.engine.game import AGAINST_THE_COMPUTER, Game
from scopa.engine.state import Play
from scopa.play.tui import PlayApp
from scopa.store import MatchStore, database_url
from tests.engine.helpers import mask

QUICK = "1it/20"
"""A computer that thinks little, so a whole match takes seconds."""


def test_the_computer_plays_even_when_its_move_is_due_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a busy machine the computer's move can start later than its pause. Textual's
    one-shot timer then skipped its only tick, and the game waited for ever on the
    computer's turn (a hang of the whole-match test below, one run in nine with the cores
    busy). Here Textual's clock moves 2 ms every time it is read, so a timer of its own
    that is due in less than that is always late."""
    ticks = itertools.count()
    monkeypatch.setattr("textual._time.get_time", lambda: next(ticks) * 0.002)
    game = Game("scopa", 2, QUICK, seed=11)
    app = PlayApp(game, pause=0)

    async def drive() -> int:
        moves = 0
        async with app.run_test() as pilot:
            for _ in range(1000):  # a bound for a broken product: a move takes a few
                if game.your_turn:
                    moves += 1
                    if moves == 4:
                        break
                    await pilot.press("1")
                elif game.deal_over:
                    break
                await pilot.pause(0.01)
            await pilot.press("q")
        return moves

    assert asyncio.run(drive()) == 4  # the computer played after each of our three plays


def test_a_whole_match_by_keys_is_stored(tmp_path: Path) -> None:
    store = MatchStore.open(database_url(str(tmp_path / "play.db")))
    recorder = GameRecorder(MatchService(store))
    game = Game("scopa", 2, QUICK, seed=11)
    app = PlayApp(game, recorder, pause=0)

    async def drive() -> None:
        async with app.run_test() as pilot:
            presses = 0
            while not game.over and presses < 2000:
                if game.your_turn:
                    await pilot.press("1")
                    presses += 1
                elif game.deal_over:
                    await pilot.press("enter")
                    presses += 1
                else:
                    # the computer's turn: its timer plays; an app that stopped (an error in
                    # a handler ends it) would leave this loop waiting for ever
                    assert app.is_running, f"the game stopped mid-deal ({app.return_code})"
                    await pilot.pause(0.01)
            assert game.over
            await pilot.press("q")

    asyncio.run(drive())
    assert recorder.match_id is not None
    stored = MatchService(store).get(match_id=recorder.match_id)
    assert stored.match.name is not None
    assert stored.match.name.startswith(AGAINST_THE_COMPUTER)
    assert stored.match.deals == game.match.deals
    assert len(stored.match.deals) >= 2
    assert stored.sheet.winner == game.sheet.winner
    assert stored.sheet.totals == game.sheet.totals
    assert max(stored.sheet.totals) >= 11
    store.close()


def test_choosing_among_captures() -> None:
    """A card that can take two ways asks which; Escape goes back; a number chooses."""
    game = Game("scopa", 2, QUICK, seed=3)
    start = game.state
    hand = mask("7d 2c Kb")
    table = mask("3c 4c 2s 5b")
    taken = start.piles[0] | start.piles[1]
    rest = [c for c in range(40) if not (hand | table | mask("4s 5s 6s")) >> c & 1]
    game.state = replace(
        start,
        hands=(hand, mask("4s 5s 6s")),
        table=table,
        stock=tuple(rest[:24]),
        piles=(0, sum(1 << c for c in rest[24:])),
        turn=0,
    )
    assert taken == 0
    app = PlayApp(game, pause=0)

    async def drive() -> None:
        async with app.run_test() as pilot:
            await pilot.press("1")  # 7d: takes 2s and 5b, or 3c and 4c
            assert [str(p) for p in app.choosing] == ["7d x 2s 5b", "7d x 3c 4c"]
            prompt = str(app.query_one("#prompt").render())
            assert "Which capture?" in prompt
            await pilot.press("escape")
            assert app.choosing == ()
            await pilot.press("1", "2")
            assert game.moves[0].play == Play.parse("7d x 3c 4c")
            await pilot.press("h")

    asyncio.run(drive())


def test_play_command_refuses_a_bad_level(capsys: pytest.CaptureFixture[str]) -> None:
    from scopa.cli import main

    assert main(["play", "--level", "hard"]) == 2
    assert "ai level 'hard'" in capsys.readouterr().err


def log_text(app: PlayApp) -> str:
    from textual.widgets import RichLog

    lines = app.query_one("#log", RichLog).lines
    # the log's lines wrap where the terminal does: the words, one space between
    return " ".join("".join(segment.text for segment in line) for line in lines).replace("  ", " ")


def hint_line(label: str, advice: Advice) -> str:
    """The hint's sentence for ``advice`` as the log shows it (in English): the card played
    by its name, every card it takes with what that brings at once (a scopa, the
    settebello, the coins and the cards), and the points it is expected to bring."""
    play = advice.play
    card = words.card_name(str(play.card))
    if play.capture:
        taken = " and ".join(words.card_name(str(c)) for c in play.capture)
        takes = advice.takes
        brings = [
            *(["a scopa"] if takes.sweep else []),
            *(["the settebello"] if takes.settebello else []),
            *([f"{takes.coins} coin" + "s" * (takes.coins > 1)] if takes.coins else []),
            f"{takes.cards} cards",
        ]
        assert takes.cards == len(play.capture) + 1
        what = f"{card}: takes {taken} — {', '.join(brings)}"
    else:
        what = f"{card}: lay it on the table"
    way = "ahead" if advice.expected >= 0 else "behind"
    return f"{label}{what} (about {abs(advice.expected):.1f} points {way} by the deal's end)."


def test_the_hint_names_the_coachs_best_play_and_the_deal_ends_with_a_review() -> None:
    """``h`` on your turn writes the coach's best play and the runner-up with the points each
    is expected to bring; the end of a deal writes the coach's review."""
    game = Game("scopa", 2, QUICK, seed=5)
    app = PlayApp(game, pause=0)

    async def drive() -> None:
        async with app.run_test(size=(240, 60)) as pilot:
            while not game.your_turn:
                await pilot.pause()
            advice = game.advice()
            best, second = advice[0], advice[1]
            assert best.expected >= second.expected
            await pilot.press("h")
            await pilot.pause()
            text = log_text(app)
            assert hint_line("Best: ", best) in text
            assert hint_line("Next best: ", second) in text
            presses = 0
            while not game.deal_over and presses < 200:
                if game.your_turn:
                    await pilot.press("1")
                    presses += 1
                await pilot.pause()
            assert "The coach:" in log_text(app)

    asyncio.run(drive())


def test_every_command_offers_every_variant_in_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    """The help of ``play``, ``simulate`` and ``matches new`` names the variants from the
    registries (``scopa play --help`` left Cirulla out)."""
    from scopa import variants
    from scopa.cli import main
    from scopa.engine.variants import VARIANTS

    for command, names in (
        (["play"], list(VARIANTS)),
        (["simulate"], list(VARIANTS)),
        (["matches", "new"], list(variants.names())),
    ):
        assert main([*command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        for name in names:
            assert name in text, (command, name)


def screen_text(app: PlayApp) -> str:
    return " ".join(
        str(app.query_one(f"#{name}").render()) for name in ("score", "table", "hand", "prompt")
    )


@pytest.mark.parametrize(
    ("language", "said", "english"),
    [
        ("it", ["Le tue carte", "Tocca a te", "In tavola", "Mano 1: dà le carte"], "Your hand"),
        ("es", ["Tu mano", "Te toca", "En la mesa", "Mano 1: reparte"], "Your hand"),
    ],
)
def test_the_terminal_game_speaks_the_language_and_names_the_cards(
    language: str, said: list[str], english: str
) -> None:
    """In Italian the cards are named as the table says them (``sette di denari``, ``re di
    coppe``), the seats and the coach speak Italian; the same in Spanish."""
    game = Game("scopa", 2, QUICK, seed=5)
    app = PlayApp(game, pause=0)

    async def drive() -> None:
        async with app.run_test(size=(240, 60)) as pilot:
            while not game.your_turn:
                await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            shown = " ".join((screen_text(app) + " " + log_text(app)).split())
            for text in said:
                assert text in shown
            assert english not in shown
            assert not any(sign in shown for sign in "♦♥♠♣")
            for card in game.hand:
                assert words.card_name(card) in shown
            presses = 0
            while not game.deal_over and presses < 200:
                if game.your_turn:
                    await pilot.press("1")
                    presses += 1
                await pilot.pause()
            review = " ".join(log_text(app).split())
            assert ("L'allenatore:" if language == "it" else "El entrenador:") in review
            assert ("Fine della mano 1" if language == "it" else "Fin de la mano 1") in review

    with i18n.using(language):
        asyncio.run(drive())
        names = [words.card_name(c) for c in game.hand] if game.hand else []
    assert all(" di " in n or " de " in n for n in names)


def test_a_french_suited_deck_shows_signs() -> None:
    game = Game("scopa", 2, QUICK, seed=5)
    app = PlayApp(game, pause=0, deck=words.FRENCH)

    async def drive() -> None:
        async with app.run_test(size=(240, 60)) as pilot:
            while not game.your_turn:
                await pilot.pause()
            hand = str(app.query_one("#hand").render())
            assert any(sign in hand for sign in "♦♥♠♣")
            assert " of " not in hand

    asyncio.run(drive())
