"""One merge policy, online and offline (issue 23 items 3 and 5), on both databases: the
API's ``POST /api/matches/{id}/changes`` (what the phone's outbox sends) and the pages' forms
made stale by another device go through :meth:`MatchService.merge`."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from scopa.web.api import schemas
from tests.web.bodies import anna_deal, bruno_deal
from tests.web.test_api_schema import check
from tests.web.test_pages import TALLY


def get(client: TestClient, match_id: int) -> Any:
    return client.get(f"/api/matches/{match_id}").json()


def change(client: TestClient, match_id: int, body: Any) -> Any:
    return client.post(f"/api/matches/{match_id}/changes", json=body)


def test_deals_have_identities_that_follow_them(client: TestClient, match_id: int) -> None:
    for _ in range(3):
        client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    ids = get(client, match_id)["deal_ids"]
    assert len(set(ids)) == 3
    client.put(f"/api/matches/{match_id}/deals/2", json=bruno_deal())
    assert get(client, match_id)["deal_ids"] == ids  # an edit keeps the deal's identity
    client.delete(f"/api/matches/{match_id}/deals/1")
    stored = get(client, match_id)
    assert stored["deal_ids"] == ids[1:]
    assert stored["removed"][0]["id"] == ids[0]  # its removed id is its identity
    client.post(f"/api/matches/{match_id}/removed/{ids[0]}/restore")
    assert get(client, match_id)["deal_ids"] == ids


def test_the_twin_deal_delete(client: TestClient, match_id: int) -> None:
    """Three identical deals; deal 2 edited, then deal 3 deleted, both as a phone offline
    sends them (based on version 4): deal 3 goes, the edited deal stays deal 2."""
    for _ in range(3):
        client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    seen = get(client, match_id)
    ids = seen["deal_ids"]
    twin = seen["match"]["deals"][0]
    edit = {
        "kind": "replace",
        "number": 2,
        "body": bruno_deal(),
        "base": {"version": 4, "deal": twin, "deal_id": ids[1]},
    }
    assert change(client, match_id, edit).json()["outcome"] == "sent"
    delete = {
        "kind": "delete",
        "number": 3,
        "base": {"version": 4, "deal": twin, "deal_id": ids[2]},
    }
    answer = change(client, match_id, delete)
    assert answer.status_code == 200
    after = answer.json()
    assert after["deal_ids"] == ids[:2]
    assert after["removed"][0]["id"] == ids[2]
    assert after["match"]["deals"][1]["last_capture"] == bruno_deal()["last_capture"]
    assert after["match"]["deals"][1]["piles"] == bruno_deal()["piles"]
    # Deleted again from another stale page: already gone, nothing more removed.
    again = change(client, match_id, delete).json()
    check(schemas.ChangeMerged, again)
    assert again["outcome"] == "dropped"
    assert again["why"] == "deal 3 was already deleted on another device"
    assert again["deal_ids"] == ids[:2]
    # why, said in the reader's language
    italian = client.post(
        f"/api/matches/{match_id}/changes", json=delete, headers={"Accept-Language": "it"}
    )
    assert italian.json()["why"] == "la mano 3 era già stata cancellata su un altro dispositivo"


def test_an_offline_edit_follows_its_deal(client: TestClient, match_id: int) -> None:
    """Issue 25 finding 9: another device deleted deal 1; an edit of deal 3 made before
    reaches deal 3 (now deal 2)."""
    for deal in (anna_deal(), bruno_deal(), anna_deal(3, 0)):
        client.post(f"/api/matches/{match_id}/deals", json=deal)
    seen = get(client, match_id)
    client.delete(f"/api/matches/{match_id}/deals/1")
    mine = anna_deal(2, 0)
    edit = {
        "kind": "replace",
        "number": 3,
        "body": mine,
        "base": {"deal": seen["match"]["deals"][2], "deal_id": seen["deal_ids"][2]},
    }
    after = change(client, match_id, edit).json()
    assert after["match"]["deals"][1]["sweeps"] == mine["sweeps"]
    assert after["match"]["deals"][0]["sweeps"] == bruno_deal()["sweeps"]


def test_edits_of_different_fields_merge_and_a_clash_shows_both(
    client: TestClient, match_id: int
) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    seen = get(client, match_id)
    base = {"deal": seen["match"]["deals"][0], "deal_id": seen["deal_ids"][0]}
    theirs = anna_deal()
    theirs["last_capture"] = "Anna"
    client.put(f"/api/matches/{match_id}/deals/1", json=theirs)
    mine = anna_deal(3, 2)  # Anna's sweeps changed here
    answer = change(client, match_id, {"kind": "replace", "number": 1, "body": mine, "base": base})
    assert answer.json()["merged"] is True
    deal = answer.json()["match"]["deals"][0]
    assert (deal["sweeps"]["Anna"], deal["last_capture"]) == (3, "Anna")
    version = answer.json()["version"]
    clash = {"kind": "replace", "number": 1, "body": anna_deal(0, 2), "base": base}
    refused = change(client, match_id, clash)
    assert refused.status_code == 409
    conflict = refused.json()["conflict"]
    assert conflict["type"] == "edited"
    assert conflict["fields"] == ["sweeps.Anna"]
    assert conflict["theirs"]["sweeps"]["Anna"] == 3
    assert get(client, match_id)["version"] == version  # nothing stored
    forced = change(client, match_id, {**clash, "force": True})
    assert forced.json()["match"]["deals"][0]["sweeps"]["Anna"] == 0


def test_rules_after_another_devices_deal(client: TestClient, match_id: int) -> None:
    rules = get(client, match_id)["match"]["rules"]
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    body = {"kind": "rules", "body": {"primiera": False}, "base": {"rules": rules}}
    answer = change(client, match_id, body).json()
    check(schemas.ChangeMerged, answer)
    assert answer["outcome"] == "sent"
    assert answer["match"]["rules"]["primiera"] is False
    assert "Primiera off" in answer["changes"]["summary"]
    same = change(client, match_id, body).json()  # the same value set again: no clash
    assert same["outcome"] == "sent"
    other = {"kind": "rules", "body": {"primiera": True}, "base": {"rules": rules}}
    assert change(client, match_id, other).json()["outcome"] == "dropped"  # as it was
    clash = {"kind": "rules", "body": {"target": 21}, "base": {"rules": rules}}
    client.patch(f"/api/matches/{match_id}/rules", json={"target": 15})
    refused = change(client, match_id, clash)
    assert refused.status_code == 409
    assert refused.json()["conflict"]["settings"] == [{"name": "target", "mine": 21, "theirs": 15}]
    assert refused.json()["code"] == "merge.conflict"
    check(schemas.Error, refused.json())


def test_bad_changes_are_refused_with_where(client: TestClient, match_id: int) -> None:
    version = get(client, match_id)["version"]
    for body, where in [
        ({"kind": "swap"}, "kind"),
        ({"kind": "delete", "number": "²"}, "number"),
        ({"kind": "add", "body": {"piles": 3}}, "piles"),
        ([1], ""),
    ]:
        answer = change(client, match_id, body)
        assert answer.status_code == 422, body
        assert answer.json()["where"] == where
    assert change(client, 999_999, {"kind": "restore", "removed_id": 1}).status_code == 404
    assert get(client, match_id)["version"] == version


def page_form(client: TestClient, url: str, name: str) -> str:
    """A hidden field's value on a page (what the form posts)."""
    text = client.get(url).text
    start = text.index(f'name="{name}" value=') + len(f'name="{name}" value=') + 1
    quote = text[start - 1]
    value: str = text[start : text.index(quote, start)]
    return value


