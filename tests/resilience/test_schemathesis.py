"""Schemathesis against the API's own OpenAPI schema, which describes every body: no input may
cause a server error, and every documented answer must match its documented shape.

The number of examples per operation is bounded (``SCOPA_SCHEMATHESIS_EXAMPLES``, 25 by
default) to keep `make test` short. What was tried and what was found (failures by operation
and check) is printed at the end (``-s``); a failure also fails the test that met it.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from scopa.formats import parse_match
from scopa.store import MatchStore
from scopa.web import create_app

pytestmark = pytest.mark.system

EXAMPLES = int(os.environ.get("SCOPA_SCHEMATHESIS_EXAMPLES", "25"))
STREAM_TIMEOUT = 1.0  # seconds an event stream is read for
_folder = tempfile.mkdtemp(prefix="scopa-schemathesis-")
_store = MatchStore.open(f"sqlite:///{Path(_folder) / 'fuzz.db'}")
_store.create(match=parse_match({"players": ["Anna", "Bruno"]}))
app = create_app(_store)
with TestClient(app) as _client:  # a table, so that its operations reach past "no such table"
    assert _client.post("/api/tables", json={"players": 2}).status_code == 201
schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
tried: Counter[str] = Counter()
statuses: Counter[str] = Counter()
found: dict[str, str] = {}


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_never_answers_a_server_error(case: schemathesis.Case[Any]) -> None:
    key = f"{case.method} {case.path}"
    tried[key] += 1
    # An event stream never ends by itself: schemathesis reads one until its timeout (10 s by
    # default), and the stream has told all it will (its opening lines) at once.
    response = case.call(timeout=STREAM_TIMEOUT) if case.path.endswith("/events") else case.call()
    statuses[f"{response.status_code // 100}xx"] += 1
    try:
        case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
    except (Exception, BaseExceptionGroup) as failure:  # schemathesis raises a group
        found.setdefault(key, f"{response.status_code}: {describe(failure)}")
        raise


def describe(failure: BaseException) -> str:
    """What a check found, in a line: the failures' titles and first lines."""
    parts = failure.exceptions if isinstance(failure, BaseExceptionGroup) else (failure,)
    lines = []
    for part in parts:
        title = getattr(part, "title", "") or type(part).__name__
        detail = (getattr(part, "message", "") or str(part)).strip().splitlines()
        lines.append(f"{title}: {detail[0]}" if detail and detail[0] != title else title)
    return "; ".join(lines)[:300]


def teardown_module() -> None:
    total = sum(tried.values())
    answers = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
    print(f"\nschemathesis: {total} examples over {len(tried)} operations ({answers})")
    print(f"schemathesis: {len(found)} operations with a failure")
    for key, failure in sorted(found.items()):
        print(f"  FAILED {key}: {failure}")
    for key, count in sorted(tried.items()):
        if count > 1:  # the operations of the schema (one-off probes of other methods aside)
            print(f"  {count:4d}  {key}")
    _store.close()
