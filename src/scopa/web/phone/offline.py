"""What makes the sheet installable and usable with no connection.

- ``/manifest.webmanifest``: the Web App Manifest (name, icons, standalone, theme colour).
- ``/sw.js``: the service worker (``static/sw.js``) served from the root so that its scope is
  the whole site, with a version that changes whenever a static file or the core changes.
- ``/offline/core.zip``: the project's own pure core (cards, errors, rules, deal, scoring,
  match, formats, and variants/names when present) with :mod:`scopa.web.phone.forms` and
  :mod:`scopa.web.phone.device`, and for the Play page :mod:`scopa.web.phone.play_device`
  (the engine, the search player and the game against the computer, without the native
  kernel) and the compiled catalogs (``locale/*/LC_MESSAGES/scopa.mo``, read by
  :mod:`scopa.i18n`), zipped at first request from the installed package, for the browser's Pyodide
  worker (``static/scorer.js``). Nothing of it is committed.
"""

from __future__ import annotations

import ast
import hashlib
import io
import threading
import zipfile
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

import scopa
from scopa.web.deps import STATIC_DIR

router = APIRouter(include_in_schema=False)

THEME = "#8a2a1f"
CORE_MODULES = (
    "cards",
    "errors",
    "rules",
    "deal",
    "scoring",
    "teams",
    "sheet",
    "match",
    "reading",
    "formats_variants",
    "formats",
    "variants",
    "names",
    "words",
    "web.phone.forms",
    "web.phone.device",
    "web.phone.play_device",
)
"""Where the zip starts; every ``scopa`` module these import comes along (and nothing else).
``web.phone.play_device`` brings the engine, the search player and the game against the computer
(the Play page offline); the native kernel stays behind (``native_ready()`` says no there)."""
EMPTY_PACKAGES = frozenset({"application"})
"""Packages whose ``__init__`` gathers the server's services (the store): the zip holds an
empty one, since the device imports their modules by their full names."""


def module_file(root: Path, name: str) -> str | None:
    """The file of a ``scopa`` module (``engine.ai`` → ``engine/ai/__init__.py``), if any."""
    path = name.replace(".", "/")
    for candidate in (f"{path}.py", f"{path}/__init__.py"):
        if (root / candidate).exists():
            return candidate
    return None


def imported(tree: ast.AST, *, on_import: bool = False) -> list[str]:
    """The ``scopa`` modules a module imports (at run time: ``if TYPE_CHECKING:`` aside);
    ``on_import``: only those imported when the module is (not in its functions)."""
    found: list[str] = []
    todo: list[ast.AST] = [tree]
    functions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        if on_import and isinstance(node, functions):
            continue
        if isinstance(node, ast.ImportFrom) and node.module == "scopa":
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scopa."):
            module = str(node.module)[len("scopa.") :]
            found += [module, *(f"{module}.{alias.name}" for alias in node.names)]
        todo.extend(ast.iter_child_nodes(node))
    return found


def core_files(root: Path) -> list[str]:
    """The module paths (``cards.py``, ``web/phone/forms.py``) of the core and what it imports,
    with the ``__init__.py`` of every package on the way (and what that imports when it
    runs: ``scopa.web``'s app, imported on first use, stays behind)."""
    seen: dict[str, str] = {}
    followed: set[str] = set()
    todo = [(name, False) for name in CORE_MODULES]
    while todo:
        name, parent = todo.pop()
        path = module_file(root, name)
        if path is None or name in (seen if parent else followed):
            continue
        seen[name] = path
        if not parent:
            followed.add(name)
        parts = name.split(".")
        todo += [(".".join(parts[:k]), True) for k in range(1, len(parts))]
        if name not in EMPTY_PACKAGES:
            tree = ast.parse((root / path).read_text())
            todo += [(m, False) for m in imported(tree, on_import=parent)]
    return ["__init__.py", *sorted(seen.values())]


_BUILDING = threading.Lock()


def core_zip() -> bytes:
    """The core's source files as a zip: ``scopa/cards.py`` … ``scopa/web/phone/device.py``.

    Built once, by one thread: the first visit asks for ``/sw.js`` and the zip at once, and
    CPython 3.11's ``ast.parse`` is not safe in two threads at a time."""
    with _BUILDING:
        return built_zip()


@cache
def built_zip() -> bytes:
    """:func:`core_zip` (call that)."""
    root = Path(scopa.__file__).parent
    empty = {f"{name}/__init__.py" for name in EMPTY_PACKAGES}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in core_files(root):
            info = zipfile.ZipInfo(f"scopa/{path}", (2020, 1, 1, 0, 0, 0))
            text = b'"""(the device imports its modules by name)"""\n' if path in empty else None
            archive.writestr(info, text or (root / path).read_bytes(), zipfile.ZIP_DEFLATED)
        for catalog in sorted(root.glob("locale/*/LC_MESSAGES/scopa.mo")):
            name = f"scopa/{catalog.relative_to(root).as_posix()}"
            info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
            archive.writestr(info, catalog.read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


@cache
def app_version() -> str:
    """A digest of the static files (vendor aside) and the core: the caches' name."""
    digest = hashlib.sha256(scopa.__version__.encode())
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file() and "vendor" not in path.parts:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    digest.update(core_zip())
    return digest.hexdigest()[:12]


@router.get("/sw.js")
def service_worker() -> Response:
    text = (STATIC_DIR / "sw.js").read_text().replace("__VERSION__", app_version())
    return Response(
        text,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest")
def manifest() -> Response:
    icons = [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "name": "Scopa score sheet",
        "short_name": "Scopa",
        "description": "Keep score of Scopa at the table, with or without a connection.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#faf7f0",
        "theme_color": THEME,
        "icons": icons,
    }
    return JSONResponse(body, media_type="application/manifest+json")


@router.get("/offline/core.zip")
def core(request: Request) -> Response:
    """The core's zip, built once per process; a request that names its ETag gets a 304."""
    etag = f'"{app_version()}"'
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(core_zip(), media_type="application/zip", headers=headers)
