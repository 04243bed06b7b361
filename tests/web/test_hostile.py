"""Issue 9: what an attacker from outside sends (a foreign web page, a stranger on the same
Wi-Fi) gets a clear 4xx, and nothing is stored."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa.formats import parse_match
from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from scopa.web.pages.render import WHOLE_PIECE
from tests.web.conftest import anna_deal

# --- finding 1: DNS rebinding ---------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["evil.example:8000", "evil.example", "127.0.0.1.nip.io", "localhost.evil.example"]
)
def test_foreign_host_refused_before_anything_runs(client: TestClient, host: str) -> None:
    origin = {"Host": host, "Origin": f"http://{host}"}
    created = client.post("/api/matches", json={"players": ["A", "B"]}, headers=origin)
    assert created.status_code == 421
    assert created.json()["where"] == "host"
    assert "--allowed-host" in created.json()["error"]
    page = client.get("/", headers={"Host": host})
    assert page.status_code == 421
    assert "text/html" in page.headers["content-type"]
    assert page.headers["x-frame-options"] == "DENY"
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "[::1]:8000", "localhost:8000", "LOCALHOST", "192.168.1.9"]
)
def test_ip_literal_and_localhost_hosts_accepted(client: TestClient, host: str) -> None:
    origin = {"Host": host, "Origin": f"http://{host}"}
    created = client.post("/api/matches", json={"players": ["A", "B"]}, headers=origin)
    assert created.status_code == 201, created.text


def test_configured_host_names_accepted(store: MatchStore) -> None:
    app = create_app(store, WebSettings(allowed_hosts=("scopa.example.org",)))
    with TestClient(app) as client:
        ok = client.get("/api/matches", headers={"Host": "Scopa.Example.org:443"})
        assert ok.status_code == 200
        other = client.get("/api/matches", headers={"Host": "other.example.org"})
        assert other.status_code == 421


# --- finding 3: no 500 from client input ----------------------------------------------------

HUGE = "1" * 5000


def raw_post(client: TestClient, path: str, text: str, **headers: Any) -> Any:
    return client.post(path, content=text.encode("utf-8", "surrogatepass"), headers=headers or None)


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("/api/matches", '{"players": ["A", "B"], "rules": {"target": ' + HUGE + "}}", "body"),
        ("/api/import", "[" + HUGE + "]", "body"),
        ("/api/matches", '{"players": ["\\ud800", "B"]}', "players[0]"),
        ("/api/matches", '{"players": ["A", "B"], "name": "x\\udfff"}', "name"),
        ("/api/matches", '{"players": ["A", "B"], "name": "a\\u0000b"}', "name"),
        ("/api/matches", '{"players": ["A\\u0000", "B"]}', "players[0]"),
    ],
)
def test_hostile_json_bodies_get_422(client: TestClient, path: str, body: str, where: str) -> None:
    answer = raw_post(client, path, body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["where"] == where
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize("version", ["²", "\u0661", HUGE, "1" * 17])
def test_odd_versions_in_body_get_422(client: TestClient, match_id: int, version: str) -> None:
    deal = {**anna_deal(), "version": version}
    answer = client.post(f"/api/matches/{match_id}/deals", json=deal)
    assert answer.status_code == 422
    assert answer.json()["where"] == "version"
    patch = client.patch(f"/api/matches/{match_id}/rules", json={"target": 21, "version": version})
    assert patch.status_code == 422
    assert client.get(f"/api/matches/{match_id}").json()["version"] == 1


async def asgi_call(
    app: Any, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes
) -> tuple[int, bytes]:
    """One request straight to the ASGI app, with header bytes exactly as given (the test
    client would re-encode ``\\xb2`` as UTF-8)."""
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@pytest.mark.parametrize("header", [b"\xb2", b'"\xb2"', b"W/\xb9"])
def test_non_ascii_digit_if_match_gets_422(store: MatchStore, header: bytes) -> None:
    import asyncio

    match_id = store.create(match=parse_match({"players": ["Anna", "Bruno"]})).id
    app = create_app(store)
    body = json.dumps(anna_deal()).encode()
    path = f"/api/matches/{match_id}/deals"
    status, answer = asyncio.run(asgi_call(app, "POST", path, [(b"if-match", header)], body))
    assert status == 422, answer
    assert json.loads(answer)["where"] == "If-Match"


def test_huge_content_length_refused(client: TestClient) -> None:
    answer = client.post("/api/matches", content=b"{}", headers={"Content-Length": HUGE})
    assert answer.status_code in (400, 413)


@pytest.mark.parametrize("path", ["/api/matches/2147483648", "/api/matches/99999999999999"])
def test_ids_beyond_the_database_integer_get_4xx(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 422
    assert answer.json()["where"] == "match_id"
    restore = client.post("/api/matches/1/removed/2147483648/restore")
    assert restore.status_code == 422
    assert restore.json()["where"] == "removed_id"
    page = client.post("/matches/2147483648/delete", data={"version": "1"})
    assert page.status_code == 422


TALLY = {
    "mode": "tally",
    "count-0": "22",
    "count-1": "18",
    "sweeps-0": "0",
    "sweeps-1": "0",
    "last": "",
    "version": "1",
}


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("count-0", "²²", "count-0"),
        ("sweeps-1", "³", "sweeps-1"),
        ("last", "²", None),
        ("last", HUGE, None),
        ("version", "²", None),
    ],
)
def test_deal_form_with_odd_digits_is_a_form_error(
    client: TestClient, match_id: int, field: str, value: str, shown: str | None
) -> None:
    answer = client.post(f"/matches/{match_id}/deals/new", data={**TALLY, field: value})
    assert answer.status_code in (303, 422), answer.text
    if shown is not None:
        assert answer.status_code == 422
        assert "not a whole number" in answer.text


def test_card_form_with_odd_digits_is_a_form_error(client: TestClient, match_id: int) -> None:
    form = {"mode": "cards", "version": "1", "sweeps-0": "0", "sweeps-1": "0"}
    form.update({f"card-{rank}{suit}": "²" for rank in "A234567JHK" for suit in "dcsb"})
    answer = client.post(f"/matches/{match_id}/deals/new", data=form)
    assert answer.status_code == 422
    assert "40 cards are in nobody" in answer.text


@pytest.mark.parametrize("target", ["²¹", "\u0661\u0661", HUGE])
def test_settings_form_with_odd_target_is_a_form_error(
    client: TestClient, match_id: int, target: str
) -> None:
    answer = client.post(f"/matches/{match_id}/settings", data={"target": target, "version": "1"})
    assert answer.status_code == 422
    assert "not a whole number" in answer.text


def test_new_match_form_with_hidden_characters(client: TestClient) -> None:
    answer = client.post(
        "/matches/new", data={"player": ["Anna\u202e", "Bruno"], "target": "11", "name": ""}
    )
    assert answer.status_code == 422
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in answer.text


# --- finding 8: names normalised, hidden characters refused ---------------------------------


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("Anna\x1b]52;c;aGVsbG8=\x07", "U+001B"),
        ("\u202eannA", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("An\u200bna", "U+200B ZERO WIDTH SPACE"),
        ("Anna\u2028", "U+2028 LINE SEPARATOR"),
    ],
)
def test_hidden_characters_in_names_refused(client: TestClient, name: str, named: str) -> None:
    player = client.post("/api/matches", json={"players": [name, "Bruno"]})
    assert player.status_code == 422
    assert player.json()["where"] == "players[0]"
    assert named in player.json()["error"]
    titled = client.post("/api/matches", json={"players": ["A", "B"], "name": name})
    assert titled.status_code == 422
    assert titled.json()["where"] == "name"
    assert client.get("/api/matches").json() == []


def test_names_trimmed_and_nfc(client: TestClient) -> None:
    created = client.post(
        "/api/matches", json={"players": [" Anna ", "Jose\u0301"], "name": "  Friday  "}
    )
    assert created.status_code == 201, created.text
    match = created.json()["match"]
    assert match["players"] == ["Anna", "Jos\u00e9"]
    assert match["name"] == "Friday"
    body = json.dumps(anna_deal()).replace("Bruno", "Jos\u00e9")
    deal = client.post(f"/api/matches/{created.json()['id']}/deals", content=body.encode())
    assert deal.status_code == 201, deal.text


# --- finding 9: a full disk is a clear 503, and nothing is lost -----------------------------


def test_full_disk_is_a_clear_503_and_nothing_lost(sqlite_url: str) -> None:
    from sqlalchemy import event

    store = MatchStore.open(sqlite_url)
    try:
        with TestClient(create_app(store)) as client:
            first = client.post("/api/matches", json={"players": ["Anna", "Bruno"]})
            match_id = first.json()["id"]
            assert (
                client.post(f"/api/matches/{match_id}/deals", json=anna_deal()).status_code == 201
            )
            before = client.get(f"/api/matches/{match_id}").json()

            def cap(dbapi_connection: Any, _record: Any) -> None:
                pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
                dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

            event.listen(store.engine, "connect", cap)
            store.engine.dispose()
            big = {"players": ["Anna", "Bruno"], "deals": [anna_deal() for _ in range(400)]}
            full = client.post("/api/matches", json=big)
            assert full.status_code == 503, full.text
            assert full.json()["where"] == "storage"
            assert "disk is full" in full.json()["error"]
            assert full.headers["retry-after"]
            page = client.post("/import", data={"text": json.dumps(big)}, follow_redirects=False)
            assert page.status_code == 503
            assert "text/html" in page.headers["content-type"]
            assert "disk is full" in page.text
            assert client.get(f"/api/matches/{match_id}").json() == before
            assert [m["id"] for m in client.get("/api/matches").json()][-1] == match_id
    finally:
        store.close()


# --- a wrong value is shown as the JSON that was sent, never as Python writes it -------------


@pytest.mark.parametrize(
    ("path", "body", "where", "said", "lang"),
    [
        ("/api/players/Anna/rename", {"to": "Bruno"}, "name", "missing (expected a name)", "en"),
        ("/api/players/Anna/rename", {"to": "Bruno"}, "name", "manca il nome", "it"),
        ("/api/players/Anna/rename", {"name": None}, "name", "found null", "en"),
        (
            "/api/players/Anna/merge",
            {"into": {"x": 1}},
            "into",
            "hace falta un nombre, no un objeto",
            "es",
        ),
        ("/api/tables", {"players": 2, "variant": None}, "variant", "null is not one of", "en"),
        ("/api/tables", {"players": 2, "variant": {"x": 1}}, "variant", "un oggetto non è", "it"),
        ("/play/{game}/sync", {"thinking": {"x": 1}}, "thinking", "an object is not how", "en"),
        (
            "/play/games",
            {"variant": "scopa", "level": "easy", "ticket": [1]},
            "ticket",
            "a list",
            "en",
        ),
        (
            "/play/games",
            {"variant": "scopa", "level": "easy", "players": {}},
            "players",
            "un objeto",
            "es",
        ),
    ],
)
def test_a_wrong_value_is_shown_as_json_not_python(
    client: TestClient, path: str, body: dict[str, Any], where: str, said: str, lang: str
) -> None:
    client.post("/api/matches", json={"players": ["Anna", "Bruno"]})
    game = client.post(
        "/play", data={"variant": "scopa", "level": "easy", "seed": "7"}, follow_redirects=False
    )
    game_id = game.headers["location"].rsplit("/", 1)[1]
    before = [client.get(p).json() for p in ("/api/players", "/api/matches", "/api/tables")]
    before.append(client.get(f"/play/{game_id}/state").json())
    answer = client.post(path.format(game=game_id), json=body, headers={"Accept-Language": lang})
    assert answer.status_code == 422, answer.text
    assert answer.json()["where"] == where
    error = answer.json()["error"]
    assert said in error, error
    for python in ("None", "{'x': 1}", "{}", "[1]"):
        assert python not in error, error
    after = [client.get(p).json() for p in ("/api/players", "/api/matches", "/api/tables")]
    assert [*after, client.get(f"/play/{game_id}/state").json()] == before


# --- fuzz run: numbers read from paths, queries and forms -----------------------------------
# ``str.isdigit`` takes "²" and U+0661 ARABIC-INDIC DIGIT ONE (which ``int`` refuses, or reads
# as 1), ``int`` refuses 5000 digits, Starlette's ``{id:int}`` raises on them: each was a 500,
# or U+0661 a seat.

ODD = ["²", "\u0661", pytest.param(HUGE, id="5000-digits"), "1.0"]
"""Texts a number is read from that are not one: a superscript, an Arabic-Indic one, more
digits than ``int`` reads, a decimal."""


def versions(client: TestClient) -> list[int]:
    """Each match's version: what a refused request must leave as it was."""
    listed = client.get("/api/matches").json()
    return [client.get(f"/api/matches/{m['id']}").json()["version"] for m in listed]


