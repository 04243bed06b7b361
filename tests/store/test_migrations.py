"""The migrations: each file is named as its revision, and they form one line from the first
schema to the one head that the store upgrades to."""

from __future__ import annotations

import ast
from pathlib import Path

from alembic.script import ScriptDirectory

from scopa.store.database import alembic_config

VERSIONS = Path(alembic_config().get_main_option("script_location") or "") / "versions"


def assigned(path: Path, name: str) -> object:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and [
            t.id for t in node.targets if isinstance(t, ast.Name)
        ] == [name]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.name} has no {name}")


def test_each_file_is_named_as_its_revision() -> None:
    files = sorted(p for p in VERSIONS.glob("*.py") if p.name != "__init__.py")
    assert files
    assert [f"{assigned(p, 'revision')}.py" for p in files] == [p.name for p in files]


def test_one_line_of_revisions() -> None:
    scripts = ScriptDirectory.from_config(alembic_config())
    assert len(scripts.get_heads()) == 1
    line = list(scripts.walk_revisions())  # from the head down
    assert line[-1].down_revision is None
    assert [r.down_revision for r in line[:-1]] == [r.revision for r in line[1:]]
    assert len(line) == len([p for p in VERSIONS.glob("*.py") if p.name != "__init__.py"])
