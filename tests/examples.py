"""How many examples a Hypothesis property runs: half its count in an everyday run (``make
test``), the whole count with ``SCOPA_HYPOTHESIS=thorough`` (``make test-thorough``). The
properties and what they check are the same in both; a thorough run looks further."""

from __future__ import annotations

import os

THOROUGH = os.environ.get("SCOPA_HYPOTHESIS") == "thorough"


def examples(count: int) -> int:
    """The examples to run of a property written for ``count`` (at least 10)."""
    return count if THOROUGH else max(10, count // 2)
