"""The last English words a person met in Italian or Spanish: the table pages' refusals, the
request checks' messages on the pages and in the API, the Play page's missing game and the
start-up lines of ``scopa serve``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scopa import i18n
from scopa.cli import main
from scopa.store import MatchStore
from scopa.web import create_app
from scopa.web.serve.cli import announce_lan
from tests.pg import free_port
from tests.servers import scopa_serve
from tests.web.tables_helpers import Clock, create, table_app


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    store = MatchStore.open(sqlite_url)
    with TestClient(table_app(create_app(store), Clock())) as test_client:
        yield test_client
    store.close()


def test_the_table_pages_refuse_in_the_readers_language(client: TestClient) -> None:
    table = create(client, names=["Anna"])
    italian = {"Accept-Language": "it-IT"}
    client.cookies.clear()  # this browser holds no seat
    seatless = client.get(f"/tables/{table['table']}", headers=italian)
    assert seatless.status_code == 401
    assert "holds no seat" not in seatless.text
    assert "questo browser non ha un posto a questo tavolo" in seatless.text
    tv = client.get(f"/tables/{table['table']}/tv?code=WRONG-CODE", headers=italian)
    assert tv.status_code == 404
    assert "no such table" not in tv.text
    assert "questo tavolo non c'è" in tv.text.replace("&#39;", "'")
    spanish = client.get(
        f"/tables/{table['table']}/tv?code=WRONG", headers={"Accept-Language": "es"}
    )
    assert "esa mesa no existe" in spanish.text
    # The new table form names its own field, not the place's key.
    form = {"variant": "scopa", "players": "9", "name": "Anna"}
    wrong = client.post("/tables/new", data=form, headers=italian)
    assert wrong.status_code == 422
    assert "players:" not in wrong.text
    assert "Giocatori: scopa si gioca in" in wrong.text
    # The address's own checks, on a page and in the API: pydantic's English, translated.
    zero = client.get("/tables/0", headers=italian)
    assert zero.status_code == 422
    assert "Input should be" not in zero.text
    assert "deve essere almeno 1" in zero.text
    word = client.get("/tables/abc", headers={"Accept-Language": "es"})
    assert "valid integer" not in word.text
    assert "número entero" in word.text
    api = client.get("/api/matches/abc", headers=italian)
    assert api.status_code == 422
    body = api.json()
    assert body["where"] == "match_id"
    assert body["code"] == "request.int_parsing"
    assert body["error"] == "deve essere un numero intero"
    english = client.get("/api/matches/abc").json()
    assert english["code"] == body["code"]
    assert (
        english["error"] == "Input should be a valid integer, unable to parse string as an integer"
    )
    # The Play page's form names its own field too.
    setup = client.post("/play", data={"variant": "scopa", "players": "x"}, headers=italian)
    assert setup.status_code == 422
    assert "players:" not in setup.text
    assert "Giocatori: " in setup.text
    # The Play page of a game that is not there, and an address that is not there at all.
    missing = client.get("/play/99999", headers=italian)
    assert missing.status_code == 404
    assert "not found" not in missing.text.lower()
    nowhere = client.get("/no/such/page", headers=italian)
    assert nowhere.status_code == 404
    assert "Not Found" not in nowhere.text
    assert "questo indirizzo non c'è" in nowhere.text.replace("&#39;", "'")


def test_the_lan_announcement_is_in_the_language_in_force(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with i18n.using("es"):
        announce_lan("192.0.2.7", 8000, "ABCD-EFGH")
    out = capsys.readouterr().out
    assert "el código de acceso es ABCD-EFGH" in out
    assert "http://192.0.2.7:8000/join?code=ABCD-EFGH" in out
    assert "access code is" not in out
    assert "lets new devices join" not in out


@pytest.mark.system
def test_serve_says_its_start_up_lines_in_the_environments_language(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "it_IT.UTF-8"
    port = free_port()
    with scopa_serve("--port", str(port), "--db", str(tmp_path / "s.db"), env=env) as (_, said):
        pass
    assert f"scopa: il foglio dei punti è su http://127.0.0.1:{port}/" in said
    assert "scopa: premi Ctrl+C per fermarlo" in said
    assert "score sheet is at" not in said
    assert "press Ctrl+C" not in said


def test_serve_refuses_in_the_environments_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "c.pem").write_text("")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    try:
        assert main(["serve", "--certfile", str(tmp_path / "c.pem")]) == 2
        assert main(["serve", "--hosted", "--lan"]) == 2
        monkeypatch.setenv("SCOPA_MAX_TABLES", "many")
        assert main(["serve", "--db", str(tmp_path / "s.db")]) == 2
    finally:
        i18n.use("en")
    assert capsys.readouterr().err == (
        "scopa: HTTPS necesita --certfile y --keyfile\n"
        "scopa: --hosted tiene un código por grupo: quita --lan\n"
        "scopa: SCOPA_MAX_TABLES: 'many' no es un número entero de 1 a 100000\n"
    )
