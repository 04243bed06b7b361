"""The Play page's server side: a game against the computer through HTTP, validated, stored,
resumed after a restart, and its deals on the sheet."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa.engine import native
from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from tests.web.hosted_helpers import join


def start(client: TestClient, **form: str) -> int:
    data = {"variant": "scopa", "players": "2", "level": "easy", "seed": "7", **form}
    response = client.post("/play", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def state(client: TestClient, game: int) -> dict[str, Any]:
    response = client.get(f"/play/{game}/state")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def advance(client: TestClient, game: int, data: dict[str, Any]) -> dict[str, Any]:
    """One step: your first legal play, or the computer's move."""
    if data["your_turn"]:
        play = data["legal"][-1]
        body = {"step": data["step"], "card": play["card"], "capture": play["capture"]}
        response = client.post(f"/play/{game}/play", json=body)
    else:
        response = client.post(f"/play/{game}/computer", json={"step": data["step"]})
    assert response.status_code == 200, response.text
    after: dict[str, Any] = response.json()
    assert after["step"] == data["step"] + 1
    assert len(after["made"]) == 1
    return after


def play_deal(client: TestClient, game: int) -> dict[str, Any]:
    data = state(client, game)
    while not data["deal_over"]:
        data = advance(client, game, data)
    return data


def test_the_setup_page_offers_the_games_and_levels(client: TestClient) -> None:
    page = client.get("/play")
    assert page.status_code == 200
    for word in ("Scopa", "Scopone", "Scopa d&#39;Assi", "Escoba", "Cirulla", "Easy", "Strong"):
        assert word in page.text
    assert 'href="/play"' in client.get("/").text


def test_a_whole_deal_is_played_and_lands_on_the_sheet(client: TestClient) -> None:
    game = start(client)
    first = state(client, game)
    assert first["step"] == 0
    assert len(first["hand"]) == 3
    assert len(first["table"]) == 4
    assert first["seats"][1]["cards"] == 3
    assert "hand" not in first["seats"][1]
    assert first["match_id"] is None
    end = play_deal(client, game)
    assert end["deal_over"]
    assert end["step"] == 36
    assert end["match_id"]
    assert len(end["moves"]) == 36
    assert sum(end["score"]["totals"]) >= 2
    assert end["score"]["last"] is not None
    match = client.get(f"/api/matches/{end['match_id']}").json()
    assert match["match"]["name"] == "Against the computer (Scopa, easy)"
    assert len(match["match"]["deals"]) == 1
    assert list(match["sheet"]["totals"].values()) == end["score"]["totals"]
    sheet = client.get(end["sheet"])
    assert sheet.status_code == 200
    assert "Against the computer" in sheet.text
    # the next deal: the other seat deals, and the second deal goes to the same match
    after = client.post(f"/play/{game}/next", json={"step": end["step"]}).json()
    assert after["deal"] == 2
    assert not after["deal_over"]
    assert after["step"] == 37
    second = play_deal(client, game)
    assert second["match_id"] == end["match_id"]
    assert len(client.get(f"/api/matches/{end['match_id']}").json()["match"]["deals"]) == 2


