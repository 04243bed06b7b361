"""``GET /api/matches/{id}/events`` against the real server (uvicorn in a thread, with the
guarded protocol), on SQLite and PostgreSQL: a change reaches every open stream within a
second, keep-alive comments, a version missed while away, a deleted match, an unknown one
(404 before any streaming), and streams that end cleanly on disconnect and on shutdown."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from scopa.changes import AddDeal
from scopa.store import MatchStore
from scopa.web import create_app
from scopa.web.api import events
from scopa.web.serve.server import Server
from tests.web.conftest import anna_deal, start
from tests.web.sse import EventReader

pytestmark = pytest.mark.system


class Live:
    def __init__(self, server: Server, app: Any, port: int) -> None:
        self.server = server
        self.app = app
        self.base = f"http://127.0.0.1:{port}"
        self.http = httpx.Client(base_url=self.base, timeout=10)

    def new_match(self) -> int:
        response = self.http.post("/api/matches", json={"players": ["Anna", "Bruno"]})
        assert response.status_code == 201
        ident: int = response.json()["id"]
        return ident

    def deal(self, match_id: int, **headers: str) -> httpx.Response:
        return self.http.post(f"/api/matches/{match_id}/deals", json=anna_deal(), headers=headers)

    def stream(self, match_id: int, query: str = "", **headers: str) -> EventReader:
        return EventReader(f"{self.base}/api/matches/{match_id}/events{query}", headers)

    @property
    def hub(self) -> events.EventHub:
        hub: events.EventHub = self.app.state.events
        return hub


@contextmanager
def hosted_server(
    database_url: str,
) -> Iterator[tuple[MatchStore, str, httpx.Client, list[EventReader]]]:
    """A hosted server on its own thread: its store, address, a client, and a list of event
    readers that are closed with it."""
    store = MatchStore.open(database_url)
    server, _app, thread, port = start(store, hosted=True)
    base = f"http://127.0.0.1:{port}"
    readers: list[EventReader] = []
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            yield store, base, http, readers
    finally:
        for reader in readers:
            reader.close()
        server.should_exit = True
        thread.join(10)
        store.close()


@contextmanager
def clean_log(caplog: pytest.LogCaptureFixture, worst: int) -> Iterator[None]:
    """Capture uvicorn's log (from INFO) while the block runs; then assert that it holds no
    traceback and no record at ``worst`` or above."""
    uvicorn_log = logging.getLogger("uvicorn.error")
    uvicorn_log.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.INFO):
            yield
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= worst], caplog.text


@pytest.fixture
def live(store: MatchStore, caplog: pytest.LogCaptureFixture) -> Iterator[Live]:
    with clean_log(caplog, logging.ERROR):
        server, app, thread, port = start(store)
        yield Live(server, app, port)
        server.should_exit = True
        thread.join(10)
        assert not thread.is_alive(), "the server did not stop"


def test_a_change_reaches_every_open_stream(live: Live) -> None:
    match_id = live.new_match()
    readers = [live.stream(match_id) for _ in range(3)]
    try:
        for reader in readers:
            assert reader.status == 200
            assert reader.content_type.startswith("text/event-stream")
        for version in (2, 3):
            assert live.deal(match_id).status_code == 201
            for reader in readers:
                event = reader.next()
                assert event.kind == "change"
                assert event.data == {"id": match_id, "version": version}
                assert event.id == str(version)
    finally:
        for reader in readers:
            reader.close()


def test_streams_of_other_matches_hear_nothing(live: Live) -> None:
    mine, other = live.new_match(), live.new_match()
    reader = live.stream(other)
    try:
        live.deal(mine)
        live.deal(other)
        assert reader.next().data == {"id": other, "version": 2}
    finally:
        reader.close()


def test_keep_alive_comments(live: Live, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "KEEP_ALIVE", 0.3)
    reader = live.stream(live.new_match())
    try:
        reader.wait_comment("keep-alive", timeout=60)
        assert reader.events.empty()
    finally:
        reader.close()


def test_a_version_missed_while_away_is_told_at_once(live: Live) -> None:
    match_id = live.new_match()
    live.deal(match_id)
    by_query = live.stream(match_id, "?since=1")
    by_header = live.stream(match_id, **{"Last-Event-ID": "1"})
    current = live.stream(match_id, "?since=2")
    try:
        assert by_query.next().data["version"] == 2
        assert by_header.next().data["version"] == 2
        live.deal(match_id)
        assert current.next().data["version"] == 3  # nothing before the change
    finally:
        for reader in (by_query, by_header, current):
            reader.close()


def test_a_deleted_match_ends_its_stream(live: Live) -> None:
    match_id = live.new_match()
    reader = live.stream(match_id)
    try:
        assert live.http.request("DELETE", f"/api/matches/{match_id}").status_code == 200
        assert reader.next().data == {"id": match_id, "version": None, "deleted": True}
        assert reader.ended.wait(3)
    finally:
        reader.close()


def test_client_disconnect_ends_the_stream_on_the_server(live: Live) -> None:
    match_id = live.new_match()
    readers = [live.stream(match_id) for _ in range(2)]
    deadline = time.monotonic() + 60
    while live.hub.streams != 2:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    readers[0].close()
    while live.hub.streams != 1:
        assert time.monotonic() < deadline, "the closed stream is still registered"
        time.sleep(0.02)
    live.deal(match_id)
    assert readers[1].next().data["version"] == 2
    readers[1].close()


def test_shutdown_ends_open_streams(store: MatchStore, caplog: pytest.LogCaptureFixture) -> None:
    with clean_log(caplog, logging.WARNING):
        server, app, thread, port = start(store)
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        match_id = http.post("/api/matches", json={"players": ["A", "B"]}).json()["id"]
        readers = [
            EventReader(f"http://127.0.0.1:{port}/api/matches/{match_id}/events") for _ in range(3)
        ]
        server.should_exit = True
        thread.join(10)
        assert not thread.is_alive()  # the streams ended with it, not at their own deadline
        for reader in readers:
            assert reader.ended.wait(2)
            reader.close()
        assert app.state.events.streams == 0
        assert app.state.events._task is None  # the feed stopped with the app


def test_unknown_match_is_404_before_streaming(store: MatchStore) -> None:
    with TestClient(create_app(store)) as client:
        response = client.get("/api/matches/999/events")
        assert response.status_code == 404
        assert response.json()["where"] == "id"
        assert client.get("/api/matches/0/events").status_code == 422
        assert client.app.state.events.streams == 0  # type: ignore[attr-defined]


def test_the_hub_stops_its_feed(store: MatchStore) -> None:
    hub = events.EventHub.for_store(store)

    async def go() -> None:
        subscription = await hub.subscribe(1)
        assert hub.streams == 1
        hub.unsubscribe(subscription)
        await hub.close()
        assert hub._task is None

    asyncio.run(go())
    assert hub.streams == 0


def test_the_listener_comes_back_after_its_connection_is_killed(
    live: Live, database_url: str
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's listening connection")
    import psycopg

    match_id = live.new_match()
    reader = live.stream(match_id)
    plain = database_url.replace("postgresql+psycopg://", "postgresql://")
    try:
        with psycopg.connect(plain, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
            ).fetchall()
        assert killed == [(True,)]
        live.deal(match_id)  # maybe before the listener is back: read again when it is
        assert reader.next(timeout=60).data == {"id": match_id, "version": 2}
        live.deal(match_id)
        assert reader.next(timeout=60).data == {"id": match_id, "version": 3}
    finally:
        reader.close()


def test_a_refused_change_sends_nothing(live: Live) -> None:
    match_id = live.new_match()
    reader = live.stream(match_id)
    try:
        assert live.deal(match_id, **{"If-Match": "7"}).status_code == 409
        assert live.deal(match_id).status_code == 201
        assert reader.next().data == {"id": match_id, "version": 2}
        assert reader.events.empty()
    finally:
        reader.close()


def test_a_store_without_sql_is_polled() -> None:
    from scopa.formats import parse_deal, parse_match
    from scopa.store.notify import PollingFeed, feed_for
    from tests.application.memory import MemoryMatches

    store = MemoryMatches()
    stored = store.create(match=parse_match({"players": ["Anna", "Bruno"]}))
    hub = events.EventHub(feed_for(store))
    assert isinstance(hub.feed, PollingFeed)

    async def go() -> None:
        subscription = await hub.subscribe(stored.id)
        subscription.version = stored.version
        deal = parse_deal(anna_deal(), stored.match)
        store.change(AddDeal(match_id=stored.id, deal=deal, version=None))
        async with asyncio.timeout(3):
            await subscription.changed.wait()
        assert subscription.version == stored.version + 1
        await hub.close()

    asyncio.run(go())


def match_streams(
    http: httpx.Client, base: str, bearer: str, cookie: str
) -> tuple[int, str, list[EventReader]]:
    """A new match made with the device token ``bearer``, its events URL, and two streams of
    it: one with that token as the API's bearer, one with ``cookie`` as the pages' cookie."""
    mine = {"Authorization": f"Bearer {bearer}"}
    match_id: int = http.post(
        "/api/matches", json={"players": ["Anna", "Bruno"]}, headers=mine
    ).json()["id"]
    url = f"{base}/api/matches/{match_id}/events"
    streams = [EventReader(url, mine), EventReader(url, {"Cookie": f"scopa_groups={cookie}"})]
    return match_id, url, streams


def test_hosted_streams_need_the_group(database_url: str) -> None:
    """With ``--hosted`` the stream takes the device's token (the API's bearer, or the
    pages' cookie, which is what the browser's EventSource sends); another group's match is
    404, no token 401."""
    with hosted_server(database_url) as (store, base, http, readers):
        tokens = []
        for name in ("Rossi", "Bianchi"):
            _, code = store.groups.create_group(name)
            tokens.append(http.post("/api/join", json={"code": code}).json()["token"])
        mine, theirs = ({"Authorization": f"Bearer {t}"} for t in tokens)
        match_id, url, streams = match_streams(http, base, tokens[0], tokens[0])
        readers += streams
        other = EventReader(url, theirs)
        nobody = EventReader(url)
        readers += [other, nobody]
        assert [r.status for r in readers] == [200, 200, 404, 401]
        recorded = http.post(f"/api/matches/{match_id}/deals", json=anna_deal(), headers=mine)
        assert recorded.status_code == 201, recorded.text
        for reader in readers[:2]:
            assert reader.next().data == {"id": match_id, "version": 2}


def test_a_revoked_token_or_group_ends_its_open_streams(database_url: str) -> None:
    """A stream opened with a device token ends within a couple of seconds of the token's
    revocation (the others go on); revoking the group ends the rest."""
    with hosted_server(database_url) as (store, base, http, readers):
        group, code = store.groups.create_group("Rossi")
        tokens = [http.post("/api/join", json={"code": code}).json()["token"] for _ in range(2)]
        first, second = ({"Authorization": f"Bearer {t}"} for t in tokens)
        match_id, url, streams = match_streams(http, base, tokens[0], tokens[1])
        readers += streams
        assert [r.status for r in readers] == [200, 200]
        newest_first = [device.id for device, _ in store.groups.group_devices(group.id)]
        assert store.groups.revoke_group_device(newest_first[1])  # the first token's device
        assert readers[0].ended.wait(5), "the revoked device's stream is still open"
        assert not readers[1].ended.is_set()
        assert (
            http.post(f"/api/matches/{match_id}/deals", json=anna_deal(), headers=first).status_code
            == 401
        )
        recorded = http.post(f"/api/matches/{match_id}/deals", json=anna_deal(), headers=second)
        assert recorded.status_code == 201, recorded.text
        assert readers[1].next().data == {"id": match_id, "version": 2}
        store.groups.revoke_group(group.id)
        assert readers[1].ended.wait(5), "the revoked group's stream is still open"
        assert EventReader(url, second).status == 401
