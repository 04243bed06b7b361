"""Issue 26: the players' figures by the API, the CLI and the pages agree with an independent
oracle (tests/stats_oracle.py) over generated matches of every variant (teams, ties, deals
after the end), with rules changed, deals and matches deleted; on SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
import json
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scopa import variants
from scopa.formats import match_to_json, parse_match, sheet_to_json
from scopa.match import score_match
from scopa.rules import target_range
from scopa.store import MatchStore
from scopa.web import create_app
from tests import stats_oracle
from tests.conftest import run
from tests.examples import examples
from tests.strategies import NAMES, variant_matches
from tests.web.bodies import anna_deal, anna_deal_of

POOL = ("Rosa", "Ugo", "Ines", "Olga", "Ezio", "Tina", "Luca")
_examples = itertools.count(1)
EXAMPLES = examples(15)
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target)
"""No shrinking: a failure is reported as drawn (shrinking replays whole databases' worth of
requests, minutes)."""
CASES = {"examples": 0, "players": 0}
"""What the property checked (printed at the end of the run with ``-s``)."""


def renamed(data: Any, names: dict[str, str]) -> Any:
    """A match file with its players called by ``names`` (team names too)."""
    if isinstance(data, dict):
        return {renamed(k, names): renamed(v, names) for k, v in data.items()}
    if isinstance(data, list):
        return [renamed(v, names) for v in data]
    if isinstance(data, str):
        if data in names:
            return names[data]
        if " & " in data and all(part in names for part in data.split(" & ")):
            return " & ".join(names[part] for part in data.split(" & "))
    return data


@st.composite
def plans(draw: st.DrawFn) -> list[dict[str, Any]]:
    """One to four matches among a few people, each with what happens to it after import:
    a rules change, a deal deleted, the match deleted."""
    tag = next(_examples)
    plan = []
    for _ in range(draw(st.integers(1, 4))):
        match = draw(variant_matches(max_deals=7, form="tally"))
        seats = draw(st.permutations(POOL))
        lower = draw(st.booleans())
        names = {
            old: (f"{new} {tag}".lower() if lower and i == 0 else f"{new} {tag}")
            for i, (old, new) in enumerate(zip(NAMES, seats, strict=False))
        }
        variant = match.variant
        low, high = target_range(variant)
        rules: dict[str, Any] = {}
        if draw(st.booleans()):
            rules["target"] = draw(st.integers(low, min(high, 21)))
        if "primiera" in variants.get(variant).setting_names and draw(st.booleans()):
            rules["primiera"] = draw(st.booleans())
        deals = len(match.deals)
        plan.append(
            {
                "file": renamed(match_to_json(match), names),
                "rules": rules,
                "drop_deal": draw(st.integers(1, deals)) if deals and draw(st.booleans()) else None,
                "delete": draw(st.integers(0, 5)) == 0,
            }
        )
    return plan


def expected(plan: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The oracle's figures for the plan's players (each by name key), and their names."""
    names: dict[str, str] = {}
    counted = []
    for step in plan:
        for player in step["file"]["players"]:
            names.setdefault(player.casefold(), player)
        if step["delete"]:
            continue
        data = json.loads(json.dumps(step["file"]))
        data.setdefault("rules", {}).update(step["rules"])
        if step["drop_deal"] is not None:
            del data["deals"][step["drop_deal"] - 1]
        sheet = sheet_to_json(score_match(parse_match(data)))
        counted.append((data, sheet))
    found = stats_oracle.figures(counted, names)
    for key, name in names.items():  # played only in deleted matches: zeros
        found.setdefault(key, _zero(name))
    return found, names


def _zero(name: str) -> dict[str, Any]:
    return stats_oracle.finish(
        {
            "name": name,
            "matches": 0,
            "won": 0,
            "finished": 0,
            "deals": 0,
            "points": 0,
            "sweeps": 0,
            "counts": {},
            "variants": set(),
            "opponents": {},
            "partners": {},
        }
    )


