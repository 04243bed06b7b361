"""Issue 25, finding 6: numbers sent as text are read in one place
(:func:`scopa.reading.ascii_digits`): superscript and other non-ASCII digits are refused
with a 4xx naming the field, never a 500, and ``٣`` is never read as 3."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from scopa.reading import ascii_digits
from scopa.store import MatchStore
from scopa.web import create_app

BAD = ["²", "⁴", "٣", "\uff13", "1²", "½"]


@pytest.fixture
def loose(store: MatchStore) -> TestClient:
    return TestClient(create_app(store), raise_server_exceptions=False)


@pytest.mark.parametrize("text", BAD)
def test_the_one_reader_takes_ascii_digits_only(text: str) -> None:
    assert text.isdigit() or text.isnumeric()  # what fooled the routes
    assert ascii_digits(text) is None
    assert ascii_digits("42") == 42


def test_play_form_refuses_non_ascii_players_and_seed(loose: TestClient) -> None:
    for text, field in ((t, f) for t in BAD for f in ("players", "seed")):
        data = {"variant": "scopa", "players": "2", "level": "easy", field: text}
        answer = loose.post("/play", data=data, follow_redirects=False)
        assert answer.status_code == 422, (field, answer.status_code)
    assert loose.get("/api/matches").json() == []


def test_an_uploaded_game_refuses_non_ascii_players_and_seed(loose: TestClient) -> None:
    game = {"variant": "scopa", "players": 2, "level": "easy", "seed": 7, "log": [[]]}
    for text, field in ((t, f) for t in BAD for f in ("players", "seed")):
        answer = loose.post("/play/games", json={**game, field: text})
        assert answer.status_code == 422, (field, answer.status_code, answer.text)
        assert answer.json()["where"] == field


def test_the_event_stream_refuses_a_non_ascii_since(loose: TestClient) -> None:
    match_id = loose.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    url = f"/api/matches/{match_id}/events"
    for text in BAD:
        by_query = loose.get(url, params={"since": text})
        assert by_query.status_code == 422
        assert by_query.json()["where"] == "since"
        by_header = loose.get(url, headers={"Last-Event-ID": text.encode("utf-8")})
        assert by_header.status_code == 422
        assert by_header.json()["where"] == "Last-Event-ID"


def test_a_latin1_byte_in_last_event_id_is_422(loose: TestClient) -> None:
    match_id = loose.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    for raw in (b"\xb2", b"\xb9", b"3\xbe"):  # ², ¹, ¾ once read as Latin-1
        answer = loose.get(f"/api/matches/{match_id}/events", headers={"Last-Event-ID": raw})
        assert answer.status_code == 422, raw
        assert answer.json()["where"] == "Last-Event-ID"
