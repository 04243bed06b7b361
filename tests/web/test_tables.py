"""Tables played together, through the HTTP API on both databases: create, join, the seats'
views, plays checked by the engine, the computer's seats and the absent seats played off the
request path, every finished deal on the table's match."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.store.records import TableWrite
from scopa.web import WebSettings, create_app
from scopa.web.tables.routes import background_tables
from tests.web.tables_helpers import (
    Clock,
    bearer,
    computer,
    create,
    first_play,
    join,
    table_app,
    view,
)

JSON_TYPE = {"Content-Type": "application/json"}


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(store: MatchStore, clock: Clock) -> FastAPI:
    return table_app(create_app(store), clock)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def test_a_table_is_created_joined_and_seen_from_each_seat(client: TestClient) -> None:
    table = create(client, names=["Anna"], grace=30)
    assert table["seat"] == 0
    assert table["join"] == f"/t/{table['code']}"
    assert table["match"] is None  # created once every seat is taken
    first = view(client, table["table"], table["token"])
    assert first["waiting"] == [1]
    assert first["legal"] == []
    bruno = join(client, table, "Bruno")
    assert bruno["seat"] == 1
    assert bruno["match"] is not None
    anna = view(client, table["table"], table["token"])
    other = view(client, table["table"], bruno["token"])
    assert anna["you"] == 0
    assert other["you"] == 1
    assert len(anna["hand"]) == len(other["hand"]) == 3
    assert not set(anna["hand"]) & set(other["hand"])
    assert anna["table_cards"] == other["table_cards"]
    assert anna["stock"] == 30
    assert [s["name"] for s in anna["seats"]] == ["Anna", "Bruno"]
    assert all(s["present"] and s["kind"] == "human" for s in anna["seats"])
    mover = anna if anna["turn"] == 0 else other
    assert mover["legal"]
    assert not (other if mover is anna else anna)["legal"]
    keys = {"table", "step", "variant", "deal", "turn", "you", "hand", "table_cards", "stock"}
    assert keys | {"seats", "legal", "plays", "match", "status"} <= set(anna)
    match = client.get(f"/api/matches/{anna['match']}").json()
    assert match["match"]["players"] == ["Anna", "Bruno"]


def test_seats_and_codes_are_checked(client: TestClient) -> None:
    table = create(client, names=["Anna"])
    path = f"/api/tables/{table['table']}"
    assert client.post(f"{path}/seats", json={"code": "WRONG", "name": "B"}).status_code == 401
    # a letter past ASCII (a lone surrogate too) is a wrong code, never a 500 (two tries: a
    # sixth wrong code from one address in a minute is a 429)
    sent = json.dumps({"code": "È\ud93b", "name": "B"})  # JSON escapes the surrogate
    answer = client.post(f"{path}/seats", content=sent, headers=JSON_TYPE)
    assert answer.status_code == 401, answer.text
    assert client.get(path, params={"code": table["code"] + "é"}).status_code == 401
    assert client.get(path).status_code == 401
    assert client.get(path, headers=bearer("not-a-token")).status_code == 401
    assert client.get("/api/tables/999999", headers=bearer(table["token"])).status_code == 404
    same = client.post(f"{path}/seats", json={"code": table["code"], "name": "anna"})
    assert same.status_code == 422
    assert same.json()["where"] == "name"
    join(client, table, "Bruno")
    full = client.post(f"{path}/seats", json={"code": table["code"], "name": "Carla"})
    assert full.status_code == 409
    other = create(client, names=["Dino"])
    assert client.get(path, headers=bearer(other["token"])).status_code == 401
    for body, where in (
        ({"players": 5}, "players"),
        ({"variant": "briscola"}, "variant"),
        ({"players": 2, "computer": {"0": "easy"}}, "computer.0"),
        ({"players": 2, "computer": {"1": "genius"}}, "computer.1"),
        ({"players": 2, "grace": -1}, "grace"),
        ({"players": 2, "rules": {"target": 3}}, "rules.target"),
        ({"players": 2, "colour": "red"}, "colour"),
    ):
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 422, body
        assert refused.json()["where"] == where
    # One check, one code and one sentence: a table is refused as a game against the
    # computer is (engine.game's checks).
    for body, code in (
        ({"variant": "briscola"}, "game.not_offered"),
        ({"players": 5}, "game.played_players_not"),
        ({"players": 2, "computer": {"1": "genius"}}, "game.not_level"),
    ):
        assert client.post("/api/tables", json=body).json()["code"] == code, body
    # A table's names become its match's players: read as a match file reads them.
    for names, code in (
        (["Anna & Bruno"], "match.kept_team_names"),
        (["x" * 41], "match.characters_most"),
        (["  "], "match.player_name_cannot_empty"),
        ([7], "match.expected_player_name_found"),
    ):
        refused = client.post("/api/tables", json={"players": 2, "names": names})
        assert (refused.status_code, refused.json()["code"]) == (422, code), names
        assert refused.json()["where"] == "names[0]"


def test_a_seat_name_differing_only_in_case_does_not_sit_twice(client: TestClient) -> None:
    table = create(client, players=4, names=["Anna"], computer={"3": "easy"})
    path = f"/api/tables/{table['table']}/seats"
    for name in ("ANNA", "aNnA", "COMPUTER"):
        same = client.post(path, json={"code": table["code"], "name": name})
        assert same.status_code == 422, name
        assert same.json()["where"] == "name"
        assert same.json()["code"] == "table.already_sits_table_choose"
    join(client, table, "Straße")
    for name in ("STRASSE", "strasse"):  # casefolded: ß is ss
        same = client.post(path, json={"code": table["code"], "name": name})
        assert same.status_code == 422, name
    seen = view(client, table["table"], table["token"])
    assert [s["name"] for s in seen["seats"]] == ["Anna", "Straße", "Seat 3", "Computer"]


def test_a_play_based_on_an_older_step_is_refused_and_changes_nothing(
    store: MatchStore, client: TestClient
) -> None:
    table = create(client, names=["Anna"])
    bruno = join(client, table, "Bruno")
    tokens = {0: table["token"], 1: bruno["token"]}
    path = f"/api/tables/{table['table']}/plays"
    first = view(client, table["table"], tokens[0])
    mover = first["turn"]
    first = view(client, table["table"], tokens[mover])
    done = client.post(path, json=first_play(first), headers=bearer(tokens[mover]))
    assert done.status_code == 200, done.text
    now = view(client, table["table"], tokens[1 - mover])
    assert now["step"] == first["step"] + 1
    # The seat to move now, with the step it saw before the last play: refused by the step.
    old = client.post(
        path,
        json={**first_play(now), "step": first["step"]},
        headers=bearer(tokens[1 - mover]),
    )
    assert old.status_code == 409
    assert old.json()["where"] == "step"
    assert old.json()["code"] == "version.table_moved_2"
    after = view(client, table["table"], tokens[1 - mover])
    assert (after["step"], after["plays"]) == (now["step"], now["plays"])
    # The store too writes a move only on the step it was based on.
    from scopa.store.tables import SqlTables

    kept = SqlTables(store.db)
    before = kept.load(table["table"])
    assert before is not None
    assert not kept.save(
        table["table"],
        TableWrite(based_on=first["step"], log=[[]], status="playing", turn=mover, now=0.0),
    )
    assert kept.load(table["table"]) == before


def test_plays_are_checked_by_the_engine_and_nothing_changes_when_refused(
    client: TestClient,
) -> None:
    table = create(client, names=["Anna"])
    bruno = join(client, table, "Bruno")
    tokens = {0: table["token"], 1: bruno["token"]}
    seen = view(client, table["table"], tokens[0])
    mover, waiting = seen["turn"], 1 - seen["turn"]
    mine = view(client, table["table"], tokens[mover])
    path = f"/api/tables/{table['table']}/plays"
    play = first_play(mine)
    wrong_turn = client.post(path, json=play, headers=bearer(tokens[waiting]))
    assert wrong_turn.status_code == 409
    stale = client.post(
        path, json={**play, "step": mine["step"] + 3}, headers=bearer(tokens[mover])
    )
    assert stale.status_code == 409
    not_mine = next(c for c in view(client, table["table"], tokens[waiting])["hand"])
    illegal = client.post(
        path, json={**play, "card": not_mine, "capture": []}, headers=bearer(tokens[mover])
    )
    assert illegal.status_code == 422
    garbage = client.post(path, json={"step": "x"}, headers=bearer(tokens[mover]))
    assert garbage.status_code == 422
    assert garbage.json()["where"] == "step"
    assert view(client, table["table"], tokens[mover])["step"] == mine["step"]
    done = client.post(path, json=play, headers=bearer(tokens[mover]))
    assert done.status_code == 200
    after = done.json()
    assert after["step"] == mine["step"] + 1
    assert after["turn"] == waiting
    assert after["plays"][-1] == {
        "seat": mover,
        "name": after["seats"][mover]["name"],
        "card": play["card"],
        "captured": play["capture"],
        "sweep": after["plays"][-1]["sweep"],
        "by": "seat",
    }


@contextmanager
def commits_of(store: MatchStore) -> Iterator[list[list[str]]]:
    """The commits made meanwhile that wrote something, each as the tables it wrote."""
    from sqlalchemy import event

    writes: list[str] = []
    commits: list[list[str]] = []

    def written(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().split()[0].upper() in {"INSERT", "UPDATE", "DELETE"}:
            writes.append(statement.split()[2 if statement.split()[0] == "INSERT" else 1])

    def committed(conn: Any) -> None:
        if writes:
            commits.append(list(writes))
        writes.clear()

    engine = store.db.engine
    event.listen(engine, "before_cursor_execute", written)
    event.listen(engine, "commit", committed)
    try:
        yield commits
    finally:
        event.remove(engine, "before_cursor_execute", written)
        event.remove(engine, "commit", committed)


def test_a_match_with_a_computer_seat_is_played_to_the_end_and_is_on_the_sheet(
    app: FastAPI, client: TestClient, store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Also: the next deal is dealt on the game as it stands and written in one commit (the
    seat's sign of life with it), a rematch is its match on the sheet and the table's one
    commit; each deals what the table dealt again from its seed would."""
    from scopa.application.tables import TableGame
    from scopa.store.tables import SqlTables

    dealt: list[int] = []
    deal = TableGame.__init__

    def counted(game: TableGame, record: Any) -> None:
        dealt.append(record.id)
        deal(game, record)

    def as_dealt_from_the_seed(seen: dict[str, Any]) -> None:
        record = SqlTables(store.db).load(table["table"])
        assert record is not None
        fresh = TableGame(record)
        assert seen["table_cards"] == fresh.state.table_cards.to_list()
        assert seen["hand"] == fresh.state.hand(0).to_list()
        assert seen["turn"] == fresh.turn

    monkeypatch.setattr(TableGame, "__init__", counted)
    table = create(client, names=["Anna"], computer={"1": "easy"}, rules={"target": 5})
    assert table["match"] is not None  # every seat taken at once
    token, path = table["token"], f"/api/tables/{table['table']}"
    deals = 0
    for _ in range(2000):
        seen = view(client, table["table"], token)
        if seen["status"] == "match_over":
            break
        if seen["status"] == "deal_over":
            deals += 1
            assert seen["score"]["last"] is not None
            dealt.clear()
            stale = client.post(
                f"{path}/next", json={"step": seen["step"] - 1}, headers=bearer(token)
            )
            assert stale.status_code == 409
            with commits_of(store) as commits:
                answer = client.post(
                    f"{path}/next", json={"step": seen["step"]}, headers=bearer(token)
                )
            assert answer.status_code == 200
            assert commits == [["tables", "table_seats"]]  # the deal and the sign of life
            assert dealt == []  # not dealt again from the seed
            as_dealt_from_the_seed(answer.json())
        elif seen["turn"] == 0:
            answer = client.post(f"{path}/plays", json=first_play(seen), headers=bearer(token))
            assert answer.status_code == 200, answer.text
        else:
            assert computer(app) == 1
    assert seen["status"] == "match_over"
    sheet = client.get(f"/api/matches/{seen['match']}").json()
    assert len(sheet["match"]["deals"]) == deals + 1
    assert list(sheet["sheet"]["totals"].values()) == seen["score"]["totals"]
    assert sheet["match"]["players"] == ["Anna", "Computer"]
    # A rematch: a new match at the same table, the same seats and tokens.
    with commits_of(store) as commits:
        again = client.post(f"{path}/next", json={"step": seen["step"]}, headers=bearer(token))
    assert again.status_code == 200
    assert len(commits) == 2, commits  # the new match on the sheet, then the table's
    assert commits[-1] == ["tables", "table_seats"]
    fresh = again.json()
    as_dealt_from_the_seed(fresh)
    assert fresh["match"] not in (None, seen["match"])
    assert fresh["status"] == "playing"
    assert fresh["score"]["totals"] == [0, 0]


