"""Issue 49's small findings: every answer that carries a hand is ``no-store`` (N7), a
removed player is not offered on the new-match page (N4), names that differ only by Unicode
form or invisible characters are one name and duplicate JSON keys are refused (N5)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import create_app
from tests.web.tables_helpers import Clock, bearer, create, join, table_app
from tests.web.test_play import start


def no_store(answer: Any) -> bool:
    return "no-store" in answer.headers.get("cache-control", "")


def test_a_seats_answers_that_hold_its_hand_are_not_stored(store: MatchStore) -> None:
    app: FastAPI = table_app(create_app(store), Clock())
    with TestClient(app) as client:
        table = create(client)
        guest = join(client, table, "Bruno")
        seat = bearer(table["token"])
        view = client.get(f"/api/tables/{table['table']}", headers=seat)
        assert view.status_code == 200
        assert view.json()["hand"], view.json()
        assert no_store(view)
        mover = seat if view.json()["turn"] == 0 else bearer(guest["token"])
        played = client.get(f"/api/tables/{table['table']}", headers=mover).json()
        legal = played["legal"][0]
        answer = client.post(
            f"/api/tables/{table['table']}/plays",
            json={"step": played["step"], "card": legal["card"], "capture": legal["captures"][0]},
            headers=mover,
        )
        assert answer.status_code == 200, answer.text
        assert no_store(answer)
        page = client.get(f"/tables/{table['table']}", cookies={})
        assert no_store(page)


def test_a_game_against_the_computer_is_not_stored(client: TestClient) -> None:
    game = start(client)
    for path in (f"/play/{game}/state", f"/play/{game}/coach", f"/play/{game}"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert no_store(answer), path
    data = client.get(f"/play/{game}/state").json()
    assert data["hand"]
    if data["your_turn"]:
        legal = data["legal"][0]
        body = {"step": data["step"], "card": legal["card"], "capture": legal["capture"]}
        moved = client.post(f"/play/{game}/play", json=body)
    else:
        moved = client.post(f"/play/{game}/computer", json={"step": data["step"]})
    assert moved.status_code == 200
    assert no_store(moved)


def test_a_removed_player_is_not_offered_on_the_new_match_page(client: TestClient) -> None:
    made = client.post("/api/matches", json={"players": ["Anna", "Bruno"]})
    assert made.status_code == 201
    before = client.get("/matches/new").text
    assert 'value="Anna"' in before
    assert client.post("/api/players/Anna/remove").status_code == 200
    after = client.get("/matches/new")
    assert 'value="Anna"' not in after.text
    assert 'data-name="Anna"' not in after.text
    assert 'value="Bruno"' in after.text
    assert "Anna" not in client.get("/api/players").json()


def test_names_that_differ_only_by_invisibles_or_unicode_form_are_one_player(
    client: TestClient,
) -> None:
    for second in ("Anna\u034f", "ANNA", "\uff21nna", "Anna\ufe0f", " anna\u180b"):
        answer = client.post("/api/matches", json={"players": ["Anna", second]})
        assert answer.status_code == 422, repr(second)
        assert answer.json()["where"] == "players[1]"
        assert "listed twice" in answer.json()["error"]
    assert client.get("/api/matches").json() == []
    spoken = client.post(
        "/api/matches",
        json={"players": ["Anna", "Anna\u034f"]},
        headers={"Accept-Language": "it"},
    )
    assert spoken.status_code == 422
    assert "listed twice" not in spoken.json()["error"]


def test_a_duplicate_key_is_refused_in_a_body_and_a_match_file(client: TestClient) -> None:
    body = b'{"players": ["Anna", "Bruno"], "players": ["Carla", "Dario"]}'
    for path in ("/api/matches", "/api/import"):
        answer = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 422, path
        assert answer.json()["where"] == "body"
        assert answer.json()["error"] == "the key 'players' is given twice in one object"
    nested = b'{"players": ["Anna", "Bruno"], "rules": {"target": 11, "target": 21}}'
    answer = client.post("/api/import", content=nested)
    assert answer.status_code == 422
    assert "'target' is given twice" in answer.json()["error"]
    assert client.get("/api/matches").json() == []


def test_an_answer_kept_for_a_key_is_charged_to_the_groups_bytes(store: MatchStore) -> None:
    """F5: the same deal recorded with and without an ``Idempotency-Key`` costs the group
    exactly the kept answer's bytes more with the key (on SQLite and PostgreSQL, whose paths
    charge it apart)."""
    from scopa.web import WebSettings
    from tests.web.bodies import anna_deal
    from tests.web.hosted_helpers import join as join_group

    with TestClient(create_app(store, WebSettings(hosted=True))) as client:
        rossi = join_group(client, store, "Rossi")
        made = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}, headers=rossi.auth)
        base = f"/api/matches/{made.json()['id']}/deals"

        def used() -> int:
            group = store.groups.group(rossi.group)
            assert group is not None
            return group.used_bytes

        start = used()
        plain = client.post(base, json=anna_deal(), headers=rossi.auth)
        assert plain.status_code == 201
        unkeyed = used() - start
        start = used()
        keyed = client.post(base, json=anna_deal(), headers={**rossi.auth, "Idempotency-Key": "k1"})
        assert keyed.status_code == 201
        count, kept = store.keys.count(rossi.group)
        assert (count, kept > 0) == (1, True)
        assert used() - start == unkeyed + kept


def test_a_duplicate_key_is_refused_by_the_tables_and_the_play_routes(
    store: MatchStore,
) -> None:
    """The routes whose bodies FastAPI reads (tables, games against the computer) refuse a
    key given twice too, in the reader's language, and change nothing."""
    app: FastAPI = table_app(create_app(store), Clock())
    with TestClient(app) as client:
        twice = b'{"players": 2, "players": 3}'
        kind = {"Content-Type": "application/json"}
        answer = client.post("/api/tables", content=twice, headers=kind)
        assert answer.status_code == 422
        assert answer.json()["where"] == "body"
        assert "'players' is given twice" in answer.json()["error"]
        italian = {**kind, "Accept-Language": "it"}
        spoken = client.post("/api/tables", content=twice, headers=italian)
        assert "'players' compare due volte" in spoken.json()["error"]
        game = start(client)
        step = client.get(f"/play/{game}/state").json()["step"]
        moved = client.post(
            f"/play/{game}/computer",
            content=b'{"step": %d, "step": %d}' % (step, step),
            headers={"Content-Type": "application/json"},
        )
        assert moved.status_code == 422
        assert "is given twice in one object" in moved.text
        assert client.get(f"/play/{game}/state").json()["step"] == step
        table = create(client)
        assert table["table"] == 1  # the refused one made no table
