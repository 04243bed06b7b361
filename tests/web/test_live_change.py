"""The live update's change (``/matches/{id}/sheet/change?since=V``, live.js patches it in):
what one deal's change altered on the sheet, made once per change and language and shared by
every viewer; anything else (further behind, the rules, every deal shown) asks for the whole
piece. On SQLite and PostgreSQL."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from scopa.web.pages import render as rendering
from scopa.web.pages.render import SHOWN_DEALS, SHOWN_LOG, WHOLE_PIECE
from tests.web.bodies import anna_deal
from tests.web.conftest import new_match


def rows(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr class="deal-row[^"]*" data-number="(\d+)"', html)]


def totals(html: str) -> list[str]:
    found = re.search(r'<tr id="sheet-totals">(.*?)</tr>', html, re.S)
    assert found, html
    return re.findall(r'class="total[^"]*">(-?\d+)<', found.group(1))


def api_totals(client: TestClient, match_id: int) -> list[str]:
    sheet = client.get(f"/api/matches/{match_id}").json()["sheet"]
    return [str(n) for n in sheet["totals"].values()]


def change(client: TestClient, match_id: int, since: int, **headers: str) -> str:
    response = client.get(f"/matches/{match_id}/sheet/change?since={since}", headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    text: str = response.text
    return text


def test_a_recorded_deal_sends_its_row_the_totals_the_chart_and_the_log(
    client: TestClient,
) -> None:
    match_id = new_match(client, 30)
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    html = change(client, match_id, 1)
    assert 'id="sheet-change"' in html
    assert 'id="sheet"' not in html
    assert 'data-version="2"' in html
    assert 'data-from="31"' in html
    assert rows(html) == [31]
    assert totals(html) == api_totals(client, match_id)
    assert f"{31 - SHOWN_DEALS} earlier deals" in html
    assert 'id="sheet-chart"' in html
    assert "Running totals by deal" in html
    assert "Updated on another device: Deal 31 recorded" in html
    assert html.count("<li>") <= SHOWN_LOG
    assert "Change log (2)" in html
    assert "Deleted deals" not in html  # the deleted deals did not change
    assert "settings-form" not in html  # nor the house rules
    piece = client.get(f"/matches/{match_id}/sheet?since=1").content
    assert len(html.encode()) < len(piece) / 2
    # Up to date: nothing; a bad or older version: the page fetches the whole piece.
    assert client.get(f"/matches/{match_id}/sheet/change?since=2").status_code == 204
    for since in ("0", "abc", "-1", ""):
        assert change(client, match_id, since) == WHOLE_PIECE  # type: ignore[arg-type]


def test_edits_deletions_and_restores_send_the_rows_from_the_first_they_moved(
    client: TestClient,
) -> None:
    match_id = new_match(client, 20)
    api = f"/api/matches/{match_id}"
    shown = list(range(20 - SHOWN_DEALS + 1, 21))
    assert client.put(f"{api}/deals/15", json=anna_deal()).status_code == 200
    edited = change(client, match_id, 1)
    assert rows(edited) == list(range(15, 21))
    assert totals(edited) == api_totals(client, match_id)
    assert "Deal 15 edited" in edited
    assert client.delete(f"{api}/deals/18").status_code == 200
    deleted = change(client, match_id, 2)
    assert rows(deleted) == list(range(19 - SHOWN_DEALS + 1, 20))  # every shown row
    assert 'data-from="1"' in deleted
    assert "Deleted deals" in deleted
    assert "Deal 18 deleted" in deleted
    removed = client.get(api).json()["removed"][0]["id"]
    assert client.post(f"{api}/removed/{removed}/restore").status_code == 200
    restored = change(client, match_id, 3)
    assert rows(restored) == list(range(18, 21))
    assert 'id="sheet-removed"' in restored
    assert "Deleted deals" not in restored
    assert totals(restored) == api_totals(client, match_id)
    assert rows(client.get(f"/matches/{match_id}").text) == shown


def test_a_rules_change_and_every_deal_shown_ask_for_the_whole_piece(
    client: TestClient,
) -> None:
    match_id = new_match(client, 5)
    client.patch(f"/api/matches/{match_id}/rules", json={"primiera": False})
    assert change(client, match_id, 1) == WHOLE_PIECE
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    url = f"/matches/{match_id}/sheet/change?since=2&all=1"
    assert client.get(url).text == WHOLE_PIECE
    assert rows(change(client, match_id, 2)) == [6]


def test_the_change_is_made_once_per_language_and_shared_by_every_viewer(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = new_match(client, 3)
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    made: list[int] = []
    real = rendering.render_change

    def counted(*args: object) -> bytes:
        made.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(rendering, "render_change", counted)
    english = [change(client, match_id, 1) for _ in range(3)]
    assert len(made) == 1
    assert english[0] == english[1] == english[2]
    italian = change(client, match_id, 1, **{"Accept-Language": "it"})
    assert len(made) == 2
    assert "Aggiornata da un altro telefono: " in italian
    assert "Aggiornata" not in english[0]
    assert rows(italian) == rows(english[0]) == [4]
    assert change(client, match_id, 1, **{"Accept-Language": "it"}) == italian
    assert len(made) == 2
