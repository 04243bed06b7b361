"""Issue 49's survived mutants: the win rate is over finished matches only, "the last 30
days" means thirty (a match of 40 days ago is out, one of 29 in), and ``Accept-Language``
with ``q=0`` or tied tags is read as RFC 9110 says."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa import i18n
from scopa.application.matches import MatchService
from scopa.application.players import PlayerService
from scopa.store import MatchStore
from scopa.store.figures import SqlPlayers
from scopa.tally import Figures
from scopa.web import create_app
from tests.web.bodies import anna_deal


def imported(client: TestClient, deals: int) -> int:
    body = {"players": ["Anna", "Bruno"], "rules": {"target": 11}, "deals": [anna_deal()] * deals}
    answer = client.post("/api/import", json=body)
    assert answer.status_code == 201, answer.text
    ident: int = answer.json()["id"]
    return ident


def board(client: TestClient, **query: str) -> dict[str, Any]:
    answer = client.get("/players", params={"format": "json", **query})
    assert answer.status_code == 200
    return {row["name"]: row for row in answer.json()["players"]}


def test_the_win_rate_counts_finished_matches_only(client: TestClient) -> None:
    imported(client, 3)  # Anna 15, Bruno 6: Anna wins
    imported(client, 1)  # in progress
    rows = board(client)
    assert (rows["Anna"]["matches"], rows["Anna"]["finished"], rows["Anna"]["won"]) == (2, 1, 1)
    assert rows["Anna"]["win_rate"] == 1.0
    assert rows["Bruno"]["win_rate"] == 0.0
    assert Figures("Anna", matches=4, won=1, finished=2).win_rate == 0.5
    assert Figures("Anna", matches=3).win_rate == 0.0


@pytest.mark.parametrize(("days", "counted"), [(29, 1), (31, 0), (40, 0), (299, 0)])
def test_the_last_30_days_are_thirty(store: MatchStore, days: int, counted: int) -> None:
    """The match is played now; the figures are asked ``days`` later (an injected clock)."""
    service = MatchService(store)
    with TestClient(create_app(store)) as c:
        imported(c, 3)
    later = datetime.now(UTC) + timedelta(days=days)
    players = PlayerService(SqlPlayers(store.db.transaction, None), service, now=lambda: later)
    month = players.leaderboard(players.filter(period="30d"))
    assert [f.matches for f in month if f.name == "Anna"] == ([1] if counted else [])
    year = players.leaderboard(players.filter(period="365d"))
    assert [f.matches for f in year if f.name == "Anna"] == [1]
    assert players.filter(period="30d").since == later - timedelta(days=30)


@pytest.mark.parametrize(
    ("header", "spoken"),
    [
        ("it;q=0", None),
        ("it;q=0, es;q=0.1", "es"),
        ("es;q=0.0, it;q=0.001", "it"),
        ("it;q=0.8, es;q=0.8", "it"),
        ("es;q=0.8, it;q=0.8", "es"),
        ("es;q=0.5, it;q=0.8, en;q=0.8", "it"),
        ("fr, es;q=0.7, it;q=0.7", "es"),
        ("es;q=2, it;q=0.5", "it"),
        ("it, es", "it"),
    ],
)
def test_accept_language_q0_and_ties(header: str, spoken: str | None) -> None:
    assert i18n.from_accept_language(header) == spoken


def test_accept_language_q0_and_ties_over_http(client: TestClient) -> None:
    def lang(header: str) -> str:
        page = client.get("/", headers={"Accept-Language": header})
        return str(page.text).split('<html lang="', 1)[1].split('"', 1)[0]

    assert lang("it;q=0, es;q=0.3") == "es"
    assert lang("it;q=0") == "en"
    assert lang("es;q=0.9, it;q=0.9") == "es"
    assert lang("it;q=0.9, es;q=0.9") == "it"
