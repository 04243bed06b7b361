"""Issue 26: players as people (rename, merge, remove, each logged and undone), the ratings,
and the figures of matches stored before tallies were kept; on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select, update

from scopa.store import MatchStore
from scopa.store.models import MatchRow, PairTotalRow, PlayerTotalRow, StatsMarkRow, TallyRow
from scopa.web import create_app
from tests.web.bodies import anna_deal


@pytest.fixture
def client(store: MatchStore) -> Any:
    with TestClient(create_app(store)) as test_client:
        yield test_client


def won_by_anna(
    client: TestClient, other: str = "Bruno", seats: list[dict[str, Any]] | None = None
) -> int:
    """A match Anna wins against ``other`` (three deals of 5 points to 2); ``seats``, its
    ``seat_kinds`` (a seat the program named)."""
    body: dict[str, Any] = {"players": ["Anna", other], "seat_kinds": seats}
    made = client.post("/api/matches", json=body).json()["id"]
    deal = anna_deal()
    if other != "Bruno":
        piles = deal["piles"]
        deal["piles"] = {"Anna": piles["Anna"], other: piles["Bruno"]}
        deal["sweeps"] = {"Anna": 1, other: 2}
        deal["last_capture"] = other
    for _ in range(3):
        assert client.post(f"/api/matches/{made}/deals", json=deal).status_code == 201
    return int(made)


def figures(client: TestClient, name: str) -> Any:
    return client.get(f"/api/players/{name}").json()


def test_a_rename_shows_the_new_name_everywhere_and_is_undone(client: TestClient) -> None:
    won_by_anna(client)
    renamed = client.post("/api/players/anna/rename", json={"name": "Anna B."})
    assert renamed.json() == {"summary": "Renamed Anna → Anna B."}
    assert figures(client, "Anna")["name"] == "Anna B."  # the old name is the same person
    assert figures(client, "anna b.")["won"] == 1
    assert list(figures(client, "Bruno")["opponents"]) == ["Anna B."]
    assert client.get("/api/matches").json()[0]["players"] == ["Anna", "Bruno"]  # facts kept
    client.post("/api/matches", json={"players": ["Anna B.", "Carla"]})  # the new name counts
    assert figures(client, "Anna")["matches"] == 2
    taken = client.post("/api/players/Anna/rename", json={"name": "bruno"})
    assert taken.status_code == 422
    assert "merge" in taken.json()["error"]
    change = client.get("/api/player-changes").json()[0]
    assert client.post(f"/api/player-changes/{change['id']}/undo").status_code == 200
    assert figures(client, "Anna")["name"] == "Anna"
    assert figures(client, "Anna B.")["name"] == "Anna"  # played under it: still Anna's
    again = client.post(f"/api/player-changes/{change['id']}/undo")
    assert again.status_code == 422
    assert again.json()["where"] == "change"


def test_a_merge_adds_two_names_up_and_is_undone(client: TestClient) -> None:
    won_by_anna(client)
    won_by_anna(client, "Carla")
    client.post("/api/matches", json={"players": ["anna b.", "Bruno"]})
    shared = client.post("/api/players/Bruno/merge", json={"into": "Anna"})
    assert shared.status_code == 422
    assert shared.json()["error"] == "Bruno and Anna both played in match 1: two players"
    merged = client.post("/api/players/anna b./merge", json={"into": "Anna"})
    assert merged.status_code == 200, merged.text
    anna = figures(client, "Anna")
    assert (anna["matches"], anna["won"]) == (3, 2)
    assert anna["opponents"]["Bruno"]["matches"] == 2
    assert [p["name"] for p in client.get("/api/players").json()].count("anna b.") == 0
    log = client.get("/api/player-changes").json()
    client.post(f"/api/player-changes/{log[0]['id']}/undo")
    assert figures(client, "Anna")["matches"] == 2
    assert figures(client, "anna b.")["matches"] == 1


def test_removed_figures_are_gone_until_undone(client: TestClient) -> None:
    won_by_anna(client)
    assert client.post("/api/players/Bruno/remove").status_code == 200
    gone = client.get("/api/players/Bruno")
    assert gone.status_code == 404
    assert gone.json()["error"] == "Bruno's figures were removed at their request"
    assert client.get("/players/Bruno").status_code == 404
    assert figures(client, "Anna")["opponents"] == {}
    assert figures(client, "Anna")["won"] == 1  # the match still counts for Anna
    assert [p["name"] for p in client.get("/api/players").json()] == ["Anna"]
    undo = client.get("/api/player-changes").json()[0]["id"]
    client.post(f"/api/player-changes/{undo}/undo")
    assert figures(client, "Bruno")["matches"] == 1


def test_the_pages_forms_change_the_players_and_bad_input_changes_nothing(
    client: TestClient,
) -> None:
    won_by_anna(client)
    moved = client.post("/players/Anna/rename", data={"name": "Annina"}, follow_redirects=False)
    assert (moved.status_code, moved.headers["location"]) == (303, "/players/Annina")
    assert "Annina" in client.get("/players/changes").text
    for path, data in (("/players/Zed/rename", {"name": "X"}), ("/players/Zed/remove", {})):
        assert client.post(path, data=data).status_code == 404
    bad = client.post("/players/Annina/rename", data={"name": "  "})
    assert bad.status_code == 422
    assert client.post("/api/players/Anna/merge", json=[]).status_code == 422
    assert client.get("/api/players?variant=briscola").json()["where"] == "variant"
    assert client.get("/api/players?period=week").json()["where"] == "period"
    assert figures(client, "Annina")["won"] == 1


def test_the_ratings_follow_the_results(client: TestClient) -> None:
    won_by_anna(client)
    won_by_anna(client)
    rated = {r["name"]: r for r in client.get("/api/ratings").json()}
    assert rated["Anna"]["mu"] > 25 > rated["Bruno"]["mu"]
    assert rated["Anna"]["sigma"] < 25 / 3  # less uncertain after two matches
    assert rated["Anna"]["matches"] == 2
    first = client.get("/api/matches").json()[-1]["id"]
    client.delete(f"/api/matches/{first}")  # the outcomes moved: worked out again
    again = {r["name"]: r for r in client.get("/api/ratings").json()}
    assert again["Anna"]["matches"] == 1
    assert again["Anna"]["mu"] < rated["Anna"]["mu"]
    board = client.get("/players?sort=rating&format=json").json()
    assert [p["name"] for p in board["players"]] == ["Anna", "Bruno"]
    assert board["players"][0]["rating"]["ordinal"] == pytest.approx(
        again["Anna"]["mu"] - 3 * again["Anna"]["sigma"], abs=0.01
    )


def test_ratings_played_on_top_equal_ratings_worked_out_afresh(
    client: TestClient, store: MatchStore
) -> None:
    for other in ("Bruno", "Carla", "Bruno", "Dario"):
        won_by_anna(client, other)
        client.get("/api/ratings")  # each newer match played on top of the kept ratings
    on_top = client.get("/api/ratings").json()
    with store.db.transaction() as session:
        session.execute(update(StatsMarkRow).values(full=1, rated=-1))
    assert client.get("/api/ratings").json() == on_top
    with store.db.transaction() as session:
        assert session.scalars(select(StatsMarkRow.full)).one() == 0


def test_an_outcome_moved_before_the_ratings_last_match_rates_from_the_first(
    client: TestClient, store: MatchStore
) -> None:
    """A newer match won (or reopened) is played on top of the kept ratings; an older one
    moved makes them worked out from the first match (``full``), and every move counts."""

    def mark() -> tuple[int, int, int]:
        with store.db.transaction() as session:
            row = session.scalars(select(StatsMarkRow)).one()
            return row.outcomes, row.rated, row.full

    older = won_by_anna(client)
    won_by_anna(client, "Carla")
    client.get("/api/ratings")
    outcomes, rated, full = mark()
    assert (outcomes, full) == (rated, 0)
    won_by_anna(client, "Dario")  # newer than every match rated: on top
    assert mark() == (outcomes + 1, rated, 0)
    assert client.delete(f"/api/matches/{older}/deals/3").status_code == 200  # reopened
    assert mark() == (outcomes + 2, rated, 1)


def test_matches_stored_before_the_figures_get_their_tally_once(
    client: TestClient, store: MatchStore
) -> None:
    won_by_anna(client)
    with store.db.transaction() as session:  # as a database migrated from before
        for table in (TallyRow, PlayerTotalRow, PairTotalRow):
            session.execute(delete(table))
        session.execute(update(MatchRow).values(summary=None, status=None, player_key=None))
    assert figures(client, "Anna")["won"] == 1
    assert figures(client, "Bruno")["opponents"] == {"Anna": {"matches": 1, "won": 0, "lost": 1}}


def test_the_export_of_a_players_figures(client: TestClient) -> None:
    won_by_anna(client)
    as_json = client.get("/api/players/Anna/export.json")
    assert as_json.headers["content-disposition"].startswith("attachment;")
    assert as_json.json() == figures(client, "Anna")
    lines = client.get("/api/players/Anna/export.csv").text.splitlines()
    assert lines[:3] == ["figure,against,value", "name,,Anna", "matches,,1"]
    assert "opponent.won,Bruno,1" in lines


def test_the_players_log_reads_in_the_reader_s_language_and_the_api_keeps_english(
    client: TestClient,
) -> None:
    """The log's summaries are stored in English (the API's ``summary``); the page says them
    in the reader's language, entries undone too."""
    won_by_anna(client)
    client.post("/players/Anna/rename", data={"name": "Annina"})
    client.post("/api/players/Bruno/remove")
    undo = client.get("/api/player-changes").json()[0]["id"]
    client.post(f"/api/player-changes/{undo}/undo")
    italian = client.get("/players/changes?lang=it").text
    for said in (
        "Rinominato Anna → Annina",
        "Tolte le statistiche di Bruno",
        "Annullato: Tolte le statistiche di Bruno",
    ):
        assert said in italian, said
    assert "Renamed" not in italian
    spanish = client.get("/players/changes?lang=es").text
    assert "Renombrado Anna → Annina" in spanish
    summaries = [c["summary"] for c in client.get("/api/player-changes").json()]
    assert "Renamed Anna → Annina" in summaries