def carry_out(client: TestClient, plan: list[dict[str, Any]]) -> None:
    for step in plan:
        answer = client.post("/api/import", json=step["file"])
        assert answer.status_code == 201, answer.text
        match_id = answer.json()["id"]
        if step["rules"]:
            changed = client.patch(f"/api/matches/{match_id}/rules", json=step["rules"])
            assert changed.status_code == 200, changed.text
        if step["drop_deal"] is not None:
            dropped = client.delete(f"/api/matches/{match_id}/deals/{step['drop_deal']}")
            assert dropped.status_code == 200, dropped.text
        if step["delete"]:
            assert client.delete(f"/api/matches/{match_id}").status_code == 200


@pytest.fixture(scope="module", autouse=True)
def cases_checked() -> Any:
    """The oracle's case count, printed at the end of the module (seen with ``-s``)."""
    yield
    print(
        f"\nthe oracle checked {CASES['examples']} generated examples, {CASES['players']} players"
    )


@pytest.fixture
def client(store: MatchStore) -> Any:
    with TestClient(create_app(store)) as test_client:
        yield test_client


@settings(
    max_examples=EXAMPLES,
    phases=PHASES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=plans())
def test_figures_agree_with_the_oracle(
    client: TestClient, database_url: str, capsys: pytest.CaptureFixture[str], plan: Any
) -> None:
    carry_out(client, plan)
    wanted, names = expected(plan)
    listed = {f["name"].casefold(): f for f in client.get("/api/players").json()}
    code, out, _ = run(capsys, "stats", "--json", "--db", database_url)
    assert code == 0
    printed = {f["name"].casefold(): f for f in json.loads(out)}
    for key, figures in wanted.items():
        name = quote(names[key], safe="")
        assert listed[key] == figures
        assert client.get(f"/api/players/{name}").json() == figures
        page = client.get(f"/players/{name}?format=json").json()
        assert {k: page[k] for k in figures} == figures
        assert printed[key] == figures
        CASES["players"] += 1
    CASES["examples"] += 1