def test_a_seat_away_longer_than_the_grace_is_played_by_the_computer_until_it_returns(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    table = create(client, names=["Anna"], grace=30, level="easy")
    bruno = join(client, table, "Bruno")
    tokens = {0: table["token"], 1: bruno["token"]}
    seen = view(client, table["table"], tokens[0])
    away = seen["turn"]
    here = 1 - away
    clock.now += 40  # 20 s of presence, then 20 s into the grace: not yet
    view(client, table["table"], tokens[here])
    assert computer(app) == 0
    clock.now += 15
    mine = view(client, table["table"], tokens[here])
    assert not mine["seats"][away]["present"]
    assert mine["seats"][away]["computer_plays"]
    assert computer(app) == 1
    after = view(client, table["table"], tokens[here])
    assert after["plays"][-1]["by"] == "computer"
    assert after["plays"][-1]["seat"] == away
    client.post(
        f"/api/tables/{table['table']}/plays", json=first_play(after), headers=bearer(tokens[here])
    )
    back = view(client, table["table"], tokens[away])  # the person returns
    assert back["seats"][away]["present"]
    assert back["turn"] == away
    assert computer(app) == 0
    played = client.post(
        f"/api/tables/{table['table']}/plays", json=first_play(back), headers=bearer(tokens[away])
    )
    assert played.json()["plays"][-1]["by"] == "seat"


def test_a_table_whose_people_all_left_waits_for_one_to_return(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    """The computer plays for a seat away past the grace while someone is at the table; once
    every person is away past it, nobody is there to play for, and the table waits (its own
    computer seat too) until one comes back."""
    table = create(client, players=3, names=["Anna"], grace=30, computer={"2": "easy"})
    bruno = join(client, table, "Bruno")
    tokens = {0: table["token"], 1: bruno["token"]}
    turn = view(client, table["table"], tokens[0])["turn"]
    while turn == 2:  # a person to move: the computer seat plays first if it leads
        assert computer(app) == 1
        turn = view(client, table["table"], tokens[0])["turn"]
    clock.now += 60  # both away: 20 s of presence and 40 s past the grace
    assert computer(app) == 0
    assert computer(app) == 0
    back = view(client, table["table"], tokens[1 - turn])  # the other person returns
    assert back["turn"] == turn
    assert computer(app) == 1  # the seat to move is still away: played for, now someone is here
    after = view(client, table["table"], tokens[1 - turn])
    assert after["plays"][-1] == {**after["plays"][-1], "by": "computer", "seat": turn}


def test_a_restart_continues_the_table(store: MatchStore, clock: Clock) -> None:
    with TestClient(table_app(create_app(store), clock)) as client:
        table = create(client, names=["Anna"], computer={"1": "easy"})
        seen = view(client, table["table"], table["token"])
    with TestClient(table_app(create_app(store), clock)) as client:
        again = view(client, table["table"], table["token"])
    assert again["hand"] == seen["hand"]
    assert again["step"] == seen["step"]


def test_tables_per_group_are_limited(app: FastAPI, client: TestClient) -> None:
    create(client, names=["Anna"])
    from scopa.application import MatchService
    from scopa.application.tables import Tables
    from scopa.errors import QuotaExceededError
    from scopa.store.tables import SqlTables

    service = Tables(SqlTables(app.state.store.db), MatchService(app.state.store), limits=(1, 10))
    with pytest.raises(QuotaExceededError):
        service.create({"players": 2})
    seats = Tables(SqlTables(app.state.store.db), MatchService(app.state.store), limits=(9, 2))
    with pytest.raises(QuotaExceededError):
        seats.create({"players": 2})


def test_on_a_hosted_server_tables_belong_to_a_group_and_a_seat_token_to_its_table(
    store: MatchStore, clock: Clock
) -> None:
    from tests.web.hosted_helpers import join as join_group

    app = table_app(create_app(store, WebSettings(hosted=True)), clock)
    with TestClient(app) as client:
        family = join_group(client, store, "Family")
        club = join_group(client, store, "Club")
        assert client.post("/api/tables", json={"players": 2}).status_code == 401
        made = client.post(
            "/api/tables", json={"players": 2, "names": ["Anna"]}, headers=family.auth
        )
        assert made.status_code == 201
        table = made.json()
        path = f"/api/tables/{table['table']}"
        seat = {**family.auth, "X-Scopa-Seat": table["token"]}
        assert client.get(path, headers=seat).status_code == 200
        # The group's bearer is not a seat's token; another group does not see the table.
        assert client.get(path, headers=family.auth).status_code == 401
        assert client.get(
            path, headers={**club.auth, "X-Scopa-Seat": table["token"]}
        ).status_code in (401, 404)
        refused = client.post(
            f"{path}/seats", json={"code": table["code"], "name": "Bruno"}, headers=club.auth
        )
        assert refused.status_code == 404
        bruno = client.post(
            f"{path}/seats", json={"code": table["code"], "name": "Bruno"}, headers=family.auth
        )
        assert bruno.status_code == 201
        other = client.post("/api/tables", json={"players": 2}, headers=family.auth).json()
        wrong_table = {**family.auth, "X-Scopa-Seat": other["token"]}
        assert client.get(path, headers=wrong_table).status_code == 401
        match = client.get(f"/api/matches/{bruno.json()['match']}", headers=family.auth)
        assert match.status_code == 200
        assert (
            client.get(f"/api/matches/{bruno.json()['match']}", headers=club.auth).status_code
            == 404
        )


def test_three_phones_play_a_scopone_match_to_the_end_with_a_computer_seat(
    sqlite_url: str, clock: Clock
) -> None:
    """The whole match (SQLite only: the other tests cover both databases)."""
    store = MatchStore.open(sqlite_url)
    app = table_app(create_app(store), clock)
    with TestClient(app) as client:
        play_scopone_match(app, client)
    store.close()


def play_scopone_match(app: FastAPI, client: TestClient) -> None:
    table = create(
        client,
        variant="scopone",
        players=4,
        names=["Anna"],
        computer={"3": "easy"},
        rules={"target": 5},
    )
    tokens = {0: table["token"]}
    for seat, name in ((1, "Bruno"), (2, "Carla")):
        joined = join(client, table, name)
        assert joined["seat"] == seat
        tokens[seat] = joined["token"]
    path = f"/api/tables/{table['table']}"
    finished = 0
    for _ in range(3000):
        seen = view(client, table["table"], tokens[0])
        if seen["status"] == "match_over":
            break
        if seen["status"] == "deal_over":
            finished += 1
            client.post(f"{path}/next", json={"step": seen["step"]}, headers=bearer(tokens[1]))
        elif seen["turn"] == 3:
            assert computer(app) == 1
        else:
            mine = view(client, table["table"], tokens[seen["turn"]])
            played = client.post(
                f"{path}/plays", json=first_play(mine, 1), headers=bearer(tokens[seen["turn"]])
            )
            assert played.status_code == 200
    assert seen["status"] == "match_over"
    assert seen["score"]["sides"] == ["Anna & Carla", "Bruno & Computer"]
    sheet = client.get(f"/api/matches/{seen['match']}").json()
    assert len(sheet["match"]["deals"]) == finished + 1
    assert sheet["sheet"]["winner"] == seen["score"]["winner"]
    stats = client.get("/api/players/Carla")
    if stats.status_code == 200:  # the players' figures count the table's match
        assert stats.json()["matches"] >= 1


def test_the_pages_work_without_javascript(app: FastAPI, client: TestClient) -> None:
    assert client.get("/tables/new").status_code == 200
    made = client.post(
        "/tables/new",
        data={
            "name": "Anna",
            "variant": "scopa",
            "players": "2",
            "computers": "0",
            "level": "easy",
            "grace": "60",
        },
        follow_redirects=False,
    )
    assert made.status_code == 303
    page_path = made.headers["location"]
    table_id = int(page_path.rsplit("/", 1)[1])
    anna_page = client.get(page_path)
    assert '<meta http-equiv="refresh"' in anna_page.text
    code = re.search(r"/t/([A-Z0-9]{8})", anna_page.text)
    assert code is not None
    assert client.get(f"/t/{code[1]}/qr.svg").headers["content-type"].startswith("image/svg")
    phone = TestClient(app)  # another phone (the app's lifespan is the first client's)
    assert "Take a seat" in phone.get(f"/t/{code[1].lower()}").text
    joined = phone.post(f"/t/{code[1]}", data={"name": "Bruno"}, follow_redirects=False)
    assert joined.status_code == 303
    assert joined.headers["location"] == page_path
    pages = {0: client, 1: phone}
    mover = 0 if "Your turn" in client.get(page_path).text else 1
    page = pages[mover].get(page_path).text
    form = re.search(
        r'name="step" value="(\d+)"><input type="hidden" name="card" value="(\w+)">'
        r'<input type="hidden" name="capture" value="([^"]*)">',
        page,
    )
    assert form is not None
    step, card, capture = form.groups()
    body = {"step": step, "card": card, "capture": capture}
    moved = pages[mover].post(f"/tables/{table_id}/play", data=body, follow_redirects=False)
    assert moved.status_code == 303
    other = pages[1 - mover].get(page_path).text
    assert "Your turn" in other
    assert f'data-card="{card}"' in other  # the play is on the other phone's page
    stale = pages[mover].post(f"/tables/{table_id}/play", data=body)
    assert stale.status_code == 409
    assert "moved on" in stale.text or "not your turn" in stale.text
    tv = client.get(f"/tables/{table_id}/tv", params={"code": code[1]})
    assert tv.status_code == 200
    assert 'class="play-hand' not in tv.text
    assert client.get(f"/tables/{table_id}/tv", params={"code": "WRONG"}).status_code == 404
    client.cookies.clear()
    assert client.get(page_path).status_code == 401


def test_the_computer_s_seat_is_named_in_the_reader_s_language(client: TestClient) -> None:
    """The table page names the computer's seat in the page's language (the API keeps the
    seat's own name: "Computer")."""
    made = client.post(
        "/tables/new?lang=es",
        data={
            "name": "Anna",
            "variant": "scopa",
            "players": "2",
            "computers": "1",
            "level": "easy",
            "grace": "60",
        },
        follow_redirects=False,
    )
    assert made.status_code == 303
    page = client.get(made.headers["location"] + "?lang=es").text
    assert re.search(r'class="play-seat-name">Ordenador', page)
    assert not re.search(r'class="play-seat-name">Computer', page)


def test_a_seat_that_left_stays_away_when_its_closed_pages_last_fetch_lands_late(
    app: FastAPI, client: TestClient
) -> None:
    """The page fetches the table's fragment after each event of its stream; one still on its
    way when the page closed must not bring the seat back after the stream said it left (the
    browser test's seat never showed "away" when it did). A page load, or a play, does."""
    table = create(client, names=["Anna"], grace=30)
    bruno = join(client, table, "Bruno")
    table_id = table["table"]
    assert view(client, table_id, table["token"])["seats"][1]["present"]
    background_tables(app)().left(table_id, 1)  # Bruno's stream closed
    assert not view(client, table_id, table["token"])["seats"][1]["present"]
    late = client.get(f"/tables/{table_id}/fragment", headers=bearer(bruno["token"]))
    assert late.status_code == 200
    assert not view(client, table_id, table["token"])["seats"][1]["present"]
    again = client.get(f"/tables/{table_id}", headers=bearer(bruno["token"]))  # he is back
    assert again.status_code == 200
    assert view(client, table_id, table["token"])["seats"][1]["present"]


def test_the_new_table_form_sets_the_points_to_win_and_names_a_wrong_one(
    client: TestClient,
) -> None:
    form = {"name": "Anna", "variant": "scopone", "computers": "3", "level": "easy"}
    wrong = client.post("/tables/new", data={**form, "target": "3"})
    assert wrong.status_code == 422
    assert "Points to win: " in wrong.text
    italian = client.post(
        "/tables/new", data={**form, "target": "3"}, headers={"Accept-Language": "it"}
    )
    assert "Punti per vincere: " in italian.text
    made = client.post("/tables/new", data={**form, "target": "5"}, follow_redirects=False)
    assert made.headers["location"] == "/tables/1"  # the wrong ones made no table
    page = client.get(made.headers["location"]).text
    assert "(to 5)" in page
    usual = client.post("/tables/new", data={**form, "target": " "}, follow_redirects=False)
    assert "(to 11)" in client.get(usual.headers["location"]).text


def test_the_table_page_shows_the_device_s_card_display(client: TestClient) -> None:
    """A phone that chose the French suits sees its hand and the table as ♦ ♥ ♠ ♣ and J Q K,
    named in its language (the cards' codes stay as they are)."""
    made = client.post(
        "/tables/new?lang=it&deck=french",
        data={"name": "Anna", "variant": "scopa", "players": "2", "computers": "1"},
        follow_redirects=False,
    )
    assert made.status_code == 303
    page = client.get(made.headers["location"]).text
    assert 'data-deck="french"' in page
    faces = re.findall(
        r'<span class="pc pc-\w+( pc-french)?" data-card="(\w\w)" role="img" '
        r'aria-label="([^"]+)"',
        page,
    )
    assert len(faces) >= 3
    assert all(french for french, _code, _name in faces)
    assert all(
        re.fullmatch(
            r"(asso|due|tre|quattro|cinque|sei|sette|fante|donna|re) di "
            r"(quadri|cuori|picche|fiori)",
            name,
        )
        for _french, _code, name in faces
    ), faces
    italian = client.get(made.headers["location"] + "?deck=italian").text
    assert " pc-french" not in italian


@pytest.mark.parametrize(
    ("variant", "words"),
    [("escoba", ["Cartas", "Oros", "Siete de velo", "Setenta", "Escobas"]), ("cirulla", None)],
)
def test_a_deal_s_points_come_under_the_variant_s_own_keys_and_words(
    app: FastAPI, client: TestClient, variant: str, words: list[str] | None
) -> None:
    """The table sends a deal's points under its variant's keys (Cirulla's piccola and grande
    when scored, never Scopa's napola) with their words, which the page script says."""
    table = create(client, names=["Anna"], computer={"1": "easy"}, variant=variant)
    token, path = table["token"], f"/api/tables/{table['table']}"
    for _ in range(200):
        seen = view(client, table["table"], token)
        # A Cirulla deal in which a side takes all ten coins ends the match too (the
        # cappotto): the run's one failure under load was such a deal, waited on as if the
        # computer still had to play.
        if seen["status"] in ("deal_over", "match_over"):
            break
        if seen["turn"] == 0:
            answer = client.post(f"{path}/plays", json=first_play(seen), headers=bearer(token))
            assert answer.status_code == 200, answer.text
        else:
            assert computer(app) == 1, seen
    score = seen["score"]
    keys = score["keys"]
    assert keys[-1] == "total"
    assert "napola" not in keys
    assert all(set(points) == set(keys) for points in score["last"])
    assert sum(p["total"] for p in score["last"]) == sum(
        p[k] for p in score["last"] for k in keys[:-1]
    )
    if words is not None:
        assert [score["labels"][k] for k in keys[:5]] == words
    else:
        assert keys[:5] == ["cards", "coins", "settebello", "primiera", "sweeps"]


def test_the_turn_clock_plays_for_a_seat_at_the_table_that_does_not_play(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    """A seat that keeps its page open and never plays: when the table's turn clock runs out
    the computer plays for it, the play marked ``"by": "clock"``, and the seat is told (in
    its language too). The countdown is on the page; no sleeps, the test moves the clock."""
    table = create(client, names=["Anna"], grace=60, clock=30, level="easy")
    bruno = join(client, table, "Bruno")
    tokens = {0: table["token"], 1: bruno["token"]}
    table_id = table["table"]
    seen = view(client, table_id, tokens[0])
    mover, other = seen["turn"], 1 - seen["turn"]
    assert (seen["clock"], seen["clock_left"], seen["timed_out"]) == (30, 30, False)
    page = client.get(f"/tables/{table_id}", headers=bearer(tokens[other])).text
    assert re.search(r'id="table-clock"[^>]*data-left="30"', page)
    assert '<span class="table-clock-left">0:30</span>' in page
    clock.now += 15
    view(client, table_id, tokens[other])
    assert view(client, table_id, tokens[mover])["clock_left"] == 15  # its page is open
    clock.now += 14
    assert view(client, table_id, tokens[other])["clock_left"] == 1
    assert computer(app) == 0  # 29 s: not yet
    clock.now += 1
    assert computer(app) == 1
    told = view(client, table_id, tokens[mover])
    assert told["plays"][-1] == {**told["plays"][-1], "seat": mover, "by": "clock"}
    assert told["step"] == seen["step"] + 1
    assert told["timed_out"]
    assert not view(client, table_id, tokens[other])["timed_out"]
    assert (told["turn"], told["clock_left"]) == (other, 30)  # the next seat's clock starts
    for lang, said, marked in (
        ("en", "Your time ran out: the computer played for you.", "(by the computer: time"),
        ("it", "Il tempo è scaduto: il computer ha giocato al posto tuo.", ": tempo scaduto)"),
        ("es", "Se acabó tu tiempo: el ordenador jugó por ti.", "(jugó el ordenador: se acabó"),
    ):
        page = client.get(f"/tables/{table_id}?lang={lang}", headers=bearer(tokens[mover])).text
        assert said in page, lang
        assert marked in page, lang
        other_page = client.get(f"/tables/{table_id}?lang={lang}", headers=bearer(tokens[other]))
        assert said not in other_page.text
    # The seat plays again: no longer told.
    clock.now += 5
    view(client, table_id, tokens[mover])
    played = client.post(
        f"/api/tables/{table_id}/plays",
        json=first_play(view(client, table_id, tokens[other])),
        headers=bearer(tokens[other]),
    )
    assert played.status_code == 200, played.text
    back = client.post(
        f"/api/tables/{table_id}/plays",
        json=first_play(view(client, table_id, tokens[mover])),
        headers=bearer(tokens[mover]),
    )
    assert back.status_code == 200, back.text
    assert back.json()["plays"][-1]["by"] == "seat"
    assert not back.json()["timed_out"]


def test_an_away_seat_waits_for_its_grace_whatever_the_turn_clock(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    """The clock is for a seat at the table: one that is away is played for after its grace,
    as without a clock, and no countdown runs for it."""
    table = create(client, names=["Anna"], grace=60, clock=10, level="easy")
    bruno = join(client, table, "Bruno")
    tokens = {0: table["token"], 1: bruno["token"]}
    table_id = table["table"]
    mover = view(client, table_id, tokens[0])["turn"]
    other = 1 - mover
    clock.now += 25  # the mover's 20 s of presence are over: away, its grace running
    seen = view(client, table_id, tokens[other])
    assert not seen["seats"][mover]["present"]
    assert seen["clock_left"] is None
    assert computer(app) == 0  # 25 s past its clock of 10, but away: the grace decides
    clock.now += 56  # 81 s: past the presence and the grace
    view(client, table_id, tokens[other])
    assert computer(app) == 1
    after = view(client, table_id, tokens[other])
    assert after["plays"][-1] == {**after["plays"][-1], "seat": mover, "by": "computer"}


def test_a_table_without_a_turn_clock_waits_for_its_seat(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    table = create(client, names=["Anna"], clock=0)
    bruno = join(client, table, "Bruno")
    tokens = {0: table["token"], 1: bruno["token"]}
    for _ in range(3):
        clock.now += 15
        seen = view(client, table["table"], tokens[0])
        view(client, table["table"], tokens[1])
        assert (seen["clock"], seen["clock_left"]) == (0, None)
        assert computer(app) == 0
    assert view(client, table["table"], tokens[0])["step"] == seen["step"]


def test_a_wrong_turn_clock_is_refused_saying_where(client: TestClient) -> None:
    for clock, lang, said in (
        (-1, "en", "the turn clock is a whole number of seconds, 0-3600 (0: no clock)"),
        (3601, "it", "il tempo per giocata è un numero intero di secondi, 0-3600 (0: senza"),
        ("30", "es", "el tiempo por jugada es un número entero de segundos, 0-3600 (0: sin"),
    ):
        refused = client.post(
            "/api/tables", json={"players": 2, "clock": clock}, headers={"Accept-Language": lang}
        )
        assert refused.status_code == 422
        assert refused.json()["where"] == "clock"
        assert said in refused.json()["error"], refused.json()
    form = client.post(
        "/tables/new?lang=it",
        data={"name": "Anna", "players": "2", "clock": "99999"},
        follow_redirects=False,
    )
    assert form.status_code == 422
    assert "Secondi per ogni giocata: il tempo per giocata" in form.text
    made = client.post(
        "/tables/new", data={"name": "Anna", "players": "2", "clock": "45"}, follow_redirects=False
    )
    assert made.status_code == 303
    assert 'id="table-clock"' not in client.get(made.headers["location"]).text  # nobody yet
    assert 'name="clock"' in client.get("/tables/new").text


def test_a_play_deals_nothing_again_writes_once_and_hands_the_table_to_the_events(
    app: FastAPI,
    client: TestClient,
    store: MatchStore,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hot path: a play is made on the game as it stands (the table is not dealt again
    from its seed and replayed), its sign of life and the play are one commit, and the
    events get the table the play wrote without reading it again."""
    from sqlalchemy import event

    from scopa.application.tables import GAMES, TableGame

    table = create(client, names=["Anna"])
    bruno = join(client, table, "Bruno")
    tokens = {0: table["token"], 1: bruno["token"]}
    mover = view(client, table["table"], tokens[0])["turn"]
    seen = view(client, table["table"], tokens[mover])
    dealt: list[int] = []
    deal = TableGame.__init__

    def counted(game: TableGame, record: Any) -> None:
        dealt.append(record.id)
        deal(game, record)

    monkeypatch.setattr(TableGame, "__init__", counted)
    writes: list[str] = []
    commits: list[list[str]] = []

    def written(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().split()[0].upper() in {"INSERT", "UPDATE", "DELETE"}:
            writes.append(statement.split()[1])

    def committed(conn: Any) -> None:
        if writes:
            commits.append(list(writes))
        writes.clear()

    clock.now += 5  # the seat's sign of life is due again (written at most every 2 s)
    engine = store.db.engine
    event.listen(engine, "before_cursor_execute", written)
    event.listen(engine, "commit", committed)
    try:
        played = client.post(
            f"/api/tables/{table['table']}/plays",
            json=first_play(seen),
            headers=bearer(tokens[mover]),
        )
    finally:
        event.remove(engine, "before_cursor_execute", written)
        event.remove(engine, "commit", committed)
    assert played.status_code == 200, played.text
    assert dealt == []  # not dealt again
    assert len(commits) == 1, commits  # the play and the seat's sign of life, one commit
    after = played.json()
    handed = background_tables(app)().kept(table["table"], after["version"])
    assert handed is not None
    assert handed.view()["plays"] == after["plays"]
    assert handed.view()["table_cards"] == after["table_cards"]
    # Another process's play: the game kept here is brought up to it by that one play.
    other = view(client, table["table"], tokens[1 - mover])
    GAMES.clear()
    view(client, table["table"], tokens[mover])  # kept at this step
    assert len(dealt) == 1
    from scopa.store.tables import SqlTables

    kept = SqlTables(store.db)
    record = kept.load(table["table"])
    assert record is not None
    game = GAMES.game(record).copy()
    game.make(game_play(other), "seat")
    assert kept.save(
        table["table"],
        TableWrite(
            based_on=record.step,
            log=game.log(game.moves[-1]),
            status=game.status,
            turn=game.turn,
            now=0.0,
        ),
    )
    caught = view(client, table["table"], tokens[mover])
    assert len(dealt) == 1  # one play made, nothing dealt again
    monkeypatch.setattr(TableGame, "__init__", deal)
    fresh = TableGame(kept.load(table["table"]))  # type: ignore[arg-type]
    assert caught["table_cards"] == fresh.state.table_cards.to_list()
    assert caught["plays"][-1]["card"] == str(game.moves[-1].play.card)


def game_play(seen: dict[str, Any]) -> Any:
    from scopa.application.computer import parse_play

    chosen = first_play(seen)
    return parse_play(chosen["card"], chosen["capture"])


def test_the_polls_build_no_statement(store: MatchStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SqlTables.due`` and ``SqlTables.versions`` (each ten times a second in every
    process) run statements built once, the moment, the pause and the tables bound as
    parameters; building the computer's was about 2 ms a poll."""
    from scopa.store import tables as module

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a statement built at each poll")

    for name in ("select", "exists", "aliased", "and_", "or_", "not_"):
        monkeypatch.setattr(module, name, refused)
    polled = module.SqlTables(store.db, every_group=True)
    assert polled.due(1_800_000_000.0, 0.0) == []
    assert polled.versions([1, 2]) == {}  # the events' poll too


def test_the_computers_play_is_one_commit_by_the_process_that_wrote_the_last_move(
    app: FastAPI, client: TestClient, store: MatchStore, clock: Clock
) -> None:
    """The computer's play writes nothing before it thinks (no claim): read, thought, written
    in one commit. Two processes do not think for one table: the one that wrote its last
    move plays the computer's next one; another takes over only once that play is late."""
    from sqlalchemy import event

    from scopa.store.tables import TAKEOVER, SqlTables

    table = create(client, names=["Anna"], computer={"1": "easy"})
    seen = view(client, table["table"], table["token"])
    if seen["turn"] == 0:  # the person first: the computer's turn comes after this play
        played = client.post(
            f"/api/tables/{table['table']}/plays",
            json=first_play(seen),
            headers=bearer(table["token"]),
        )
        assert played.status_code == 200, played.text
    step = view(client, table["table"], table["token"])["step"]
    other = SqlTables(store.db, every_group=True, player="another process")
    here = SqlTables(store.db, every_group=True)
    now = clock()
    assert here.due(now, 0.0) == [(table["table"], step)]
    assert other.due(now, 0.0) == []  # this process's table: not thought for twice
    assert other.due(now + TAKEOVER + 0.01, 0.0) == [(table["table"], step)]  # late: taken

    writes: list[str] = []
    commits: list[list[str]] = []

    def written(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().split()[0].upper() in {"INSERT", "UPDATE", "DELETE"}:
            writes.append(statement.split()[1])

    def committed(conn: Any) -> None:
        if writes:
            commits.append(list(writes))
        writes.clear()

    engine = store.db.engine
    event.listen(engine, "before_cursor_execute", written)
    event.listen(engine, "commit", committed)
    try:
        assert computer(app) == 1
    finally:
        event.remove(engine, "before_cursor_execute", written)
        event.remove(engine, "commit", committed)
    assert commits == [["tables"]], commits  # the play alone: no claim before it
    assert view(client, table["table"], table["token"])["step"] == step + 1


def test_an_unknown_table_code_says_no_table_has_it(client: TestClient) -> None:
    """The join page of a code no table has says so (it showed only the empty form)."""
    create(client, names=["Anna"])
    for lang, said in (
        ("en", "No table has the code ZZZZ."),
        ("it", "Nessun tavolo ha il codice ZZZZ."),
        ("es", "Ninguna mesa tiene el código ZZZZ."),
    ):
        answer = client.get("/t/ZZZZ", headers={"Accept-Language": lang})
        assert answer.status_code == 404
        assert said in answer.text, lang
    # the TV page of no table: the error page's heading says what it is
    missing = client.get("/tables/999999/tv", headers={"Accept-Language": "it"})
    assert missing.status_code == 404
    assert "<title>404 " in missing.text
    assert "Non trovata" in missing.text


def test_the_new_table_form_names_a_number_as_it_was_typed(client: TestClient) -> None:
    """A field that is not a whole number is named as typed, under its label: never as the
    -1 or 0 the route stood in for it ("Points to win: -1 is outside the allowed values")."""
    for field, typed, lang, said in (
        ("target", "abc", "en", "Points to win: &#39;abc&#39; is not a whole number"),
        ("target", "abc", "it", "Punti per vincere: &#39;abc&#39; non è un numero intero"),
        ("target", "-5", "es", "Puntos para ganar: -5 no está entre los valores permitidos"),
        ("players", "²", "en", "Players: &#39;²&#39; is not a whole number"),
        ("players", "²", "es", "Jugadores: &#39;²&#39; no es un número entero"),
        ("computers", "x", "it", "Posti per il computer: &#39;x&#39; non è un numero intero"),
    ):
        refused = client.post(
            "/tables/new",
            data={"name": "Anna", field: typed},
            headers={"Accept-Language": lang},
            follow_redirects=False,
        )
        assert refused.status_code == 422, (field, typed)
        assert said in refused.text, (field, typed, lang)
        assert "-1" not in refused.text.split('role="alert"')[1].split("</div>")[0]
    made = client.post("/tables/new", data={"name": "Anna"}, follow_redirects=False)
    assert made.headers["location"] == "/tables/1"  # the refused ones made no table
