"""The device's scorer (``scopa.web.phone.device``, run in the browser by Pyodide) reads a posted
deal form exactly as the server's page does, the variant's facts included."""

from __future__ import annotations

import json
from collections.abc import Mapping

from fastapi.testclient import TestClient

from scopa import i18n
from scopa.web.phone import device
from tests.web.conftest import anna_deal, bruno_deal
from tests.web.test_variant_pages import CIRULLA_TALLY


def posted(fields: Mapping[str, object]) -> dict[str, list[str]]:
    return {k: v if isinstance(v, list) else [str(v)] for k, v in fields.items()}


def test_the_live_check_keeps_cirullas_declarations() -> None:
    match = {"variant": "cirulla", "players": ["Anna", "Bruno"]}
    answer = json.loads(
        device.run("check", json.dumps({"match": match, "fields": posted(CIRULLA_TALLY)}))
    )
    assert answer["ok"], answer
    assert answer["deal"]["declarations"] == {"Anna": ["cirulla"]}
    assert answer["points"] == {"Anna": 15, "Bruno": 2}  # the rulebook's worked example (9.6)


def test_an_odd_digit_in_a_declaration_count_is_a_field_error() -> None:
    match = {"variant": "cirulla", "players": ["Anna", "Bruno"]}
    fields = posted({**CIRULLA_TALLY, "cirulla-0": "²"})
    answer = json.loads(device.run("check", json.dumps({"match": match, "fields": fields})))
    assert not answer["ok"]
    assert "cirulla-0" in answer["errors"]


def test_the_device_says_what_the_server_says(client: TestClient) -> None:
    """Changes replayed on the device are told as the server tells them: deals recorded in a
    row counted (pluralised in each language), a rules change with what moved (the server's
    own summary), and the chart the server draws, drawn by the same code."""
    added = [{"kind": "add", "body": d} for d in (anna_deal(), anna_deal(), bruno_deal())]
    changes = [*added, {"kind": "rules", "body": {"primiera": False}}]
    for language, recorded in (("en", "3 deals recorded"), ("it", "3 mani registrate")):
        ident = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
        client.post(f"/api/matches/{ident}/deals", json=bruno_deal())
        before = client.get(f"/api/matches/{ident}").json()
        with i18n.using(language):
            answer = device.apply({"match": before["match"], "changes": changes})
        assert answer["notes"][0] == recorded
        for change in added:
            client.post(f"/api/matches/{ident}/deals", json=change["body"])
        said = client.patch(
            f"/api/matches/{ident}/rules",
            json={"primiera": False},
            headers={"Accept-Language": language},
        ).json()["changes"]["summary"]
        assert answer["notes"][1:] == [said]
        assert "→" in said
        page = client.get(f"/matches/{ident}", headers={"Accept-Language": language}).text
        assert answer["chart"]
        assert answer["chart"] in page
    one = device.apply({"match": before["match"], "changes": changes[:1]})
    assert one["notes"] == ["1 deal recorded"]


def test_the_device_says_who_deals_next() -> None:
    """The offline sheet's dealer line is the worker's answer (the core's ``next_dealer``),
    the changes waiting in: the deal passes to the next seat after each deal recorded here,
    and a change the core refuses leaves it where the changes before it put it."""
    match = {"players": ["Anna", "Bruno"], "first_dealer": "Bruno"}
    add = {"kind": "add", "body": anna_deal()}
    assert device.apply({"match": match, "changes": []})["dealer"] == "Bruno"
    assert device.apply({"match": match, "changes": [add]})["dealer"] == "Anna"
    assert device.apply({"match": match, "changes": [add, add]})["dealer"] == "Bruno"
    refused = device.apply({"match": match, "changes": [add, {"kind": "delete", "number": 9}]})
    assert (refused["index"], refused["dealer"]) == (1, "Anna")


def test_rules_applied_as_they_are_are_told_as_the_server_tells_them(client: TestClient) -> None:
    """The rules applied unchanged on the device: the note the server's page gives (no new
    version there, nothing moved)."""
    ident = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    client.post(f"/api/matches/{ident}/deals", json=anna_deal())
    before = client.get(f"/api/matches/{ident}").json()
    same = [{"kind": "rules", "body": {"target": 11}}]
    with i18n.using("it"):
        answer = device.apply({"match": before["match"], "changes": same})
    page = client.post(
        f"/matches/{ident}/settings",
        data={"version": str(before["version"]), "target": "11", "primiera": "on"},
        headers={"Accept-Language": "it"},
    ).text
    assert answer["notes"] == ["Le regole della casa sono rimaste come prima."]
    assert answer["notes"][0] in page
