"""One merge policy (issue 21, issue 23 items 3 and 5): :func:`scopa.changes.resolve`, the
decision for a change made on a match that moved on meanwhile, tested against an independent
oracle with Hypothesis. The server applies it (:meth:`MatchService.merge`, tested on both
databases in tests/web/test_merge_api.py); the page script no longer repeats it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.changes import canonical, merge_fields, read_entry, resolve, same
from scopa.errors import InputError
from scopa.web.phone import device
from tests.examples import examples

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
    """A deal per tag (equal tags: identical deals, twins)."""
    return {
        "piles": {"Anna": {"count": 20 + tag % 7}, "Bruno": {"count": 20 - tag % 7}},
        "sweeps": {"Anna": tag // 7, "Bruno": 0},
        "last_capture": "Anna" if tag % 2 else "Bruno",
    }


def now(
    deals: list[dict[str, Any]],
    version: int = 9,
    rules: dict[str, Any] = RULES,
    ids: list[int] | None = None,
) -> Any:
    answer = {"version": version, "match": {"deals": deals, "rules": rules}}
    if ids is not None:
        answer["deal_ids"] = ids
    return answer


def test_canonical_and_same() -> None:
    assert canonical({"b": 1, "a": [{"d": 2, "c": None}]}) == '{"a":[{"c":null,"d":2}],"b":1}'
    assert same({"x": 1, "y": {"z": [1, 2.0]}}, {"y": {"z": [1, 2]}, "x": 1})
    assert not same([1, 2], [2, 1])
    assert not same(True, 1)


def test_each_kind_of_change() -> None:
    theirs = [deal(1), deal(2), deal(3)]
    add = {"match": 4, "kind": "add", "body": deal(5), "base": {"count": 3}}
    assert resolve(add, now(theirs)) == {"send": {"kind": "add", "body": deal(5)}}
    assert resolve(add, now([*theirs, deal(4)]))["conflict"] == {
        "type": "appended",
        "theirs": [deal(4)],
        "count": 4,
    }
    assert "send" in resolve({**add, "accept_after": True}, now([*theirs, deal(4)]))
    # Deal 2 as this device saw it is deal 1 on the server now (deal 1 was deleted there).
    edit: dict[str, Any] = {
        "kind": "replace",
        "number": 2,
        "body": deal(6),
        "base": {"deal": deal(2)},
    }
    assert resolve(edit, now(theirs[1:]))["send"] == {
        "kind": "replace",
        "number": 1,
        "body": deal(6),
    }
    # Edited on both sides: the same field (Anna's count) to different values is a clash.
    edit["base"]["deal_id"] = 12
    clash = resolve(edit, now([deal(1), deal(7)], ids=[11, 12]))["conflict"]
    assert clash["type"] == "edited"
    assert clash["number"] == 2
    assert "piles.Anna.count" in clash["fields"]
    forced = resolve({**edit, "force": True}, now([deal(1), deal(7)], ids=[11, 12]))
    assert forced["send"]["number"] == 2
    delete = {"kind": "delete", "number": 2, "base": {"deal": deal(2), "deal_id": 12}}
    assert "already deleted" in resolve(delete, now([deal(1)], ids=[11]))["drop"]
    assert resolve(delete, now([deal(1), deal(7)], ids=[11, 12]))["conflict"]["type"] == "edited"
    restore = {"kind": "restore", "removed_id": 17}
    assert resolve(restore, now(theirs)) == {"send": {"kind": "restore", "removed_id": 17}}
    rules = {"kind": "rules", "body": {"target": 21}, "base": {"rules": RULES}}
    assert resolve(rules, now(theirs))["send"] == {"kind": "rules", "body": {"target": 21}}
    other = {**RULES, "target": 15}
    assert resolve(rules, now(theirs, rules=other))["conflict"]["settings"] == [
        {"name": "target", "mine": 21, "theirs": 15}
    ]
    assert "send" in resolve({**rules, "accept_rules": True}, now(theirs, rules=other))
    assert resolve({"kind": "rename"}, now(theirs)) == {"drop": "unknown change"}


def test_a_rule_set_to_the_same_value_on_both_sides_is_no_clash() -> None:
    """Issue 25 finding 9: both phones turned primiera off; and a setting the form shows as
    it was is no change of this device's (it never undoes another device's)."""
    entry = {"kind": "rules", "body": {"primiera": False}, "base": {"rules": RULES}}
    theirs = {**RULES, "primiera": False}
    assert resolve(entry, now([], rules=theirs))["send"]["body"] == {"primiera": False}
    entry = {"kind": "rules", "body": {"target": 21, "primiera": True}, "base": {"rules": RULES}}
    assert resolve(entry, now([], rules=theirs))["send"]["body"] == {"target": 21}
    unchanged = {"kind": "rules", "body": dict(RULES), "base": {"rules": RULES}}
    assert "drop" in resolve(unchanged, now([], rules=theirs))


def test_twin_deals_are_told_apart_by_their_identity() -> None:
    """Issue 23 item 5: three identical deals; deal 2 edited and deal 3 deleted on this
    device: the deletion goes to deal 3 (id 103), never to deal 1, wherever it is now."""
    ids = [101, 102, 103]
    twins = [deal(1), deal(1), deal(1)]
    delete = {"kind": "delete", "number": 3, "base": {"deal": deal(1), "deal_id": 103}}
    after_edit = [deal(1), deal(9), deal(1)]
    assert resolve(delete, now(after_edit, ids=ids))["send"] == {"kind": "delete", "number": 3}
    # Another device deleted deal 1 meanwhile: deal 3 is now deal 2.
    assert resolve(delete, now(twins[1:], ids=ids[1:]))["send"]["number"] == 2
    # An edit follows its deal to its new place (issue 25 finding 9).
    edit = {
        "kind": "replace",
        "number": 3,
        "body": deal(4),
        "base": {"deal": deal(1), "deal_id": 103},
    }
    assert resolve(edit, now(twins[1:], ids=ids[1:]))["send"]["number"] == 2
    assert "drop" in resolve(delete, now(twins[:2], ids=ids[:2]))
    # Without identities (an older server), the same number is tried first among twins.
    assert resolve(delete, now(after_edit))["send"]["number"] == 3


def test_edits_of_different_fields_merge() -> None:
    base = deal(1)
    mine = json.loads(json.dumps(base))
    mine["sweeps"]["Anna"] = 3
    theirs = json.loads(json.dumps(base))
    theirs["last_capture"] = "Anna" if base["last_capture"] == "Bruno" else "Bruno"
    entry = {"kind": "replace", "number": 1, "body": mine, "base": {"deal": base, "deal_id": 5}}
    send = resolve(entry, now([theirs], ids=[5]))["send"]
    assert send["merged"] is True
    assert send["body"] == {**theirs, "sweeps": {"Anna": 3, "Bruno": 0}}


MISSING = "<missing>"


def flatten(value: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    if isinstance(value, dict):
        out: dict[tuple[str, ...], Any] = {}
        for key, inner in value.items():
            out.update(flatten(inner, (*path, key)))
        return out
    return {path: value}


def unflatten(flat: dict[tuple[str, ...], Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path, value in flat.items():
        where = out
        for key in path[:-1]:
            where = where.setdefault(key, {})
        where[path[-1]] = value
    return out


def oracle_merge(base: Any, mine: Any, theirs: Any) -> tuple[Any, list[str]]:
    """Field by field on the flattened deals (every leaf a field)."""
    b, m, t = flatten(base), flatten(mine), flatten(theirs)
    merged: dict[tuple[str, ...], Any] = {}
    clashes = []
    for path in sorted({*b, *m, *t}):
        vb, vm, vt = (d.get(path, MISSING) for d in (b, m, t))
        if vm == vt or vt == vb:
            value = vm
        elif vm == vb:
            value = vt
        else:
            clashes.append(".".join(path))
            value = vm
        if value != MISSING:
            merged[path] = value
    return unflatten(merged), clashes


def variations(tag: int) -> st.SearchStrategy[dict[str, Any]]:
    """A deal that differs from deal(tag) in some of its fields."""
    return st.fixed_dictionaries(
        {},
        optional={
            "anna": st.integers(10, 30),
            "bruno": st.integers(10, 30),
            "sweep": st.integers(0, 4),
            "last": st.sampled_from(["Anna", "Bruno"]),
        },
    ).map(lambda changes: vary(deal(tag), changes))


def vary(one: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(one))
    if "anna" in changes:
        out["piles"]["Anna"]["count"] = changes["anna"]
    if "bruno" in changes:
        out["piles"]["Bruno"]["count"] = changes["bruno"]
    if "sweep" in changes:
        out["sweeps"]["Bruno"] = changes["sweep"]
    if "last" in changes:
        out["last_capture"] = changes["last"]
    return out


@st.composite
def concurrent(draw: st.DrawFn) -> dict[str, Any]:
    """The deals as this device saw them (tags, twins likely, each with its id) and as the
    server has them after another device deleted, edited and added some."""
    seen = draw(st.lists(st.integers(0, 3), min_size=1, max_size=7))  # few tags: twins
    ids = list(range(100, 100 + len(seen)))
    server: list[tuple[int, dict[str, Any]]] = []
    for tag, one in zip(seen, ids, strict=True):
        fate = draw(st.sampled_from(["kept", "kept", "deleted", "edited"]))
        if fate == "kept":
            server.append((one, deal(tag)))
        elif fate == "edited":
            server.append((one, draw(variations(tag))))
    for n in range(draw(st.integers(0, 2))):
        server.insert(draw(st.integers(0, len(server))), (500 + n, deal(draw(st.integers(0, 3)))))
    number = draw(st.integers(1, len(seen)))
    kind = draw(st.sampled_from(["replace", "delete"]))
    entry: dict[str, Any] = {
        "kind": kind,
        "number": number,
        "base": {"deal": deal(seen[number - 1]), "deal_id": ids[number - 1]},
    }
    if kind == "replace":
        entry["body"] = draw(variations(seen[number - 1]))
    if draw(st.booleans()):
        entry["force"] = True
    return {"entry": entry, "server": server}


@settings(max_examples=examples(300), deadline=None)
@given(concurrent())
def test_an_edit_or_deletion_reaches_the_deal_it_was_made_on(case: dict[str, Any]) -> None:
    """Whatever another device added, deleted or edited meanwhile (identical deals
    included), an edit or a deletion goes to the deal this device changed, found by its
    identity, wherever it is now; edits of other fields merge; the rest asks the person."""
    entry, server = case["entry"], case["server"]
    server_ids = [i for i, _ in server]
    deals = [d for _, d in server]
    plan = resolve(entry, now(deals, ids=server_ids))
    base = entry["base"]
    if base["deal_id"] not in server_ids:
        if entry["kind"] == "delete":  # dropped, the deal's number said with why
            assert set(plan) == {"drop", "said"}
        elif entry.get("force"):
            assert plan["send"] == {"kind": "add", "body": entry["body"]}
        else:
            assert plan["conflict"] == {"type": "edited", "theirs": None, "number": entry["number"]}
        return
    where = server_ids.index(base["deal_id"]) + 1
    theirs = deals[where - 1]
    if theirs == base["deal"] or entry.get("force"):
        expected = {"kind": entry["kind"], "number": where}
        if entry["kind"] == "replace":
            expected["body"] = entry["body"]
        assert plan == {"send": expected}
    elif entry["kind"] == "delete":
        assert plan["conflict"]["number"] == where
    else:
        merged, clashes = oracle_merge(base["deal"], entry["body"], theirs)
        if clashes:
            assert plan["conflict"]["fields"] == clashes
            assert plan["conflict"]["theirs"] == theirs
        else:
            assert plan["send"]["body"] == merged
            assert plan["send"]["number"] == where


@settings(max_examples=examples(300), deadline=None)
@given(
    st.fixed_dictionaries({}, optional=VALUES),
    st.fixed_dictionaries({}, optional=VALUES),
)
def test_house_rules_merge_unless_the_same_setting_moved_apart(
    mine: dict[str, Any], theirs_changed: dict[str, Any]
) -> None:
    """A setting changed here is sent unless the server changed that same setting to
    something else meanwhile; settings changed on one side only never clash; a setting
    left as it was is not sent (it never undoes the other device's change)."""
    theirs = {**RULES, **theirs_changed}
    entry = {"kind": "rules", "body": mine, "base": {"rules": RULES}}
    plan = resolve(entry, now([], rules=theirs))
    changed = {n: v for n, v in mine.items() if v != RULES[n]}
    clash = [n for n in changed if theirs[n] != RULES[n] and theirs[n] != changed[n]]
    if clash:
        assert [s["name"] for s in plan["conflict"]["settings"]] == clash
    elif not changed:
        assert set(plan) == {"drop"}
    else:
        assert plan["send"] == {"kind": "rules", "body": changed}


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
def test_merge_fields_is_the_oracle(b: int, m: int, t: int) -> None:
    base, mine, theirs = deal(b), vary(deal(b), {"anna": 10 + m}), vary(deal(t), {"sweep": t})
    assert merge_fields(base, mine, theirs) == oracle_merge(base, mine, theirs)


def test_the_worker_answers_the_same() -> None:
    entry = {"kind": "add", "body": deal(1), "base": {"count": 0}}
    answer = json.loads(device.run("resolve", json.dumps({"entry": entry, "now": now([])})))
    assert answer == resolve(entry, now([]))


def test_a_bad_change_is_refused_saying_where() -> None:
    cases = [
        (None, ""),
        ({"kind": "swap"}, "kind"),
        ({"kind": "delete"}, "number"),
        ({"kind": "delete", "number": "3"}, "number"),
        ({"kind": "delete", "number": 0}, "number"),
        ({"kind": "restore"}, "removed_id"),
        ({"kind": "add", "body": [1]}, "body"),
        ({"kind": "add", "body": {}, "base": {"count": -1}}, "base.count"),
        ({"kind": "add", "body": {}, "base": {"deal_id": True}}, "base.deal_id"),
        ({"kind": "add", "body": {}, "base": {"colour": 1}}, "base.colour"),
        ({"kind": "add", "body": {}, "force": "yes"}, "force"),
        ({"kind": "add", "body": {}, "extra": 1}, "extra"),
    ]
    for data, where in cases:
        with pytest.raises(InputError) as refused:
            read_entry(data)
        assert refused.value.where == where, data
    entry = read_entry({"kind": "delete", "number": 3, "base": {"deal_id": 7}, "force": False})
    assert entry == {"kind": "delete", "number": 3, "base": {"deal_id": 7}}