@pytest.mark.parametrize("since", ODD)
def test_sheet_change_with_odd_since_asks_for_the_whole_piece(
    client: TestClient, match_id: int, since: str
) -> None:
    """As for ``abc`` (tests/web/test_live_change.py): not a version, so the page fetches the
    whole sheet piece; a version is still read."""
    before = versions(client)
    url = f"/matches/{match_id}/sheet/change"
    answer = client.get(url, params={"since": since})
    assert (answer.status_code, answer.text) == (200, WHOLE_PIECE)
    assert versions(client) == before
    assert client.get(url, params={"since": "1"}).status_code == 204


@pytest.mark.parametrize("preset", ["", "quick"])
@pytest.mark.parametrize("seat", ODD)
def test_new_match_with_odd_first_dealer_is_a_form_error(
    client: TestClient, seat: str, preset: str
) -> None:
    form = {"player": ["Anna", "Bruno"], "first_dealer": seat, "target": "11", "preset": preset}
    answer = client.post("/matches/new", data=form, headers={"Accept-Language": "es"})
    assert answer.status_code == 422
    assert f"Reparte primero: {seat[:20]} no es un puesto" in answer.text
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize("preset", ["", "quick"])
def test_new_match_with_a_seventh_player_is_refused(client: TestClient, preset: str) -> None:
    form = {"player": list("ABCDEFG"), "target": "11", "preset": preset}
    answer = client.post("/matches/new", data=form, headers={"Accept-Language": "it"})
    assert answer.status_code == 422
    assert "7 giocatori; una partita ne ha da 2 a 6" in answer.text
    assert client.get("/api/matches").json() == []
    api = client.post("/api/matches", json={"players": list("ABCDEFG")})
    assert api.json()["error"] == "7 players; a match has 2 to 6"  # the API's own words
    six = {**form, "player": list("ABCDEF"), "preset": ""}
    assert client.post("/matches/new", data=six, follow_redirects=False).status_code == 303


