"""Malformed match and deal JSON against the API (Hypothesis): always a clear 4xx naming the
place, never a 500, and the stored match unchanged."""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa.store import MatchStore
from scopa.web import create_app
from tests.examples import examples
from tests.test_fuzz import BASES, break_at, broken_matches, json_values, paths

TWO_PLAYER_DEALS = BASES[0]["deals"]


@pytest.fixture(scope="module")
def api() -> Iterator[tuple[TestClient, int]]:
    folder = tempfile.mkdtemp(prefix="scopa-api-fuzz-")
    store = MatchStore.open(f"sqlite:///{Path(folder) / 'fuzz.db'}")
    client = TestClient(create_app(store))
    created = client.post("/api/matches", json=BASES[0])
    assert created.status_code == 201
    yield client, created.json()["id"]
    client.close()
    store.close()


@st.composite
def broken_deals(draw: st.DrawFn) -> Any:
    deal = copy.deepcopy(draw(st.sampled_from(TWO_PLAYER_DEALS)))
    place = draw(st.sampled_from(paths(deal)))
    how = draw(st.sampled_from(["replace", "delete", "duplicate", "add_key"]))
    if not place and how == "delete":
        how = "replace"
    return break_at(deal, place, how, draw(json_values))


def _check_refusal(answer: Any) -> None:
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        body = answer.json()
        assert set(body) >= {"error", "where", "code"}, body
        assert body["error"]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=broken_matches())
def test_broken_match_files(api: tuple[TestClient, int], doc: Any) -> None:
    client, _ = api
    before = len(client.get("/api/matches").json())
    answer = client.post("/api/import", content=json.dumps(doc))
    _check_refusal(answer)
    after = len(client.get("/api/matches").json())
    assert after == before + (1 if answer.status_code == 201 else 0)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(deal=broken_deals(), how=st.sampled_from(["post", "put"]))
def test_broken_deals_change_nothing(api: tuple[TestClient, int], deal: Any, how: str) -> None:
    client, match_id = api
    before = client.get(f"/api/matches/{match_id}").json()
    if how == "post":
        answer = client.post(f"/api/matches/{match_id}/deals", content=json.dumps(deal))
    else:
        answer = client.put(f"/api/matches/{match_id}/deals/2", content=json.dumps(deal))
    _check_refusal(answer)
    after = client.get(f"/api/matches/{match_id}").json()
    if answer.status_code >= 400:
        assert after == before
    elif how == "post":  # a break that left the deal valid: take it back out
        number = len(after["match"]["deals"])
        removed = client.delete(f"/api/matches/{match_id}/deals/{number}")
        assert removed.status_code == 200
