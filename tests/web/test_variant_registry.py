"""A variant is one object: registered in one place, the sheet, the match format, the settings,
the API, the pages and the CLI all know it (issue 21, "A variant is one object")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopa import variants
from scopa.errors import InputError
from scopa.formats import parse_match, sheet_to_json
from scopa.match import score_match
from scopa.rules import Settings
from scopa.variants import ESCOBA_CATEGORIES, VariantDef
from tests.conftest import run

THROWAWAY = VariantDef(
    "trenta",
    "Scopa a trenta",
    "Scopa to 31 without napola, for two or three.",
    setting_names=("target", "primiera", "partnerships", "last_capture_sweep", "ties"),
    default_target=31,
    default_rules={"ties": "share"},
    target_range=(11, 101),
    categories=ESCOBA_CATEGORIES,
    labels={**variants.LABELS, "cards": "Carte"},
    players=(2, 3),
)
"""Defined here and nowhere else."""

ALL_CARDS = [f"{rank}{suit}" for suit in "dcsb" for rank in "A234567JHK"]
DEAL: dict[str, Any] = {
    "piles": {"Anna": {"cards": ALL_CARDS[:22]}, "Bruno": {"cards": ALL_CARDS[22:]}},
    "sweeps": {"Anna": 2, "Bruno": 0},
    "last_capture": "Bruno",
}
MATCH: dict[str, Any] = {"variant": "trenta", "players": ["Anna", "Bruno"], "deals": [DEAL]}


@pytest.fixture(autouse=True)
def trenta() -> Iterator[VariantDef]:
    with variants.registered(THROWAWAY) as variant:
        yield variant
    assert "trenta" not in variants.names()


def test_the_settings_and_the_sheet_know_it() -> None:
    settings = Settings.of("Trenta")
    assert settings.definition is THROWAWAY
    assert (settings.target, settings.ties) == (31, "share")
    assert settings.to_dict() == {
        "target": 31,
        "primiera": True,
        "partnerships": False,
        "last_capture_sweep": False,
        "ties": "share",
    }
    assert settings.describe().startswith("Scopa a trenta · to 31")
    match = parse_match(MATCH)
    sheet = sheet_to_json(score_match(match))
    assert next(iter(sheet)) == "variant"
    assert sheet["variant"] == "trenta"
    anna = sheet["deals"][0]["points"]["Anna"]
    assert list(anna) == ["cards", "coins", "settebello", "primiera", "sweeps", "total"]
    assert anna["sweeps"] == 2
    assert THROWAWAY.label("cards") == "Carte"


def test_its_limits_are_its_own() -> None:
    with pytest.raises(InputError, match=r"trenta is played by 2 or 3 players \(4 given\)"):
        parse_match({**MATCH, "players": ["A", "B", "C", "D"], "deals": []})
    with pytest.raises(InputError, match="from 11 to 101"):
        Settings.parse({"target": 5}, variant="trenta")
    assert Settings.parse({"target": 101}, variant="trenta").target == 101
    with pytest.raises(InputError, match="a setting of scopa, scopone and assi, not of trenta"):
        Settings.parse({"napola": "run"}, variant="trenta")
    with pytest.raises(InputError, match="a fact of cirulla deals, not of trenta"):
        parse_match({**MATCH, "deals": [{**DEAL, "declarations": {}}]})


def test_the_api_and_the_pages_know_it(client: TestClient) -> None:
    made = client.post("/api/matches", json=MATCH)
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["match"]["variant"] == "trenta"
    assert body["sheet"] == sheet_to_json(score_match(parse_match(MATCH)))
    changed = client.patch(
        f"/api/matches/{body['id']}/rules", json={"target": 11, "version": body["version"]}
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["sheet"]["winner"] is None
    refused = client.patch(f"/api/matches/{body['id']}/rules", json={"napola": "flat"})
    assert refused.status_code == 422
    assert "not of trenta" in refused.json()["error"]
    enum = client.get("/api/openapi.json").json()["components"]["schemas"]["Match"]
    assert "trenta" in json.dumps(enum)
    page = client.get("/matches/new")
    assert "Scopa a trenta (to 31)" in page.text


def test_the_command_line_knows_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "trenta.json"
    path.write_text(json.dumps(MATCH))
    code, out, err = run(capsys, "score", str(path))
    assert code == 0, err
    assert json.loads(out)["variant"] == "trenta"
    code, out, err = run(capsys, "sheet", str(path))
    assert code == 0, err
    assert "in progress · Scopa a trenta · to 31 · primiera on · ties share" in out
