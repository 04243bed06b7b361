"""``Idempotency-Key`` (docs/formats.md): a repeat gets the first answer and stores nothing new; the
same key on another change is refused; keys are kept a day. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from scopa.store import MatchStore
from scopa.store.keys import PURGE_EVERY, SqlKeys
from scopa.store.models import IdempotencyKeyRow
from scopa.store.records import KeptAnswer, KeyTaken
from tests.web.conftest import anna_deal, bruno_deal


def deals_of(client: TestClient, match_id: int) -> int:
    return len(client.get(f"/api/matches/{match_id}").json()["match"]["deals"])


def test_a_repeated_deal_is_recorded_once(client: TestClient, match_id: int) -> None:
    url = f"/api/matches/{match_id}/deals"
    key = {"Idempotency-Key": "phone-1-deal-1"}
    first = client.post(url, json=anna_deal(), headers=key)
    assert first.status_code == 201
    again = client.post(url, json=anna_deal(), headers=key)
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert deals_of(client, match_id) == 1
    # The log says it once too.
    assert len(client.get(f"/api/matches/{match_id}/history").json()) == 2


def test_the_same_key_on_another_change_is_refused(client: TestClient, match_id: int) -> None:
    url = f"/api/matches/{match_id}/deals"
    key = {"Idempotency-Key": "k-1"}
    assert client.post(url, json=anna_deal(), headers=key).status_code == 201
    other_body = client.post(url, json=bruno_deal(), headers=key)
    assert other_body.status_code == 422
    assert other_body.json() == {
        "error": "this Idempotency-Key was used for another change (method, path or body)",
        "where": "Idempotency-Key",
        "code": "idempotency.key_reused",
    }
    italian = client.post(url, json=bruno_deal(), headers={**key, "Accept-Language": "it"})
    assert italian.json() == {
        "error": "questa Idempotency-Key è già stata usata per un'altra modifica "
        "(metodo, indirizzo o contenuto)",
        "where": "Idempotency-Key",
        "code": "idempotency.key_reused",
    }
    other_path = client.put(f"{url}/1", json=anna_deal(), headers=key)
    assert other_path.status_code == 422
    other_method = client.request("DELETE", url, headers=key)
    assert other_method.status_code == 422
    assert deals_of(client, match_id) == 1


def test_every_change_kind_replays(client: TestClient, match_id: int) -> None:
    base = f"/api/matches/{match_id}"
    client.post(f"{base}/deals", json=anna_deal())
    client.post(f"{base}/deals", json=bruno_deal())
    steps = [
        ("PUT", f"{base}/deals/1", {"json": anna_deal(0, 0)}),
        ("PATCH", f"{base}/rules", {"json": {"primiera": False}}),
        ("DELETE", f"{base}/deals/2", {}),
    ]
    for n, (method, url, extra) in enumerate(steps):
        headers = {"Idempotency-Key": f"step-{n}"}
        first = client.request(method, url, headers=headers, **extra)
        again = client.request(method, url, headers=headers, **extra)
        assert first.status_code == again.status_code == 200
        assert first.json() == again.json()
    final = client.get(base).json()
    assert final["version"] == 6  # create, 2 deals, 3 changes: nothing twice
    assert len(final["match"]["deals"]) == 1


def test_errors_replay_too_and_nothing_is_stored(client: TestClient, match_id: int) -> None:
    url = f"/api/matches/{match_id}/deals"
    key = {"Idempotency-Key": "bad-1"}
    bad = {"piles": {"Anna": {"count": 50}}, "sweeps": {}, "last_capture": None}
    first = client.post(url, json=bad, headers=key)
    assert first.status_code == 422
    again = client.post(url, json=bad, headers=key)
    assert again.status_code == 422
    assert again.json() == first.json()
    assert deals_of(client, match_id) == 0


def test_page_forms_honour_the_key(client: TestClient, match_id: int) -> None:
    url = f"/matches/{match_id}/deals/{1}/delete"
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    headers = {"Idempotency-Key": "page-delete-1", "HX-Request": "true"}
    first = client.post(url, data={"version": "2"}, headers=headers)
    assert first.status_code == 200
    again = client.post(url, data={"version": "2"}, headers=headers)
    assert again.status_code == 200
    # The sheet is long: what was kept is a short page asking htmx to reload.
    assert again.headers["HX-Refresh"] == "true"
    assert len(again.content) < 200 < len(first.content)
    assert client.get(f"/api/matches/{match_id}").json()["version"] == 3


def test_a_bad_key_is_refused(client: TestClient, match_id: int) -> None:
    url = f"/api/matches/{match_id}/deals"
    for key in ("x" * 101, "tab\tkey"):
        answer = client.post(url, json=anna_deal(), headers={"Idempotency-Key": key})
        assert answer.status_code == 422
        assert answer.json()["where"] == "Idempotency-Key"
    assert deals_of(client, match_id) == 0


def test_without_a_key_nothing_changes(client: TestClient, match_id: int) -> None:
    url = f"/api/matches/{match_id}/deals"
    client.post(url, json=anna_deal())
    client.post(url, json=anna_deal())
    assert deals_of(client, match_id) == 2


def test_concurrent_repeats_store_one_deal(client: TestClient, match_id: int) -> None:
    """Six repeats at once: one makes the change, the others wait for its answer and get
    it (none is refused, none records a second deal)."""
    url = f"/api/matches/{match_id}/deals"
    answers: list[tuple[int, str]] = []

    def send() -> None:
        answer = client.post(url, json=anna_deal(), headers={"Idempotency-Key": "race"})
        answers.append((answer.status_code, answer.headers.get("Idempotent-Replayed", "")))

    threads = [threading.Thread(target=send) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert deals_of(client, match_id) == 1
    assert sorted(answers) == [(201, "")] + [(201, "true")] * 5


def test_keys_are_kept_a_day_then_purged(store: MatchStore) -> None:
    keys = store.keys
    for key in ("old", "new"):
        keyed = keys.keyed(key, f"print-{key}")
        keyed.commit(KeptAnswer(201, (("content-type", "application/json"),), b"{}"))
    now = datetime.now(UTC)
    with Session(store.engine) as session, session.begin():
        session.execute(
            update(IdempotencyKeyRow)
            .where(IdempotencyKeyRow.key == "old")
            .values(created_at=now - timedelta(hours=23, minutes=50))
        )
    assert keys.purge(now) == 0  # 23h50 old: still kept
    again = keys.keyed("old", "print-old")
    with pytest.raises(KeyTaken):
        again.commit(KeptAnswer(200, (), b"[]"))
    assert again.found is not None
    assert again.found.status == 201
    assert keys.purge(now + timedelta(hours=2, minutes=20)) == 1
    assert keys.count() == (1, len("{}") + len("content-type") + len("application/json"))


def test_the_purge_timer_needs_no_large_clock(store: MatchStore) -> None:
    """The timed purge with a clock starting at 0 (time.monotonic() on a machine booted a
    moment ago): the first key kept purges what an earlier server left; the next purge waits
    PURGE_EVERY seconds of that clock."""
    now = [0.0]
    keys = SqlKeys(store.db, clock=lambda: now[0])

    def keep(key: str) -> None:
        keyed = keys.keyed(key, f"print-{key}")
        keyed.commit(KeptAnswer(201, (), b"{}"))

    def age(key: str) -> None:
        with Session(store.engine) as session, session.begin():
            session.execute(
                update(IdempotencyKeyRow)
                .where(IdempotencyKeyRow.key == key)
                .values(created_at=datetime.now(UTC) - timedelta(hours=26))
            )

    keep("left")
    age("left")
    fresh = SqlKeys(store.db, clock=lambda: now[0])  # a new server, the clock still near 0
    keys = fresh
    keep("first")
    assert keys.count()[0] == 1  # "left" purged once the first key was kept
    age("first")
    now[0] += PURGE_EVERY - 1
    keep("second")
    assert keys.count()[0] == 2  # not yet
    now[0] += 1
    keep("third")
    assert keys.count()[0] == 2  # "first" purged


def test_more_keyed_changes_at_once_than_the_pool_has_connections_all_go_through(
    store: MatchStore,
) -> None:
    """A keyed change holds its connection from its first store operation to its commit
    and needs threads in between; with one connection and one thread, a second change used
    to sit in the thread waiting for the connection while the first waited for the thread,
    until the pool gave up (a 500). The changes past the pool's size now queue without a
    thread."""
    import anyio.to_thread
    import httpx
    from sqlalchemy.pool import QueuePool

    from scopa.web.serve.app import create_app

    engine = store.engine
    old = engine.pool
    assert isinstance(old, QueuePool)
    engine.pool = QueuePool(
        old._creator,
        pool_size=1,
        max_overflow=0,
        timeout=3,
        _dispatch=old.dispatch,
        dialect=old._dialect,
    )
    old.dispose()
    assert store.keys.at_once == 1
    app = create_app(store)

    async def run() -> list[int]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = 1
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:

            async def create(n: int) -> int:
                # a match made by the general path: the route's thread, then the commit's
                keyed = {"Idempotency-Key": f"phone-{n}"}
                body = {"players": ["Anna", "Bruno"], "name": f"Table {n}"}
                return (await client.post("/api/matches", json=body, headers=keyed)).status_code

            return list(await asyncio.gather(*(create(n) for n in range(6))))

    assert asyncio.run(run()) == [201] * 6
    with TestClient(app) as client:
        names = {m["name"] for m in client.get("/api/matches").json()}
        assert names == {f"Table {n}" for n in range(6)}
