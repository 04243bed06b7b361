"""Playing a match again from its log: the game against the computer and the table share one
loop (:func:`scopa.engine.game.replay_log`), so they take a log and refuse a bad one alike."""

from __future__ import annotations

from typing import Any

import pytest

from scopa.application.tables import TableGame
from scopa.engine.game import Game, replay_log
from scopa.engine.state import legal_plays
from scopa.errors import IllegalPlayError
from scopa.store.records import SeatRecord, TableRecord

NOT_OVER = "deal 1 is not over but deal 2 has plays"


def table(log: list[list[list[Any]]]) -> TableRecord:
    seats = (SeatRecord(0, "Anna", "human"), SeatRecord(1, "Bruno", "human"))
    return TableRecord(
        id=1,
        code="ABCDEFGH",
        variant="scopa",
        players=2,
        rules={},
        level="normal",
        grace=30,
        seed=11,
        log=log,
        step=0,
        version=1,
        status="playing",
        match_id=None,
        moved_at=0.0,
        seats=seats,
    )


def test_the_loop_hands_out_each_play_with_its_deal_and_starts_each_next_deal() -> None:
    started: list[int] = []
    plays = replay_log([["a"], ["b", "c"], []], lambda: True, lambda: started.append(1))
    assert list(plays) == [(0, "a"), (1, "b"), (1, "c")]
    assert len(started) == 2
    with pytest.raises(IllegalPlayError, match=NOT_OVER):
        list(replay_log([["a"], ["b"]], lambda: False, lambda: None))


def test_a_table_plays_its_whole_first_deal_again_then_the_next() -> None:
    game = TableGame(table([[]]))
    first: list[list[Any]] = []
    while not game.state.finished:
        play = legal_plays(game.state)[0]
        game.make(play, "Anna")
        first.append([*play.pair, "Anna"])
    after = TableGame(table([first, []]))
    assert after.state.finished is False
    assert len(after.match.deals) == 1
    assert after.sheet == game.sheet
    opening = legal_plays(after.state)[0]
    again = TableGame(table([first, [[*opening.pair, "Bruno"]]]))
    assert len(again.match.deals) == 1
    assert [(move.play, move.by) for move in again.moves] == [(opening, "Bruno")]


def test_a_play_in_the_next_deal_before_the_last_is_over_is_refused_alike() -> None:
    game = Game("scopa", 2, "easy", seed=3)
    while not game.your_turn:
        game.computer_plays()
    game.play(game.options_all()[0])
    log = [list(plays) for plays in game.log]
    with pytest.raises(IllegalPlayError, match=NOT_OVER):
        Game.replay("scopa", 2, "easy", 3, [*log, log[0][:1]])

    opening = legal_plays(TableGame(table([[]])).state)[0]
    with pytest.raises(IllegalPlayError, match=NOT_OVER):
        TableGame(table([[[*opening.pair, "Anna"]], [[*opening.pair, "Bruno"]]]))
