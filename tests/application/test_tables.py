"""Tables run on the in-memory store (:class:`tests.application.memory.MemoryTables` beside
:class:`~tests.application.memory.MemoryMatches`), as the games and the seeds do: the use
cases hold without a database."""

from __future__ import annotations

import pytest

from scopa.application import MatchService
from scopa.application.tables import GAMES, SeatRefusedError, TableFullError, Tables
from scopa.errors import QuotaExceededError, VersionConflictError
from scopa.i18n import using
from scopa.made_names import TABLE
from tests.application.memory import MemoryMatches, MemoryTables


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def tables(clock: Clock) -> Tables:
    GAMES.clear()  # the process's games are keyed by table id: these ids start at 1 again
    return Tables(MemoryTables(), MatchService(MemoryMatches()), clock, seeds=lambda: 7)


def test_a_table_is_played_against_the_computer_and_its_deal_reaches_the_sheet(
    tables: Tables, clock: Clock
) -> None:
    made = tables.create({"players": 2, "names": ["Anna"], "computer": {"1": "easy"}})
    table = made.record.id
    first = made.view()
    assert first["you"] == 0
    assert first["seats"][0]["name"] == "Anna"
    for _ in range(60):  # a deal of 2 players is 36 plays
        clock.now += 1
        view = tables.view(table, 0).view()
        if view["status"] != "playing":
            break
        if view["turn"] == 0:
            legal = view["legal"][0]
            body = {"step": view["step"], "card": legal["card"], "capture": legal["captures"][0]}
            tables.play(table, 0, body)
        else:
            assert tables.run_due() == 1
    else:
        pytest.fail("the deal never ended")
    assert view["status"] in {"deal_over", "match_over"}
    tables.next_deal(table, 0, {"step": view["step"]})
    sheet = tables.matches.get(match_id=view["match"])
    assert len(sheet.match.deals) == 1
    assert sheet.match.made is not None
    assert sheet.match.made.kind == TABLE
    with using("it"):
        assert sheet.title.startswith("Tavolo ")


def test_seats_codes_steps_and_limits_hold_on_the_memory_store(
    tables: Tables, clock: Clock
) -> None:
    made = tables.create({"players": 2, "names": ["Anna"]})
    table = made.record.id
    with pytest.raises(SeatRefusedError):
        tables.join(table, "WRONG", "Bruno")
    bruno = tables.join_by_code(made.record.code, "Bruno")
    assert bruno.seat == 1
    assert tables.view(table, 1).view()["seats"][1]["name"] == "Bruno"
    with pytest.raises(TableFullError):
        tables.join(table, made.record.code, "Carla")
    view = tables.view(table, 0).view()
    mover = view["turn"]
    legal = tables.view(table, mover).view()["legal"][0]
    stale = {"step": view["step"] + 1, "card": legal["card"], "capture": legal["captures"][0]}
    with pytest.raises(VersionConflictError):
        tables.play(table, mover, stale)
    tables.play(table, mover, {**stale, "step": view["step"]})
    assert tables.view(table, 0).view()["step"] == view["step"] + 1
    full = Tables(tables.tables, tables.matches, clock, limits=(1, 10))
    with pytest.raises(QuotaExceededError):
        full.create({"players": 2})
