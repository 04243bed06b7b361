"""Issue 5 on the web app: cross-site posts refused, other devices' sheets kept fresh, names
escaped, `scopa serve --lan` letting in only devices with the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from scopa.web.serve.cli import qr_text
from tests.netns import network_namespace
from tests.pg import free_port
from tests.servers import scopa_serve
from tests.waiting import until
from tests.web.conftest import anna_deal
from tests.web.workers import first_answer

SCOPA = str(Path(sys.executable).parent / "scopa")


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "http://127.0.0.1:9999", "Host": "127.0.0.1:8000"},
    ],
)
def test_cross_site_changes_refused(
    client: TestClient, match_id: int, headers: dict[str, str]
) -> None:
    before = client.get(f"/api/matches/{match_id}").json()
    api = client.post(f"/api/matches/{match_id}/deals", json=anna_deal(), headers=headers)
    assert api.status_code == 403
    assert api.json()["where"] == "origin"
    page = client.post(
        f"/matches/{match_id}/settings", data={"target": "21", "version": "1"}, headers=headers
    )
    assert page.status_code == 403
    assert "cross-site" in page.text
    assert client.get(f"/api/matches/{match_id}").json() == before


def test_same_site_and_plain_clients_allowed(client: TestClient, match_id: int) -> None:
    same = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    answer = client.post(f"/api/matches/{match_id}/deals", json=anna_deal(), headers=same)
    assert answer.status_code == 201
    assert client.post(f"/api/matches/{match_id}/deals", json=anna_deal()).status_code == 201
    # Reading is never refused, whoever asks.
    assert client.get("/api/matches", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200


def test_sheet_poll_answers_204_until_changed(client: TestClient, match_id: int) -> None:
    page = client.get(f"/matches/{match_id}")
    assert f'hx-get="/matches/{match_id}/sheet?since=1"' in page.text
    assert 'hx-trigger="every 3s"' in page.text
    unchanged = client.get(f"/matches/{match_id}/sheet?since=1")
    assert unchanged.status_code == 204
    assert unchanged.text == ""
    client.post(f"/api/matches/{match_id}/deals", json=anna_deal())  # another device
    fresh = client.get(f"/matches/{match_id}/sheet?since=1")
    assert fresh.status_code == 200
    assert "Updated on another device: Deal 1 recorded" in fresh.text
    assert f"/matches/{match_id}/sheet?since=2" in fresh.text
    assert ">5<" in fresh.text.replace(" ", "")


def test_script_name_is_text(client: TestClient) -> None:
    created = client.post("/api/matches", json={"players": ["<script>alert(1)</script>", "Bo"]})
    assert created.status_code == 201
    page = client.get(f"/matches/{created.json()['id']}")
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["x-frame-options"] == "DENY"
    assert "<script>" not in client.get("/").text.replace('<script src="/static/', "")


def test_qr_code_drawn_for_the_join_link() -> None:
    art = qr_text("http://192.0.2.2:8000/join?code=ABCD-EFGH")
    lines = art.strip().splitlines()
    assert len(lines) > 10
    assert all(len(line) == len(lines[0]) for line in lines)
    assert set("".join(lines)) <= set("█▀▄ \xa0")


@pytest.mark.slow
@pytest.mark.system
def test_serve_lan_lets_in_only_devices_with_the_code(tmp_path: Path) -> None:
    with network_namespace() as (namespace, _, address):
        port = free_port()
        db = str(tmp_path / "lan.db")
        within = ("ip", "netns", "exec", namespace)
        with scopa_serve("--lan", "--port", str(port), "--db", db, within=within) as (_, output):
            code = re.search(r"the access code is ([A-Z0-9]{4}-[A-Z0-9]{4})", output)
            assert code is not None, output
            link = f"http://{address}:{port}/join?code={code.group(1)}"
            assert link in output  # the namespace's own address, found by lan_addresses()
            assert "█" in output  # the QR code
            base = f"http://{address}:{port}"
            stranger = first_answer(lambda: httpx.get(f"{base}/api/matches", timeout=30), 120)
            assert stranger.status_code == 401
            assert httpx.get(f"{base}/", timeout=30).status_code == 303
            with httpx.Client(base_url=base, timeout=30) as phone:
                joined = phone.get(f"/join?code={code.group(1)}")
                assert joined.status_code == 303
                assert phone.get("/api/matches").json() == []
                revoked = subprocess.run(
                    [SCOPA, "access", "revoke", "all", "--db", db],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                assert revoked.stdout == "revoked 1 access code\n"
                # revoked by another process: the server finds out when it reads the
                # devices again (every 2 s)
                until(lambda: phone.get("/api/matches").status_code == 401, "the refusal")


def test_limits_each_a_clear_error(client: TestClient) -> None:
    deals = [anna_deal() for _ in range(500)]
    full = client.post("/api/matches", json={"players": ["Anna", "Bruno"], "deals": deals})
    assert full.status_code == 201, full.text
    match_id = full.json()["id"]
    more = client.post(f"/api/matches/{match_id}/deals", json=anna_deal())
    assert more.status_code == 422
    assert more.json() == {
        "error": "a match holds at most 500 deals",
        "where": "deals",
        "code": "match.match_holds_most_deals",
    }
    too_many = client.post(
        "/api/matches", json={"players": ["Anna", "Bruno"], "deals": [*deals, anna_deal()]}
    )
    assert too_many.status_code == 422
    assert too_many.json()["error"] == "501 deals; at most 500"
    seven = client.post("/api/matches", json={"players": [f"P{i}" for i in range(7)]})
    assert seven.status_code == 422
    assert seven.json()["where"] == "players"
    huge = client.post("/api/import", content=b"[" + b"1," * 2_000_000 + b"1]")
    assert huge.status_code == 413
    assert huge.json()["where"] == "body"
    assert len(client.get("/api/matches").json()) == 1


@pytest.mark.parametrize(
    ("language", "said", "back"),
    [
        ("en", "That is too much to send at once: at most 2 MB. Nothing was saved.", "Back"),
        ("it", "al massimo 2 MB. Non è stato salvato niente.", "Indietro"),
        ("es", "como mucho 2 MB. No se ha guardado nada.", "Atrás"),
    ],
)
def test_a_file_too_large_for_a_page_is_refused_in_the_readers_words_with_a_way_back(
    client: TestClient, language: str, said: str, back: str
) -> None:
    """An import page's file over the cap: the guard's own page, styled, in the reader's
    words, leading back to the page the form was on; nothing is stored."""
    huge = b"[" + b"1," * 1_100_000 + b"1]"
    answer = client.post(
        "/import",
        files={"file": ("match.json", huge, "application/json")},
        headers={"Accept-Language": language, "Referer": "http://testserver/import"},
    )
    assert answer.status_code == 413
    assert said in answer.text
    assert f'<a href="/import">← {back}</a>' in answer.text
    assert 'href="/static/style.css"' in answer.text
    assert client.get("/api/matches").json() == []
    # another site's page as the referer: back to the matches, not there
    elsewhere = client.post(
        "/import",
        files={"file": ("match.json", huge, "application/json")},
        headers={"Referer": "http://elsewhere.example/import"},
    )
    assert '<a href="/">← Back</a>' in elsewhere.text


def test_head_is_answered_wherever_get_is_without_the_body(client: TestClient) -> None:
    """An uptime monitor's ``HEAD /healthz`` (and a browser's or a proxy's ``HEAD`` of any
    page): GET's status and headers, no body (it was 405)."""
    made = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
    for path in ("/healthz", "/", f"/matches/{made}", "/api/matches", "/static/style.css"):
        head, get = client.head(path), client.get(path)
        assert (path, head.status_code) == (path, get.status_code)
        assert head.headers["content-type"] == get.headers["content-type"]
        assert head.content == b""
    assert client.head("/matches/999").status_code == client.get("/matches/999").status_code
    assert client.head("/api/matches").headers["content-length"] == str(
        len(client.get("/api/matches").content)
    )