def test_bad_moves_are_refused_and_change_nothing(client: TestClient) -> None:
    game = start(client, seed="3")
    data = state(client, game)
    while not data["your_turn"]:
        data = advance(client, game, data)
    step = data["step"]
    held = data["hand"][0]
    not_held = next(
        f"{r}{s}" for s in "dcsb" for r in "A234567JHK" if f"{r}{s}" not in data["hand"]
    )
    bad: list[tuple[Any, int, str]] = [
        ({"step": step, "card": "Zz", "capture": []}, 422, "card"),
        ({"step": step, "card": not_held, "capture": []}, 422, "play"),
        ({"step": step, "card": held, "capture": ["Xq"]}, 422, "capture"),
        ({"step": step, "card": held, "capture": "7d"}, 422, "capture"),
        ({"step": step, "card": held, "capture": [not_held, not_held]}, 422, "capture"),
        ({"step": step + 5, "card": held, "capture": []}, 409, "step"),
        ({"step": "1", "card": held}, 422, "step"),
        ({"card": held}, 422, "step"),
        ([1, 2], 422, "step"),
        ({"step": True, "card": held}, 422, "step"),
    ]
    for body, status, where in bad:
        response = client.post(f"/play/{game}/play", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["where"].startswith(where), (body, response.json())
    # a capture that is not among the card's legal ones
    illegal = next((p for p in data["legal"] if p["capture"]), None)
    if illegal is not None:
        wrong = {"step": step, "card": illegal["card"], "capture": []}
        assert client.post(f"/play/{game}/play", json=wrong).status_code == 422
    assert client.post(f"/play/{game}/computer", json={"step": step}).status_code == 422
    assert client.post(f"/play/{game}/next", json={"step": step}).status_code == 422
    assert (
        client.post(
            f"/play/{game}/play", content=b"{no", headers={"Content-Type": "application/json"}
        ).status_code
        == 422
    )
    assert client.get("/play/999999/state").status_code == 404
    assert client.get("/play/999999").status_code == 404
    assert client.get("/play/0/state").status_code == 422
    assert state(client, game)["step"] == step  # nothing changed


def test_bad_choices_are_refused(client: TestClient) -> None:
    for form, word in (
        ({"variant": "poker"}, "variant"),
        ({"variant": "cirulla", "players": "6"}, "players"),
        ({"level": "godlike"}, "level"),
        ({"players": "two"}, "players"),
        ({"seed": "-4"}, "seed"),
    ):
        data = {"variant": "scopa", "players": "2", "level": "easy", **form}
        response = client.post("/play", data=data, follow_redirects=False)
        assert response.status_code == 422, form
        assert word in response.text
    assert start(client, variant="scopone", players="2") > 0  # Scopone is four whatever


def test_a_game_survives_a_restart_and_resumes(database_url: str) -> None:
    store = MatchStore.open(database_url)
    with TestClient(create_app(store)) as client:
        game = start(client, seed="11")
        data = state(client, game)
        for _ in range(5):
            data = advance(client, game, data)
        before = data
    store.close()
    again = MatchStore.open(database_url)
    with TestClient(create_app(again)) as client:
        resumed = state(client, game)
        for key in ("step", "hand", "table", "moves", "seats", "turn", "legal"):
            assert resumed[key] == before[key], key
        assert f'href="/play/{game}"' in client.get("/play").text
        end = play_deal(client, game)
        assert end["match_id"]
    again.close()


def test_scopone_partners_and_cirulla_play_through(client: TestClient) -> None:
    for variant, players in (("scopone", "4"), ("cirulla", "3"), ("escoba", "2")):
        game = start(client, variant=variant, players=players, seed="5")
        end = play_deal(client, game)
        assert end["deal_over"]
        assert end["match_id"]
        if variant == "scopone":
            assert end["names"] == ["You", "Computer 1", "Partner", "Computer 2"]
            assert end["score"]["sides"] == ["You & Partner", "Computer 1 & Computer 2"]


def test_on_a_hosted_server_each_group_plays_its_own_games(store: MatchStore) -> None:
    """Games are kept per group: a group lists and opens its own, and another group's game
    is not found (the isolation walk checks every route naming a game)."""
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as client:
        anna, bruno = join(client, store, "Anna's table"), join(client, store, "Bruno's table")
        assert 'href="/play"' in client.get("/", headers=anna.auth).text
        started = client.post("/play", data={"level": "easy", "seed": "7"}, headers=anna.auth)
        assert started.status_code == 303
        game = started.headers["location"]
        assert f'href="{game}"' in client.get("/play", headers=anna.auth).text
        assert f'href="{game}"' not in client.get("/play", headers=bruno.auth).text
        assert client.get(f"{game}/state", headers=anna.auth).status_code == 200
        assert client.get(f"{game}/state", headers=bruno.auth).status_code == 404


def test_the_coach_advises_on_your_turn_and_reviews_the_deal(client: TestClient) -> None:
    """On your turn the coach values every legal play, the player's choice first, and says
    what each takes and whether it searched lighter than the player (no kernel); once the
    deal is over it names your plays that cost the most (always playing the last legal play
    costs some)."""
    game = start(client)
    data = state(client, game)
    while not data["your_turn"]:
        data = advance(client, game, data)
    coach = client.get(f"/play/{game}/coach").json()
    assert coach["step"] == data["step"]
    assert coach["review"] == []
    legal = {(p["card"], tuple(p["capture"])) for p in data["legal"]}
    assert {(a["card"], tuple(a["capture"])) for a in coach["advice"]} == legal
    values = [a["expected"] for a in coach["advice"]]  # the player's choice, then best first
    assert values[1:] == sorted(values[1:], reverse=True)
    assert coach["lighter"] is not native.AVAILABLE  # the player's own tree where it is built
    for a in coach["advice"]:  # what each play takes, in words
        takes = a["takes"]
        assert takes["cards"] == (len(a["capture"]) + 1 if a["capture"] else 0)
        assert takes["words"].endswith(f"{takes['cards']} cards") == bool(a["capture"])
    assert client.get(f"/play/{game}/coach").json() == coach  # the same advice for the step
    end = play_deal(client, game)
    review = client.get(f"/play/{game}/coach").json()
    assert review["advice"] == []
    assert review["step"] == end["step"]
    assert review["review"], "playing the last legal play every time cost nothing?"
    for mistake in review["review"]:
        assert mistake["cost"] > 0
        assert mistake["best"]["expected"] - mistake["played"]["expected"] == pytest.approx(
            mistake["cost"], abs=0.011
        )
    assert client.get("/play/999999/coach").status_code == 404


def test_a_body_that_is_not_json_is_refused_in_json_as_every_move_is(client: TestClient) -> None:
    """The moves answer JSON, their refusals too: a body that is not JSON (or a game id out of
    range), refused before the move runs, was answered as an HTML page."""
    game = start(client, seed="3")
    before = state(client, game)
    raw = {"Content-Type": "application/json", "Accept-Language": "es"}
    for path in (f"/play/{game}/play", f"/play/{game}/computer", f"/play/{game}/sync"):
        refused = client.post(path, content=b"{", headers=raw)
        assert refused.status_code == 422, path
        assert refused.headers["content-type"] == "application/json", path
        assert refused.json()["where"] == "body"
        assert refused.json()["error"].startswith("JSON no válido"), refused.json()
    out_of_range = client.get("/play/0/state")
    assert (out_of_range.status_code, out_of_range.json()["where"]) == (422, "game_id")
    assert state(client, game) == before


def test_a_wrong_seed_is_named_in_words_a_player_reads(client: TestClient) -> None:
    """The seed's field has a label in the reader's language (it was the raw key ``seed``),
    its range is a number (it was Python's ``2**62 - 1``), and Italian says the shuffle's
    number, never "seme", which a player reads as a card's suit."""
    before = client.get("/play", params={"format": "json"}).json()["playing"]
    for seed, lang, said in (
        ("abc", "it", "Numero della mescolata: il numero della mescolata è un intero da 0 a "),
        ("4611686018427387904", "es", "Semilla: la semilla es un número entero de 0 a "),
        ("-1", "en", "Seed: a seed is a whole number from 0 to "),
    ):
        refused = client.post("/play", data={"seed": seed}, headers={"Accept-Language": lang})
        assert refused.status_code == 422
        assert f"{said}4611686018427387903" in refused.text, refused.text
        assert "2**" not in refused.text
        assert "seme" not in refused.text.lower().split("<main>")[1]
    assert client.get("/play", params={"format": "json"}).json()["playing"] == before
