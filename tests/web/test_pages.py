"""The pages without a browser: forms post and redirect, errors sit next to their field,
nothing is saved until valid, user text is escaped, the security headers are set."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import anna_deal

TALLY = {
    "mode": "tally",
    "count-0": "22",
    "coins-0": ["A", "2", "3", "5", "7", "K"],
    "best-0-c": "7",
    "best-0-s": "7",
    "best-0-b": "6",
    "sweeps-0": "1",
    "count-1": "18",
    "coins-1": ["4", "6", "J", "H"],
    "best-1-c": "5",
    "best-1-s": "6",
    "best-1-b": "7",
    "sweeps-1": "2",
    "last": "1",
}


def test_pages_render_with_security_headers(client: TestClient, match_id: int) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    for path in [
        "/",
        "/matches/new",
        f"/matches/{match_id}",
        f"/matches/{match_id}/deals/1",
        f"/matches/{match_id}/deals/new",
        f"/matches/{match_id}/deals/new?mode=cards",
        f"/matches/{match_id}/deals/1/edit",
        "/import",
        f"/matches/{match_id}/sheet",
    ]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        assert "<script>" not in response.text
        assert " style=" not in response.text


TWO = {"player": ["Anna", "Bruno"], "target": "11"}


def test_new_match_form(client: TestClient) -> None:
    response = client.post(
        "/matches/new",
        data={
            "player": ["Anna", "", "Bruno"],
            "target": "11",
            "primiera": "on",
            "napola": "off",
            "ties": "withhold",
        },
        follow_redirects=False,
    )
    assert response.status_code == 303
    match = client.get(response.headers["location"].replace("/matches/", "/api/matches/"))
    assert match.json()["match"]["players"] == ["Anna", "Bruno"]
    bad = client.post("/matches/new", data={"player": ["Anna", "Anna"], "target": "11"})
    assert bad.status_code == 422
    assert "listed twice" in bad.text
    assert len(client.get("/api/matches").json()) == 1
    preset = client.post("/matches/new", data={"player": ["Anna"], "preset": "scopa21"})
    assert 'value="21"' in preset.text
    # a name one longer than the form lets a person type, sent anyway: refused, said where
    assert 'name="name" maxlength="100"' in preset.text
    long = client.post("/matches/new", data={**TWO, "name": "x" * 101})
    assert long.status_code == 422
    assert "is 101 characters; at most 100" in long.text
    assert len(client.get("/api/matches").json()) == 1


def test_record_deal_form(client: TestClient, match_id: int) -> None:
    bad = client.post(f"/matches/{match_id}/deals/new", data={**TALLY, "count-0": "25"})
    assert bad.status_code == 422
    assert "Nothing was saved" in bad.text
    assert "43 cards" in bad.text
    bad = client.post(f"/matches/{match_id}/deals/new", data={**TALLY, "count-1": "lots"})
    assert "is not a whole number of cards" in bad.text
    assert client.get(f"/api/matches/{match_id}").json()["version"] == 1
    good = client.post(f"/matches/{match_id}/deals/new", data=TALLY, follow_redirects=False)
    assert good.status_code == 303
    sheet = client.get(f"/api/matches/{match_id}").json()["sheet"]
    assert sheet["totals"] == {"Anna": 5, "Bruno": 2}
    stale = client.post(f"/matches/{match_id}/deals/new", data={**TALLY, "version": "1"})
    assert stale.status_code == 409
    assert "changed on another device" in stale.text
    assert len(client.get(f"/api/matches/{match_id}").json()["match"]["deals"]) == 1


def test_settings_delete_restore_with_htmx(client: TestClient, match_id: int) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    htmx = {"HX-Request": "true"}
    response = client.post(
        f"/matches/{match_id}/settings",
        data={"version": "2", "target": "11", "napola": "off", "ties": "withhold"},
        headers=htmx,
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="sheet"')
    assert "Primiera off" in response.text
    response = client.post(
        f"/matches/{match_id}/deals/1/delete", data={"version": "3"}, headers=htmx
    )
    assert "Deal 1 deleted" in response.text
    assert "Undo" in response.text
    removed = client.get(f"/api/matches/{match_id}").json()["removed"][0]["id"]
    response = client.post(
        f"/matches/{match_id}/removed/{removed}/restore",
        data={"version": "4"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert len(client.get(f"/api/matches/{match_id}").json()["match"]["deals"]) == 1


def test_the_rules_applied_as_they_are_change_nothing(client: TestClient, match_id: int) -> None:
    """House rules applied unchanged (the page's form, the API's PATCH, an empty one): no new
    version, which would make every other device's open form stale, and no line in the log;
    the page says the rules are as they were."""
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    kept = client.get(f"/api/matches/{match_id}").json()
    rules = {"target": "11", "primiera": "on", "napola": "off", "ties": "withhold"}
    for htmx in ({"HX-Request": "true"}, {}):
        page = client.post(
            f"/matches/{match_id}/settings",
            data={"version": str(kept["version"]), **rules},
            headers={**htmx, "Accept-Language": "it"},
        )
        assert page.status_code == 200
        assert "Le regole della casa sono rimaste come prima." in page.text
    for body in ({}, {"target": 11}, {"primiera": True}):
        answer = client.patch(f"/api/matches/{match_id}/rules", json=body)
        assert answer.status_code == 200
        assert answer.json()["version"] == kept["version"]
    assert client.get(f"/api/matches/{match_id}").json()["version"] == kept["version"]
    assert len(client.get(f"/api/matches/{match_id}/history").json()) == 2  # made, the deal
    changed = client.patch(f"/api/matches/{match_id}/rules", json={"target": 21})
    assert changed.json()["version"] == kept["version"] + 1


def test_names_are_escaped(client: TestClient) -> None:
    created = client.post("/api/matches", json={"players": ["<script>", "Bruno"]}).json()
    page = client.get(f"/matches/{created['id']}").text
    assert "&lt;script&gt;" in page
    assert "<script>" not in page
    assert "&lt;script&gt;" in client.get("/").text


def test_import_page(client: TestClient) -> None:
    bad = client.post("/import", data={"text": '{"players": ["Anna"]}'})
    assert bad.status_code == 422
    assert "players" in bad.text
    good = client.post(
        "/import", files={"file": ("m.json", b'{"players": ["A", "B"]}')}, follow_redirects=False
    )
    assert good.status_code == 303


def test_unknown_pages_are_404(client: TestClient, match_id: int) -> None:
    assert client.get("/matches/999").status_code == 404
    assert client.get(f"/matches/{match_id}/deals/3").status_code == 404
    assert "Not found" in client.get("/matches/999").text


def test_the_log_says_what_each_change_did_and_a_rematch(client: TestClient, match_id: int) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    client.put(f"/api/matches/{match_id}/deals/1", json=anna_deal(anna_sweeps=3))
    client.delete(f"/api/matches/{match_id}/deals/1")
    page = client.get(f"/matches/{match_id}/sheet", headers={"HX-Request": "true"}).text
    assert "Deal 1 recorded: Anna 5, Bruno 2" in page
    assert "Deal 1 edited: Anna 5 → 7" in page
    assert "Deal 1 deleted (Anna 7, Bruno 2)" in page
    assert "Rematch" not in page
    for _ in range(3):
        client.post(f"/api/matches/{match_id}/deals", json=anna_deal(anna_sweeps=3))
    sheet = client.get(f"/matches/{match_id}").text
    assert "Anna wins" in sheet
    assert f'action="/matches/{match_id}/rematch"' in sheet
    again = client.post(f"/matches/{match_id}/rematch", follow_redirects=False)
    assert again.status_code == 303
    new_id = int(again.headers["location"].rsplit("/", 1)[1])
    fresh = client.get(f"/api/matches/{new_id}").json()
    assert fresh["match"]["players"] == ["Anna", "Bruno"]
    assert fresh["match"]["deals"] == []
