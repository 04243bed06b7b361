"""Issue 25, finding 4: everything a group can make counts against its limits: the games it
plays on the Play page and the devices that join it; and a game whose group's sheet is full
plays on (its deals unrecorded) instead of answering 403 at every move."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.store.records import Limits
from scopa.web import WebSettings, create_app
from tests.web.hosted_helpers import join

MATCH = {"players": ["Anna", "Bruno"]}


def used(store: MatchStore, group: int) -> int:
    found = store.groups.group(group)
    assert found is not None
    return found.used_bytes


def move(client: TestClient, game: str, auth: dict[str, str]) -> dict[str, Any]:
    """One step of the game (your first legal play, or the computer's)."""
    data: dict[str, Any] = client.get(f"{game}/state", headers=auth).json()
    if data["deal_over"]:
        answer = client.post(f"{game}/next", json={"step": data["step"]}, headers=auth)
    elif data["your_turn"]:
        play = data["legal"][-1]
        body = {"step": data["step"], "card": play["card"], "capture": play["capture"]}
        answer = client.post(f"{game}/play", json=body, headers=auth)
    else:
        answer = client.post(f"{game}/computer", json={"step": data["step"]}, headers=auth)
    assert answer.status_code == 200, answer.text
    after: dict[str, Any] = answer.json()
    return after


def test_play_games_and_their_moves_count_against_the_groups_bytes(store: MatchStore) -> None:
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as client:
        rossi = join(client, store, "Rossi")
        before = used(store, rossi.group)
        started = client.post("/play", data={"level": "easy", "seed": "7"}, headers=rossi.auth)
        assert started.status_code == 303
        game = started.headers["location"]
        after_start = used(store, rossi.group)
        assert after_start > before
        for _ in range(6):
            move(client, game, rossi.auth)
        assert used(store, rossi.group) > after_start
        store.groups.set_limits(rossi.group, Limits(max_bytes=used(store, rossi.group)))
        refused = client.post("/play", data={"level": "easy"}, headers=rossi.auth)
        assert refused.status_code == 403
        games = client.get("/play", headers=rossi.auth).text
        assert games.count('href="/play/') >= 1


def test_joined_devices_count_against_the_groups_bytes(store: MatchStore) -> None:
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as client:
        rossi = join(client, store, "Rossi")
        first = used(store, rossi.group)
        assert first > 0  # the device that joined
        store.groups.set_limits(rossi.group, Limits(max_bytes=first))
        refused = client.post("/api/join", json={"code": rossi.code})
        assert refused.status_code == 403
        assert refused.json()["where"] == "quota.bytes"
        assert len(store.groups.group_devices(rossi.group)) == 1


def test_a_game_whose_sheet_is_full_plays_on(store: MatchStore) -> None:
    """The group's match limit is reached after the game started: its finished deal cannot
    open a match, and the game goes on (before, every move answered 403 from then on)."""
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as client:
        rossi = join(client, store, "Rossi", max_matches=1)
        started = client.post("/play", data={"level": "easy", "seed": "7"}, headers=rossi.auth)
        game = started.headers["location"]
        assert client.post("/api/matches", json=MATCH, headers=rossi.auth).status_code == 201
        data = move(client, game, rossi.auth)
        while not data["deal_over"]:
            data = move(client, game, rossi.auth)
        data = move(client, game, rossi.auth)  # the next deal
        assert not data["deal_over"]
        assert client.get(f"{game}/state", headers=rossi.auth).status_code == 200
