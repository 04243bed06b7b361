"""What makes the sheet installable and usable with no connection.

- ``/manifest.webmanifest``: the Web App Manifest (name, icons, standalone, theme colour).
- ``/sw.js``: the service worker (``static/sw.js``) served from the root so that its scope is
  the whole site, with a version that changes whenever a static file or the core changes.
- ``/offline/core.zip``: the project's own pure core (cards, errors, rules, deal, scoring,
  match, formats, and variants/names when present) with :mod:`scopa.web.forms` and
  :mod:`scopa.web.device`, zipped at first request from the installed package, for the
  browser's Pyodide worker (``static/scorer.js``). Nothing of it is committed.
"""

from __future__ import annotations

import ast
import hashlib
import io
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
    "changes",
    "match",
    "reading",
    "formats_variants",
    "formats",
    "variants",
    "names",
    "web.forms",
    "web.device",
)
"""Where the zip starts; every ``scopa`` module these import comes along (and nothing else)."""


def core_files(root: Path) -> list[str]:
    """The module paths (``cards.py``, ``web/forms.py``) of the core and what it imports."""
    seen: set[str] = set()
    todo = [m for m in CORE_MODULES if (root / f"{m.replace('.', '/')}.py").exists()]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        tree = ast.parse((root / f"{name.replace('.', '/')}.py").read_text())
        for node in ast.walk(tree):
            found: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module == "scopa":
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scopa."):
                found = [str(node.module)[len("scopa.") :]]
            for module in found:
                if (root / f"{module.replace('.', '/')}.py").exists():
                    todo.append(module)
    files = sorted(f"{m.replace('.', '/')}.py" for m in seen)
    return ["__init__.py", "web/__init__.py", *files]


@cache
def core_zip() -> bytes:
    """The core's source files as a zip: ``scopa/cards.py`` … ``scopa/web/device.py``."""
    root = Path(scopa.__file__).parent
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in core_files(root):
            info = zipfile.ZipInfo(f"scopa/{path}", (2020, 1, 1, 0, 0, 0))
            archive.writestr(info, (root / path).read_bytes(), zipfile.ZIP_DEFLATED)
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
