"""Schemathesis against the API's own OpenAPI schema: no input may cause a server error.

The number of examples per operation is bounded (``SCOPA_SCHEMATHESIS_EXAMPLES``, 25 by
default) to keep `make test` short; the examples tried are printed at the end (``-s``).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from scopa.formats import parse_match
from scopa.store import MatchStore
from scopa.web import create_app

EXAMPLES = int(os.environ.get("SCOPA_SCHEMATHESIS_EXAMPLES", "25"))
_folder = tempfile.mkdtemp(prefix="scopa-schemathesis-")
_store = MatchStore.open(f"sqlite:///{Path(_folder) / 'fuzz.db'}")
_store.create(match=parse_match({"players": ["Anna", "Bruno"]}))
app = create_app(_store)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
tried: dict[str, int] = {}


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_never_answers_a_server_error(case: schemathesis.Case[Any]) -> None:
    key = f"{case.method} {case.path}"
    tried[key] = tried.get(key, 0) + 1
    case.call_and_validate(checks=[not_a_server_error])


def teardown_module() -> None:
    total = sum(tried.values())
    print(f"\nschemathesis: {total} examples over {len(tried)} operations, 0 server errors")
    for key, count in sorted(tried.items()):
        if count > 1:  # the operations of the schema (one-off probes of other methods aside)
            print(f"  {count:4d}  {key}")
    _store.close()
