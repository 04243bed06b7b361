"""The one scorer: the project's Python core, run in the browser by Pyodide in a module worker,
gives the same sheets and the same messages as the server (the same test data, run in the
worker), and its live check of the deal form is green exactly when the server accepts."""

from __future__ import annotations

import copy
import json
from itertools import product
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page

from scopa import i18n
from scopa.errors import InputError
from scopa.formats import parse_match, sheet_to_json
from scopa.match import score_match
from tests.test_formats import INVALID, TEAM_INVALID, base_match, worked_deal

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SETTINGS = [
    {"primiera": p, "napola": n, "ties": t, "last_capture_sweep": s}
    for p, n, t, s in product(
        (True, False), ("off", "flat", "run"), ("withhold", "share"), (False, True)
    )
]


def scorer(page: Page, server: str) -> None:
    page.goto(server + "/")
    page.evaluate("() => window.scopa?.scorer.start()")
    page.wait_for_function("() => window.scopa?.scorer.isReady", timeout=60_000)


def run_all(page: Page, calls: list[tuple[str, Any]]) -> list[Any]:
    answers: list[Any] = page.evaluate(
        "calls => Promise.all(calls.map(([op, p]) => window.scopa?.scorer.call(op, p)))", calls
    )
    return answers


def server_sheet(data: Any) -> dict[str, Any]:
    return sheet_to_json(score_match(parse_match(data)))


def test_the_device_s_scorer_says_what_the_server_says(server: str, page: Page) -> None:
    """One page's scorer, started once (its first start is most of each check's cost),
    asked three things in turn."""
    scorer(page, server)
    same_sheets_under_every_setting(page)
    same_messages_for_invalid_input(page)
    live_check_is_green_exactly_when_the_server_accepts(server, page)


def same_sheets_under_every_setting(page: Page) -> None:
    matches: list[Any] = [json.loads(p.read_text()) for p in sorted(EXAMPLES.glob("*.json"))]
    matches.append(base_match())
    calls: list[tuple[str, Any]] = []
    expected: list[Any] = []
    for match, rules in product(matches, [{}, *SETTINGS]):  # {}: its own rules (and variant)
        data = copy.deepcopy(match)
        data["rules"] = {**data.get("rules", {}), **rules}
        calls.append(("score", {"match": data}))
        try:
            expected.append({"sheet": server_sheet(data)})
        except InputError as error:  # a setting another variant does not take: same words
            expected.append(
                {
                    "error": error.message,
                    "where": error.where,
                    "message": str(error),
                    "code": error.code,
                }
            )
    answers = run_all(page, calls)
    assert len(answers) == len(expected) >= 3 * len(SETTINGS)
    assert sum("sheet" in e for e in expected) >= 3 * len(SETTINGS)
    for answer, wanted in zip(answers, expected, strict=True):
        assert answer == wanted


def same_messages_for_invalid_input(page: Page) -> None:
    cases: list[tuple[Any, str]] = []
    for _, change, message in INVALID:
        data = base_match()
        data["deals"] = [worked_deal() for _ in range(4)]
        change(data)
        cases.append((data, message))
    cases += [(data, message) for _, data, message in TEAM_INVALID]
    for data, message in cases:  # the server's own reading, as the test data says
        with pytest.raises(InputError) as info:
            parse_match(data)
        assert str(info.value) == message
    answers = run_all(page, [("parse", {"match": data}) for data, _ in cases])
    assert [a["message"] for a in answers] == [m for _, m in cases]
    # A worker of an Italian page fetches the Italian phone catalog (only that one) and
    # says what the server says in Italian, with the same code.
    italian = page.evaluate(ITALIAN_WORKER, [("parse", {"match": data}) for data, _ in cases])
    expected = []
    for data, _ in cases:
        with i18n.using("it"), pytest.raises(InputError) as info:
            parse_match(data)
        error = info.value
        with i18n.using("it"):
            expected.append((f"{error.where}: {error.text()}", error.code))
    assert [(a["message"], a["code"]) for a in italian] == expected
    assert any(" non " in message for message, _ in expected)


