"""The game against the computer, without a screen."""

from __future__ import annotations

import pytest

from scopa.engine.game import Game
from scopa.engine.state import Play
from scopa.errors import IllegalPlayError


def test_a_scopone_deal_with_a_partner() -> None:
    game = Game("scopone", level="1it/20", seed=5)
    assert game.names == ("You", "Computer 1", "Partner", "Computer 2")
    assert game.match.settings.partnerships
    assert game.state.dealer == 3
    while not game.deal_over:
        if game.your_turn:
            with pytest.raises(IllegalPlayError, match="not the computer's turn"):
                game.computer_plays()
            game.play(game.options_all()[-1])
        else:
            with pytest.raises(IllegalPlayError, match="not your turn"):
                game.play(Play.parse("7d"))
            game.computer_plays()
    assert len(game.moves) == 36
    record = game.finish_deal()
    assert record.owners == game.names
    assert game.sheet.sides == ("You & Partner", "Computer 1 & Computer 2")
    assert sum(game.sheet.totals) >= 2
    game.next_deal()
    assert game.state.dealer == 0
    assert game.moves == []


def test_moves_say_what_happened() -> None:
    game = Game("scopa", 2, level="1it/20", seed=2)
    while game.your_turn is False:
        game.computer_plays()
    move = game.play(game.options_all()[0])
    text = move.describe()
    assert text.startswith(f"You play {move.play.card}")
    assert ("take" in text) == bool(move.play.capture)