def test_the_family_ranking_lists_people_not_the_computer(client: TestClient) -> None:
    """Issue 46: games against the computer count for the person who played them, but the
    computer is not a member of the family: the ranking, its head-to-head choice and its JSON
    twin leave the computer's seats out; the person's own page still names it among their
    opponents, in the page's language. Which names are the computer's is data: a table's
    computer seat (its match's ``seat_kinds``)."""
    won_by_anna(client)
    won_by_anna(client, "Computer", [{"kind": "person"}, {"kind": "computer"}])
    for lang, computer in (("it", "Computer"), ("es", "Ordenador")):
        headers = {"Accept-Language": lang}
        board = client.get("/players", headers=headers).text
        assert 'href="/players/Anna"' in board
        assert 'href="/players/Bruno"' in board
        assert 'href="/players/Computer"' not in board, lang
        assert 'value="Computer"' not in board, lang
        own = client.get("/players/Anna", headers=headers).text
        assert f'href="/players/Computer">{computer}</a>' in own, lang
    twin = client.get("/players?format=json").json()
    assert [p["name"] for p in twin["players"]] == ["Anna", "Bruno"]


def test_a_404_names_the_missing_thing_and_a_merge_needs_a_name(client: TestClient) -> None:
    """A change the log does not hold is refused at ``change`` (it said ``name``); a merge
    into an empty name is a 422 at ``into`` (it was a 404: "no player called ''"), and into a
    name nobody played under too (the player of the address is there)."""
    won_by_anna(client)
    won_by_anna(client, "Carla")
    before = (client.get("/api/players").json(), client.get("/api/player-changes").json())
    for path in ("/api/player-changes/99999/undo", "/players/changes/99999/undo"):
        missing = client.post(path, headers={"Accept-Language": "it"})
        assert missing.status_code == 404
        said = missing.json()["error"] if path.startswith("/api") else missing.text
        assert "nessuna modifica 99999 nel registro dei giocatori" in said
        if path.startswith("/api"):
            assert missing.json()["where"] == "change"
        else:
            assert "<code>change</code>" in missing.text
    for into, lang, said in (
        ("", "es", "escribe el nombre del jugador con el que unirlo"),
        ("  ", "it", "scrivi il nome del giocatore con cui unirlo"),
        ("Zed", "en", "no player called &#39;Zed&#39; has played here"),
    ):
        page = client.post(
            "/players/Carla/merge", data={"into": into}, headers={"Accept-Language": lang}
        )
        assert page.status_code == 422, page.text
        assert f"<code>into</code>: {said}" in page.text
    for body, code in (({"into": "Zed"}, "player.no_player_called_played"), ({}, None)):
        api = client.post("/api/players/Carla/merge", json=body)
        assert (api.status_code, api.json()["where"]) == (422, "into"), api.text
        assert code is None or api.json()["code"] == code
    assert (client.get("/api/players").json(), client.get("/api/player-changes").json()) == before