def test_the_cli_gives_one_player_as_the_api_does(
    client: TestClient, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = client.post("/api/matches", json={"players": ["Anna", "Bruno"]})
    for _ in range(3):  # 5 points each: won at 15
        client.post(f"/api/matches/{first.json()['id']}/deals", json=anna_deal())
    client.post("/api/matches", json={"players": ["anna", "Carla", "Bruno", "Dario"]})
    code, out, _ = run(capsys, "stats", "ANNA", "--json", "--db", database_url)
    assert (code, json.loads(out)) == (0, client.get("/api/players/Anna").json())
    figures = json.loads(out)
    assert (figures["matches"], figures["won"], figures["finished"]) == (2, 1, 1)
    assert figures["opponents"] == {
        "Bruno": {"matches": 2, "won": 1, "lost": 0},
        "Carla": {"matches": 1, "won": 0, "lost": 0},
        "Dario": {"matches": 1, "won": 0, "lost": 0},
    }
    code, out, err = run(capsys, "stats", "Nessuno", "--db", database_url)
    assert (code, out) == (1, "")  # not found: a failure, not a usage error
    assert "no player called 'Nessuno' has played here" in err
    code, out, err = run(capsys, "stats", "--variant", "briscola", "--db", database_url)
    assert code == 2
    assert "briscola" in err


def test_a_name_never_played_is_404(client: TestClient) -> None:
    answer = client.get("/api/players/Nessuno")
    assert answer.status_code == 404
    assert answer.json() == {
        "error": "no player called 'Nessuno' has played here",
        "where": "name",
        "code": "player.no_player_called_played",
    }


def test_a_player_page_s_latest_matches_are_titled_in_the_reader_s_language(
    client: TestClient,
) -> None:
    made = {"kind": "table", "code": "7K2Q", "variant": "Scopa"}
    client.post("/api/matches", json={"players": ["Anna", "Bruno"], "generated_name": made})
    client.post("/api/matches", json={"players": ["Anna", "Bruno"], "name": "Table 7K2Q (Scopa)"})
    client.post("/api/matches", json={"players": ["Anna", "Computer 2"]})
    for language, table in (("it", "Tavolo 7K2Q (Scopa)"), ("es", "Mesa 7K2Q (Scopa)")):
        page = client.get(f"/players/Anna?format=json&lang={language}").json()
        assert [(m["title"], m["generated_name"]) for m in page["recent"]] == [
            ("Anna vs Computer 2", None),  # a person called so: as typed
            ("Table 7K2Q (Scopa)", None),  # a name typed like one the program makes: as typed
            (table, made),
        ]


@pytest.mark.parametrize("language", ["it", "es"])
def test_a_person_called_computer_2_keeps_the_name_on_every_players_page(
    client: TestClient, language: str
) -> None:
    """A person really called "Computer 2" (and "You") who plays at the score sheet: as
    typed on the players' pages in every language, in the ranking and among the names
    played before."""
    match = client.post("/api/matches", json={"players": ["Computer 2", "You"]}).json()
    client.post(f"/api/matches/{match['id']}/deals", json=anna_deal_of("Computer 2", "You"))
    board = client.get(f"/players?lang={language}").text
    assert ">Computer 2</a>" in board
    assert ">You</a>" in board
    page = client.get(f"/players/Computer%202?lang={language}").text
    assert "<h1>Computer 2</h1>" in page
    assert ">You</a>" in page
    assert "Ordenador" not in page
    vs = client.get(f"/players/vs?a=Computer%202&b=You&lang={language}").text
    assert 'Computer%202">Computer 2</a>' in vs
    assert ">You</a></h1>" in vs
    form = client.get(f"/matches/new?lang={language}").text
    assert '<option value="Computer 2">' in form
    assert '<option value="You">' in form


@pytest.mark.parametrize(
    ("language", "you", "computer"), [("it", "Tu", "Computer 2"), ("es", "Tú", "Ordenador 2")]
)
def test_the_computer_s_seats_are_worded_on_the_players_pages(
    client: TestClient, language: str, you: str, computer: str
) -> None:
    """A game against the computer's seats, known as data (its ``seat_kinds``): worded in
    the reader's language, the computer left out of the ranking and of the names played
    before."""
    seats = [{"kind": "you"}, {"kind": "computer", "number": 2}]
    body = {"players": ["You", "Computer 2"], "seat_kinds": seats}
    match = client.post("/api/matches", json=body)
    assert match.status_code == 201, match.text
    deal = anna_deal_of("You", "Computer 2")
    client.post(f"/api/matches/{match.json()['id']}/deals", json=deal)
    board = client.get(f"/players?lang={language}").text
    assert f">{you}</a>" in board
    assert f">{computer}</a>" not in board
    page = client.get(f"/players/You?lang={language}").text
    assert f"<h1>{you}</h1>" in page
    assert f">{computer}</a>" in page
    computer_page = client.get(f"/players/Computer%202?lang={language}").text
    assert f"<h1>{computer}</h1>" in computer_page
    form = client.get(f"/matches/new?lang={language}").text
    assert 'value="Computer 2"' not in form
    assert 'value="You"' not in form


def test_a_player_page_s_results_chart_writes_points_per_deal_the_reader_s_way(
    client: TestClient,
) -> None:
    """The bars' labels (read aloud, and shown on a tap) write the points per deal as the
    rest of the page does: 2,00 in Italian and Spanish, 2.00 in English."""
    match = client.post("/api/matches", json={"players": ["Carla", "Dario"]}).json()
    client.post(f"/api/matches/{match['id']}/deals", json=anna_deal_of("Carla", "Dario"))
    written = f"{client.get('/api/players/Carla').json()['points_per_deal']:.2f}"
    for language, said in (("en", "points per deal"), ("it", "punti per mano")):
        page = client.get(f"/players/Carla?lang={language}").text
        mark = "." if language == "en" else ","
        assert f"Carla vs Dario: {written.replace('.', mark)} {said}" in page
