"""Issue 25: a keyed change and its key's answer commit together, on SQLite and PostgreSQL.

A full disk answers 503 on the keyed path too and the retry records once (finding 2); a 5xx
answer is never kept, and its change is undone with it (finding 9); what is kept for a key
is small and counts against the group's bytes (finding 4)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from scopa.application import MatchService
from scopa.store import MatchStore
from scopa.store.keys import KeyedChange as SqlKeyedChange
from scopa.store.records import KeptAnswer
from scopa.web import WebSettings, create_app
from scopa.web.api import routes as api
from scopa.web.api.idempotency import KEPT_BODY, KEYED
from tests.web.conftest import anna_deal, bruno_deal, start
from tests.web.hosted_helpers import join

MATCH = {"players": ["Anna", "Bruno"]}


def deals_of(client: TestClient, match_id: int, headers: dict[str, str] | None = None) -> int:
    answer = client.get(f"/api/matches/{match_id}", headers=headers or {})
    return len(answer.json()["match"]["deals"])


class FullDisk:
    """Every commit fails as on a full disk while ``on``."""

    def __init__(self) -> None:
        self.on = False

    def __call__(self, session: Session) -> None:
        if self.on:
            raise OperationalError("COMMIT", {}, Exception("database or disk is full"))


@pytest.fixture
def full_disk() -> Iterator[FullDisk]:
    disk = FullDisk()
    event.listen(Session, "before_commit", disk)
    try:
        yield disk
    finally:
        event.remove(Session, "before_commit", disk)


@pytest.mark.parametrize("hosted", [False, True], ids=["plain", "hosted"])
def test_a_full_disk_is_503_on_the_keyed_path_and_the_retry_records_once(
    store: MatchStore, full_disk: FullDisk, hosted: bool
) -> None:
    app = create_app(store, WebSettings(hosted=hosted))
    with TestClient(app, raise_server_exceptions=False) as client:
        auth = join(client, store, "Rossi").auth if hosted else {}
        match_id = client.post("/api/matches", json=MATCH, headers=auth).json()["id"]
        url = f"/api/matches/{match_id}/deals"
        key = {**auth, "Idempotency-Key": "deal-1"}
        full_disk.on = True
        for headers in (auth, key, key):  # unkeyed, keyed, and its retry while still full
            full = client.post(url, json=anna_deal(), headers=headers)
            assert full.status_code == 503, full.text
            assert full.json()["where"] == "storage"
            assert "disk is full" in full.json()["error"]
            assert full.headers["retry-after"]
        full_disk.on = False
        assert deals_of(client, match_id, auth) == 0
        made = client.post(url, json=anna_deal(), headers=key)
        again = client.post(url, json=anna_deal(), headers=key)
        assert made.status_code == again.status_code == 201
        assert "idempotent-replayed" not in made.headers
        assert again.headers["idempotent-replayed"] == "true"
        assert deals_of(client, match_id, auth) == 1


def test_a_full_sqlite_file_is_503_and_the_connection_stays_open(sqlite_url: str) -> None:
    """A real full file (SQLite's page cap at its size): a keyed deal is 503 and the next
    request on the same connection is answered."""
    store = MatchStore.open(sqlite_url)
    server, _, thread, port = start(store)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        def call(method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
            raw = None if body is None else json.dumps(body).encode()
            sent = {"Host": "127.0.0.1", "Content-Type": "application/json", **headers}
            conn.request(method, path, body=raw, headers=sent)
            answer = conn.getresponse()
            return answer.status, json.loads(answer.read())

        status, made = call("POST", "/api/matches", MATCH)
        assert status == 201
        url = f"/api/matches/{made['id']}/deals"
        assert call("POST", url, anna_deal())[0] == 201

        def cap(dbapi_connection: Any, _record: Any) -> None:
            pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
            dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

        event.listen(store.engine, "connect", cap)
        store.engine.dispose()
        big = {**MATCH, "deals": [anna_deal() for _ in range(300)]}
        for n in range(3):
            status, answer = call("POST", "/api/import", big, **{"Idempotency-Key": f"big-{n}"})
            assert status == 503, answer
            assert answer["where"] == "storage"
            status, seen = call("GET", f"/api/matches/{made['id']}")  # the same connection
            assert status == 200
            assert len(seen["match"]["deals"]) == 1
        conn.close()
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()


def test_a_5xx_answer_is_never_kept_and_its_change_is_undone(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The change is made, then the answer fails (500): nothing of it stays, and the retry
    with the same key makes it once (before, the deal stayed and the retry made it again)."""
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        match_id = client.post("/api/matches", json=MATCH).json()["id"]
        url = f"/api/matches/{match_id}/deals"
        key = {"Idempotency-Key": "fails-once"}
        whole = api.answer
        failing = True

        def answer(*args: Any, **kwargs: Any) -> Any:
            if failing and 201 in (*args[1:2], kwargs.get("status")):  # a deal's answer
                raise RuntimeError("the answer could not be made")
            return whole(*args, **kwargs)

        monkeypatch.setattr(api, "answer", answer)
        broken = client.post(url, json=anna_deal(), headers=key)
        assert broken.status_code == 500
        assert deals_of(client, match_id) == 0
        again = client.post(url, json=anna_deal(), headers=key)
        assert again.status_code == 500
        assert "idempotent-replayed" not in again.headers
        failing = False
        made = client.post(url, json=anna_deal(), headers=key)
        assert made.status_code == 201
        assert "idempotent-replayed" not in made.headers
        assert deals_of(client, match_id) == 1
        assert store.keys.count()[0] == 1


def test_kept_answers_are_small_and_count_against_the_group(store: MatchStore) -> None:
    """A long match's sheet is never kept whole for a key; every kept byte is charged to the
    group, and a group whose bytes are full cannot make keys keep more."""
    with TestClient(create_app(store, WebSettings(hosted=True))) as client:
        rossi = join(client, store, "Rossi")
        deals = [anna_deal() if n % 2 else bruno_deal() for n in range(120)]
        made = client.post("/api/matches", json={**MATCH, "deals": deals}, headers=rossi.auth)
        assert made.status_code == 201
        base = f"/api/matches/{made.json()['id']}"
        group = store.groups.group(rossi.group)
        assert group is not None
        before = group.used_bytes
        for n in range(10):
            key = {**rossi.auth, "Idempotency-Key": f"delete-{n}"}
            deleted = client.delete(f"{base}/deals/1", headers=key)
            assert deleted.status_code == 200
            assert len(deleted.content) > KEPT_BODY  # the whole sheet, answered once
            removed = client.get(base, headers=rossi.auth).json()["removed"][0]["id"]
            key = {**rossi.auth, "Idempotency-Key": f"restore-{n}"}
            restored = client.post(f"{base}/removed/{removed}/restore", headers=key)
            assert restored.status_code == 200, restored.text
        replayed = client.delete(
            f"{base}/deals/1", headers={**rossi.auth, "Idempotency-Key": "delete-0"}
        )
        assert replayed.headers["idempotent-replayed"] == "true"
        assert replayed.json()["see"] == f"{base}/deals/1"
        count, kept = store.keys.count(rossi.group)
        assert count == 20
        assert kept <= 20 * 400, kept
        group = store.groups.group(rossi.group)
        assert group is not None
        assert group.used_bytes - before >= kept  # the change log and the kept answers
        store.groups.set_limits(rossi.group, _limits(max_bytes=group.used_bytes))
        key = {**rossi.auth, "Idempotency-Key": "no-room"}
        refused = client.patch(f"{base}/rules", json={"primiera": False}, headers=key)
        assert refused.status_code == 403
        assert refused.json()["where"] == "quota.bytes"
        assert client.get(base, headers=rossi.auth).json()["match"]["rules"]["primiera"]
        assert store.keys.count(rossi.group)[0] == 20


def _limits(**given: int) -> Any:
    from scopa.store.records import Limits

    return Limits(**given)


def test_a_keyed_deal_refused_after_its_writes_keeps_its_answer_and_none_of_its_rows(
    store: MatchStore,
) -> None:
    """The first change of a keyed request runs without a savepoint: refused after it wrote
    (the group's deals are full), the whole transaction is rolled back, the refusal is kept
    for the key, and nothing of the deal stays (not its row, its log entry, its charge nor
    its version); a change after it still goes through."""
    with TestClient(create_app(store, WebSettings(hosted=True))) as client:
        rossi = join(client, store, "Rossi", max_deals=1)
        match_id = client.post("/api/matches", json=MATCH, headers=rossi.auth).json()["id"]
        url = f"/api/matches/{match_id}/deals"
        first = client.post(url, json=anna_deal(), headers={**rossi.auth, "Idempotency-Key": "a"})
        assert first.status_code == 201, first.text
        key = {**rossi.auth, "Idempotency-Key": "b", "If-Match": str(first.json()["version"])}
        for replayed in (False, True):
            over = client.post(url, json=bruno_deal(), headers=key)
            assert over.status_code == 403, over.text
            assert over.json()["where"] == "quota.deals"
            assert ("idempotent-replayed" in over.headers) is replayed
        whole = client.get(f"/api/matches/{match_id}", headers=rossi.auth).json()
        assert whole["version"] == first.json()["version"]
        assert len(whole["match"]["deals"]) == 1
        history = client.get(f"/api/matches/{match_id}/history", headers=rossi.auth).json()
        assert [e["action"] for e in history] == ["create", "add_deal"]
        group = store.groups.group(rossi.group)
        assert group is not None
        assert group.used_deals == 1
        changed = client.patch(
            f"/api/matches/{match_id}/rules",
            json={"primiera": False},
            headers={**rossi.auth, "Idempotency-Key": "c"},
        )
        assert changed.status_code == 200, changed.text
        assert store.keys.count(rossi.group)[0] == 3


@pytest.mark.parametrize("hosted", [False, True], ids=["plain", "hosted"])
def test_a_key_kept_by_a_retry_while_the_first_made_its_change_answers_the_retry(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch, hosted: bool
) -> None:
    """The key is written with the answer, at the commit: if the same request, sent again,
    kept the key while the first was making its change, the first finds the key there,
    rolls its change back and answers what the retry answered (the deal is not recorded
    twice, nor its log entry, nor the version moved; on a hosted server nothing more is
    charged to the group than the retry's answer)."""
    with TestClient(create_app(store, WebSettings(hosted=hosted))) as client:
        rossi = join(client, store, "Rossi") if hosted else None
        auth = {} if rossi is None else rossi.auth
        match_id = client.post("/api/matches", json=MATCH, headers=auth).json()["id"]
        url = f"/api/matches/{match_id}/deals"
        real = MatchService.record_deal
        sneaked: list[bytes] = []

        def retry_first(service: MatchService, **given: Any) -> Any:
            if not sneaked:  # before this request's transaction begins (SQLite: one writer)
                keyed = KEYED.get()
                assert isinstance(keyed, SqlKeyedChange)
                retry = store.keys.keyed("twice", keyed.fingerprint, keyed.group)
                body = b'{"retry": true}'
                retry.commit(KeptAnswer(201, (("content-type", "application/json"),), body))
                sneaked.append(body)
            return real(service, **given)

        monkeypatch.setattr(MatchService, "record_deal", retry_first)
        before = None if rossi is None else store.groups.group(rossi.group)
        answer = client.post(url, json=anna_deal(), headers={**auth, "Idempotency-Key": "twice"})
        assert sneaked, "the retry did not run"
        assert answer.status_code == 201, answer.text
        assert answer.content == sneaked[0]
        assert answer.headers["idempotent-replayed"] == "true"
        assert deals_of(client, match_id, auth) == 0  # made, rolled back: the retry answered
        history = client.get(f"/api/matches/{match_id}/history", headers=auth).json()
        assert [e["action"] for e in history] == ["create"]
        assert client.get(f"/api/matches/{match_id}", headers=auth).json()["version"] == 1
        if before is not None:
            after = store.groups.group(before.id)
            assert after is not None
            assert after.used_deals == before.used_deals == 0
            size = len(sneaked[0]) + len("content-type") + len("application/json")
            assert after.used_bytes == before.used_bytes + size
        assert store.keys.count()[0] == 1


TABLES_WRITTEN = {
    "deals": "match_id, position, facts::text",
    "changes": "match_id, version, action, summary, detail::text",
    "matches": "id, version, summary::text, status, player_key, uncounted",
    "tallies": "match_id, key, side, finished, won, deals, points, sweeps",
    "player_totals": "scope, key, matches, won, finished, deals, points, sweeps",
    "pair_totals": "scope, key, other, same, matches, won, lost",
    "groups": "id, used_matches, used_deals, used_bytes",
    "stats_marks": 'scope, outcomes, rated, "full"',
    "idempotency_keys": "key, status, size",  # the body names the time of the change
}
"""What recording deals writes, but the times (each table's rows in a fixed order)."""


def test_a_deal_added_in_one_statement_writes_what_the_general_path_writes(
    postgres_admin_url: str, migrated_postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL a deal is added by one statement (``scopa.store.edits.add_at_once``);
    the same deals recorded the general way (:func:`scopa.store.edits.edit`, the line and
    the tally, the row written back) leave every table as it leaves them: the deals, the
    log, the match's line, the tally and the totals, the group's charge, the stats mark and
    the kept answers. Three deals in progress, the one that wins, and one after the end."""
    import psycopg

    from scopa.store import matches as store_matches
    from tests.conftest import drop_postgres_database, fresh_postgres_database

    written = []
    for general in (False, True):
        if general:  # no deal is an AddDeal to the store: every change takes edit()
            monkeypatch.setattr(store_matches, "AddDeal", type("Nothing", (), {}))
        url = fresh_postgres_database(postgres_admin_url, migrated_postgres)
        store = MatchStore.open(url)
        try:
            with TestClient(create_app(store, WebSettings(hosted=True))) as client:
                rossi = join(client, store, "Rossi")
                made = client.post("/api/matches", json=MATCH, headers=rossi.auth).json()
                for n, deal in enumerate([bruno_deal(), anna_deal(), anna_deal(1)] * 2):
                    headers = {**rossi.auth, "Idempotency-Key": f"deal-{n}"}
                    url_deals = f"/api/matches/{made['id']}/deals"
                    assert client.post(url_deals, json=deal, headers=headers).status_code == 201
            plain = url.replace("postgresql+psycopg://", "postgresql://")
            with psycopg.connect(plain) as conn:
                written.append(
                    {
                        table: conn.execute(
                            f"SELECT {columns} FROM {table} ORDER BY 1, 2"
                        ).fetchall()
                        for table, columns in TABLES_WRITTEN.items()
                    }
                )
        finally:
            store.close()
            drop_postgres_database(postgres_admin_url, url)
    at_once, general_way = written
    assert len(at_once["deals"]) == 6
    assert any(row[3] == "won" for row in at_once["matches"])
    for table in TABLES_WRITTEN:
        assert at_once[table] == general_way[table], table
