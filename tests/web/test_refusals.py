"""Refusals found by a sweep of what a client can send (2026-12-07): each is a 4xx that says
what was wrong and where, in the reader's language, and changes nothing; on both databases."""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi.testclient import TestClient

from tests.web.bodies import anna_deal
from tests.web.test_merge import page_form
from tests.web.test_pages import TALLY

FORM = {"content-type": "application/x-www-form-urlencoded"}
AS_SENT: dict[str, Any] = {"follow_redirects": False}


def matches(client: TestClient) -> list[list[str]]:
    return [m["players"] for m in client.get("/api/matches").json()]


def error_of(page: str) -> str:
    """The first error a page shows (its ``class="error"`` paragraph or field message)."""
    start = page.index('class="error')
    return page[page.index(">", start) + 1 : page.index("</", start)]


def test_a_form_whose_text_is_not_utf8_is_refused_and_stores_nothing(client: TestClient) -> None:
    """Starlette's parser read ``%ff`` as U+FFFD and a raw byte as Latin-1, and the sheet
    stored them as names; now the form is refused, naming the field."""
    for body in (b"player=%ff&player=B&target=11", b"player=\xff\xfe&player=B&target=11"):
        refused = client.post(
            "/matches/new", content=body, headers={**FORM, "accept-language": "it"}
        )
        assert refused.status_code == 422
        assert "il testo inviato non è UTF-8 valido" in refused.text
    assert matches(client) == []
    client.post("/api/matches", json={"players": ["A", "B"]})
    refused = client.post("/players/A/rename", content=b"name=%C3", headers=FORM)
    assert refused.status_code == 422
    assert "<code>name</code>: the text sent is not valid UTF-8" in refused.text
    # UTF-8, percent-encoded as a browser sends it or raw as curl does, is read as it is
    for sent in ("player=M%C3%BCller&player=B+C&target=11", "player=Zoë&player=Ugo&target=11"):
        made = client.post("/matches/new", content=sent.encode(), headers=FORM, **AS_SENT)
        assert made.status_code == 303
    assert sorted(matches(client)) == [["A", "B"], ["M\u00fcller", "B C"], ["Zo\u00eb", "Ugo"]]


def test_a_malformed_form_is_refused_in_the_readers_words(client: TestClient) -> None:
    spanish = {"accept-language": "es"}
    cases = [
        ({"content-type": "multipart/form-data"}, b"player=A", "le falta su boundary"),
        ({"content-type": "multipart/form-data; boundary=x"}, b"garbage", "mal formados"),
        (FORM, "&".join(f"f{i}=1" for i in range(401)).encode(), "más de 400 campos"),
        ({"content-type": "application/json"}, b'{"player": ["A", "B"]}', "un formulario se"),
    ]
    for headers, body, said in cases:
        refused = client.post("/matches/new", content=body, headers={**headers, **spanish})
        assert refused.status_code == 422, body
        assert said in refused.text
    assert matches(client) == []
    # 400 fields are a form; an empty pair ("a=1&&b=2") is no field
    many = "&".join(["player=A", "player=B", "target=11", *(["x=1"] * 397)])
    for body in (many.encode(), b"player=C&&player=D&target=11"):
        made = client.post("/matches/new", content=body, headers=FORM, **AS_SENT)
        assert made.status_code == 303


def test_a_refused_edit_of_a_stale_form_stays_the_edit(client: TestClient, match_id: int) -> None:
    """Another device recorded a deal while this one's edit of deal 1 was open, and the edit
    is refused by the rules: the form comes back as deal 1's edit, not as a new deal."""
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    base = page_form(client, f"/matches/{match_id}/deals/1/edit", "base")
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    wrong = {**TALLY, "count-0": "30", "version": "2", "base": base}  # 30 + 18 cards
    refused = client.post(f"/matches/{match_id}/deals/1/edit", data=wrong)
    assert refused.status_code == 422
    assert f'action="/matches/{match_id}/deals/1/edit"' in refused.text
    assert f'action="/matches/{match_id}/deals/new"' not in refused.text
    assert len(client.get(f"/api/matches/{match_id}").json()["match"]["deals"]) == 2


