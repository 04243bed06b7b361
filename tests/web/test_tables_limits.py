"""Issue 27's leftovers: the tables' limits per group as settings, and wrong tables' codes
counted per address (an IPv6 address by its /64) like the join codes, on both databases."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from tests.web.tables_helpers import Clock, create, table_app

SCOPA = str(Path(sys.executable).parent / "scopa")


def from_address(app: Any) -> Any:
    """The app, each request coming from the address its ``X-Test-Client`` header names."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            named = dict(scope["headers"]).get(b"x-test-client")
            if named:
                scope = {**scope, "client": (named.decode(), 50000)}
        await app(scope, receive, send)

    return wrapped


def test_wrong_table_codes_from_one_address_answer_429_with_retry_after(
    store: MatchStore,
) -> None:
    app = table_app(create_app(store), Clock())
    home, neighbour, other = (
        {"X-Test-Client": address}
        for address in ("2001:db8:1:2::5", "2001:db8:1:2::99", "2001:db8:9:9::1")
    )
    with TestClient(from_address(app), base_url="http://localhost") as client:
        table = create(client, names=["Anna"])
        path = f"/api/tables/{table['table']}"
        wrong: list[Callable[[], Any]] = [
            lambda: client.post(f"{path}/seats", json={"code": "W1", "name": "B"}, headers=home),
            lambda: client.get(path, params={"code": "WRONG2"}, headers=home),
            lambda: client.get("/t/WRONG3", headers=home),
            lambda: client.post("/t/WRONG4", data={"name": "B"}, headers=home),
        ]
        for attempt in wrong:
            assert attempt().status_code in (401, 404)
        right = client.get(path, params={"code": table["code"]}, headers=home)
        assert right.status_code == 200  # a right code is forgiven
        # The /64's other addresses are the same guesser.
        tv = client.get(
            f"/tables/{table['table']}/tv", params={"code": "WRONG5"}, headers=neighbour
        )
        assert tv.status_code == 404
        blocked = client.post(
            f"{path}/seats",
            json={"code": table["code"], "name": "Bruno"},
            headers={**neighbour, "Accept-Language": "it"},
        )
        assert blocked.status_code == 429
        assert int(blocked.headers["retry-after"]) >= 1
        body = blocked.json()
        assert body["where"] == "code"
        assert body["code"] == "table.too_many_codes"
        assert "troppi codici" in body["error"]
        page = client.get(f"/t/{table['code']}", headers=home)
        assert page.status_code == 429
        assert page.headers["retry-after"]
        assert "too many wrong table codes" in page.text
        events = client.get(f"{path}/events", params={"code": "X"}, headers=home)
        assert events.status_code == 429
        tv = client.get(
            f"/tables/{table['table']}/tv", params={"code": table["code"]}, headers=home
        )
        assert tv.status_code == 429
        # Another network is not held back, and nothing was seated meanwhile.
        seat = client.post(
            f"{path}/seats", json={"code": table["code"], "name": "Bruno"}, headers=other
        )
        assert seat.status_code == 201, seat.text
        assert seat.json()["seat"] == 1


def test_the_tables_limits_are_settings(store: MatchStore) -> None:
    app = table_app(create_app(store, WebSettings(max_tables=2, max_seats=3)), Clock())
    with TestClient(app) as client:
        create(client, names=["Anna"])  # two people's seats
        seats = client.post("/api/tables", json={"players": 2})
        assert seats.status_code == 403
        assert seats.json()["where"] == "quota.seats"
        assert seats.json()["error"] == "seats in play at once: at most 3"
        create(client, players=2, computer={"1": "easy"})  # one more person: 3 seats
        tables = client.post("/api/tables", json={"players": 2, "computer": {"1": "easy"}})
        assert tables.status_code == 403
        assert tables.json()["where"] == "quota.tables"
        it = client.post(
            "/api/tables",
            json={"players": 2, "computer": {"1": "easy"}},
            headers={"Accept-Language": "es"},
        )
        assert it.json()["error"] != tables.json()["error"]  # in the reader's language
        assert tables.json()["error"] == "tables in play at once: at most 2"
        italian = client.post(
            "/api/tables",
            json={"players": 2, "computer": {"1": "easy"}},
            headers={"Accept-Language": "it"},
        )
        assert italian.json()["error"] == "tavoli in gioco insieme: al massimo 2"


def test_the_limits_settings_are_checked() -> None:
    assert WebSettings.from_env({"SCOPA_MAX_TABLES": "7"}).max_tables == 7
    assert WebSettings.from_env({}, max_seats=9).max_seats == 9
    assert (WebSettings().max_tables, WebSettings().max_seats) == (50, 150)
    for environ in ({"SCOPA_MAX_TABLES": "lots"}, {"SCOPA_MAX_SEATS": "²"}):
        with pytest.raises(ValueError, match="SCOPA_MAX_"):
            WebSettings.from_env(environ)
    for bad in (0, 100_001, True):
        with pytest.raises(ValueError, match="max_tables"):
            WebSettings(max_tables=bad)


@pytest.mark.parametrize(
    ("args", "environ", "said"),
    [
        (["--max-tables", "0"], {}, "--max-tables"),
        ([], {"SCOPA_MAX_SEATS": "many"}, "SCOPA_MAX_SEATS: 'many' is not a whole number"),
    ],
)
def test_serve_refuses_a_bad_limit(
    tmp_path: Path, args: list[str], environ: dict[str, str], said: str
) -> None:
    done = subprocess.run(
        [SCOPA, "serve", "--port", "1", "--db", str(tmp_path / "x.db"), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **environ},
        timeout=240,
        check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert said in done.stderr


def test_a_groups_own_table_limits_over_the_servers(store: MatchStore) -> None:
    """Issue 27: a hosted group's own limits on tables and seats are used instead of the
    server's; without one, the server's; changed, at once."""
    from tests.web.hosted_helpers import join as join_group

    settings = WebSettings(hosted=True, max_tables=3, max_seats=20)
    app = table_app(create_app(store, settings), Clock())
    body = {"players": 2, "computer": {"1": "easy"}}
    with TestClient(app) as client:
        small = join_group(client, store, "Small")
        seats = join_group(client, store, "Seats")
        plain = join_group(client, store, "Plain")
        store.groups.set_settings(small.group, {"max_tables": 1})
        store.groups.set_settings(seats.group, {"max_seats": 1})

        def made(member: Any, **more: Any) -> Any:
            return client.post("/api/tables", json={**body, **more}, headers=member.auth)

        assert made(small).status_code == 201
        refused = made(small, players=4, computer={"1": "easy", "2": "easy", "3": "easy"})
        assert refused.status_code == 403
        assert refused.json()["where"] == "quota.tables"
        assert refused.json()["error"] == "tables in play at once: at most 1"
        assert made(seats).status_code == 201
        over = made(seats, players=2, computer={})
        assert (over.status_code, over.json()["where"]) == (403, "quota.seats")
        assert over.json()["error"] == "seats in play at once: at most 1"
        assert [made(plain).status_code for _ in range(4)] == [201, 201, 201, 403]
        store.groups.set_settings(small.group, {"max_tables": None})  # the server's again
        assert made(small).status_code == 201
