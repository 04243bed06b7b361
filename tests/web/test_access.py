"""Access codes for `scopa serve --lan`: without a code, a device gets only the join page."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from scopa import i18n
from scopa.errors import InputError
from scopa.store import MatchStore
from scopa.store.devices import normalise_code
from scopa.store.failures import PURGE_EVERY, StoredFailures
from scopa.store.models import AccessCodeRow, JoinFailureRow, utcnow
from scopa.web.access.lan import COOKIE, AccessMiddleware


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
    assert api.json() == {
        "error": "an access code is needed: open /join",
        "where": "access",
        "code": "access.code_needed",
    }
    assert phone.post("/api/matches", json={}).status_code == 401
    assert phone.get("/static/style.css").status_code == 200


def test_join_link_sets_a_device_token_and_lets_in(store: MatchStore) -> None:
    code, _ = store.new_access_code("kitchen")
    phone = client(store)
    answer = phone.get(f"/join?code={code}&next=/matches/1")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/matches/1"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    token = cookie.split(";")[0].split("=", 1)[1]
    assert len(token) >= 40
    assert normalise_code(code) not in cookie  # the shared code never travels again
    assert "HttpOnly" in cookie
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


def test_revoked_code_lets_no_new_device_in(store: MatchStore) -> None:
    code, record = store.new_access_code()
    phone = client(store)
    phone.get(f"/join?code={code}")
    assert phone.get("/").status_code == 200
    revoked = store.revoke_access_code(code)
    assert [r.id for r in revoked] == [record.id]
    assert store.access_codes()[0].active is False
    late = client(store, host="192.168.1.24")
    assert late.get(f"/join?code={code}").status_code == 403
    assert phone.get("/").status_code == 200  # a device that joined keeps its own token


def test_each_device_revocable_one_by_one(store: MatchStore) -> None:
    code, _ = store.new_access_code()
    phone = client(store, host="192.168.1.30")
    tablet = client(store, host="192.168.1.31")
    phone.get(f"/join?code={code}", headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14)"})
    tablet.get(f"/join?code={code}", headers={"User-Agent": "Mozilla/5.0 (iPad; CPU OS 17)"})
    devices = store.devices()
    assert [d.label for d in devices] == ["iPad at 192.168.1.31", "Android at 192.168.1.30"]
    assert all(d.active and d.last_used_at >= d.created_at for d in devices)
    assert [d.id for d in store.revoke_device(str(devices[1].id))] == [devices[1].id]
    # revoked through the server's own store: refused at once (no cache to outwait)
    assert phone.get("/").status_code == 303
    assert tablet.get("/").status_code == 200
    assert store.revoke_device("nope") == []


def test_revoke_all_and_by_id(store: MatchStore) -> None:
    first_code, first = store.new_access_code()
    second_code, _ = store.new_access_code()
    phone = client(store)
    phone.get(f"/join?code={second_code}")
    assert [r.id for r in store.revoke_access_code(str(first.id))] == [first.id]
    assert not store.check_access_code(first_code)
    assert len(store.revoke_access_code("all")) == 1
    assert all(not c.active for c in store.access_codes())
    assert all(not d.active for d in store.devices())
    assert phone.get("/").status_code == 303


def test_codes_expire(store: MatchStore) -> None:
    code, record = store.new_access_code(hours=1)
    assert record.active
    with store.db.transaction() as session:  # an hour later, without waiting an hour
        session.execute(update(AccessCodeRow).values(expires_at=utcnow() - timedelta(minutes=1)))
    (expired,) = store.access_codes()
    assert expired.expires_at is not None
    assert not expired.active
    with pytest.raises(InputError, match="outside the allowed values"):
        store.new_access_code(hours=-0.01)  # a code born expired is refused
    assert client(store).get(f"/join?code={code}").status_code == 403
    fresh, fresh_record = store.new_access_code()
    assert fresh_record.expires_at is not None
    hours = (fresh_record.expires_at - fresh_record.created_at).total_seconds() / 3600
    assert hours == pytest.approx(12)
    assert client(store).get(f"/join?code={fresh}").status_code == 303


def test_a_new_serve_retires_the_previous_serve_code(store: MatchStore) -> None:
    manual, _ = store.new_access_code("by hand")
    first, _ = store.new_access_code("scopa serve --lan", kind="serve")
    second, _ = store.new_access_code("scopa serve --lan", kind="serve")
    assert not store.check_access_code(first)
    assert store.check_access_code(second)
    assert store.check_access_code(manual)


def test_an_empty_code_is_asked_for_and_not_counted_as_a_guess(store: MatchStore) -> None:
    """Join tapped with nothing typed (a client can send it, the page's field is required):
    the page asks for the code, and however often, the device is not blocked for it."""
    code, _ = store.new_access_code()
    phone = client(store)
    for typed in ("", "   ", "", "", "", "", ""):
        answer = phone.post("/join", data={"code": typed})
        assert answer.status_code == 422
        assert "Type the access code first" in answer.text
    with i18n.using("it"):
        italian = phone.post("/join", data={"code": ""})
    assert italian.status_code == 422
    assert "Scrivi prima il codice di accesso" in italian.text
    assert phone.post("/join", data={"code": code}).status_code == 303


def test_wrong_guesses_limited_per_address_and_logged(
    store: MatchStore, caplog: pytest.LogCaptureFixture
) -> None:
    code, _ = store.new_access_code()
    guesser = client(store, host="192.168.1.66")
    with caplog.at_level(logging.WARNING, logger="scopa.access"):
        for n in range(5):
            assert guesser.post("/join", data={"code": f"AAAA-AAA{n + 2}"}).status_code == 403
        blocked = guesser.post("/join", data={"code": code})
        assert blocked.status_code == 429
        assert int(blocked.headers["retry-after"]) > 0
        assert guesser.get(f"/matches/1?code={code}").status_code == 429
    assert "wrong access code from 192.168.1.66 (5 in the last 60 s)" in caplog.text
    other = client(store, host="192.168.1.67")
    assert other.post("/join", data={"code": code}).status_code == 303


def test_failure_window_passes(store: MatchStore) -> None:
    """Timed by an injected wall clock: with the real one, a window short enough for a test
    could pass between two calls on a loaded machine, and the test failed."""
    clock = [utcnow()]

    def now() -> datetime:
        return clock[0]

    limiter = StoredFailures(store.db.transaction, most=2, window=60, now=now)
    assert limiter.failed("a") == 1
    clock[0] += timedelta(seconds=20)
    assert limiter.failed("a") == 2
    assert limiter.retry_after("a") == 40  # until the first failure leaves the window
    assert limiter.retry_after("b") == 0
    # another process on the same database sees the same failures
    other = StoredFailures(MatchStore(store.engine).db.transaction, 2, 60, now=now)
    assert other.retry_after("a") == 40
    clock[0] += timedelta(seconds=39.5)
    assert limiter.retry_after("a") == 1
    clock[0] += timedelta(seconds=0.5)
    assert limiter.retry_after("a") == 0
    assert limiter.failed("a") == 2  # the first one is out of the window


def test_old_failures_are_purged_with_a_clock_from_zero(store: MatchStore) -> None:
    """The purge timer does not need a large time.monotonic(): with a clock starting at 0
    (a machine just booted), the first failure purges those older than the window, and the
    next purge waits PURGE_EVERY seconds of that clock."""
    with store.db.transaction() as session:
        session.add(JoinFailureRow(address="old", at=utcnow() - timedelta(minutes=5)))
    now = [0.0]
    limiter = StoredFailures(store.db.transaction, clock=lambda: now[0])
    assert limiter.failed("a") == 1
    assert failure_addresses(store) == ["a"]
    with store.db.transaction() as session:
        session.add(JoinFailureRow(address="old", at=utcnow() - timedelta(minutes=5)))
    now[0] += PURGE_EVERY - 1
    limiter.failed("b")
    assert failure_addresses(store) == ["a", "b", "old"]  # not yet
    now[0] += 1
    limiter.failed("c")
    assert failure_addresses(store) == ["a", "b", "c"]


def failure_addresses(store: MatchStore) -> list[str]:
    with store.db.transaction() as session:
        return sorted(session.scalars(select(JoinFailureRow.address)))


def test_loopback_needs_no_code(store: MatchStore) -> None:
    assert client(store, host="127.0.0.1").get("/").text == "the sheet"
    assert client(store, host="::1").get("/").text == "the sheet"


def test_a_stolen_backup_gives_no_way_in(store: MatchStore) -> None:
    code, _ = store.new_access_code()
    phone = client(store)
    phone.get(f"/join?code={code}")
    token = phone.cookies[COOKIE]
    with store.engine.connect() as conn:
        codes = conn.exec_driver_sql("SELECT code_hash, hint FROM access_codes").all()
        devices = conn.exec_driver_sql("SELECT token_hash FROM devices").all()
    stored = str(codes) + str(devices)
    assert normalise_code(code) not in stored
    assert token not in stored
    assert hashlib.sha256(normalise_code(code).encode()).hexdigest() not in stored
    assert codes[0][0].startswith("scrypt$16384$8$1$")
    for value in (codes[0][0], devices[0][0]):  # what the backup holds opens nothing
        thief = client(store, host="203.0.113.9")
        thief.cookies.set(COOKIE, value)
        assert thief.get("/api/matches").status_code == 401
        assert thief.get(f"/join?code={value}").status_code == 403


def test_codes_from_before_are_revoked_by_the_migration(tmp_path: Any) -> None:
    from alembic import command

    from scopa.store import make_engine
    from tests.store.conftest import alembic_on

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    with engine.begin() as connection:
        command.upgrade(alembic_on(connection), "0002")
        weak = hashlib.sha256(b"ABCDEFGH").hexdigest()
        connection.exec_driver_sql(
            "INSERT INTO access_codes (code_hash, hint, label, created_at) "
            f"VALUES ('{weak}', 'AB', '', '2026-11-01 10:00:00')"
        )
    engine.dispose()
    store = MatchStore.open(url)
    try:
        assert not store.check_access_code("ABCD-EFGH")
        assert [c.active for c in store.access_codes()] == [False]
    finally:
        store.close()


@pytest.mark.parametrize(
    "next_path",
    [
        "/%09/evil.example",
        "/%0a/evil.example",
        "/%5Cevil.example",
        "%2F%2Fevil.example",
        "/%0d%0aSet-Cookie:%20x=1",
        "http://evil.example/",
        "/\u00e9",
    ],
)
def test_only_same_site_paths_after_joining(store: MatchStore, next_path: str) -> None:
    code, _ = store.new_access_code()
    phone = client(store)
    link = phone.get(f"/join?code={code}&next={next_path}")
    assert link.status_code == 303
    assert link.headers["location"] == "/"
    typed = phone.post(
        "/join",
        content=f"code={code}&next={next_path}".encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert typed.status_code == 303
    assert typed.headers["location"] == "/"


def test_code_on_a_protocol_relative_path_stays_on_site(store: MatchStore) -> None:
    code, _ = store.new_access_code()
    phone = client(store)
    answer = phone.get(f"http://testserver//evil.example/x?code={code}")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/"
    kept = phone.get(f"/matches/1?code={code}&tab=2")
    assert kept.headers["location"] == "/matches/1?tab=2"


def test_cli_lists_and_revokes_devices(
    store: MatchStore, sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scopa.cli import main

    code, _ = store.new_access_code("table")
    phone = client(store, host="192.168.1.40")
    phone.get(f"/join?code={code}", headers={"User-Agent": "Mozilla/5.0 (iPhone)"})
    assert main(["access", "devices", "--db", sqlite_url]) == 0
    listed = capsys.readouterr().out
    assert "iPhone at 192.168.1.40" in listed
    assert "active" in listed
    assert main(["access", "list", "--db", sqlite_url]) == 0
    assert "active until" in capsys.readouterr().out
    device = store.devices()[0].id
    assert main(["access", "revoke-device", str(device), "--db", sqlite_url]) == 0
    assert capsys.readouterr().out == "revoked 1 device\n"
    assert main(["access", "revoke-device", str(device), "--db", sqlite_url]) != 0
    assert "no active device" in capsys.readouterr().err
    assert not store.devices()[0].active


def test_ipv6_failures_are_counted_per_64(store: MatchStore) -> None:
    """An IPv6 client picks any address of its /64: the wrong codes of the whole /64 count
    together (issue 25, finding 8); another /64 is not blocked."""
    limiter = StoredFailures(store.db.transaction, most=3, window=60)
    for n in range(3):
        limiter.failed(f"2001:db8:1:2::{n + 1:x}")
    assert limiter.retry_after("2001:db8:1:2:ffff::9") >= 1
    assert limiter.retry_after("2001:db8:1:3::1") == 0
    assert limiter.retry_after("192.0.2.7") == 0