def test_the_phone_reads_a_new_match_as_the_server_does() -> None:
    from scopa.web.phone.starting import read_new_match

    seven = read_new_match({"player": list("ABCDEFG"), "target": ["11"]})
    assert seven.match is None
    assert seven.errors == {"players": "7 players; a match has 2 to 6"}
    arabic = read_new_match(
        {"player": ["Anna", "Bruno"], "first_dealer": ["\u0661"], "target": ["11"]}
    )
    assert arabic.match is None
    assert arabic.errors == {"first_dealer": "Deals first: \u0661 is not a seat"}


@pytest.mark.parametrize("players", ["%C2%B2", pytest.param(HUGE, id="5000-digits"), "%D9%A2"])
def test_a_shape_of_odd_players_is_404(client: TestClient, players: str) -> None:
    answer = client.get(
        f"/offline/shape/scopa-{players}-0/sheet", headers={"Accept-Language": "es"}
    )
    assert answer.status_code == 404
    assert "esa plantilla de página no existe" in answer.text


@pytest.mark.parametrize("seat", ODD)
def test_a_table_with_an_odd_computer_seat_is_refused(client: TestClient, seat: str) -> None:
    body = {"players": 2, "names": ["Anna"], "computer": {seat: "easy"}}
    answer = client.post("/api/tables", json=body, headers={"Accept-Language": "it"})
    assert answer.status_code == 422
    assert answer.json()["where"] == f"computer.{seat}"
    assert answer.json()["error"] == "un posto del computer è un numero da 1 a 1"
    assert client.get("/api/matches").json() == []  # no table, so no table's match


