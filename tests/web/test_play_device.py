"""The Play page's game on the device (``scopa.web.phone.play_device``, run by the Pyodide worker)
and its way back to the server (``POST /play/games``, ``POST /play/{id}/sync``): the same
table as the server's for the same seed and plays, moves refused as the server refuses them,
a device's plays taken once (an Idempotency-Key, a repeat changes nothing), and the core's zip
holding the engine without the server's layers or the native kernel."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa.web.phone.offline import core_files, core_zip
from scopa.web.phone.play_device import run
from tests.web.test_play import advance, start, state

TABLE_KEYS = ("step", "hand", "table", "seats", "moves", "score", "deal_over", "legal", "replay")


def device(op: str, **payload: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(run(op, json.dumps(payload)))
    return answer


def device_step(game: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """One step on the device: your last legal play, or the computer's move."""
    if table["your_turn"]:
        play = table["legal"][-1]
        answer = device("play", game=game, step=table["step"], **play)
    else:
        answer = device("computer", game=game, step=table["step"])
    assert "state" in answer, answer
    assert answer["state"]["step"] == table["step"] + 1
    assert len(answer["state"]["made"]) == 1
    return answer


def device_deal(variant: str = "scopa", seed: int = 11) -> dict[str, Any]:
    answer = device("start", variant=variant, players=None, level="easy", seed=seed)
    while not answer["state"]["deal_over"]:
        answer = device_step(answer["game"], answer["state"])
    return answer


def test_a_deal_on_the_device_is_the_servers_deal(client: TestClient) -> None:
    played = device_deal()
    table, game = played["state"], played["game"]
    assert table["id"] is None
    assert table["sheet"] is None
    assert table["score"]["last"] is not None  # scored by the one scorer, on the device
    assert sum(table["score"]["totals"]) == sum(p["total"] for p in table["score"]["last"])
    resumed = device("state", game=game)["state"]
    assert {k: resumed[k] for k in TABLE_KEYS} == {k: table[k] for k in TABLE_KEYS}

    sent = client.post("/play/games", json=game, headers={"Idempotency-Key": "device-1"})
    assert sent.status_code == 200, sent.text
    server = sent.json()
    assert {k: server[k] for k in TABLE_KEYS} == {k: table[k] for k in TABLE_KEYS}
    stored = client.get(f"/api/matches/{server['match_id']}").json()
    assert stored["match"]["name"].startswith("Against the computer (Scopa, easy)")
    assert len(stored["match"]["deals"]) == 1
    assert list(stored["sheet"]["totals"].values()) == table["score"]["totals"]

    again = client.post("/play/games", json=game, headers={"Idempotency-Key": "device-1"})
    assert again.json()["id"] == server["id"]  # the lost answer's repeat: the same game
    listed = client.get("/api/matches").json()
    assert [m["id"] for m in listed].count(server["match_id"]) == 1
    playing = client.get("/play", params={"format": "json"}).json()["playing"]
    assert [g["id"] for g in playing].count(server["id"]) == 1


def test_the_device_refuses_as_the_server_does() -> None:
    started = device("start", variant="escoba", players=2, level="easy", seed=5)
    game, table = started["game"], started["state"]
    while not table["your_turn"]:
        answered = device_step(game, table)
        game, table = answered["game"], answered["state"]
    stale = device("computer", game=game, step=table["step"] + 3)
    assert stale["status"] == 409
    assert stale["where"] == "step"
    assert device("computer", game=game, step=table["step"])["status"] == 422  # your turn
    card = table["hand"][0]
    wrong = device("play", game=game, step=table["step"], card=card, capture=["Kd", "Kd"])
    assert wrong["status"] == 422
    assert wrong["where"].startswith("capture")
    assert device("play", game=game, step=table["step"], card="Xq", capture=[])["where"] == "card"
    bad_log = dict(game, log=[[[card, 1]]])
    assert device("state", game=bad_log)["status"] == 422
    assert device("start", variant="briscola", level="easy", seed=1)["where"] == "variant"
    assert device("start", variant="scopa", level="easy", seed=2**62)["where"] == "seed"
    assert device("start", variant="scopa", players=5, level="easy", seed=1)["where"] == "players"
    assert device("fly", game=game)["where"] == "op"
    assert device("state", game=game)["state"]["step"] == table["step"]  # nothing changed


