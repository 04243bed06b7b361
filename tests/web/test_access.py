"""Access codes for `scopa serve --lan`: without a code, a device gets only the join page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.store.access import hash_code, normalise_code
from scopa.web.access import COOKIE, AccessMiddleware


@pytest.fixture
def store(sqlite_url: str) -> Iterator[MatchStore]:
    opened = MatchStore.open(sqlite_url)
    yield opened
    opened.close()


def inner_app() -> FastAPI:
    app = FastAPI()

    @app.get("/")
    def home() -> PlainTextResponse:
        return PlainTextResponse("the sheet")

    @app.get("/matches/1")
    def sheet() -> PlainTextResponse:
        return PlainTextResponse("match 1")

    @app.get("/api/matches")
    def api() -> JSONResponse:
        return JSONResponse([])

    @app.get("/static/style.css")
    def css() -> PlainTextResponse:
        return PlainTextResponse("body{}")

    return app


def client(store: MatchStore, host: str = "192.168.1.23") -> TestClient:
    app: Any = AccessMiddleware(inner_app(), store)
    return TestClient(app, client=(host, 50000), follow_redirects=False)


def test_without_code_only_the_join_page(store: MatchStore) -> None:
    store.new_access_code()
    phone = client(store)
    answer = phone.get("/matches/1")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/join?next=%2Fmatches%2F1"
    join = phone.get("/join")
    assert join.status_code == 200
    assert "Access code" in join.text
    assert join.text.startswith("<!doctype html>")
    api = phone.get("/api/matches")
    assert api.status_code == 401
    assert api.json() == {"error": "an access code is needed: open /join", "where": "access"}
    assert phone.post("/api/matches", json={}).status_code == 401
    assert phone.get("/static/style.css").status_code == 200


def test_join_link_sets_cookie_and_lets_in(store: MatchStore) -> None:
    code, _ = store.new_access_code("kitchen")
    phone = client(store)
    answer = phone.get(f"/join?code={code}&next=/matches/1")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/matches/1"
    assert f"{COOKIE}={normalise_code(code)}" in answer.headers["set-cookie"]
    assert "HttpOnly" in answer.headers["set-cookie"]
    assert phone.get("/matches/1").text == "match 1"
    assert phone.get("/api/matches").json() == []


def test_typed_code_any_case_and_spacing(store: MatchStore) -> None:
    code, _ = store.new_access_code()
    phone = client(store)
    typed = code.lower().replace("-", " ")
    answer = phone.post("/join", data={"code": typed, "next": "/"})
    assert answer.status_code == 303
    assert phone.get("/").text == "the sheet"


def test_wrong_code_and_open_redirects_refused(store: MatchStore) -> None:
    store.new_access_code()
    phone = client(store)
    answer = phone.post("/join", data={"code": "WRONG-CODE"})
    assert answer.status_code == 403
    assert "not valid" in answer.text
    assert phone.get("/").status_code == 303
    code, _ = store.new_access_code()
    answer = phone.get(f"/join?code={code}&next=//evil.example/")
    assert answer.headers["location"] == "/"


def test_revoked_code_stops_working(store: MatchStore) -> None:
    code, record = store.new_access_code()
    phone = client(store)
    phone.get(f"/join?code={code}")
    assert phone.get("/").status_code == 200
    revoked = store.revoke_access_code(code)
    assert [r.id for r in revoked] == [record.id]
    assert phone.get("/").status_code == 303
    assert store.access_codes()[0].active is False


def test_revoke_all_and_by_id(store: MatchStore) -> None:
    first_code, first = store.new_access_code()
    store.new_access_code()
    assert [r.id for r in store.revoke_access_code(str(first.id))] == [first.id]
    assert not store.check_access_code(first_code)
    assert len(store.revoke_access_code("all")) == 1
    assert all(not c.active for c in store.access_codes())


def test_loopback_needs_no_code(store: MatchStore) -> None:
    assert client(store, host="127.0.0.1").get("/").text == "the sheet"
    assert client(store, host="::1").get("/").text == "the sheet"


def test_code_is_stored_only_as_hash(store: MatchStore) -> None:
    code, _ = store.new_access_code()
    with store.engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT code_hash, hint FROM access_codes").all()
    assert rows[0][0] == hash_code(code)
    assert normalise_code(code) not in str(rows)
