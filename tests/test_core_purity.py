"""The core stays pure: its modules import only the standard library and each other (they run
in the browser under Pyodide), and the zip the offline sheet loads holds all of them."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1] / "src" / "scopa"
CORE = (
    "cards",
    "i18n",
    "made_names",
    "words",
    "errors",
    "names",
    "rules",
    "variants",
    "deal",
    "scoring",
    "columns",
    "teams",
    "sheet",
    "match",
    "reading",
    "formats_variants",
    "categories",
    "formats",
)


def imported(module: str) -> set[str]:
    tree = ast.parse((ROOT / f"{module}.py").read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            if node.module == "scopa":
                names.update(f"scopa.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("module", CORE)
def test_a_core_module_imports_only_the_stdlib_and_the_core(module: str) -> None:
    for name in imported(module):
        if name.startswith("scopa"):
            assert name in {"scopa", *(f"scopa.{m}" for m in CORE)}, f"{module} imports {name}"
        else:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top == "__future__", f"{module}: {name}"


def test_the_offline_core_zip_holds_a_working_core(tmp_path: Path) -> None:
    from scopa.web.phone.offline import core_zip

    with zipfile.ZipFile(io.BytesIO(core_zip())) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path)
    assert {f"scopa/{m}.py" for m in CORE} <= names
    script = "\n".join(
        [
            "import sys",
            "stdlib = [p for p in sys.path if p.startswith(sys.base_prefix)]",
            "sys.path[:] = [p for p in stdlib if 'site-packages' not in p]",
            f"sys.path.insert(0, {str(tmp_path)!r})",
            "from scopa.formats import parse_match, sheet_to_json",
            "from scopa.match import score_match",
            "import scopa",
            f"assert scopa.__file__.startswith({str(tmp_path)!r}), scopa.__file__",
            "m = parse_match({'variant': 'cirulla', 'players': ['A', 'B']})",
            "print(sheet_to_json(score_match(m))['variant'])",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "cirulla", done.stderr