def test_a_server_game_goes_on_on_the_device_and_syncs_once(client: TestClient) -> None:
    game_id = start(client, seed="21")
    table = state(client, game_id)
    for _ in range(3):
        table = advance(client, game_id, table)
    kept = table["replay"]  # what the page keeps to go on offline
    assert kept["seed"] == "21"  # digits: exact in JavaScript
    answer = device("state", game=kept)
    while not answer["state"]["deal_over"]:
        answer = device_step(answer["game"], answer["state"])
    log = answer["game"]["log"]

    synced = client.post(f"/play/{game_id}/sync", json={"log": log})
    assert synced.status_code == 200, synced.text
    body = synced.json()
    assert body["step"] == answer["state"]["step"]
    assert body["score"] == {**answer["state"]["score"]}
    match_id = body["match_id"]
    version = client.get(f"/api/matches/{match_id}").json()["version"]
    repeat = client.post(f"/play/{game_id}/sync", json={"log": log})
    assert repeat.status_code == 200
    assert repeat.json()["step"] == body["step"]
    after = client.get(f"/api/matches/{match_id}").json()
    assert after["version"] == version
    assert len(after["match"]["deals"]) == 1
    older = client.post(f"/play/{game_id}/sync", json={"log": kept["log"]})
    assert older.status_code == 409  # the server is ahead of it: nothing to take
    other = [[log[0][1], *log[0][:1], *log[0][2:]]]
    assert client.post(f"/play/{game_id}/sync", json={"log": other}).status_code == 409
    assert state(client, game_id)["step"] == body["step"]


def test_bad_uploads_are_refused_and_store_nothing(client: TestClient) -> None:
    before = client.get("/play", params={"format": "json"}).json()["playing"]
    good = device_deal(seed=3)["game"]
    for body, where in [
        ({**good, "log": [[[good["log"][0][0][0], 3]]]}, "play"),  # an illegal capture
        ({**good, "log": "all"}, "log"),
        ({**good, "log": [[[1, 2, 3]]]}, "log"),
        ({**good, "log": [[[99, 0]]]}, "log"),
        ({**good, "log": [[[True, 0]]]}, "log"),
        ({**good, "seed": "seven"}, "seed"),
        ({**good, "seed": 7.5}, "seed"),
        ({**good, "level": "godlike"}, "level"),
        ({**good, "players": 7}, "players"),
        ({**good, "seed": 2**63}, "seed"),
    ]:
        refused = client.post("/play/games", json=body)
        assert refused.status_code == 422, (body, refused.text)
        assert refused.json()["where"] == where, refused.text
    assert client.post("/play/games", content=b"[").status_code == 422
    assert client.post("/play/999/sync", json={"log": [[]]}).status_code == 404
    assert client.get("/play", params={"format": "json"}).json()["playing"] == before


def test_the_here_page_is_the_table_without_a_game(client: TestClient) -> None:
    page = client.get("/play/here")
    assert page.status_code == 200
    assert 'data-game=""' in page.text
    assert "/static/play.js" in page.text


