"""Issue 9: a match list that scales. Each match's summary is kept on its row with every
change; the list reads summaries only, pages with ``?limit=`` / ``?before=`` and a ``Link``
header, and the home page filters by player and status."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from scopa.store import MatchStore
from tests.web.conftest import anna_deal


def create(client: TestClient, players: list[str], deals: int = 0, **extra: Any) -> int:
    body = {"players": players, "deals": [anna_deal() for _ in range(deals)], **extra}
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 201, answer.text
    ident: int = answer.json()["id"]
    return ident


def test_pages_newest_first_with_a_link_to_the_next(client: TestClient) -> None:
    ids = [create(client, ["Anna", "Bruno"]) for _ in range(7)]
    first = client.get("/api/matches?limit=3")
    assert [m["id"] for m in first.json()] == ids[::-1][:3]
    assert first.headers["link"] == f'</api/matches?limit=3&before={ids[4]}>; rel="next"'
    second = client.get(f"/api/matches?limit=3&before={ids[4]}")
    assert [m["id"] for m in second.json()] == [ids[3], ids[2], ids[1]]
    last = client.get(f"/api/matches?limit=3&before={ids[1]}")
    assert [m["id"] for m in last.json()] == [ids[0]]
    assert "link" not in last.headers
    assert len(client.get("/api/matches").json()) == 7


@pytest.mark.parametrize(
    ("query", "where"),
    [
        ("limit=0", "limit"),
        ("limit=501", "limit"),
        ("before=x", "before"),
        ("status=lost", "status"),
    ],
)
def test_bad_paging_is_a_422(client: TestClient, query: str, where: str) -> None:
    answer = client.get(f"/api/matches?{query}")
    assert answer.status_code == 422
    assert answer.json()["where"] == where


def test_summary_kept_with_every_change(client: TestClient, store: MatchStore) -> None:
    match_id = create(client, ["Anna", "Bruno"], name="Friday")
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    client.patch(f"/api/matches/{match_id}/rules", json={"target": 11})
    line = client.get("/api/matches").json()[0]
    assert line["deal_count"] == 2
    assert line["totals"] == {"Anna": 10, "Bruno": 4}
    assert line["status"] == "in_progress"
    assert line["variant"] == "scopa"
    assert line["name"] == "Friday"
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    client.delete(f"/api/matches/{match_id}/deals/1")
    line = client.get("/api/matches").json()[0]
    assert (line["deal_count"], line["totals"]["Anna"]) == (2, 10)
    client.patch(f"/api/matches/{match_id}/rules", json={"target": 7})
    line = client.get("/api/matches").json()[0]
    assert (line["status"], line["winner"]) == ("won", "Anna")
    with store.engine.connect() as conn:
        row = conn.execute(
            text("SELECT status, player_key FROM matches WHERE id = :id"), {"id": match_id}
        ).one()
    assert tuple(row) == ("won", "|anna|bruno|")


def test_the_list_reads_summaries_only(client: TestClient, store: MatchStore) -> None:
    """The facts of the deals are not read for the list: emptying them changes nothing."""
    match_id = create(client, ["Anna", "Bruno"], deals=3)
    before = client.get("/api/matches").json()
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    from sqlalchemy import event

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        assert client.get("/api/matches").json() == before
        assert client.get("/").status_code == 200
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
    assert statements
    assert not [s for s in statements if "deals" in s.lower() or "changes" in s.lower()]
    assert match_id == before[0]["id"]


def test_rows_from_before_get_their_summary(client: TestClient, store: MatchStore) -> None:
    match_id = create(client, ["Anna", "Bruno"], deals=2)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE matches SET summary = NULL, status = NULL, player_key = NULL"))
    line = client.get("/api/matches?status=in_progress&player=anna").json()
    assert [(m["id"], m["deal_count"]) for m in line] == [(match_id, 2)]
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT status FROM matches")).scalar() == "in_progress"


def test_home_filters_by_player_and_status(client: TestClient) -> None:
    won = create(client, ["Anna", "Bruno"], deals=3, rules={"target": 11})
    playing = create(client, ["Carla", "Dario"])
    other = create(client, ["anna", "Elena"])
    by_player = client.get("/api/matches?player=ANNA ").json()
    assert [m["id"] for m in by_player] == [other, won]
    assert [m["id"] for m in client.get("/api/matches?status=won").json()] == [won]
    page = client.get("/?player=Carla")
    assert page.status_code == 200
    assert f'href="/matches/{playing}"' in page.text
    assert f'href="/matches/{won}"' not in page.text
    finished = client.get("/?status=won")
    assert f'href="/matches/{won}"' in finished.text
    assert f'href="/matches/{other}"' not in finished.text
    assert 'value="won" selected' in finished.text
    paged = client.get("/?limit=1")
    assert f'href="/?limit=1&amp;before={other}"' in paged.text
    assert "No matches here." in client.get("/?player=Nobody").text
