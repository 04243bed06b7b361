"""Every page has a JSON twin (``?format=json``), announced with ``Link: rel=alternate``,
computed from the same data as the page."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import anna_deal, bruno_deal


def twin(client: TestClient, path: str) -> Any:
    """The page at ``path``: its Link header names the twin; the twin's JSON."""
    page = client.get(path)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    link = page.headers["link"]
    assert link.endswith('>; rel="alternate"; type="application/json"')
    address = link[1 : link.index(">")]
    assert "format=json" in address
    answer = client.get(address)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    return answer.json()


@pytest.fixture
def played(client: TestClient, match_id: int) -> int:
    for deal in (anna_deal(), bruno_deal()):
        assert client.post(f"/api/matches/{match_id}/deals", json=deal).status_code == 201
    return match_id


def test_home(client: TestClient, played: int) -> None:
    data = twin(client, "/")
    assert data["matches"] == client.get("/api/matches").json()


def test_sheet(client: TestClient, played: int) -> None:
    data = twin(client, f"/matches/{played}")
    api = client.get(f"/api/matches/{played}").json()
    assert {k: data[k] for k in api} == api
    assert data["title"] == "Anna vs Bruno"
    assert [e["summary"] for e in data["history"]] == [
        "Match created: Anna, Bruno",
        "Deal 1 recorded",
        "Deal 2 recorded",
    ]


def test_sheet_after_a_deletion_offers_the_undo(client: TestClient, played: int) -> None:
    removed = client.delete(f"/api/matches/{played}/deals/1").json()["removed"][0]
    data = twin(client, f"/matches/{played}?done=1&undo={removed['id']}")
    assert data["note"] == "Deal 1 deleted"
    assert data["undo"] == removed


def test_deal_page(client: TestClient, played: int) -> None:
    data = twin(client, f"/matches/{played}/deals/2")
    sheet = client.get(f"/api/matches/{played}").json()["sheet"]
    assert data["row"] == sheet["deals"][1]
    assert data["deal"] == client.get(f"/api/matches/{played}").json()["match"]["deals"][1]
    bruno = next(side for side in data["sides"] if side["side"] == "Bruno")
    assert bruno["points"] == sheet["deals"][1]["points"]["Bruno"]
    assert bruno["count"] == 22
    assert bruno["settebello"] is True


def test_deal_forms(client: TestClient, played: int) -> None:
    blank = twin(client, f"/matches/{played}/deals/new?mode=cards")
    assert blank["number"] is None
    assert blank["form"]["owners"] == ["Anna", "Bruno"]
    assert blank["form"]["mode"] == "cards"
    filled = twin(client, f"/matches/{played}/deals/1/edit")
    assert filled["number"] == 1
    assert filled["form"]["counts"] == ["22", "18"]
    assert filled["form"]["coins"][1] == ["4", "6", "H", "J"]
    assert filled["version"] == 3


def test_new_match_and_import(client: TestClient, played: int) -> None:
    new = twin(client, "/matches/new")
    assert new["remembered"] == ["Anna", "Bruno"]
    assert new["rules"]["target"] == 11
    assert "scopone" in new["presets"]
    assert twin(client, "/import")["api"] == "/api/import"


def test_the_twin_keeps_the_other_query_parameters(client: TestClient, played: int) -> None:
    page = client.get(f"/matches/{played}/deals/new?mode=cards")
    assert f"/matches/{played}/deals/new?mode=cards&format=json" in page.headers["link"]


def test_a_twin_answers_errors_as_json(client: TestClient) -> None:
    answer = client.get("/matches/999?format=json")
    assert answer.status_code == 404
    assert answer.json() == {
        "error": "no match with id 999",
        "where": "id",
        "code": "match.no_match_id",
    }
    assert client.get("/matches/999").headers["content-type"].startswith("text/html")
