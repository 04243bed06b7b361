"""Tables over a real server: ``scopa serve --workers 2`` on SQLite and PostgreSQL. Two seats
whose streams are held by different processes play a whole deal with a computer seat; each
play reaches the other seats' streams, whichever process made it (the computer's included),
every event carries only what its seat may know, and the deal lands on the sheet. A stream
that drops resumes from ``Last-Event-ID``."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

import pytest

from scopa.application.tables import TableGame, hidden_cards
from scopa.store import MatchStore
from scopa.store.tables import SqlTables
from tests.conftest import BACKENDS, fresh_postgres_database
from tests.web.sse import Event, EventReader
from tests.web.tables_helpers import cards_named
from tests.web.workers import Serve

pytestmark = [
    pytest.mark.slow,
    pytest.mark.system,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)"),
]


@pytest.fixture(scope="module", params=BACKENDS)
def serve(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Serve, str]]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('tables') / 'scopa.db'}"
    else:
        url = fresh_postgres_database(request.getfixturevalue("postgres_admin_url"))
    before = os.environ.get("SCOPA_TABLE_PAUSE")
    os.environ["SCOPA_TABLE_PAUSE"] = "0"
    try:
        running = Serve(url, 2)
    finally:
        if before is None:
            os.environ.pop("SCOPA_TABLE_PAUSE", None)
        else:
            os.environ["SCOPA_TABLE_PAUSE"] = before
    try:
        yield running, url
    finally:
        output = running.stop()
        assert "Traceback" not in output, output


def stream_on(serve: Serve, table: int, token: str, pid: int, **headers: str) -> EventReader:
    """A seat's event stream held by worker ``pid``."""
    from tests.web.workers import owner

    url = f"http://127.0.0.1:{serve.port}/api/tables/{table}/events"
    for _ in range(40):
        reader = EventReader(url, {"Authorization": f"Bearer {token}", **headers})
        port = reader._sock.getsockname()[1]
        if owner(port, serve.port, serve.pids) == pid:
            return reader
        reader.close()
    raise AssertionError(f"no stream reached worker {pid}")


class Follow:
    """A seat's stream and the newest event it brought (the events coalesce: each one is the
    seat's whole view as it stands)."""

    def __init__(self, reader: EventReader) -> None:
        self.reader = reader
        self.last: Event | None = None
        self.count = 0

    def at(self, step: int) -> Event:
        """The newest event once the table is at ``step`` or later."""
        while self.last is None or self.last.data["step"] < step:
            self.last = self.reader.next(timeout=60)
            self.count += 1
        return self.last


def test_two_seats_on_two_processes_play_a_deal_with_a_computer_seat(
    serve: tuple[Serve, str],
) -> None:
    server, url = serve
    one, other = server.pids
    first = server.connect(one)
    status, table, _ = first.call(
        "POST",
        "/api/tables",
        {"players": 3, "names": ["Anna"], "computer": {"2": "easy"}, "grace": 600},
    )
    assert status == 201, table
    ident = table["table"]
    status, bruno, _ = server.connect(other).call(
        "POST", f"/api/tables/{ident}/seats", {"code": table["code"], "name": "Bruno"}
    )
    assert status == 201
    tokens = {0: table["token"], 1: bruno["token"]}
    readers = {
        0: stream_on(server, ident, tokens[0], one),
        1: stream_on(server, ident, tokens[1], other),
    }
    store = MatchStore.open(url)
    tables = SqlTables(store.db)
    follows = {seat: Follow(reader) for seat, reader in readers.items()}
    try:
        conns = {0: server.connect(other), 1: server.connect(one)}  # each plays on the other
        auth = {seat: {"Authorization": f"Bearer {token}"} for seat, token in tokens.items()}
        status, seen, _ = conns[0].call("GET", f"/api/tables/{ident}", None, auth[0])
        step = seen["step"]
        while True:
            views = {seat: follow.at(step).data for seat, follow in follows.items()}
            for seat, data in views.items():
                view = data["view"]
                assert view["you"] == seat
                record = tables.load(ident)
                assert record is not None
                if record.step == view["step"]:  # the cards hidden at the view's own step
                    hidden = set(hidden_cards(TableGame(record), seat).to_list())
                    assert not cards_named(json.dumps(data)) & hidden
            latest = max((d["view"] for d in views.values()), key=lambda v: v["step"])
            if latest["status"] != "playing":
                break
            step = latest["step"]
            turn = latest["turn"]
            if turn == 2:  # the computer's: one of the processes plays it
                step += 1
                continue
            status, mine, _ = conns[turn].call("GET", f"/api/tables/{ident}", None, auth[turn])
            if mine["step"] != step:  # the computer moved meanwhile
                step = mine["step"]
                continue
            option = mine["legal"][0]
            body = {"step": step, "card": option["card"], "capture": option["captures"][0]}
            status, after, _ = conns[turn].call(
                "POST", f"/api/tables/{ident}/plays", body, auth[turn]
            )
            assert status == 200, after
            step = after["step"]
        assert latest["status"] == "deal_over"
        assert {p["seat"] for p in latest["plays"]} == {0, 1, 2}
        assert all(p["by"] == "seat" for p in latest["plays"])
        status, match, _ = server.connect(one).call("GET", f"/api/matches/{latest['match']}")
        assert status == 200
        assert len(match["match"]["deals"]) == 1
        assert match["match"]["players"] == ["Anna", "Bruno", "Computer"]
    finally:
        for reader in readers.values():
            reader.close()
        store.close()
    assert sum(follow.count for follow in follows.values()) > 20


def test_a_dropped_stream_resumes_from_last_event_id(serve: tuple[Serve, str]) -> None:
    server, _ = serve
    one, other = server.pids
    conn = server.connect(one)
    status, table, _ = conn.call("POST", "/api/tables", {"players": 2, "names": ["Anna"]})
    assert status == 201
    ident = table["table"]
    status, bruno, _ = conn.call(
        "POST", f"/api/tables/{ident}/seats", {"code": table["code"], "name": "Bruno"}
    )
    auth = {
        0: {"Authorization": f"Bearer {table['token']}"},
        1: {"Authorization": f"Bearer {bruno['token']}"},
    }
    reader = stream_on(server, ident, bruno["token"], one)
    first = reader.next(timeout=60)  # a fresh view at once
    last = first.id
    assert last is not None
    reader.close()  # the phone drops
    _, seen, _ = conn.call("GET", f"/api/tables/{ident}", None, auth[0])
    mover = seen["turn"]
    _, mine, _ = conn.call("GET", f"/api/tables/{ident}", None, auth[mover])
    option = mine["legal"][0]
    body = {"step": mine["step"], "card": option["card"], "capture": option["captures"][0]}
    status, after, _ = conn.call("POST", f"/api/tables/{ident}/plays", body, auth[mover])
    assert status == 200
    again = stream_on(server, ident, bruno["token"], other, **{"Last-Event-ID": last})
    caught_up = again.next(timeout=60)
    assert int(caught_up.id or 0) > int(last)
    assert caught_up.data["view"]["plays"][-1]["card"] == option["card"]
    assert caught_up.data["view"]["step"] == after["step"]
    again.close()
    conn.close()
