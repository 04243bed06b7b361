"""`scopa groups ...` through the real entry point (docs/formats.md, "Hosted mode"), and a
device joining with the printed code."""

from __future__ import annotations

import contextvars
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa.cli import main
from scopa.store import MatchStore
from scopa.web import WebSettings, create_app


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_create_prints_one_json_object_and_the_code_joins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "hosted.db")
    code, out, err = run(capsys, "groups", "create", "The Rossis", "--db", db)
    assert code == 0
    assert err == ""  # not a terminal: no QR code
    created = json.loads(out)
    assert list(created) == ["group", "name", "code", "join"]
    assert created["group"] == 1
    assert created["name"] == "The Rossis"
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", created["code"])
    assert created["join"] == f"/join?code={created['code']}"
    assert out.count("\n") == 1

    store = MatchStore.open(f"sqlite:///{db}")
    try:
        with TestClient(create_app(store, WebSettings(hosted=True))) as client:
            joined = client.post("/api/join", json={"code": created["code"]})
            assert joined.status_code == 201
            assert joined.json()["group"] == 1
            page = client.get(created["join"])
            assert created["code"] in page.text
    finally:
        store.close()


def test_create_with_limits_list_and_revoke(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "hosted.db")
    run(capsys, "groups", "create", "Club", "--db", db, "--max-matches", "3", "--max-deals", "9")
    run(capsys, "groups", "create", "Family", "--db", db, "--max-bytes", "5000")
    code, out, _ = run(capsys, "groups", "list", "--db", db, "--json")
    assert code == 0
    listed = json.loads(out)
    assert [(g["group"], g["name"], g["active"]) for g in listed] == [
        (1, "Club", True),
        (2, "Family", True),
    ]
    assert (listed[0]["max_matches"], listed[0]["max_deals"]) == (3, 9)
    assert listed[1]["max_bytes"] == 5000
    assert listed[1]["max_matches"] == 1000

    code, out, _ = run(capsys, "groups", "list", "--db", db)
    assert "Club" in out
    assert "0/3" in out

    code, out, _ = run(capsys, "groups", "limits", "1", "--db", db, "--max-matches", "7")
    assert code == 0
    assert json.loads(out)["max_matches"] == 7

    code, out, _ = run(capsys, "groups", "revoke", "1", "--db", db)
    assert code == 0
    assert "revoked group 1 (Club)" in out
    listed = json.loads(run(capsys, "groups", "list", "--db", db, "--json")[1])
    assert [g["active"] for g in listed] == [False, True]

    code, _, err = run(capsys, "groups", "revoke", "9", "--db", db)
    assert code == 1
    assert "9: no group with that id" in err
    code, _, err = run(capsys, "groups", "create", "  ", "--db", db)
    assert code == 2
    assert "name: a group needs a name" in err


def test_devices_and_revoke_device(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "hosted.db")
    created = json.loads(run(capsys, "groups", "create", "Club", "--db", db)[1])
    store = MatchStore.open(f"sqlite:///{db}")
    try:
        with TestClient(create_app(store, WebSettings(hosted=True))) as client:
            token = client.post("/api/join", json={"code": created["code"]}).json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            assert client.get("/api/matches", headers=auth).status_code == 200
            code, out, _ = run(capsys, "groups", "devices", "1", "--db", db)
            assert code == 0
            assert "testclient" in out
            device = store.groups.group_devices(1)[0][0].id
            code, out, _ = run(capsys, "groups", "revoke-device", str(device), "--db", db)
            assert code == 0
            store.groups.forget()
            assert client.get("/api/matches", headers=auth).status_code == 401
            code, _, err = run(capsys, "groups", "revoke-device", str(device), "--db", db)
            assert code == 1
            assert "no active device" in err
    finally:
        store.close()


