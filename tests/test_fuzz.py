"""Malformed match and deal JSON (Hypothesis): always a clear error naming the place.

Each example takes a valid match file and breaks it at one random place: a wrong type, a huge
number, a huge or odd unicode string, a missing or an unknown key, a duplicated card. The
reader must either accept it (some breaks leave it valid) or raise an InputError whose place
is inside the document; ``scopa score`` must answer exit 2 with the message on stderr and
nothing on stdout. Never another exception, never a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa.cli import main
from scopa.errors import InputError
from scopa.formats import match_to_json, parse_match
from scopa.match import score_match
from tests.examples import examples

EXAMPLES = Path(__file__).parents[1] / "examples"
BASES = [
    json.loads((EXAMPLES / name).read_text()) for name in ("two-players.json", "partnership.json")
]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.text(alphabet="<>&\"'\\\u0000\u202e\U0001f0cf☃", min_size=1, max_size=8),
    st.just("x" * 5000),
    st.sampled_from(["7d", "7D", "10♠", "Xd", "", "Anna", "Bruno & Dario", "A", "K", "ace"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, as a path of keys and indexes."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += paths(value, (*prefix, i))
    return found


def break_at(doc: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = value
    elif how == "delete":
        del parent[last]
    elif how == "duplicate" and isinstance(parent, list):
        parent.append(parent[last])
    elif how == "add_key" and isinstance(parent[last], dict):
        parent[last][str(value)[:10] or "extra"] = value
    else:
        parent[last] = value
    return doc


@st.composite
def broken_matches(draw: st.DrawFn) -> Any:
    doc = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 2))):
        place = draw(st.sampled_from(paths(doc)))
        how = draw(st.sampled_from(["replace", "delete", "duplicate", "add_key"]))
        if not place and how == "delete":
            how = "replace"
        doc = break_at(doc, place, how, draw(json_values))
    return doc


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_matches())
def test_reader_accepts_or_names_the_place(doc: Any) -> None:
    refused: InputError | None = None
    try:
        match = parse_match(doc)
    except InputError as error:
        refused = error
    if refused is not None:
        message = str(refused)
        assert message.strip()
        if isinstance(doc, dict):
            assert refused.where, f"no place named: {message}"
        assert "Traceback" not in message
        assert len(message) < 400, "messages quote input briefly"
        return
    # Accepted: it must score and survive a round trip.
    sheet = score_match(match)
    assert parse_match(match_to_json(match)) == match
    assert len(sheet.deals) == len(match.deals)


def run_main(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=examples(60), deadline=None)
@given(doc=broken_matches())
def test_score_command_exit_2_or_sheet(doc: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "match.json"
    path.write_text(json.dumps(doc))
    code, out, err = run_main(["score", str(path)])
    if code == 0:
        assert json.loads(out)["sides"]
        assert err == ""
    else:
        assert code == 2
        assert out == ""
        assert err.startswith(f"scopa: {path}: ")
        assert "Traceback" not in err


@settings(max_examples=examples(60), deadline=None)
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_score_command_on_garbage(data: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("garbage") / "match.json"
    path.write_bytes(data)
    code, out, err = run_main(["score", str(path)])
    assert (code, out) == (2, "")
    assert err.startswith("scopa: ")


def test_deeply_nested_json_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["score", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "not valid JSON" in err
