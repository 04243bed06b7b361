"""The device's scorer (``scopa.web.phone.device``, run in the browser by Pyodide) reads a posted
deal form exactly as the server's page does, the variant's facts included."""

from __future__ import annotations

import json
from collections.abc import Mapping

from scopa.web.phone import device
from tests.web.test_variant_pages import CIRULLA_TALLY


def posted(fields: Mapping[str, object]) -> dict[str, list[str]]:
    return {k: v if isinstance(v, list) else [str(v)] for k, v in fields.items()}


def test_the_live_check_keeps_cirullas_declarations() -> None:
    match = {"variant": "cirulla", "players": ["Anna", "Bruno"]}
    answer = json.loads(
        device.run("check", json.dumps({"match": match, "fields": posted(CIRULLA_TALLY)}))
    )
    assert answer["ok"], answer
    assert answer["deal"]["declarations"] == {"Anna": ["cirulla"]}
    assert answer["points"] == {"Anna": 15, "Bruno": 2}  # the rulebook's worked example (9.6)


def test_an_odd_digit_in_a_declaration_count_is_a_field_error() -> None:
    match = {"variant": "cirulla", "players": ["Anna", "Bruno"]}
    fields = posted({**CIRULLA_TALLY, "cirulla-0": "²"})
    answer = json.loads(device.run("check", json.dumps({"match": match, "fields": fields})))
    assert not answer["ok"]
    assert "cirulla-0" in answer["errors"]
