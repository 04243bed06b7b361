"""The API documents itself: every answer has the shape its model in the OpenAPI schema says,
key for key, and every body a route reads is described there."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError

from scopa.web.api import schemas
from tests.web.conftest import anna_deal, bruno_deal

ANSWERS: dict[str, type[BaseModel]] = {
    "StoredMatch": schemas.StoredMatch,
    "RulesChanged": schemas.RulesChanged,
    "ListItem": schemas.ListItem,
    "LogItem": schemas.LogItem,
    "Deleted": schemas.Deleted,
    "Error": schemas.Error,
    "Match": schemas.Match,
}


def check(model: type[BaseModel], data: Any) -> None:
    """``data`` validates against ``model``, which allows no key it does not declare."""
    model.model_validate(data)


def test_every_answer_has_its_documented_shape(client: TestClient) -> None:
    created = client.post(
        "/api/matches",
        json={"players": ["Anna", "Bruno"], "name": "Finals", "rules": {"napola": "flat"}},
    )
    check(schemas.StoredMatch, created.json())
    match_id = created.json()["id"]
    for deal in (anna_deal(), bruno_deal(), anna_deal()):
        check(schemas.StoredMatch, client.post(f"/api/matches/{match_id}/deals", json=deal).json())
    check(
        schemas.StoredMatch, client.put(f"/api/matches/{match_id}/deals/2", json=anna_deal()).json()
    )
    deleted = client.delete(f"/api/matches/{match_id}/deals/1").json()
    check(schemas.StoredMatch, deleted)
    assert deleted["removed"], "a removed deal is listed"
    changed = client.patch(f"/api/matches/{match_id}/rules", json={"target": 5}).json()
    check(schemas.RulesChanged, changed)
    assert changed["changes"]["decided_at"] == {"before": 2, "after": 1}
    restore = f"/api/matches/{match_id}/removed/{deleted['removed'][0]['id']}/restore"
    check(schemas.StoredMatch, client.post(restore).json())
    teams = {"players": ["A", "B", "C", "D"], "rules": {"partnerships": True}}
    partners = client.post("/api/matches", json=teams).json()
    check(schemas.StoredMatch, partners)
    sides = client.patch(f"/api/matches/{partners['id']}/rules", json={"partnerships": False})
    check(schemas.RulesChanged, sides.json())
    assert sides.json()["changes"]["sides"] is not None
    for item in client.get("/api/matches").json():
        check(schemas.ListItem, item)
    for entry in client.get(f"/api/matches/{match_id}/history").json():
        check(schemas.LogItem, entry)
    check(schemas.Match, client.get(f"/api/matches/{match_id}/export.json").json())
    imported = client.post("/api/import", json=created.json()["match"])
    check(schemas.StoredMatch, imported.json())
    check(schemas.Deleted, client.delete(f"/api/matches/{partners['id']}").json())
    for refused in (
        client.get("/api/matches/999"),
        client.post(f"/api/matches/{match_id}/deals", json={"piles": 3}),
        client.post(f"/api/matches/{match_id}/deals", json={**anna_deal(), "version": 1}),
    ):
        check(schemas.Error, refused.json())


@pytest.mark.parametrize(
    ("variant", "facts"),
    [
        ("cirulla", {"declarations": {"Anna": ["cirulla"]}}),
        ("assi", {"ace_sweeps": {"Bruno": 1}}),
        ("escoba", {}),
    ],
)
def test_variant_matches_have_their_documented_shape(
    client: TestClient, variant: str, facts: dict[str, Any]
) -> None:
    created = client.post("/api/matches", json={"variant": variant, "players": ["Anna", "Bruno"]})
    check(schemas.StoredMatch, created.json())
    match_id = created.json()["id"]
    recorded = client.post(f"/api/matches/{match_id}/deals", json={**anna_deal(), **facts})
    assert recorded.status_code == 201, recorded.json()
    check(schemas.StoredMatch, recorded.json())
    assert recorded.json()["match"]["variant"] == variant
    changed = client.patch(f"/api/matches/{match_id}/rules", json={"target": 21})
    check(schemas.RulesChanged, changed.json())
    refused = client.patch(f"/api/matches/{match_id}/rules", json={"variant": "scopa"})
    assert refused.status_code == 422
    check(schemas.Error, refused.json())


def test_an_undeclared_key_is_caught() -> None:
    """The check above can fail: a key the model does not declare is refused."""
    with pytest.raises(ValidationError, match="extra"):
        check(schemas.Error, {"error": "x", "where": "", "hint": "y"})


def test_the_schema_names_every_shape(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    components = schema["components"]["schemas"]
    assert set(ANSWERS) | {"DealBody", "RulesBody", "VersionBody", "Deal", "Pile"} <= set(
        components
    )
    bodies = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            ref = operation.get("requestBody", {}).get("content", {})
            if ref:
                bodies[f"{method.upper()} {path}"] = ref["application/json"]["schema"]["$ref"]
            answers = operation["responses"]
            assert answers["422"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Error"
            }
    assert bodies == {
        "POST /api/matches": "#/components/schemas/Match",
        "DELETE /api/matches/{match_id}": "#/components/schemas/VersionBody",
        "PATCH /api/matches/{match_id}/rules": "#/components/schemas/RulesBody",
        "POST /api/matches/{match_id}/deals": "#/components/schemas/DealBody",
        "PUT /api/matches/{match_id}/deals/{number}": "#/components/schemas/DealBody",
        "DELETE /api/matches/{match_id}/deals/{number}": "#/components/schemas/VersionBody",
        "POST /api/matches/{match_id}/removed/{removed_id}/restore": (
            "#/components/schemas/VersionBody"
        ),
        "POST /api/import": "#/components/schemas/Match",
        "POST /api/matches/{match_id}/changes": "#/components/schemas/ChangeBody",
        "POST /api/tables": "#/components/schemas/NewTable",
        "POST /api/tables/{table_id}/seats": "#/components/schemas/TableSeatBody",
        "POST /api/tables/{table_id}/plays": "#/components/schemas/TablePlayBody",
        "POST /api/tables/{table_id}/next": "#/components/schemas/TableStepBody",
    }
    for ref in set(bodies.values()):
        assert ref.rsplit("/", 1)[1] in components
    pile = components["Pile"]["properties"]
    assert {"cards", "count", "coins", "best"} <= set(pile)
    deal = components["DealBody"]["properties"]
    assert {"piles", "sweeps", "last_capture", "version"} <= set(deal)


def test_the_docs_page_loads_swagger_ui_from_this_server(client: TestClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200
    assert "https://" not in page.text
    for asset in (
        "/static/vendor/swagger-ui/swagger-ui-bundle.js",
        "/static/vendor/swagger-ui/swagger-ui.css",
        "/static/api-docs.js",
    ):
        assert asset in page.text
        assert client.get(asset).status_code == 200
    assert "<script>" not in page.text, "the CSP allows no inline script"


def test_the_tables_answers_have_their_documented_shapes(client: TestClient) -> None:
    """Issue 27: /api/tables is in the document, each answer and refusal in its shape."""
    from scopa.web.tables import schemas as tables

    paths = client.get("/api/openapi.json").json()["paths"]
    seats = paths["/api/tables/{table_id}/seats"]["post"]["responses"]
    assert seats["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/TableSeatTaken"
    }
    assert "Retry-After" in seats["429"]["headers"]
    assert (
        "text/event-stream"
        in paths["/api/tables/{table_id}/events"]["get"]["responses"]["200"]["content"]
    )
    created = client.post("/api/tables", json={"players": 2, "names": ["Anna"]})
    check(tables.TableCreated, created.json())
    table, token, code = created.json()["table"], created.json()["token"], created.json()["code"]
    path = f"/api/tables/{table}"
    seat = client.post(f"{path}/seats", json={"code": code, "name": "Bruno"})
    check(tables.TableSeatTaken, seat.json())
    mine = client.get(path, headers={"Authorization": f"Bearer {token}"})
    check(tables.TableView, mine.json())
    check(tables.TableView, client.get(path, params={"code": code}).json())
    view = mine.json()
    holder = token if view["turn"] == 0 else seat.json()["token"]
    legal = client.get(path, headers={"Authorization": f"Bearer {holder}"}).json()["legal"][0]
    played = client.post(
        f"{path}/plays",
        json={"step": view["step"], "card": legal["card"], "capture": legal["captures"][0]},
        headers={"Authorization": f"Bearer {holder}"},
    )
    check(tables.TableView, played.json())
    for refused in (
        client.post(f"{path}/seats", json={"code": code}),  # full
        client.post(f"{path}/plays", json={}, headers={"Authorization": f"Bearer {token}"}),
        client.post(f"{path}/next", json={"step": 0}, headers={"Authorization": "Bearer x"}),
        client.post("/api/tables", json={"players": 9}),
        client.get("/api/tables/999999", headers={"Authorization": f"Bearer {token}"}),
    ):
        assert refused.status_code in (401, 404, 409, 422), refused.text
        check(schemas.Error, refused.json())
