"""The examples of docs/research.md run as written (the training loop for a few episodes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (pip install 'scopa[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'scopa[rl]') is not installed")

from scopa.engine import native

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)


def test_four_examples() -> None:
    assert len(BLOCKS) == 4


def test_every_gymnasium_id_is_listed() -> None:
    from scopa.envs.register import IDS

    listed = re.findall(r"^\| `(scopa/[^`]+)` \|", DOC.read_text(), flags=re.MULTILINE)
    assert listed == IDS


@pytest.mark.parametrize(
    "code", BLOCKS, ids=["playout", "gymnasium-make", "random-agent", "training-loop"]
)
def test_example_runs(code: str) -> None:
    if "native.playout" in code and not native.AVAILABLE:
        pytest.skip(native.REASON)
    namespace: dict[str, Any] = {}
    exec(code.replace("range(200)", "range(3)"), namespace)
    if "weights" in namespace:
        assert namespace["weights"].any()  # the loop learned something (the weights moved)