ITALIAN_WORKER = """calls => new Promise((resolve, reject) => {
  const worker = new Worker("/static/scorer.js", {type: "module", name: "sheet:it"});
  const answers = [];
  worker.onmessage = (event) => {
    const data = event.data;
    if (data.ready !== undefined) {
      calls.forEach(([op, payload], id) => worker.postMessage({id, op, payload}));
    } else if (data.failed || data.failure) {
      reject(new Error(data.failed || data.failure));
    } else if (data.id !== undefined) {
      answers[data.id] = data.result;
      if (answers.filter(Boolean).length === calls.length) { worker.terminate(); resolve(answers); }
    }
  };
})"""


def tally(
    counts: tuple[str, str], coins: tuple[str, str], best: tuple[str, str], last: str = ""
) -> dict[str, list[str]]:
    fields: dict[str, list[str]] = {"mode": ["tally"], "last": [last]}
    for i in range(2):
        fields[f"count-{i}"] = [counts[i]]
        fields[f"coins-{i}"] = coins[i].split()
        for suit, rank in zip("csb", best[i], strict=True):
            fields[f"best-{i}-{suit}"] = [rank.strip()]
        fields[f"sweeps-{i}"] = ["0"]
    return fields


FORMS = {
    "the worked example": tally(("22", "18"), ("A 2 3 5 7 K", "4 6 J H"), ("776", "567")),
    "both name the 7 of cups": tally(("22", "18"), ("A 2 3 5 7 K", "4 6 J H"), ("776", "767")),
    "counts -2 and 42": tally(("-2", "42"), ("A 2 3 5 7 K", "4 6 J H"), ("776", "567")),
    "counts that do not add up": tally(("25", "18"), ("A 2 3 5 7 K", "4 6 J H"), ("776", "567")),
    "a coin missing": tally(("22", "18"), ("A 2 3 5 7", "4 6 J H"), ("776", "567")),
    "only the sevens": tally(("22", "18"), ("A 2 3 5 7 K", "4 6 J H"), ("7  ", " 77")),
    "last cards to an empty pile": tally(
        ("40", "0"), ("A 2 3 4 5 6 7 J H K", ""), ("777", "   "), "1"
    ),
}


def live_check_is_green_exactly_when_the_server_accepts(server: str, page: Page) -> None:
    created = httpx.post(f"{server}/api/matches", json={"players": ["Anna", "Bruno"]}).json()
    match = created["match"]
    answers = run_all(page, [("check", {"match": match, "fields": f}) for f in FORMS.values()])
    for (name, fields), answer in zip(FORMS.items(), answers, strict=True):
        posted = httpx.post(
            f"{server}/matches/{created['id']}/deals/new",
            data=fields,
        )
        accepted = posted.status_code == 303
        assert answer["ok"] is accepted, name
        if accepted:
            stored = httpx.get(f"{server}/api/matches/{created['id']}").json()
            assert stored["match"]["deals"][-1] == answer["deal"], name
            httpx.delete(
                f"{server}/api/matches/{created['id']}/deals/{len(stored['match']['deals'])}"
            )
        else:
            assert answer["errors"], name
            for message in answer["errors"].values():  # the same words, on the page
                assert message.replace("'", "&#39;") in posted.text, (name, message)
    only_sevens = answers[list(FORMS).index("only the sevens")]
    assert only_sevens["ok"] is True
    assert only_sevens["notes"] == [
        "Primiera: no best card in swords, clubs for Anna, so it cannot be completed",
        "Primiera: no best card in cups for Bruno, so it cannot be completed",
        "Primiera: every side is incomplete, so nobody scores it",
    ]


def test_a_scorer_whose_worker_fails_fails_the_calls_waiting_on_it(server: str, page: Page) -> None:
    # The worker's script breaks as it starts (here served broken): the calls made meanwhile
    # are told so. Before, they were left waiting for an answer that could never come (a
    # page "scoring it here…" for ever, and a test's evaluate with no end).
    page.route(
        "**/static/scorer.js",
        lambda route: route.fulfill(
            status=200,
            content_type="text/javascript",
            body="throw new Error('the scorer broke as it started');",
        ),
    )
    page.goto(server + "/")
    said = page.evaluate(
        """() => Promise.race([
          window.scopa.scorer.call("score", {})
            .then(() => "answered", (e) => "failed: " + e.message),
          new Promise((done) => setTimeout(() => done("no answer in 60 s"), 60000)),
        ])"""
    )
    assert said.startswith("failed: "), said
    assert "the scorer broke as it started" in said, said
