"""`scopa groups ...` through the real entry point (FORMATS.md, "Hosted mode"), and a
device joining with the printed code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scopa.cli import main
from scopa.store import MatchStore
from scopa.web import create_app


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
        with TestClient(create_app(store, hosted=True)) as client:
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
    assert code == 2
    assert "9: no group with that id" in err
    code, _, err = run(capsys, "groups", "create", "  ", "--db", db)
    assert code == 2
    assert "name: a group needs a name" in err


def test_devices_and_revoke_device(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "hosted.db")
    created = json.loads(run(capsys, "groups", "create", "Club", "--db", db)[1])
    store = MatchStore.open(f"sqlite:///{db}")
    try:
        with TestClient(create_app(store, hosted=True)) as client:
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
            assert code == 2
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