def test_the_qr_code_goes_to_standard_error(tmp_path: Path) -> None:
    """Through the installed entry point, as a separate process."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scopa",
            "groups",
            "create",
            "Club",
            "--db",
            str(tmp_path / "q.db"),
            "--qr",
            "--url",
            "https://sheet.example.org",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    created = json.loads(done.stdout)
    assert created["name"] == "Club"
    assert "█" in done.stderr
    assert "█" not in done.stdout


@pytest.mark.system
def test_serve_hosted_through_the_entry_point(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`scopa serve --hosted`: even this computer needs a token; the printed code lets in."""
    import http.client

    from tests.pg import free_port
    from tests.servers import scopa_serve

    db = str(tmp_path / "serve.db")
    created = json.loads(run(capsys, "groups", "create", "Club", "--db", db)[1])
    port = free_port()
    with scopa_serve("--hosted", "--port", str(port), "--db", db) as (_, output):
        assert "hosted" in output

        def call(method: str, path: str, body: str | None = None, token: str = "") -> Any:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            headers = {"Content-Type": "application/json"}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
            connection.close()
            return answer.status, json.loads(data) if data else None

        deadline = time.monotonic() + 120
        while True:  # the server listens shortly after it prints its address
            try:
                assert call("GET", "/api/matches")[0] == 401
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        status, joined = call("POST", "/api/join", json.dumps({"code": created["code"]}))
        assert status == 201
        token = joined["token"]
        made = call("POST", "/api/matches", json.dumps({"players": ["Ada", "Bo"]}), token)
        assert made[0] == 201
        assert [m["id"] for m in call("GET", "/api/matches", token=token)[1]] == [made[1]["id"]]


def test_serve_hosted_refuses_lan(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "serve", "--hosted", "--lan", "--db", str(tmp_path / "x.db"))
    assert code == 2
    assert "--hosted has a code per group" in err


def test_a_groups_language_and_table_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issues 22 and 27: `create --language --max-tables --max-seats`, `language ID [LANG]`,
    `limits ID --max-tables N|default`; a bad value is refused at its option and changes
    nothing."""
    db = str(tmp_path / "hosted.db")
    args = ("--language", "it-IT", "--max-tables", "4", "--max-seats", "9")
    code, out, _ = run(capsys, "groups", "create", "Club", "--db", db, *args)
    assert code == 0
    assert list(json.loads(out)) == ["group", "name", "code", "join"]  # the contract's keys
    listed = json.loads(run(capsys, "groups", "list", "--db", db, "--json")[1])
    assert (listed[0]["language"], listed[0]["max_tables"], listed[0]["max_seats"]) == ("it", 4, 9)
    assert "it" in run(capsys, "groups", "list", "--db", db)[1].split("Club")[1]

    code, out, _ = run(capsys, "groups", "language", "1", "--db", db)
    assert (code, json.loads(out)["language"]) == (0, "it")
    said = run(capsys, "groups", "language", "1", "es", "--db", db)[1]
    assert json.loads(said)["language"] == "es"
    code, _, err = run(capsys, "groups", "language", "1", "fr", "--db", db)
    assert code == 2
    assert "LANG: fr is not a language spoken here (en, it, es)" in err
    said = run(capsys, "groups", "language", "1", "none", "--db", db)[1]
    assert json.loads(said)["language"] is None
    code, _, err = run(capsys, "groups", "language", "7", "it", "--db", db)
    assert (code, "7: no group with that id" in err) == (1, True)

    code, out, _ = run(capsys, "groups", "limits", "1", "--db", db, "--max-tables", "default")
    assert code == 0
    assert (json.loads(out)["max_tables"], json.loads(out)["max_seats"]) == (None, 9)
    for bad, said in (
        (("--max-tables", "0"), "--max-tables: 0 is outside the allowed values (1-100000)"),
        (("--max-seats", "lots"), "--max-seats: lots is outside the allowed values (1-100000)"),
        (("--max-seats", "100001"), "--max-seats: 100001 is outside"),
    ):
        code, _, err = run(capsys, "groups", "limits", "1", "--db", db, "--max-matches", "5", *bad)
        assert code == 2, bad
        assert said in err, err
    unchanged = json.loads(run(capsys, "groups", "limits", "1", "--db", db)[1])
    assert (unchanged["max_matches"], unchanged["max_tables"], unchanged["max_seats"]) == (
        1000,
        None,
        9,
    )
    code, _, err = run(capsys, "groups", "create", "Other", "--db", db, "--language", "xx")
    assert code == 2
    assert "--language: xx is not a language spoken here" in err
    code, _, err = run(capsys, "groups", "create", "Other", "--db", db, "--max-tables", "-1")
    assert code == 2
    assert "--max-tables: -1 is outside" in err
    assert len(json.loads(run(capsys, "groups", "list", "--db", db, "--json")[1])) == 1
    italian = ("--lang", "it", "groups", "language", "1", "fr", "--db", db)
    code, _, err = contextvars.copy_context().run(run, capsys, *italian)  # Italian stays there
    assert code == 2
    assert "LANG: fr" in err
    assert "not a language" not in err  # said in Italian