def test_stale_pages_merge(client: TestClient, match_id: int) -> None:
    """Online, a form another device made stale: a rules change after another phone's deal
    goes through; a delete of another deal goes through; the same setting changed to
    different values keeps the person's choice in the form."""
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    client.post(f"/api/matches/{match_id}/deals", json=bruno_deal())
    base_rules = page_form(client, f"/matches/{match_id}", "base_rules")
    deal_id = page_form(client, f"/matches/{match_id}/deals/1", "deal_id")
    assert json.loads(base_rules)["primiera"] is True
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal(0, 0))  # another phone
    rules = {"version": "3", "target": "11", "napola": "off", "ties": "withhold"}
    answer = client.post(f"/matches/{match_id}/settings", data={**rules, "base_rules": base_rules})
    assert answer.status_code == 200
    assert "Primiera off" in answer.text
    assert get(client, match_id)["match"]["rules"]["primiera"] is False
    deleted = client.post(
        f"/matches/{match_id}/deals/1/delete", data={"version": "3", "deal_id": deal_id}
    )
    assert deleted.status_code == 200
    assert "Deal 1 deleted" in deleted.text
    stored = get(client, match_id)
    assert len(stored["match"]["deals"]) == 2
    assert int(deal_id) not in stored["deal_ids"]
    again = client.post(
        f"/matches/{match_id}/deals/1/delete", data={"version": "3", "deal_id": deal_id}
    )
    assert "already deleted on another device" in again.text
    assert len(get(client, match_id)["match"]["deals"]) == 2
    # The same setting, apart: nothing saved, both shown, the form keeps mine.
    base_rules = page_form(client, f"/matches/{match_id}", "base_rules")
    version = str(get(client, match_id)["version"])
    client.patch(f"/api/matches/{match_id}/rules", json={"target": 15})
    mine = {**rules, "version": version, "target": "21", "base_rules": base_rules}
    clash = client.post(f"/matches/{match_id}/settings", data=mine)
    assert clash.status_code == 409
    assert "target: yours 21, theirs 15" in clash.text
    assert 'name="target"' in clash.text
    assert 'value="21"' in clash.text
    assert get(client, match_id)["match"]["rules"]["target"] == 15


