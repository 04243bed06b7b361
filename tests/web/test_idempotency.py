"""``Idempotency-Key`` (docs/formats.md): a repeat gets the first answer and stores nothing new; the
same key on another change is refused; keys are kept a day. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from scopa.store import MatchStore
from scopa.store.models import IdempotencyKeyRow
from scopa.web.api.idempotency import PURGE_EVERY, IdempotencyKeys
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
    assert again.text == first.text
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
    url = f"/api/matches/{match_id}/deals"
    statuses: list[int] = []

    def send() -> None:
        answer = client.post(url, json=anna_deal(), headers={"Idempotency-Key": "race"})
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=send) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert deals_of(client, match_id) == 1
    assert set(statuses) <= {201, 409}
    assert 201 in statuses


def test_keys_are_kept_a_day_then_purged(store: MatchStore) -> None:
    # The purge timer's clock starts at 0, as time.monotonic() does on a machine just booted.
    now = [0.0]
    keys = IdempotencyKeys(store.engine, clock=lambda: now[0])
    assert keys.claim("old", "f1").outcome == "claimed"
    keys.keep("old", 201, [(b"content-type", b"application/json")], b"{}")
    assert keys.claim("new", "f2").outcome == "claimed"
    keys.keep("new", 201, [], b"{}")
    with Session(store.engine) as session, session.begin():
        session.execute(
            update(IdempotencyKeyRow)
            .where(IdempotencyKeyRow.key == "old")
            .values(created_at=datetime.now(UTC) - timedelta(hours=23, minutes=50))
        )
    now[0] += PURGE_EVERY
    assert keys.claim("old", "f1").outcome == "replay"  # 23h50 old: still kept
    with Session(store.engine) as session, session.begin():
        session.execute(
            update(IdempotencyKeyRow)
            .where(IdempotencyKeyRow.key == "old")
            .values(created_at=datetime.now(UTC) - timedelta(hours=26))
        )
    now[0] += PURGE_EVERY - 1
    assert keys.claim("fourth", "f4").outcome == "claimed"
    assert keys.count() == 3  # within PURGE_EVERY of the last purge: nothing purged yet
    now[0] += 1
    assert keys.claim("third", "f3").outcome == "claimed"
    assert keys.count() == 3  # "old" purged; "new", "fourth" and "third" kept


def test_the_first_claim_purges_whatever_the_clock_says(store: MatchStore) -> None:
    """A server started on a machine booted a minute ago (time.monotonic() near 0) purges the
    keys left by the one before it at its first claim."""
    IdempotencyKeys(store.engine).claim("left", "f0")
    with Session(store.engine) as session, session.begin():
        session.execute(
            update(IdempotencyKeyRow).values(created_at=datetime.now(UTC) - timedelta(hours=26))
        )
    keys = IdempotencyKeys(store.engine, clock=lambda: 0.0)
    assert keys.claim("fresh", "f1").outcome == "claimed"
    assert keys.count() == 1
