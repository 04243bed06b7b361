"""The page scripts' unit tests (tests/js/, ``node --test``): the service worker's routes and
precache list, the outbox's merge decision, the forms' pure logic. Run here so that pytest
(and ``make test``) runs them too."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_node_unit_tests_pass() -> None:
    node = shutil.which("node")
    assert node, "node is missing: make setup installs it (scripts/node-deps.sh)"
    done = subprocess.run(
        [node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
