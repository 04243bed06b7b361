"""The category form through the API, on SQLite and PostgreSQL: recorded, replaced, keyed
(a repeat stores nothing more), re-scored, exported and imported, and the refused change of
partnerships; each answer of the documented shape."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from scopa.web.api import schemas
from tests.web.conftest import anna_deal

CATEGORY_DEAL: dict[str, Any] = {
    "categories": {
        "cards": "Anna",
        "coins": ["Anna", "Bruno"],
        "settebello": "Bruno",
        "primiera": None,
    },
    "napola": {"Anna": 4},
    "sweeps": {"Anna": 1},
    "last_capture": "Bruno",
}


def test_a_category_deal_is_recorded_keyed_rescored_and_exported(client: TestClient) -> None:
    created = client.post(
        "/api/matches", json={"players": ["Anna", "Bruno"], "rules": {"napola": "flat"}}
    )
    match_id = created.json()["id"]
    url = f"/api/matches/{match_id}/deals"
    missing = client.post(url, json={**CATEGORY_DEAL, "napola": None})
    assert missing.status_code == 422
    assert missing.json()["where"] == "napola"
    key = {"Idempotency-Key": "phone-cat-1"}
    first = client.post(url, json=CATEGORY_DEAL, headers=key)
    assert first.status_code == 201, first.json()
    schemas.StoredMatch.model_validate(first.json())
    again = client.post(url, json=CATEGORY_DEAL, headers=key)
    assert (again.status_code, again.json()) == (201, first.json())
    body = client.get(f"/api/matches/{match_id}").json()
    assert len(body["match"]["deals"]) == 1
    assert body["match"]["deals"][0] == {**CATEGORY_DEAL, "sweeps": {"Anna": 1, "Bruno": 0}}
    assert body["sheet"]["totals"] == {"Anna": 5, "Bruno": 1}
    # A tally deal edited as categories (the other way is refused with a clear error).
    tally = client.post(url, json=anna_deal()).json()
    assert tally["sheet"]["totals"]["Anna"] > 5
    replaced = client.put(f"{url}/2", json={**CATEGORY_DEAL, "napola": {}})
    assert replaced.status_code == 200, replaced.json()
    assert replaced.json()["sheet"]["totals"] == {"Anna": 7, "Bruno": 2}
    changed = client.patch(
        f"/api/matches/{match_id}/rules", json={"napola": "run", "ties": "share"}
    )
    assert changed.status_code == 200
    assert changed.json()["sheet"]["totals"] == {"Anna": 10, "Bruno": 4}
    schemas.RulesChanged.model_validate(changed.json())
    exported = client.get(f"/api/matches/{match_id}/export.json").json()
    schemas.Match.model_validate(exported)
    imported = client.post("/api/import", json=exported)
    assert imported.status_code == 201
    assert imported.json()["sheet"] == changed.json()["sheet"]
    assert client.get(f"/api/matches/{match_id}/export.csv").status_code == 200


def test_partnerships_cannot_change_over_a_category_deal_and_nothing_changes(
    client: TestClient,
) -> None:
    players = ["Anna", "Bruno", "Carla", "Dario"]
    created = client.post(
        "/api/matches", json={"players": players, "rules": {"partnerships": True}}
    )
    match_id = created.json()["id"]
    deal = {
        "categories": {
            "cards": "Anna & Carla",
            "coins": "Bruno & Dario",
            "settebello": "Anna & Carla",
            "primiera": ["Anna & Carla", "Bruno & Dario"],
        },
        "napola": None,
        "sweeps": {"Bruno & Dario": 2},
    }
    del deal["napola"]
    player_named = client.post(
        f"/api/matches/{match_id}/deals", json={**deal, "sweeps": {"Anna": 1}}
    )
    assert player_named.status_code == 422
    assert player_named.json()["where"] == "sweeps.Anna"
    recorded = client.post(f"/api/matches/{match_id}/deals", json=deal)
    assert recorded.status_code == 201, recorded.json()
    before = client.get(f"/api/matches/{match_id}").json()
    refused = client.patch(f"/api/matches/{match_id}/rules", json={"partnerships": False})
    assert refused.status_code in (409, 422)
    assert "deal 1 was recorded as who took each point" in refused.json()["error"]
    schemas.Error.model_validate(refused.json())
    assert client.get(f"/api/matches/{match_id}").json() == before


def test_the_page_records_edits_and_shows_a_category_deal(client: TestClient) -> None:
    created = client.post(
        "/api/matches", json={"players": ["Anna", "Bruno"], "rules": {"napola": "run"}}
    )
    match_id = created.json()["id"]
    form = client.get(f"/matches/{match_id}/deals/new?mode=categories")
    assert form.status_code == 200
    assert 'name="cat-cards"' in form.text
    assert 'name="run-length"' in form.text  # napola in play: its run is asked
    fields = {
        "mode": "categories",
        "version": "1",
        "cat-cards": "0",
        "cat-settebello": "1",
        "sweeps-0": "1",
        "sweeps-1": "0",
        "last": "1",
        "run": "0",
        "run-length": "4",
    }
    bad = client.post(f"/matches/{match_id}/deals/new", data=fields)
    assert bad.status_code == 422
    assert "tap who took it, or the sides that tied" in bad.text  # the coins: nobody tapped
    good = client.post(
        f"/matches/{match_id}/deals/new",
        data={**fields, "cat-coins": ["0", "1"]},
        follow_redirects=False,
    )
    assert good.status_code == 303
    body = client.get(f"/api/matches/{match_id}").json()
    assert body["match"]["deals"][0] == {**CATEGORY_DEAL, "sweeps": {"Anna": 1, "Bruno": 0}}
    assert body["sheet"]["totals"] == {"Anna": 6, "Bruno": 1}
    shown = client.get(f"/matches/{match_id}/deals/1")
    assert shown.status_code == 200
    assert "took it" in shown.text
    assert "tied" in shown.text
    edit = client.get(f"/matches/{match_id}/deals/1/edit?mode=tally")  # refused: no cards known
    assert "cannot be edited as piles or cards" in edit.text
    assert 'name="cat-cards"' in edit.text
    # A tally deal edited as who took each point: the form opens filled in from its facts.
    client.post(f"/api/matches/{match_id}/deals", json={**anna_deal()})
    as_points = client.get(f"/matches/{match_id}/deals/2/edit?mode=categories&format=json").json()
    assert as_points["form"]["mode"] == "categories"
    assert as_points["form"]["took"]["cards"] == ["0"]
    saved = client.post(
        f"/matches/{match_id}/deals/2/edit",
        data={**fields, "cat-coins": "1", "version": "3", "run": ""},
        follow_redirects=False,
    )
    assert saved.status_code == 303, saved.text
    assert "categories" in client.get(f"/api/matches/{match_id}").json()["match"]["deals"][1]


def test_every_variant_has_its_own_category_form(client: TestClient) -> None:
    expected = {
        "scopa": ("Settebello", ["run-length"], ["grande", "cleared", "ace-0", "cirulla-0"]),
        "scopone": ("Settebello", [], ["run-length", "grande", "ace-0"]),
        "assi": ("Settebello", ["run-length", "ace-0"], ["grande", "cleared"]),
        "escoba": ("Setenta", [], ["run-length", "grande", "cirulla-0"]),
        "cirulla": ("Primiera", ["run-length", "grande", "cirulla-0", "decino-0"], ["ace-0"]),
    }
    for variant, (label, present, absent) in expected.items():
        players = ["Anna", "Bruno", "Carla", "Dario"] if variant == "scopone" else ["Anna", "Bruno"]
        rules = {"napola": "flat"} if variant == "scopa" else {}
        created = client.post(
            "/api/matches", json={"variant": variant, "players": players, "rules": rules}
        )
        page = client.get(f"/matches/{created.json()['id']}/deals/new?mode=categories").text
        assert label in page, variant
        for name in present:
            assert f'name="{name}"' in page, (variant, name)
        for name in absent:
            assert f'name="{name}"' not in page, (variant, name)
    scopone = client.post(
        "/api/matches", json={"variant": "scopone", "players": ["A", "B", "C", "D"]}
    ).json()
    assert (
        'name="cleared"' in client.get(f"/matches/{scopone['id']}/deals/new?mode=categories").text
    )


def test_a_match_without_napola_reads_no_run_from_the_page_s_form(client: TestClient) -> None:
    """The page shows no run of coins when the match does not play napola: a posted ``run``
    is not read (it was refused under the hidden field, or stored as a napola the match does
    not play). The API still takes a napola given with napola off (docs/formats.md)."""
    created = client.post("/api/matches", json={"players": ["Anna", "Bruno"]})
    match_id = created.json()["id"]
    form = client.get(f"/matches/{match_id}/deals/new?mode=categories")
    assert 'name="run-length"' not in form.text
    fields = {
        "mode": "categories",
        "cat-cards": "0",
        "cat-coins": "1",
        "cat-settebello": "0",
        "cat-primiera": "1",
        "run": "0",
        "run-length": "99",
    }
    for version, length in (("1", "99"), ("2", "3")):
        made = client.post(
            f"/matches/{match_id}/deals/new",
            data={**fields, "run-length": length, "version": version},
            follow_redirects=False,
        )
        assert made.status_code == 303, made.text
    deals = client.get(f"/api/matches/{match_id}").json()["match"]["deals"]
    assert len(deals) == 2
    assert all("napola" not in deal for deal in deals), deals
    # a deal edited from the page: its hidden run is not read either
    edited = client.post(
        f"/matches/{match_id}/deals/1/edit", data={**fields, "version": "3"}, follow_redirects=False
    )
    assert edited.status_code == 303, edited.text
    assert "napola" not in client.get(f"/api/matches/{match_id}").json()["match"]["deals"][0]
