"""The variants on the web sheet, without a browser: the new-match page and the API take the
variant, the House rules panel shows its settings, the deal form records its facts, the sheet
shows its labels and why a cappotto ended the game."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from scopa import variants
from scopa.engine.variants import get_variant
from scopa.rules import Settings
from scopa.web.pages.views import preset_settings, presets

CIRULLA_TALLY = {
    "mode": "tally",
    "count-0": "23",
    "coins-0": ["A", "2", "3", "4", "J", "H", "K"],
    "best-0-c": "7",
    "best-0-s": "7",
    "best-0-b": "6",
    "sweeps-0": "0",
    "cirulla-0": "1",
    "decino-0": "0",
    "count-1": "17",
    "coins-1": ["5", "6", "7"],
    "best-1-c": "5",
    "best-1-s": "6",
    "best-1-b": "7",
    "sweeps-1": "1",
    "cirulla-1": "0",
    "decino-1": "0",
    "last": "1",
}


def version(client: TestClient, match_id: int) -> str:
    return str(client.get(f"/api/matches/{match_id}").json()["version"])


def new_match(client: TestClient, variant: str, **fields: Any) -> int:
    data = {"player": ["Anna", "Bruno"], "variant": variant, **fields}
    settings = Settings.of(variant)
    data.setdefault("target", str(settings.target))
    for name in ("primiera", "last_capture_sweep"):
        if getattr(settings, name):
            data.setdefault(name, "on")
    for name in ("cirulla_points", "decino_points", "piccola_cap"):
        if name in settings.names:
            data.setdefault(name, str(getattr(settings, name)))
    response = client.post("/matches/new", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def test_every_preset_is_a_variants_definition_and_agrees_with_the_engine() -> None:
    for key, (_, changes) in presets().items():
        settings = preset_settings(key)
        name = changes.get("variant", "scopa")
        assert settings.variant == name
        assert settings.replace(**{k: v for k, v in changes.items() if k != "variant"}) == settings
    assert preset_settings("assi").napola == "run"  # the engine's Scopa d'Assi
    for name in variants.VARIANT_NAMES:
        engine = get_variant(name).settings_for(2 if name != "scopone" else 4)
        sheet = Settings.of(name)
        assert engine.replace(partnerships=sheet.partnerships) == sheet, name


def test_a_preset_shows_the_variants_settings(client: TestClient) -> None:
    page = client.post("/matches/new", data={"player": ["Anna"], "preset": "cirulla"}).text
    assert 'name="variant" value="cirulla"' in page
    assert 'name="piccola_cap"' in page
    assert 'name="cappotto"' in page
    assert 'name="napola"' not in page
    assert 'value="51"' in page
    escoba = client.post("/matches/new", data={"player": ["Anna"], "preset": "escoba"}).text
    assert 'name="primiera_mode"' in escoba
    assert 'name="napola"' not in escoba


def test_a_cirulla_match_from_the_pages(client: TestClient) -> None:
    match_id = new_match(client, "cirulla", piccola_cap="7")
    data = client.get(f"/api/matches/{match_id}").json()
    assert next(iter(data["match"])) == "variant"
    assert data["match"]["rules"]["piccola_cap"] == 7
    form = client.get(f"/matches/{match_id}/deals/new").text
    assert 'name="cirulla-0"' in form
    assert "variant_hints.js" in form
    fields = {**CIRULLA_TALLY, "version": version(client, match_id)}
    response = client.post(f"/matches/{match_id}/deals/new", data=fields, follow_redirects=False)
    assert response.status_code == 303, response.text
    sheet = client.get(f"/api/matches/{match_id}").json()["sheet"]
    anna = sheet["deals"][0]["points"]["Anna"]
    assert (anna["declarations"], anna["piccola"], anna["grande"], anna["total"]) == (3, 4, 5, 15)
    assert client.get(f"/api/matches/{match_id}").json()["match"]["deals"][0]["declarations"] == {
        "Anna": ["cirulla"]
    }
    breakdown = client.get(f"/matches/{match_id}/deals/1").text
    assert "Declarations" in breakdown
    assert "Piccola" in breakdown
    edit = client.get(f"/matches/{match_id}/deals/1/edit").text
    assert re.search(r'name="cirulla-0"[^>]*value="1"', edit)


def test_a_cappotto_from_the_form_ends_the_game_and_the_sheet_says_why(
    client: TestClient,
) -> None:
    match_id = new_match(client, "cirulla")
    fields = {
        **CIRULLA_TALLY,
        "coins-0": ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"],
        "coins-1": [],
        "count-0": "24",
        "count-1": "16",
        "version": version(client, match_id),
    }
    response = client.post(f"/matches/{match_id}/deals/new", data=fields)
    assert response.status_code == 200
    assert "by a cappotto" in response.text
    sheet = client.get(f"/api/matches/{match_id}").json()["sheet"]
    assert (sheet["winner"], sheet["decided_at"], sheet["deals"][0]["cappotto"]) == (
        "Anna",
        1,
        "Anna",
    )
    # The House rules panel holds the variant's settings: turning the cappotto off reopens it.
    settings = {
        "target": "51",
        "primiera": "on",
        "primiera_mode": "sum",
        "ties": "withhold",
        "cirulla_points": "3",
        "decino_points": "10",
        "piccola_cap": "6",
        "cappotto": "off",
        "version": version(client, match_id),
    }
    changed = client.post(f"/matches/{match_id}/settings", data=settings)
    assert changed.status_code == 200
    assert "Cappotto off" in changed.text
    assert client.get(f"/api/matches/{match_id}").json()["sheet"]["winner"] is None


def test_a_bad_declaration_count_is_placed_next_to_its_field(client: TestClient) -> None:
    match_id = new_match(client, "cirulla")
    fields = {**CIRULLA_TALLY, "cirulla-0": "7", "version": version(client, match_id)}
    response = client.post(f"/matches/{match_id}/deals/new", data=fields)
    assert response.status_code == 422
    assert "7 declarations, but Anna received 6 hands" in response.text
    page = response.text  # under the cirulla field, before the decino one
    error = page.index("7 declarations, but Anna received 6 hands")
    assert page.index('name="cirulla-0"') < error < page.index('name="decino-0"')
    assert client.get(f"/api/matches/{match_id}").json()["match"]["deals"] == []


def test_a_count_of_declarations_that_is_not_a_number_is_refused_in_the_readers_words(
    client: TestClient,
) -> None:
    """Cirulla's declarations and d'Assi's ace take-alls: said in Italian to an Italian phone
    (the noun was English in every language), nothing recorded."""
    cirulla = new_match(client, "cirulla")
    fields = {
        **CIRULLA_TALLY,
        "cirulla-0": "x",
        "decino-1": "½",
        "version": version(client, cirulla),
    }
    italian = client.post(
        f"/matches/{cirulla}/deals/new", data=fields, headers={"Accept-Language": "it"}
    )
    assert italian.status_code == 422
    assert "&#39;x&#39; non è un numero intero di cirulle" in italian.text
    assert "non è un numero intero di decini" in italian.text
    tally = {k: v for k, v in CIRULLA_TALLY.items() if not k.startswith(("cirulla", "decino"))}
    assi = new_match(client, "assi", napola="run")
    fields = {**tally, "ace-1": "y", "version": version(client, assi)}
    spanish = client.post(
        f"/matches/{assi}/deals/new", data=fields, headers={"Accept-Language": "es"}
    )
    assert "&#39;y&#39; no es un número entero de ases que se lo llevan todo" in spanish.text
    for match_id in (cirulla, assi):
        assert client.get(f"/api/matches/{match_id}").json()["match"]["deals"] == []


def test_escoba_labels_and_the_assi_and_scopone_facts(client: TestClient) -> None:
    match_id = new_match(client, "escoba")
    tally = {k: v for k, v in CIRULLA_TALLY.items() if not k.startswith(("cirulla", "decino"))}
    client.post(
        f"/matches/{match_id}/deals/new", data={**tally, "version": version(client, match_id)}
    )
    breakdown = client.get(f"/matches/{match_id}/deals/1").text
    for label in ("Cartas", "Oros", "Siete de velo", "Setenta", "Escobas"):
        assert label in breakdown
    assert "Napola" not in breakdown
    assi = new_match(client, "assi", napola="run")
    fields = {**tally, "ace-0": "1", "version": version(client, assi)}
    assert client.post(f"/matches/{assi}/deals/new", data=fields).status_code == 200
    deal = client.get(f"/api/matches/{assi}").json()["match"]["deals"][0]
    assert deal["ace_sweeps"] == {"Anna": 1, "Bruno": 0}


def test_the_api_takes_the_variant_and_refuses_to_change_it(client: TestClient) -> None:
    created = client.post(
        "/api/matches", json={"variant": "Escoba", "players": ["Anna", "Bruno"]}
    ).json()
    assert created["match"]["variant"] == "escoba"
    assert created["sheet"]["variant"] == "escoba"
    refused = client.patch(f"/api/matches/{created['id']}/rules", json={"variant": "scopa"})
    assert refused.status_code == 422
    # The API's errors carry the place apart ("where"), the message without it.
    assert refused.json() == {
        "error": "the variant is chosen when the match is created and cannot be changed",
        "where": "variant",
        "code": "setting.variant_chosen_when_match",
    }
    other = client.patch(f"/api/matches/{created['id']}/rules", json={"napola": "run"})
    assert other.status_code == 422
    assert other.json()["where"] == "rules.napola"


def test_an_escoba_rules_change_is_said_in_escobas_words_in_every_language(
    client: TestClient,
) -> None:
    """The "what moved" line, the log and the player's page of an Escoba family: the
    setenta, never Scopa's primiera or settebello (issue 46)."""
    match_id = new_match(client, "escoba", player=["Ana", "Bea"])
    tally = {k: v for k, v in CIRULLA_TALLY.items() if not k.startswith(("cirulla", "decino"))}
    client.post(
        f"/matches/{match_id}/deals/new", data={**tally, "version": version(client, match_id)}
    )
    body = {"primiera": False, "version": int(version(client, match_id))}
    changed = client.patch(f"/api/matches/{match_id}/rules", json=body)
    assert changed.status_code == 200, changed.text
    assert changed.json()["changes"]["summary"].startswith("Setenta off")
    said = {"it": "Senza setenta", "es": "Sin setenta"}
    for lang, words in said.items():
        page = client.get(f"/matches/{match_id}", headers={"Accept-Language": lang}).text
        assert words in page, lang
        text = re.sub(r"<script.*?</script>|<[^>]*>", " ", page, flags=re.S)  # what is read
        assert "primiera" not in text.casefold(), lang
        player = client.get("/players/Ana", headers={"Accept-Language": lang}).text
        for own in ("Oros", "Setenta", "Escobas"):
            assert own in player, (lang, own)
        text = re.sub(r"<script.*?</script>|<[^>]*>", " ", player, flags=re.S)
        for scopas in ("settebello", "primiera"):
            assert scopas not in text.casefold(), (lang, scopas)
