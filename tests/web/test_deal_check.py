"""The deal form's live check by the server, used while the device's scorer is not running:
green exactly when posting the same form records the deal, with the points it then has; the
reason next to the field otherwise, in the reader's language; nothing is ever written."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.test_pages import TALLY


def version(client: TestClient, match_id: int) -> int:
    found: int = client.get(f"/api/matches/{match_id}").json()["version"]
    return found


def test_a_complete_tally_is_ready_with_the_points_recording_it_gives(
    client: TestClient, match_id: int
) -> None:
    checked = client.post(f"/matches/{match_id}/deals/new/check", data=TALLY)
    assert checked.status_code == 200
    answer = checked.json()
    assert answer["ok"] is True
    assert answer["points"] == {"Anna": 5, "Bruno": 2}
    assert version(client, match_id) == 1  # a check writes nothing
    posted = client.post(f"/matches/{match_id}/deals/new", data=TALLY, follow_redirects=False)
    assert posted.status_code == 303
    assert client.get(f"/api/matches/{match_id}").json()["sheet"]["totals"] == answer["points"]


def test_a_deal_the_server_would_refuse_is_not_ready_and_says_why_where(
    client: TestClient, match_id: int
) -> None:
    too_many = client.post(f"/matches/{match_id}/deals/new/check", data={**TALLY, "count-0": "25"})
    assert too_many.json()["ok"] is False
    assert "43 cards" in " ".join(too_many.json()["errors"].values())
    refused = client.post(f"/matches/{match_id}/deals/new", data={**TALLY, "count-0": "25"})
    assert refused.status_code == 422  # the same form, posted: refused as the check said
    italian = client.post(
        f"/matches/{match_id}/deals/new/check",
        data={**TALLY, "count-1": "tante"},
        headers={"Accept-Language": "it"},
    )
    assert italian.json()["errors"]["count-1"] == "'tante' non è un numero intero di carte"
    odd = client.post(f"/matches/{match_id}/deals/new/check", data={**TALLY, "count-0": "²²"})
    assert odd.status_code == 200
    assert "count-0" in odd.json()["errors"]
    assert version(client, match_id) == 1


def test_the_edit_form_is_checked_against_its_own_deal(client: TestClient, match_id: int) -> None:
    client.post(f"/matches/{match_id}/deals/new", data=TALLY)
    swapped = {**TALLY, "sweeps-0": "0"}
    checked = client.post(f"/matches/{match_id}/deals/1/check", data=swapped).json()
    assert checked["ok"] is True
    assert checked["points"] == {"Anna": 4, "Bruno": 2}
    assert client.post(f"/matches/{match_id}/deals/2/check", data=TALLY).status_code == 404
    assert client.post("/matches/999/deals/new/check", data=TALLY).status_code == 404
    assert version(client, match_id) == 2
