"""Issue 23's smaller points on the server's side. The change log reads each deal's points as
they were when the change was made, so that its lines reconcile with the rules changes logged
between them ("Primiera off: Anna 12 → 10"): kept in the entry since the points were kept,
worked out under the rules of that time for entries logged before. The new-match form's first
dealer is checked like any field."""

from __future__ import annotations

import dataclasses

from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web.pages.changelog import lines
from tests.web.bodies import anna_deal


def test_old_entries_read_under_the_rules_of_their_time(
    client: TestClient, store: MatchStore
) -> None:
    api = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    base = f"/api/matches/{api}"
    client.post(f"{base}/deals", json=anna_deal())  # Anna 5, Bruno 2 with primiera
    client.patch(f"{base}/rules", json={"primiera": False})  # Anna 5 → 4
    client.post(f"{base}/deals", json=anna_deal())  # Anna 4, Bruno 2 now
    entries = store.history(api)
    match = store.get(api).match
    read = [line.text for line in lines(entries, match)]
    assert read[0] == "Deal 2 recorded: Anna 4, Bruno 2"
    assert read[1].startswith("Primiera off: Anna 5 → 4")
    assert read[2] == "Deal 1 recorded: Anna 5, Bruno 2"
    # The same log written before the points were kept in it: the same lines.
    legacy = [
        dataclasses.replace(
            entry,
            detail={k: v for k, v in (entry.detail or {}).items() if not k.startswith("points")},
        )
        for entry in entries
    ]
    assert [line.text for line in lines(legacy, match)] == read
    # And on the sheet.
    page = client.get(f"/matches/{api}").text
    assert "Deal 1 recorded: Anna 5, Bruno 2" in page


def test_the_new_match_form_checks_who_deals_first(client: TestClient) -> None:
    """The first dealer is a seat of the form; an empty or unknown seat is said next to the
    field (422, nothing created), never a 500."""
    before = len(client.get("/api/matches").json())
    form = {"player": ["Anna", "Bruno", "", "Dario"], "variant": "scopa", "target": "11"}
    for seat, said in (("2", "seat 3 is empty"), ("9", "9 is not a seat"), ("x", "x is not")):
        answer = client.post("/matches/new", data={**form, "first_dealer": seat})
        assert answer.status_code == 422
        assert said in answer.text
    assert len(client.get("/api/matches").json()) == before
    made = client.post("/matches/new", data={**form, "first_dealer": "3"}, follow_redirects=False)
    assert made.status_code == 303
    ident = int(made.headers["location"].rsplit("/", 1)[1])
    assert client.get(f"/api/matches/{ident}").json()["match"]["first_dealer"] == "Dario"
    assert "Dario deals deal 1" in client.get(f"/matches/{ident}").text