def test_a_refusal_replayed_by_its_key_is_said_as_a_refusal(client: TestClient) -> None:
    """A refused form's page is long, so its key keeps a short page: it said "This change
    was already made" in English whatever the language; now a refusal says so, in the
    language of the request that made it."""
    headers = {**FORM, "idempotency-key": "k-1", "accept-language": "it"}
    first = client.post("/matches/new", content=b"player=Gino&target=11", headers=headers)
    assert first.status_code == 422
    again = client.post("/matches/new", content=b"player=Gino&target=11", headers=headers)
    assert (again.status_code, again.headers["idempotent-replayed"]) == (422, "true")
    assert "Questa modifica non è stata accettata" in again.text
    assert "already made" not in again.text
    assert matches(client) == []


def test_a_stale_rules_change_with_a_value_no_match_takes_is_invalid(
    client: TestClient, match_id: int
) -> None:
    """Not a clash to choose from (409): a target of "x" is refused as it would be on a
    match that had not moved on, with its place."""
    client.patch(f"/api/matches/{match_id}/rules", json={"target": 21})
    for force in (False, True):
        change = {
            "kind": "rules",
            "body": {"target": "x"},
            "base": {"version": 1, "rules": {"target": 11}},
            "force": force,
        }
        refused = client.post(f"/api/matches/{match_id}/changes", json=change)
        assert refused.status_code == 422
        assert refused.json()["where"] == "rules.target"
    assert client.get(f"/api/matches/{match_id}").json()["version"] == 2


def test_a_players_csv_never_holds_a_formula(client: TestClient) -> None:
    made = client.post("/api/matches", json={"players": ["=1+2", "@SUM(A1)"]}).json()["id"]
    client.post(f"/api/matches/{made}/deals", json=_deal_of("=1+2", "@SUM(A1)"))
    text = client.get("/api/players/=1+2/export.csv").text
    rows = list(csv.reader(io.StringIO(text)))
    assert ["name", "", "'=1+2"] in rows
    assert ["opponent.matches", "'@SUM(A1)", "1"] in rows
    assert not any(cell.startswith(("=", "@")) for row in rows for cell in row)


def _deal_of(one: str, other: str) -> dict[str, Any]:
    deal = anna_deal()
    piles = deal["piles"]
    deal["piles"] = {one: piles["Anna"], other: piles["Bruno"]}
    deal["sweeps"] = {one: 1, other: 0}
    deal["last_capture"] = one
    return deal


def test_a_rename_keeps_the_rules_of_a_name(client: TestClient, match_id: int) -> None:
    """A name a match would refuse is refused as a new name too, and renaming to the name
    already shown changes nothing (it logged "Renamed Anna → Anna" each time)."""
    team = client.post("/api/players/Anna/rename", json={"name": "X & Y"})
    assert team.status_code == 422
    assert "' & ' is kept for team names" in team.json()["error"]
    same = client.post(
        "/players/Anna/rename", data={"name": "Anna"}, headers={"accept-language": "es"}
    )
    assert same.status_code == 422
    assert "&#39;Anna&#39; ya es el nombre que se ve" in same.text
    assert client.get("/api/player-changes").json() == []
    assert client.post("/api/players/anna/rename", json={"name": "Anna"}).status_code == 422
    assert client.post("/api/players/Anna/rename", json={"name": "ANNA"}).status_code == 200