IDS = [pytest.param(HUGE, id="5000-digits"), "%C2%B2", "%D9%A1", "1.0", "+1", "abc"]
"""Ids that are not one, as a path carries them."""


@pytest.mark.parametrize("ident", IDS)
def test_odd_ids_are_refused_by_the_fast_routes_as_by_the_others(
    client: TestClient, match_id: int, ident: str
) -> None:
    ident = ident.replace("1", str(match_id), 1) if ident in ("1.0", "+1") else ident
    plain = client.get(f"/api/matches/{ident}")
    assert plain.status_code == 422
    assert plain.json()["where"] == "match_id"
    deal = client.post(f"/api/matches/{ident}/deals", json=anna_deal())
    assert (deal.status_code, deal.json()) == (422, plain.json())
    table = client.get(f"/api/tables/{ident}")
    for move in ("plays", "next"):
        moved = client.post(f"/api/tables/{ident}/{move}", json={"step": 0})
        assert (moved.status_code, moved.json()) == (422, table.json())
        assert moved.json()["where"] == "table_id"
    assert versions(client) == [1]


def test_too_many_digits_are_said_in_the_readers_language(
    client: TestClient, match_id: int
) -> None:
    api = client.get(f"/api/matches/{HUGE}", headers={"Accept-Language": "it"})
    assert api.status_code == 422
    assert api.json() == {
        "error": "il numero ha troppe cifre",
        "where": "match_id",
        "code": "request.int_parsing_size",
    }
    deal = client.post(f"/api/matches/{HUGE}/deals", json=anna_deal())
    assert (
        deal.json()["error"] == "Unable to parse input string as an integer, exceeded maximum size"
    )
    page = client.get(f"/matches/{match_id}/deals/{HUGE}", headers={"Accept-Language": "es"})
    assert page.status_code == 422
    assert "<code>number</code>: el número tiene demasiadas cifras" in page.text
    assert versions(client) == [1]
