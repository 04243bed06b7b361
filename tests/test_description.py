"""issue 48: the description an index page shows (the sdist's and the wheel's ``Description``)
is README.md without pictures or links by relative path, which lead nowhere away from the
repository (scripts/description.py, read by setup.py)."""

from __future__ import annotations

import doctest
import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
RELATIVE = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:)[^)]*\)", re.IGNORECASE)
"""A Markdown link or picture whose target has no scheme."""


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "description", ROOT / "scripts" / "description.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_has_what_the_description_leaves_out() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert RELATIVE.search(readme), "README.md has no relative link left: is the script needed?"
    assert "![" in readme


def test_the_description_has_no_relative_link_or_picture_and_keeps_the_rest() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    described = script().description(readme)
    assert not RELATIVE.search(described)
    assert "![" not in described
    assert re.findall(r"\]\(https?://[^)]*\)", described) == re.findall(
        r"\]\(https?://[^)]*\)", readme
    )
    assert described.count("```") == readme.count("```")
    assert "`docs/rules.md`" in described


def test_the_scripts_examples_hold() -> None:
    failed, tried = doctest.testmod(script())
    assert tried
    assert not failed


def test_the_package_takes_its_description_from_the_script() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "readme" in project["dynamic"]
    assert "readme" not in project
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert "long_description=long_description()" in setup
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    assert "include README.md scripts/description.py" in manifest
