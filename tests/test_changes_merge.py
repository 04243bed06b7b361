"""What a change does, defined once (issue 21): the merge decision for a change made offline
(:func:`scopa.changes.resolve`), tested against what the server then does with the request,
and run side by side with the page's copy (``static/merge.js``) on the same cases."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.changes import canonical, resolve, same
from scopa.web.phone import device

ROOT = Path(__file__).parents[1]
RULES = {
    "target": 11,
    "primiera": True,
    "napola": "off",
    "partnerships": False,
    "last_capture_sweep": False,
    "ties": "withhold",
}
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "target": st.integers(5, 61),
    "primiera": st.booleans(),
    "napola": st.sampled_from(["off", "flat", "run"]),
    "partnerships": st.booleans(),
    "last_capture_sweep": st.booleans(),
    "ties": st.sampled_from(["withhold", "share"]),
}


def deal(tag: int) -> dict[str, Any]:
    """A distinct deal per tag (what the merge compares is the deal's JSON)."""
    return {
        "piles": {"Anna": {"count": 20 + tag % 7}, "Bruno": {"count": 20 - tag % 7}},
        "sweeps": {"Anna": tag // 7, "Bruno": 0},
        "last_capture": "Anna" if tag % 2 else "Bruno",
    }


def now(deals: list[dict[str, Any]], version: int = 9, rules: dict[str, Any] = RULES) -> Any:
    return {"version": version, "match": {"deals": deals, "rules": rules}}


def sent(plan: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    request = plan["request"]
    return request["url"], request["method"], json.loads(request["body"])


def test_canonical_and_same() -> None:
    assert canonical({"b": 1, "a": [{"d": 2, "c": None}]}) == '{"a":[{"c":null,"d":2}],"b":1}'
    assert same({"x": 1, "y": {"z": [1, 2.0]}}, {"y": {"z": [1, 2]}, "x": 1})
    assert not same([1, 2], [2, 1])
    assert not same(True, 1)


def test_each_kind_of_change() -> None:
    theirs = [deal(1), deal(2), deal(3)]
    add = {"match": 4, "kind": "add", "body": deal(5), "base": {"count": 3}}
    assert sent(resolve(add, now(theirs))) == (
        "/api/matches/4/deals",
        "POST",
        {**deal(5), "version": 9},
    )
    assert resolve(add, now([*theirs, deal(4)]))["conflict"] == {
        "type": "appended",
        "theirs": [deal(4)],
        "count": 4,
    }
    assert "request" in resolve({**add, "accept_after": True}, now([*theirs, deal(4)]))
    # Deal 2 as this device saw it is deal 1 on the server now (deal 1 was deleted there).
    edit = {"match": 4, "kind": "replace", "number": 2, "body": deal(6), "base": {"deal": deal(2)}}
    assert sent(resolve(edit, now(theirs[1:])))[:2] == ("/api/matches/4/deals/1", "PUT")
    assert resolve(edit, now([deal(1), deal(7)]))["conflict"] == {
        "type": "edited",
        "theirs": deal(7),
        "number": 2,
    }
    assert sent(resolve({**edit, "force": True}, now([deal(1), deal(7)])))[0].endswith("/2")
    delete = {**edit, "kind": "delete", "body": None}
    assert "already changed or deleted" in resolve(delete, now([deal(1)]))["drop"]
    restore = {"match": 4, "kind": "restore", "removed_id": 17}
    assert sent(resolve(restore, now(theirs))) == (
        "/api/matches/4/removed/17/restore",
        "POST",
        {"version": 9},
    )
    rules = {"match": 4, "kind": "rules", "body": {"target": 21}, "base": {"rules": RULES}}
    assert sent(resolve(rules, now(theirs)))[2] == {"target": 21, "version": 9}
    other = {**RULES, "target": 15}
    assert resolve(rules, now(theirs, rules=other))["conflict"]["settings"] == [
        {"name": "target", "mine": 21, "theirs": 15}
    ]
    assert "request" in resolve(rules, now(theirs, rules={**RULES, "target": 21}))
    assert "request" in resolve({**rules, "accept_rules": True}, now(theirs, rules=other))
    assert resolve({"match": 4, "kind": "rename"}, now(theirs)) == {"drop": "unknown change"}


@st.composite
def concurrent(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    """Deals as this device saw them (tags) and as the server has them after another device
    deleted some and added others."""
    seen = draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=8, unique=True))
    kept = [t for t in seen if draw(st.booleans())]
    added = draw(st.lists(st.integers(10_001, 20_000), max_size=3, unique=True))
    server = list(kept)
    for tag in added:
        server.insert(draw(st.integers(0, len(server))), tag)
    return seen, server


@settings(max_examples=200, deadline=None)
@given(concurrent(), st.data())
def test_an_edit_or_deletion_reaches_the_deal_it_was_made_on(
    case: tuple[list[int], list[int]], data: st.DataObject
) -> None:
    """Whatever another device added or deleted meanwhile, an edit or a deletion is sent to
    the deal this device changed, wherever it is now; if it is gone, a deletion is dropped
    and an edit asks the person."""
    seen, server = case
    number = data.draw(st.integers(1, len(seen)))
    kind = data.draw(st.sampled_from(["replace", "delete"]))
    entry = {"match": 1, "kind": kind, "number": number, "base": {"deal": deal(seen[number - 1])}}
    entry["body"] = deal(99_999) if kind == "replace" else None
    plan = resolve(entry, now([deal(t) for t in server]))
    if seen[number - 1] in server:
        url, method, body = sent(plan)
        where = int(url.rsplit("/", 1)[1])
        assert server[where - 1] == seen[number - 1]
        assert method == ("PUT" if kind == "replace" else "DELETE")
        assert body["version"] == 9
    elif kind == "delete":
        assert set(plan) == {"drop"}
    else:
        assert plan["conflict"]["type"] == "edited"


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries({}, optional=VALUES),
    st.fixed_dictionaries({}, optional=VALUES),
)
def test_house_rules_merge_unless_the_same_setting_moved_apart(
    mine: dict[str, Any], theirs_changed: dict[str, Any]
) -> None:
    """A setting changed here is sent unless the server changed that same setting to
    something else meanwhile; settings changed on one side only never clash."""
    theirs = {**RULES, **theirs_changed}
    entry = {"match": 1, "kind": "rules", "body": mine, "base": {"rules": RULES}}
    plan = resolve(entry, now([], rules=theirs))
    clash = [n for n in mine if theirs[n] != RULES[n] and theirs[n] != mine[n]]
    if clash:
        assert [s["name"] for s in plan["conflict"]["settings"]] == clash
    else:
        assert sent(plan)[2] == {**mine, "version": 9}


def test_the_worker_answers_the_same() -> None:
    entry = {"match": 2, "kind": "add", "body": deal(1), "base": {"count": 0}}
    answer = json.loads(device.run("resolve", json.dumps({"entry": entry, "now": now([])})))
    assert answer == resolve(entry, now([]))


@st.composite
def outbox_cases(draw: st.DrawFn) -> dict[str, Any]:
    seen, server = draw(concurrent())
    kind = draw(st.sampled_from(["add", "replace", "delete", "restore", "rules", "other"]))
    number = draw(st.integers(1, len(seen) + 1))
    base: dict[str, Any] = {"count": len(seen), "rules": RULES}
    if number <= len(seen) and draw(st.booleans()):
        base["deal"] = deal(seen[number - 1])
    entry: dict[str, Any] = {"match": draw(st.integers(1, 50)), "kind": kind, "base": base}
    entry["number"] = number
    entry["removed_id"] = draw(st.integers(-5, 50))
    if kind == "rules":
        entry["body"] = draw(st.fixed_dictionaries({}, optional=VALUES))
    else:
        entry["body"] = deal(draw(st.integers(0, 20_000)))
    for flag in ("accept_after", "force", "accept_rules"):
        if draw(st.booleans()):
            entry[flag] = True
    rules = {**RULES, **draw(st.fixed_dictionaries({}, optional=VALUES))}
    version = draw(st.integers(1, 1000))
    return {"entry": entry, "now": now([deal(t) for t in server], version, rules)}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is installed by make setup")
@settings(max_examples=1, deadline=None)
@given(st.lists(outbox_cases(), min_size=300, max_size=300))
def test_the_page_script_decides_as_the_core(cases: list[dict[str, Any]]) -> None:
    """``static/merge.js`` (what the outbox runs) and :func:`scopa.changes.resolve` give the
    same plan on 300 generated cases (one node process for all)."""
    script = (
        "import { resolve } from './src/scopa/web/static/merge.js';\n"
        "let text = ''; process.stdin.on('data', (c) => { text += c; });\n"
        "process.stdin.on('end', () => { const cases = JSON.parse(text);\n"
        "  process.stdout.write(JSON.stringify(cases.map((c) => resolve(c.entry, c.now)))); });\n"
    )
    done = subprocess.run(
        [str(shutil.which("node")), "--input-type=module", "-e", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    for case, theirs in zip(cases, json.loads(done.stdout), strict=True):
        mine = resolve(case["entry"], case["now"])
        if "request" in mine:
            assert "request" in theirs, case
            url, method, body = sent(mine)
            assert (url, method, body) == sent(theirs), case
        else:
            assert mine == theirs, case
