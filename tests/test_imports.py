"""The import graph of ``src/scopa``: no circle, and every import points inward.

    web, cli, play, envs (the edges)  ->  application  ->  store's protocol, engine, core

The core imports nothing but itself and the standard library (it also runs in the browser);
the engine adds nothing from the edges; the store knows nothing of the application or the
edges; the application reaches the store only through its protocol and records.

Inside the web edge, one folder per job (:data:`WEB_JOBS`): ``serve`` runs the server and may
use every other job; ``access`` (who may come in), ``pages`` and ``api`` use each other's
helpers only downward (access -> pages -> api); ``phone`` (what ships to the phone) uses none
of them; ``tables`` (playing together) uses ``access`` and the API's shared schemas (its error
answer); ``deps`` and ``versions`` are shared by the routers.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src"
PACKAGE = SRC / "scopa"
STORE_FACE = {
    "scopa.store",
    "scopa.store.protocol",
    "scopa.store.records",
    "scopa.store.cache",
}
FRONT_END = {"typer", "rich", "fastapi", "starlette", "jinja2", "uvicorn", "textual", "pydantic"}
DATABASE = {"sqlalchemy", "alembic", "psycopg", "platformdirs"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {
    module_name(path): path
    for path in sorted(PACKAGE.rglob("*.py"))
    if "migrations" not in path.parts
}


def type_only(tree: ast.Module) -> set[int]:
    """The imports under ``if TYPE_CHECKING:`` (names for annotations, nothing imported)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found |= {id(sub) for stmt in node.body for sub in ast.walk(stmt)}
    return found


def imports(name: str, typing: bool = True) -> Iterator[str]:
    """Every module ``name`` imports (at the top or in functions; with ``typing``, also the
    names imported for type checking only)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    skip = set() if typing else type_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield sub if sub in MODULES else base


def graph(typing: bool = True) -> dict[str, set[str]]:
    return {
        name: {t for t in imports(name, typing) if t in MODULES and t != name} for name in MODULES
    }


EDGES = ("scopa.web", "scopa.cli", "scopa.envs", "scopa.play", "scopa.__main__")
"""The front ends: the web app, the command line, the terminal game, the research envs."""


def layer(name: str) -> str:
    if name.startswith(EDGES):
        return "edge"
    for part in ("application", "store", "engine"):
        if name.startswith(f"scopa.{part}"):
            return part
    return "core"


ALLOWED = {
    "core": {"core"},
    "engine": {"core", "engine"},
    "store": {"core", "store"},
    "application": {"core", "engine", "store", "application"},
    "edge": {"core", "engine", "store", "application", "edge"},
}


WEB_JOBS = ("api", "pages", "phone", "access", "serve", "tables")
"""The folders of ``scopa.web``, one per job."""
WEB_SHARED = {"scopa.web", "scopa.web.deps", "scopa.web.versions", "scopa.web.language"}
"""The package's face (the app, imported on first use) and what the routers share (their
dependencies, the version a change is based on, the request's language)."""
WEB_ALLOWED = {
    "serve": {"serve", "access", "pages", "api", "phone", "tables", "shared"},
    "tables": {"tables", "access", "api", "shared"},
    "access": {"access", "pages", "api", "phone", "shared"},
    "pages": {"pages", "api", "phone", "shared"},
    "api": {"api", "phone", "shared"},
    "phone": {"phone", "shared"},
    "shared": {"phone", "shared"},
}
"""Which jobs of the web each job may import (its own included)."""


