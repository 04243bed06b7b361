"""The JSON API of docs/formats.md: every route, every invalid input (422, nothing stored), unknown
ids (404), stale versions (409)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import anna_deal, bruno_deal


def snapshot(client: TestClient, match_id: int) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def test_create_and_get(client: TestClient) -> None:
    response = client.post(
        "/api/matches",
        json={"players": ["Anna", "Bruno"], "rules": {"target": 21}, "deals": [anna_deal()]},
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) >= {"id", "version", "match", "sheet"}
    assert body["version"] == 1
    assert response.headers["ETag"] == '"1"'
    assert body["match"]["rules"]["target"] == 21
    assert body["sheet"]["totals"] == {"Anna": 5, "Bruno": 2}
    assert snapshot(client, body["id"]) == body


def test_list_newest_first_and_players(client: TestClient) -> None:
    first = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    second = client.post("/api/matches", json={"players": ["Carla", "Dario", "Elio"]}).json()["id"]
    listed = client.get("/api/matches").json()
    assert [m["id"] for m in listed] == [second, first]
    assert listed[0]["players"] == ["Carla", "Dario", "Elio"]
    assert listed[0]["status"] == "in_progress"
    assert {"updated_at", "totals", "winner"} <= set(listed[0])
    listed = {p["name"] for p in client.get("/api/players").json()}
    assert listed == {"Anna", "Bruno", "Carla", "Dario", "Elio"}


def test_record_replace_delete_restore(client: TestClient, match_id: int) -> None:
    added = client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    assert added.status_code == 201
    assert added.json()["version"] == 2
    assert added.json()["sheet"]["totals"] == {"Anna": 5, "Bruno": 2}
    second = client.post(f"/api/matches/{match_id}/deals", json=bruno_deal()).json()
    assert second["sheet"]["totals"] == {"Anna": 5, "Bruno": 6}
    assert second["match"]["deals"][-1]["last_capture"] == "Anna"

    replaced = client.put(f"/api/matches/{match_id}/deals/2", json=anna_deal(0, 0))
    assert replaced.status_code == 200
    assert replaced.json()["sheet"]["totals"] == {"Anna": 9, "Bruno": 2}

    deleted = client.delete(f"/api/matches/{match_id}/deals/1")
    assert deleted.status_code == 200
    body = deleted.json()
    assert len(body["match"]["deals"]) == 1
    assert body["sheet"]["totals"] == {"Anna": 4, "Bruno": 0}
    [removed] = body["removed"]
    assert removed["number"] == 1

    restored = client.post(f"/api/matches/{match_id}/removed/{removed['id']}/restore")
    assert restored.status_code == 200
    assert restored.json()["sheet"]["totals"] == {"Anna": 9, "Bruno": 2}
    assert restored.json()["removed"] == []
    history = client.get(f"/api/matches/{match_id}/history").json()
    assert len(history) == 6
    assert all({"version", "at", "action", "summary"} <= set(entry) for entry in history)


def test_rules_rescore_and_say_what_changed(client: TestClient, match_id: int) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    response = client.patch(f"/api/matches/{match_id}/rules", json={"primiera": False})
    assert response.status_code == 200
    body = response.json()
    assert body["match"]["rules"]["primiera"] is False
    assert body["sheet"]["totals"] == {"Anna": 4, "Bruno": 2}
    assert body["changes"]["totals"] == {"Anna": {"before": 5, "after": 4}}
    assert "Primiera off" in body["changes"]["summary"]


def test_winner_and_after_end(client: TestClient, match_id: int) -> None:
    for _ in range(3):
        body = client.post(f"/api/matches/{match_id}/deals", json=anna_deal()).json()
    assert body["sheet"]["winner"] == "Anna"
    assert body["sheet"]["decided_at"] == 3
    body = client.post(f"/api/matches/{match_id}/deals", json=anna_deal()).json()
    assert body["sheet"]["deals"][-1]["after_end"] is True
    body = client.patch(f"/api/matches/{match_id}/rules", json={"target": 21}).json()
    assert body["sheet"]["winner"] is None
    assert body["sheet"]["totals"] == {"Anna": 20, "Bruno": 8}


def test_export_and_import(client: TestClient, match_id: int) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    exported = client.get(f"/api/matches/{match_id}/export.json")
    assert exported.status_code == 200
    assert exported.headers["content-type"].startswith("application/json")
    assert "attachment" in exported.headers["content-disposition"]
    csv = client.get(f"/api/matches/{match_id}/export.csv")
    assert csv.status_code == 200
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines()[1].startswith("1,5,5,2,2")
    imported = client.post("/api/import", content=exported.content)
    assert imported.status_code == 201
    body = imported.json()
    assert body["id"] != match_id
    assert body["sheet"] == snapshot(client, match_id)["sheet"]


def test_delete_match(client: TestClient, match_id: int) -> None:
    assert client.delete(f"/api/matches/{match_id}", headers={"If-Match": "1"}).status_code == 200
    assert client.get(f"/api/matches/{match_id}").status_code == 404
    assert client.get("/api/matches").json() == []


# --- invalid input: 422 {"error", "where", "code"}, nothing stored ----------------------------

BAD_MATCHES: list[tuple[Any, str]] = [
    ({"players": ["Anna"]}, "players"),
    ({"players": ["Anna", "Anna"]}, "players[1]"),
    ({"players": ["Anna", "x" * 41]}, "players[1]"),
    ({"players": ["Anna", 7]}, "players[1]"),
    ({"players": ["Anna", "Bruno"], "rules": {"target": 4}}, "rules.target"),
    ({"players": ["Anna", "Bruno"], "rules": {"partnerships": True}}, "rules.partnerships"),
    ({"players": ["Anna", "Bruno"], "colour": "red"}, "colour"),
    ({"players": ["Anna", "Bruno"], "deals": [{"piles": {}}]}, "deals[0].piles"),
    ({}, "players"),
    ([1, 2], ""),
    ("Anna", ""),
]


@pytest.mark.parametrize(("body", "where"), BAD_MATCHES)
@pytest.mark.parametrize("route", ["/api/matches", "/api/import"])
def test_bad_match_is_422_and_nothing_stored(
    client: TestClient, route: str, body: Any, where: str
) -> None:
    response = client.post(route, json=body)
    assert response.status_code == 422
    answer = response.json()
    assert set(answer) == {"error", "where", "code"}
    assert answer["where"] == where
    assert answer["error"]
    assert client.get("/api/matches").json() == []


def broken(**changes: Any) -> dict[str, Any]:
    deal = anna_deal()
    deal.update(changes)
    return deal


def pile_change(owner: str, **changes: Any) -> dict[str, Any]:
    deal = anna_deal()
    deal["piles"][owner] = {**deal["piles"][owner], **changes}
    return deal


BAD_DEALS: list[tuple[Any, str]] = [
    (pile_change("Anna", count=21), "piles"),
    (pile_change("Anna", count="many"), "piles.Anna.count"),
    (pile_change("Bruno", coins=["4", "6", "J", "Xd"]), "piles.Bruno.coins[3]"),
    (pile_change("Bruno", coins=["4", "6", "J", "A"]), "piles.Bruno"),
    (broken(sweeps={"Anna": 30}), "sweeps.Anna"),
    (broken(sweeps={"Carla": 1}), "sweeps.Carla"),
    (broken(last_capture="Carla"), "last_capture"),
    (broken(piles={"Anna": {"count": 40}}), "piles"),
    (broken(extra=1), "extra"),
    ({"sweeps": {}}, "piles"),
    (["not", "a", "deal"], ""),
    (None, ""),
]


@pytest.mark.parametrize(("body", "where"), BAD_DEALS)
def test_bad_deal_is_422_and_nothing_stored(
    client: TestClient, match_id: int, body: Any, where: str
) -> None:
    before = snapshot(client, match_id)
    response = client.post(f"/api/matches/{match_id}/deals", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["where"] == where
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    middle = snapshot(client, match_id)
    response = client.put(f"/api/matches/{match_id}/deals/1", json=body)
    assert response.status_code == 422
    assert response.json()["where"] == where
    assert snapshot(client, match_id) == middle
    assert before["version"] + 1 == middle["version"]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"target": 100}, "rules.target"),
        ({"napola": "sometimes"}, "rules.napola"),
        ({"primiera": "maybe"}, "rules.primiera"),
        ({"colour": "red"}, "rules.colour"),
        ({"partnerships": True}, "rules"),
        ({"version": "two"}, "version"),
        ([1], "rules"),
    ],
)
def test_bad_rules_are_422(client: TestClient, match_id: int, body: Any, where: str) -> None:
    before = snapshot(client, match_id)
    response = client.patch(f"/api/matches/{match_id}/rules", json=body)
    assert response.status_code == 422
    assert response.json()["where"] == where
    assert snapshot(client, match_id) == before


def test_not_json_and_too_large(client: TestClient, match_id: int) -> None:
    response = client.post(
        "/api/matches", content=b"{players", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["where"] == "body"
    assert "JSON" in response.json()["error"]
    huge = b'{"players": ["' + b"a" * (3 * 1024 * 1024) + b'"]}'
    response = client.post("/api/matches", content=huge)
    assert response.status_code == 413
    assert response.json()["where"] == "body"
    assert [m["id"] for m in client.get("/api/matches").json()] == [match_id]


@pytest.mark.parametrize(
    ("path", "where"),
    [
        ("/api/matches/abc", "match_id"),
        ("/api/matches/0", "match_id"),
        ("/api/matches/99999999999999999999999", "match_id"),
        ("/api/matches/1/deals/0", "number"),
    ],
)
def test_bad_path_values_are_422(client: TestClient, match_id: int, path: str, where: str) -> None:
    method = "GET" if path.count("/") == 3 else "DELETE"
    response = client.request(method, path)
    assert response.status_code == 422
    assert response.json()["where"] == where


# --- unknown ids: 404 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/matches/999", None),
        ("DELETE", "/api/matches/999", None),
        ("POST", "/api/matches/999/deals", anna_deal()),
        ("PUT", "/api/matches/999/deals/1", anna_deal()),
        ("DELETE", "/api/matches/999/deals/1", None),
        ("PATCH", "/api/matches/999/rules", {"primiera": False}),
        ("GET", "/api/matches/999/history", None),
        ("GET", "/api/matches/999/export.json", None),
        ("GET", "/api/matches/999/export.csv", None),
        ("POST", "/api/matches/999/removed/1/restore", None),
        ("PUT", "/api/matches/{id}/deals/5", anna_deal()),
        ("DELETE", "/api/matches/{id}/deals/5", None),
        ("POST", "/api/matches/{id}/removed/12345/restore", None),
        ("GET", "/api/nothing-here", None),
    ],
)
def test_unknown_is_404(
    client: TestClient, match_id: int, method: str, path: str, body: Any
) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    before = snapshot(client, match_id)
    response = client.request(method, path.format(id=match_id), json=body)
    assert response.status_code == 404
    assert set(response.json()) == {"error", "where", "code"}
    assert snapshot(client, match_id) == before


# --- stale versions: 409, nothing stored -----------------------------------------------------


def changes(match_id: int, removed_id: int) -> list[tuple[str, str, Any]]:
    return [
        ("POST", f"/api/matches/{match_id}/deals", anna_deal()),
        ("PUT", f"/api/matches/{match_id}/deals/1", bruno_deal()),
        ("DELETE", f"/api/matches/{match_id}/deals/1", None),
        ("PATCH", f"/api/matches/{match_id}/rules", {"primiera": False}),
        ("POST", f"/api/matches/{match_id}/removed/{removed_id}/restore", None),
        ("DELETE", f"/api/matches/{match_id}", None),
    ]


@pytest.mark.parametrize("index", range(6))
@pytest.mark.parametrize("how", ["header", "etag", "body"])
def test_stale_version_is_409(client: TestClient, match_id: int, index: int, how: str) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    removed = client.delete(f"/api/matches/{match_id}/deals/2").json()["removed"][0]["id"]
    before = snapshot(client, match_id)
    stale = before["version"] - 1
    method, path, body = changes(match_id, removed)[index]
    headers = {}
    if how == "header":
        headers["If-Match"] = str(stale)
    elif how == "etag":
        headers["If-Match"] = f'W/"{stale}"'
    else:
        body = {**(body or {}), "version": stale}
    response = client.request(method, path, json=body, headers=headers)
    assert response.status_code == 409, response.text
    assert response.json()["where"] == "version"
    assert snapshot(client, match_id) == before
    current = {"If-Match": f'"{before["version"]}"'}
    body = None if how == "body" else body
    body = changes(match_id, removed)[index][2]
    assert client.request(method, path, json=body, headers=current).status_code in (200, 201)


def test_if_match_must_be_a_version(client: TestClient, match_id: int) -> None:
    response = client.post(
        f"/api/matches/{match_id}/deals", json=anna_deal(), headers={"If-Match": "yesterday"}
    )
    assert response.status_code == 422
    assert response.json()["where"] == "If-Match"
    response = client.post(
        f"/api/matches/{match_id}/deals",
        json={**anna_deal(), "version": 2},
        headers={"If-Match": "1"},
    )
    assert response.status_code == 422
    assert snapshot(client, match_id)["version"] == 1


def test_openapi_schema(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    paths = schema["paths"]
    assert {"/api/matches", "/api/matches/{match_id}/deals", "/api/import"} <= set(paths)
    assert "/api/matches/{match_id}/rules" in paths
    assert not any(path.startswith("/matches") for path in paths)


@pytest.mark.parametrize("page", [False, True])
def test_a_removed_deal_not_there_is_named_by_its_id(
    client: TestClient, match_id: int, page: bool
) -> None:
    """The restore of a removed deal the match does not have: a 404 at ``removed_id``, the
    path's parameter (it said ``number``, a deal's)."""
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    before = snapshot(client, match_id)
    path = f"/matches/{match_id}/removed/99999/restore"
    if page:
        missing = client.post(path, data={"version": "2"}, headers={"Accept-Language": "es"})
        assert missing.status_code == 404
        assert "<code>removed_id</code>" in missing.text
    else:
        missing = client.post(f"/api{path}", headers={"Accept-Language": "es"})
        assert missing.status_code == 404
        assert missing.json()["where"] == "removed_id"
    assert snapshot(client, match_id) == before