def test_the_zip_holds_the_engine_not_the_server_nor_the_kernel(tmp_path: Path) -> None:
    names = zipfile.ZipFile(io.BytesIO(core_zip())).namelist()
    for module in ("web/phone/play_device.py", "engine/game.py", "engine/ai/player.py"):
        assert f"scopa/{module}" in names
    for left in ("store/", "web/serve/app.py", "application/computer.py", "application/matches.py"):
        assert not any(n.startswith(f"scopa/{left}") for n in names), left
    assert not any(n.endswith((".so", ".c", ".pyi")) for n in names)
    assert core_files(Path(__file__).parents[2] / "src" / "scopa")[0] == "__init__.py"
    zipfile.ZipFile(io.BytesIO(core_zip())).extractall(tmp_path)
    # A bare interpreter with the zip alone (as Pyodide has it): no kernel, the game plays.
    script = (
        "import sys, json; sys.path.insert(0, sys.argv[1])\n"
        "from scopa.web.phone import play_device\n"
        "from scopa.engine.ai.playouts import native_ready\n"
        "from scopa.engine.variants import get_variant\n"
        "assert not native_ready(get_variant('scopa'))\n"
        "server = ('fastapi', 'sqlalchemy', 'scopa.store')\n"
        "assert not any(m.startswith(server) for m in sys.modules)\n"
        "a = json.loads(play_device.run('start', json.dumps("
        "{'variant': 'scopa', 'level': 'normal', 'seed': 4})))\n"
        "s = a['state']\n"
        "if s['your_turn']:\n"
        "    p = s['legal'][0]\n"
        "    a = json.loads(play_device.run('play', json.dumps("
        "{'game': a['game'], 'step': s['step'], **p})))\n"
        "    s = a['state']\n"
        "ask = {'game': a['game'], 'step': s['step']}\n"
        "b = json.loads(play_device.run('computer', json.dumps(ask)))\n"
        "print(b['state']['made'][0]['name'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", script, str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Computer"


def test_a_big_seed_reaches_the_device_exactly(client: TestClient) -> None:
    seed = 2**61 + 12345  # beyond a JavaScript number's 53 exact bits
    table = state(client, start(client, seed=str(seed)))
    assert table["replay"]["seed"] == str(seed)
    assert float(seed) != seed  # as a number JavaScript would have dealt other cards
    here = device("state", game=table["replay"])["state"]
    assert (here["hand"], here["table"]) == (table["hand"], table["table"])


def test_the_device_says_what_its_search_runs_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """``engine``: the kernel (the C extension here, its WebAssembly build in the browser) or
    the pure engine, saying why."""
    from scopa.engine import native
    from scopa.engine.native import wasm

    if native.AVAILABLE:
        assert json.loads(run("engine", "{}")) == {"engine": "kernel", "build": "c", "reason": ""}
    if wasm.wasm_path().is_file():
        data = wasm.wasm_path().read_bytes()
        built = wasm.Kernel(lambda points: wasm.wasmtime_instance(data, points))
        monkeypatch.setattr(native, "_kernel", built)
        monkeypatch.setattr(native, "AVAILABLE", True)
        said = json.loads(run("engine", "{}"))
        assert said == {"engine": "kernel", "build": "webassembly", "reason": ""}
    monkeypatch.setattr(native, "AVAILABLE", False)
    monkeypatch.setattr(native, "REASON", "the native kernel is not built (here)")
    said = json.loads(run("engine", "{}"))
    assert said == {"engine": "python", "build": None, "reason": native.REASON}


def test_the_device_says_how_fast_its_tree_grows(monkeypatch: pytest.MonkeyPatch) -> None:
    """``speed`` (bench/phone.py): the levels' tree grown from the game's position for the
    iterations asked, with the time it took; bad input refused as any other operation."""
    from scopa.engine import native

    started = device("start", variant="scopa", players=2, level="normal", seed=3)
    game = started["game"]
    if native.AVAILABLE:
        said = device("speed", game=game, iterations=300, seed=7)
        assert said["iterations"] == 300
        assert said["build"] == "c"
        assert isinstance(said["ms"], float)
    for wrong in (0, -5, 1.5, "300", True, 10**7):
        refused = device("speed", game=game, iterations=wrong)
        assert (refused["status"], refused["where"]) == (422, "iterations"), wrong
        assert "whole number from 1 to 1000000" in refused["error"]
    assert device("speed", game=game, iterations=10, seed="x")["where"] == "seed"
    over = device_deal(seed=3)
    refused = device("speed", game=over["game"], iterations=10)
    assert refused == {
        "error": "the deal is over",
        "where": "play",
        "status": 422,
        "code": "play.deal_over",
    }
    monkeypatch.setattr(native, "AVAILABLE", False)
    refused = device("speed", game=game, iterations=10)
    assert refused["error"] == "the search tree needs the kernel, which is not here"