def test_a_stale_deal_form_rechecks(client: TestClient, match_id: int) -> None:
    """The deal form's house rules changed on another device: nothing stored, the form
    again with what changed and the deal's points now; recorded once sent again."""
    base = page_form(client, f"/matches/{match_id}/deals/new", "base")
    client.patch(f"/api/matches/{match_id}/rules", json={"primiera": False})
    stale = client.post(
        f"/matches/{match_id}/deals/new", data={**TALLY, "version": "1", "base": base}
    )
    assert stale.status_code == 409
    assert "house rules were changed on another device" in stale.text
    assert "Primiera off" in stale.text
    assert "Anna 4 · Bruno 2" in stale.text  # the points under the new rules
    assert 'value="22"' in stale.text  # what was typed is kept
    assert get(client, match_id)["match"]["deals"] == []
    again = client.post(
        f"/matches/{match_id}/deals/new",
        data={
            **TALLY,
            "version": "2",
            "base": page_form(client, f"/matches/{match_id}/deals/new", "base"),
        },
        follow_redirects=False,
    )
    assert again.status_code == 303
    assert get(client, match_id)["sheet"]["totals"] == {"Anna": 4, "Bruno": 2}
    # Another phone recorded a deal meanwhile: both shown, mine kept in the form.
    base = page_form(client, f"/matches/{match_id}/deals/new", "base")
    client.post(f"/api/matches/{match_id}/deals", json=bruno_deal())
    both = client.post(
        f"/matches/{match_id}/deals/new", data={**TALLY, "version": "2", "base": base}
    )
    assert both.status_code == 409
    assert "another device recorded deal 2" in both.text
    assert "it becomes deal 3" in both.text
    assert 'value="22"' in both.text
    assert len(get(client, match_id)["match"]["deals"]) == 2


def test_stale_edit_forms_merge_by_field(client: TestClient, match_id: int) -> None:
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    base = page_form(client, f"/matches/{match_id}/deals/1/edit", "base")
    theirs = anna_deal()
    theirs["sweeps"] = {"Anna": 3, "Bruno": 2}
    client.put(f"/api/matches/{match_id}/deals/1", json=theirs)
    mine = {**TALLY, "version": "2", "base": base, "last": "0"}  # the last cards: Anna
    htmx = {"HX-Request": "true"}
    merged = client.post(f"/matches/{match_id}/deals/1/edit", data=mine, headers=htmx)
    assert merged.status_code == 200
    assert "merged with another device" in merged.text
    deal = get(client, match_id)["match"]["deals"][0]
    assert (deal["sweeps"]["Anna"], deal["last_capture"]) == (3, "Anna")
    base = page_form(client, f"/matches/{match_id}/deals/1/edit", "base")
    client.put(f"/api/matches/{match_id}/deals/1", json=anna_deal(0, 0))
    clash = client.post(
        f"/matches/{match_id}/deals/1/edit",
        data={**TALLY, "version": "3", "base": base, "sweeps-0": "5"},
    )
    assert clash.status_code == 409
    assert "deal 1 was changed on another device too" in clash.text
    assert "sweeps.Anna" in clash.text
    assert 'value="5"' in clash.text


def test_a_stale_category_form_says_the_new_rule_in_words(
    client: TestClient, match_id: int
) -> None:
    """Another phone turned the napola on while this one's "who took each point" form was
    open: the form, which had no napola to fill, comes back kept, drawn under the new rules
    (its run asked now), with what happened said in the reader's words, never the JSON
    reader's '{"Anna": 4}'; nothing is stored."""
    url = f"/matches/{match_id}/deals/new?mode=categories"
    base = page_form(client, url, "base")
    client.patch(f"/api/matches/{match_id}/rules", json={"napola": "run"})
    fields = {
        "mode": "categories",
        "version": "1",
        "base": base,
        "cat-cards": "0",
        "cat-coins": "0",
        "cat-settebello": "1",
        "cat-primiera": "0",
        "sweeps-0": "2",
        "sweeps-1": "0",
        "last": "1",
    }
    for language, said in (
        ("en", "While you were filling this in, another device changed the house rules"),
        ("it", "Mentre compilavi, un altro dispositivo ha cambiato le regole della casa"),
        ("es", "Mientras anotabas, otro dispositivo cambió las reglas de la casa"),
    ):
        stale = client.post(
            f"/matches/{match_id}/deals/new", data=fields, headers={"Accept-Language": language}
        )
        assert stale.status_code == 409
        assert said in stale.text
        assert "{" not in stale.text.split('class="alert conflict stale-note"')[1].split("</p>")[0]
        assert 'name="run-length"' in stale.text  # the napola's run is asked now
        assert 'name="sweeps-0" value="2"' in stale.text or 'value="2"' in stale.text
    assert get(client, match_id)["match"]["deals"] == []