def web_job(name: str) -> str:
    if name in WEB_SHARED:
        return "shared"
    job = name.split(".")[2]
    assert job in WEB_JOBS, f"{name} is in no job's folder of scopa.web"
    return job


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles (strongly connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_modules_are_found() -> None:
    assert {"scopa.cards", "scopa.application.matches", "scopa.store.protocol"} <= set(MODULES)
    assert {"scopa.application", "scopa.store"} <= graph()["scopa.web.serve.app"]


def test_there_is_no_import_circle() -> None:
    """No circle among the modules' imports, lazy ones and those for type checking only
    included (a circle hidden under ``if TYPE_CHECKING:`` is still one)."""
    assert cycles(graph()) == []


def test_a_circle_would_be_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_point_inward() -> None:
    outward = [
        f"{name} ({layer(name)}) imports {target} ({layer(target)})"
        for name, targets in graph().items()
        for target in sorted(targets)
        if layer(target) not in ALLOWED[layer(name)]
    ]
    assert outward == []


def test_the_web_has_one_folder_per_job() -> None:
    """Every module of ``scopa.web`` is in a job's folder (or shared), and a job imports only
    the jobs it may: nothing but the server's runner reaches ``serve``, and what ships to the
    phone needs none of the server's jobs."""
    web = [name for name in MODULES if name.startswith("scopa.web.") or name == "scopa.web"]
    assert {web_job(name) for name in web} == {*WEB_JOBS, "shared"}
    crossing = [
        f"{name} ({web_job(name)}) imports {target} ({web_job(target)})"
        for name, targets in graph(typing=False).items()
        if name in web and name != "scopa.web"
        for target in sorted(targets)
        if target.startswith("scopa.web") and web_job(target) not in WEB_ALLOWED[web_job(name)]
    ]
    assert crossing == []


def test_the_application_knows_only_the_stores_protocol() -> None:
    reached = {
        target
        for name, targets in graph().items()
        if layer(name) == "application"
        for target in targets
        if layer(target) == "store"
    }
    assert reached <= STORE_FACE, reached - STORE_FACE


def test_the_web_reaches_storage_only_through_the_stores_protocol() -> None:
    """One way for a request to reach storage: the web imports the store's face only (the
    protocol and its records; ``scopa.store`` to open the SQL store where the server starts),
    so that every repository it uses is one the :class:`~scopa.store.protocol.Store` declares
    and :mod:`scopa.web.deps` binds to the request's group."""
    reached = {
        f"{name}: {target}"
        for name, targets in graph().items()
        if name.startswith("scopa.web")
        for target in targets
        if layer(target) == "store" and target not in STORE_FACE
    }
    assert reached == set()


def test_the_store_never_scores() -> None:
    """Stored records hold facts; the lines of the list are scored above the store and
    handed to it, so a second backend never has to score."""
    scorers = {"scopa.scoring", "scopa.sheet", "scopa.engine"}
    found = set()
    for name, path in MODULES.items():
        if layer(name) != "store":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module:
                named = {f"{node.module}.{alias.name}" for alias in node.names}
                found |= {
                    f"{name}: {target}"
                    for target in named
                    if target.startswith(tuple(scorers))
                    or target in {"scopa.match.score_match", "scopa.match.rescore"}
                }
    assert found == set()


DOMAIN_MODELS = {"openskill"}
"""Libraries that decide something about the game or its players (the rating model): the
application's or the engine's, never the store's (which keeps rows) or the edges'."""


def test_the_rating_model_lives_above_the_store() -> None:
    """The store keeps the ratings' rows and replays them through the model it is handed
    (:data:`scopa.store.protocol.Rater`); the model itself is the application's."""
    found = {
        f"{name}: {target}"
        for name in MODULES
        if layer(name) in {"store", "edge", "core"}
        for target in imports(name)
        if target.split(".")[0] in DOMAIN_MODELS
    }
    assert found == set()
    assert "openskill.models" in set(imports("scopa.application.ratings"))


@pytest.mark.parametrize("kind", ["core", "engine", "application"])
def test_the_inner_layers_import_no_front_end_or_database(kind: str) -> None:
    banned = FRONT_END | DATABASE
    found = {
        f"{name}: {target}"
        for name in MODULES
        if layer(name) == kind
        for target in imports(name)
        if target.split(".")[0] in banned
    }
    assert found == set()


def test_the_core_imports_only_the_standard_library() -> None:
    outside = {
        f"{name}: {target}"
        for name in MODULES
        if layer(name) == "core"
        for target in imports(name)
        if target.split(".")[0] not in sys.stdlib_module_names and not target.startswith("scopa")
    }
    assert outside == set()


def test_the_command_line_loads_no_database_or_web_stack_until_asked() -> None:
    """``scopa score`` starts quickly: the CLI's module loads neither (only `serve` and the
    stored-match commands open them)."""
    import subprocess

    code = (
        "import sys, scopa.cli; "
        "print(sorted(m for m in ('sqlalchemy', 'fastapi', 'alembic', 'uvicorn') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(SRC)},
    )
    assert done.stdout.strip() == "[]"
