"""The background player never runs in a request's context: when the first table request a
server process gets carries an ``Idempotency-Key``, the request's keyed transaction (a
context variable) must not follow the player into its task, or on SQLite the request
answers 500 and on PostgreSQL the computer never moves again (issue 47)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import create_app
from tests.waiting import until
from tests.web.tables_helpers import Clock, bearer, first_play, view


def test_a_keyed_first_request_does_not_stall_the_computer(store: MatchStore) -> None:
    clock = Clock()
    app = create_app(store)
    app.state.table_clock = clock
    app.state.table_pause = 0.0  # the background player runs (run_computer stays on)
    with TestClient(app) as client:
        created = client.post(
            "/api/tables",
            json={"players": 2, "names": ["Anna"], "computer": {"1": "easy"}},
            headers={"Idempotency-Key": "first-table-1"},
        )
        assert created.status_code == 201, created.text
        table = created.json()
        token, path = table["token"], f"/api/tables/{table['table']}"
        again = client.post(
            "/api/tables",
            json={"players": 2, "names": ["Anna"], "computer": {"1": "easy"}},
            headers={"Idempotency-Key": "first-table-1"},
        )
        assert again.status_code == 201, again.text
        assert again.json()["table"] == table["table"]  # the kept answer, no second table
        seen = view(client, table["table"], token)
        if seen["turn"] == 0:
            played = client.post(f"{path}/plays", json=first_play(seen), headers=bearer(token))
            assert played.status_code == 200, played.text
            seen = played.json()
        step = seen["step"]
        latest: dict[str, Any] = seen

        def computer_moved() -> bool:
            nonlocal latest
            latest = view(client, table["table"], token)
            return bool(latest["step"] > step and latest["turn"] == 0)

        until(computer_moved, "the computer's play in the background")
        assert latest["plays"][-1]["seat"] == 1
        assert latest["plays"][-1]["by"] == "seat"  # the computer's own seat
