"""The examples of docs/research.md run as written (the training loop for a few episodes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (pip install 'scopa[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'scopa[rl]') is not installed")

from scopa import native

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)


def test_three_examples() -> None:
    assert len(BLOCKS) == 3


@pytest.mark.parametrize("code", BLOCKS, ids=["playout", "random-agent", "training-loop"])
def test_example_runs(code: str) -> None:
    if "native.playout" in code and not native.AVAILABLE:
        pytest.skip(native.REASON)
    namespace: dict[str, Any] = {}
    exec(code.replace("range(200)", "range(3)"), namespace)
    if "weights" in namespace:
        assert namespace["weights"].any()  # the loop learned something (the weights moved)