def test_the_words_of_a_refusal_are_the_readers(client: TestClient, match_id: int) -> None:
    """Each of these said part of its sentence in English on an Italian or Spanish page."""
    italian, spanish = {"accept-language": "it"}, {"accept-language": "es"}
    empty = client.post("/matches/new", data={"player": ["A", "B"], "target": ""}, headers=italian)
    assert '<span class="field-error">inserisci i punti per vincere</span>' in empty.text
    assert "correggi quello che è segnato" in empty.text.lower()  # and it is marked there
    long = {"player": ["A", "B"], "target": "11", "name": "x" * 101}
    named = client.post("/matches/new", data=long, headers=italian).text
    assert "segnato" not in named  # nothing below is marked: the banner says what is wrong
    letters = client.post(f"/matches/{match_id}/settings", data={"target": "abc"}, headers=spanish)
    assert "&#39;abc&#39; no es un número entero (los puntos para ganar)" in letters.text
    cirulla = client.post(
        "/matches/new",
        data={"player": ["A", "B"], "variant": "cirulla", "target": "51", "cirulla_points": ""},
        headers=italian,
    )
    assert "inserisci i punti per una cirulla" in cirulla.text
    hidden = client.post(
        "/matches/new", data={"player": ["\u200b", "B"], "target": "11"}, headers=italian
    )
    assert "il nome di un giocatore non può contenere" in hidden.text
    nothing = client.post("/import", data={"text": ""}, headers=spanish)
    assert (nothing.status_code, error_of(nothing.text)) == (
        422,
        "elige un archivo de partida, o pégalo aquí",
    )
    sync = client.post("/play/1/sync", json={}, headers=italian)
    assert sync.json()["code"] == "play.log_shape"
    assert sync.json()["error"].startswith("le giocate sono una lista di mani")
    seats = client.post("/api/tables", json={"computer": [1]}).json()["error"]
    assert seats == 'the computer\'s seats are an object: {"1": "normal"}'
    assert matches(client) == [["Anna", "Bruno"]]


def test_the_deal_form_says_its_errors_where_they_are_typed(
    client: TestClient, match_id: int
) -> None:
    """The quick tally with the rest to Bruno: 45 cards typed for Anna were said under
    Bruno's count, which is never typed ("enter the number of cards taken")."""
    italian = {"accept-language": "it"}
    sides = {"mode": "tally", "rest": "1", "sweeps-0": "0", "sweeps-1": "0"}
    over = client.post(
        f"/matches/{match_id}/deals/new", data={**sides, "count-0": "45"}, headers=italian
    )
    assert over.status_code == 422
    assert _field_error(over.text, "count-0") == "45 carte in tutto: il mazzo ne ha 40"
    assert _field_error(over.text, "count-1") is None
    empty = client.post(f"/matches/{match_id}/deals/new", data=sides, headers=italian)
    assert _field_error(empty.text, "count-0") == "scrivi quante carte ha preso"
    assert _field_error(empty.text, "count-1") is None
    # a target below the range is out of the range, not "not a whole number"
    spanish = {"accept-language": "es"}
    low = client.post("/matches/new", data={"player": ["A", "B"], "target": "-5"}, headers=spanish)
    assert "-5 no está entre los valores permitidos (un número entero del 5 al 61)" in low.text
    assert client.get(f"/api/matches/{match_id}").json()["version"] == 1


def _field_error(page: str, field: str) -> str | None:
    """The error shown right after a deal form's count field, if any."""
    after = page[page.index(f'name="{field}"') :]
    after = after[after.index("</label>") + len("</label>") :].lstrip()
    mark = f'<p class="field-error" data-for="{field}">'  # the field it is about, named
    if not after.startswith(mark):
        return None
    return after[len(mark) : after.index("</p>")]


def test_escoba_best_cards_are_for_the_setenta(client: TestClient) -> None:
    made = client.post("/api/matches", json={"players": ["Ana", "Beto"], "variant": "escoba"})
    spanish = {"accept-language": "es"}
    form = client.get(f"/matches/{made.json()['id']}/deals/new", headers=spanish).text
    assert "Mejores cartas (Setenta), un toque por palo" in form
    assert "para la primiera" not in form
    assert "(Primiera)" not in form
    scopa = client.post("/api/matches", json={"players": ["Ana", "Beto"]}).json()["id"]
    assert (
        "Mejores cartas (Primiera)"
        in client.get(f"/matches/{scopa}/deals/new", headers=spanish).text
    )
