"""The rules page (/help), the board for a television (/matches/{id}/tv) and the shared
picture of a match (/matches/{id}/share.svg), on both databases."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa import variants
from scopa.rules import Settings
from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from scopa.web.pages.guide import SETTINGS_HELPED
from tests.web.conftest import anna_deal, bruno_deal
from tests.web.hosted_helpers import join

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = ['<script>alert("x")</script>', "]]> &amp; 'Zia' <!--"]


def deal_for(players: list[str], deal: dict[str, Any]) -> dict[str, Any]:
    """A tally deal of Anna and Bruno, given to ``players``."""
    rename = dict(zip(["Anna", "Bruno"], players, strict=True))
    return {
        **deal,
        "piles": {rename[k]: v for k, v in deal["piles"].items()},
        "sweeps": {rename[k]: v for k, v in deal["sweeps"].items()},
        "last_capture": rename[deal["last_capture"]] if deal["last_capture"] else None,
    }


def finished(client: TestClient, players: list[str]) -> int:
    """A match of ``players`` the first one won (5 + 5 + 5 points to 11)."""
    made = client.post("/api/matches", json={"players": players})
    assert made.status_code == 201, made.text
    match_id: int = made.json()["id"]
    for _ in range(3):
        answer = client.post(f"/api/matches/{match_id}/deals", json=deal_for(players, anna_deal()))
        assert answer.status_code == 201, answer.text
    assert client.get(f"/api/matches/{match_id}").json()["sheet"]["winner"] == players[0]
    return match_id


def texts(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_the_rules_page_explains_every_setting_and_variant_in_three_languages(
    client: TestClient,
) -> None:
    page = client.get("/help")
    assert page.status_code == 200
    ids = set(re.findall(r'id="([\w-]+)"', page.text))
    every = {name for v in variants.all_variants() for name in Settings.of(v.name).names}
    assert every <= set(SETTINGS_HELPED)
    assert {f"setting-{name}" for name in every} <= ids
    assert {f"variant-{v.name}" for v in variants.all_variants()} <= ids
    assert "the 7 counts 21" in page.text
    italian = client.get("/help?lang=it").text
    assert "Le regole del gioco" in italian
    assert "il 7 vale 21" in italian
    spanish = client.get("/help?lang=es").text
    assert "Las reglas del juego" in spanish
    assert "el 7 vale 21" in spanish
    twin = client.get("/help?format=json").json()
    assert twin["settings"]["napola"] == "/help#setting-napola"
    assert twin["variants"]["cirulla"] == "/help#variant-cirulla"


def test_every_setting_on_the_forms_links_to_its_rule(client: TestClient) -> None:
    helped = set(re.findall(r'id="(setting-\w+)"', client.get("/help").text))
    for variant in ("scopa", "scopone", "assi", "escoba", "cirulla"):
        made = client.post("/api/matches", json={"players": list("ABCD"), "variant": variant})
        assert made.status_code == 201, made.text
        match_id = made.json()["id"]
        sheet = client.get(f"/matches/{match_id}").text
        linked = set(re.findall(r'href="/help#(setting-\w+)"', sheet))
        names = Settings.of(variant).names
        assert linked == {f"setting-{n}" for n in names}, variant
        assert linked <= helped
        form = client.get(f"/matches/{match_id}/deals/new").text
        assert f'href="/help#variant-{variant}"' in form
    new = client.get("/matches/new").text
    assert 'href="/help#setting-ties"' in new
    assert 'href="/help#variants"' in new


def test_the_board_shows_totals_last_deal_and_who_leads(client: TestClient) -> None:
    made = client.post("/api/matches", json={"players": ["Anna", "Bruno"]})
    match_id = made.json()["id"]
    empty = client.get(f"/matches/{match_id}/tv")
    assert empty.status_code == 200
    assert "No deals yet" in empty.text
    assert "11 points to go" in empty.text
    assert "<button" not in empty.text
    assert "<form" not in empty.text
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in empty.text
    assert '<script type="module" src="/static/tv.js"></script>' in empty.text
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    client.post(f"/api/matches/{match_id}/deals", json=bruno_deal())
    board = client.get(f"/matches/{match_id}/tv?format=json").json()
    assert [s["total"] for s in board["sides"]] == [5, 6]
    assert [s["to_go"] for s in board["sides"]] == [6, 5]
    assert board["last_deal"] == 2
    assert [s["last_deal"] for s in board["sides"]] == [0, 4]
    assert board["sides"][1]["last_detail"] == {
        "Cards": 1,
        "Coins": 1,
        "Settebello": 1,
        "Primiera": 1,
    }
    assert board["status"] == "Bruno leads by 1 point"
    italian = client.get(f"/matches/{match_id}/tv?lang=it").text
    assert "Bruno è avanti di 1 punto" in italian
    assert "mancano 6 punti" in italian
    # The script's refresh: the board alone, nothing while its version is current.
    version = client.get(f"/api/matches/{match_id}").json()["version"]
    piece = client.get(f"/matches/{match_id}/tv?piece=1&since={version - 1}")
    assert piece.status_code == 200
    assert piece.text.lstrip().startswith('<section id="tv"')
    assert client.get(f"/matches/{match_id}/tv?piece=1&since={version}").status_code == 204
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    won = client.get(f"/matches/{match_id}/tv?lang=en").text
    assert "Anna wins" in won
    assert "Winner" in won


@pytest.mark.parametrize(
    "path", ["/matches/{id}/tv", "/matches/{id}/share.svg", "/matches/{id}/tv?piece=1"]
)
def test_unknown_and_malformed_ids_are_a_clear_404(client: TestClient, path: str) -> None:
    for ident, status in (("999999", 404), ("0", 422), ("abc", 422), ("99999999999", 422)):
        answer = client.get(path.format(id=ident))
        assert answer.status_code == status, (ident, answer.text[:200])
        assert answer.status_code < 500
    missing = client.get(path.format(id="999999") + ("&" if "?" in path else "?") + "format=json")
    assert missing.json()["where"] == "id"


def test_the_shared_picture_names_sides_score_winner_variant_and_date(client: TestClient) -> None:
    match_id = finished(client, ["Anna", "Bruno"])
    answer = client.get(f"/matches/{match_id}/share.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.headers["content-disposition"] == f'inline; filename="scopa-{match_id}.svg"'
    shown = texts(answer.text)
    assert "Anna wins" in shown
    assert shown[shown.index("Anna") + 1] == "15"
    assert shown[shown.index("Bruno") + 1] == "6"
    footer = shown[-1]
    assert footer.startswith("Scopa · to 11 · 3 deals · ")
    assert re.search(r"20\d\d", footer)
    italian = texts(client.get(f"/matches/{match_id}/share.svg?lang=it").text)
    assert "Vince Anna" in italian
    assert italian[-1].startswith("Scopa · a 11 · 3 mani · ")
    spanish = texts(client.get(f"/matches/{match_id}/share.svg?lang=es").text)
    assert "Gana Anna" in spanish
    download = client.get(f"/matches/{match_id}/share.svg?download=1")
    assert download.headers["content-disposition"].startswith("attachment;")
    sheet = client.get(f"/matches/{match_id}").text
    assert f'data-share="/matches/{match_id}/share.svg?v=4"' in sheet
    assert f'href="/matches/{match_id}/tv"' in sheet


def test_the_share_button_only_on_a_finished_match(client: TestClient, match_id: int) -> None:
    assert "data-share=" not in client.get(f"/matches/{match_id}").text


def test_hostile_names_are_escaped_in_the_picture_and_on_the_board(client: TestClient) -> None:
    match_id = finished(client, HOSTILE)
    picture = client.get(f"/matches/{match_id}/share.svg").text
    root = ET.fromstring(picture)  # well-formed XML: nothing a name holds broke out
    assert not list(root.iter(f"{SVG}script"))
    assert "<script>" not in picture
    shown = texts(picture)
    assert HOSTILE[0] in shown
    assert HOSTILE[1] in shown
    assert f"{HOSTILE[0]} wins" in shown
    board = client.get(f"/matches/{match_id}/tv").text
    assert "<script>alert" not in board
    assert "&lt;script&gt;alert" in board
    assert "<!--" not in board.split("<body", 1)[1]


@pytest.fixture
def hosted(store: MatchStore) -> Iterator[TestClient]:
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as client:
        yield client


def test_the_board_and_picture_follow_the_group_in_hosted_mode(
    hosted: TestClient, store: MatchStore
) -> None:
    rossi, bianchi = join(hosted, store, "Rossi"), join(hosted, store, "Bianchi")
    made = hosted.post("/api/matches", json={"players": ["Rosa", "Remo"]}, headers=rossi.auth)
    match_id = made.json()["id"]
    for path in (f"/matches/{match_id}/tv", f"/matches/{match_id}/share.svg"):
        assert hosted.get(path, headers=rossi.auth).status_code == 200
        assert hosted.get(path, headers=bianchi.auth).status_code == 404
        assert hosted.get(path).status_code == 303  # no token: the way to /join
    assert hosted.get("/help", headers=rossi.auth).status_code == 200
