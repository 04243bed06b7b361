"""What makes the sheet installable and usable with no connection.

- ``/manifest.webmanifest``: the Web App Manifest (name, icons, standalone, theme colour).
- ``/sw.js``: the service worker (``static/sw.js``) served from the root so that its scope is
  the whole site, with a version that changes whenever a static file or the core changes.
- ``/offline/core.zip``: the phone's package (:data:`PHONE_PACKAGES`: the project's own pure
  core, the engine with the search player and the game against the computer, the native
  kernel built to WebAssembly where it was built (:data:`KERNEL_WASM`), and
  :mod:`scopa.web.phone.forms`, :mod:`scopa.web.phone.device` and
  :mod:`scopa.web.phone.play_device`), zipped from the installed package when the app is
  made, for the browser's Pyodide worker (``static/scorer.js``). Nothing of it is committed.
- ``/offline/catalog/<lang>``: the phone's catalog of one language (Italian, Spanish), which
  the worker fetches for its page's language only: the translations of the messages the
  phone's own modules say, keyed by a digest of the English text (:class:`scopa.i18n.Keyed`),
  zlib-compressed, made from the ``.po`` files when first asked. English needs none. So the
  languages cost the phone a few kilobytes instead of two whole ``.mo`` files in the zip
  (``bench/i18n.py`` prints both).
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
import zipfile
import zlib
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

import scopa
from scopa import i18n
from scopa.web.deps import STATIC_DIR

router = APIRouter(include_in_schema=False)

THEME = "#8a2a1f"

PHONE_PACKAGES: tuple[tuple[str, bool], ...] = (("", False), ("engine", True), ("web.phone", False))
"""What the phone runs, by package (``""``: ``scopa`` itself), each with or without its
subpackages: the pure core (``scopa``'s own modules), the engine (the search player and the
game against the computer, for the Play page offline; the native kernel's C extension stays
behind, its WebAssembly build goes along: :data:`KERNEL_WASM`), and the phone's own modules
(the form reader, :mod:`~scopa.web.phone.device`, :mod:`~scopa.web.phone.play_device`), with the
``__init__.py`` of the packages on the way (``scopa.web``'s app, imported on first use, stays
behind). ``tests/web/test_phone_package.py`` checks that they import nothing outside it and
nothing beyond the standard library."""
KERNEL_WASM = "engine/native/kernel.wasm"
"""The kernel built to WebAssembly (scripts/build-wasm.py), in the zip where the package has it:
the worker's engine plays on it (``scopa.engine.native.kernel()``), its levels growing the
same tree as the server's."""
STAYS_ON_THE_SERVER = ("__main__.py", "cli*.py", "web/phone/offline.py")
"""The files of those packages that are not the phone's: the command line, and the routes that
serve the phone (this module)."""


def core_files(root: Path) -> list[str]:
    """The files of the phone's package (:data:`PHONE_PACKAGES`) under ``root`` (``scopa/``):
    ``__init__.py``, ``cards.py`` ... ``web/phone/forms.py``, ``scopa``'s own first."""
    found: set[str] = set()
    for package, deep in PHONE_PACKAGES:
        folder = root.joinpath(*package.split(".")) if package else root
        for path in folder.glob("**/*.py" if deep else "*.py"):
            name = path.relative_to(root).as_posix()
            if not any(fnmatch(name, pattern) for pattern in STAYS_ON_THE_SERVER):
                found.add(name)
        parts = package.split(".") if package else []
        found |= {"/".join([*parts[:k], "__init__.py"]) for k in range(len(parts))}
    return sorted(found, key=lambda name: (name != "__init__.py", name))


_BUILDING = threading.Lock()


def core_zip() -> bytes:
    """The phone's package as a zip: ``scopa/cards.py`` … ``scopa/web/phone/device.py``.

    Built once, by one thread: the first visit asks for ``/sw.js`` and the zip at once."""
    with _BUILDING:
        return built_zip()


@cache
def built_zip() -> bytes:
    """:func:`core_zip` (call that)."""
    root = Path(scopa.__file__).parent
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in core_files(root):
            info = zipfile.ZipInfo(f"scopa/{path}", (2020, 1, 1, 0, 0, 0))
            archive.writestr(info, (root / path).read_bytes(), zipfile.ZIP_DEFLATED)
        if (root / KERNEL_WASM).is_file():
            info = zipfile.ZipInfo(f"scopa/{KERNEL_WASM}", (2020, 1, 1, 0, 0, 0))
            archive.writestr(info, (root / KERNEL_WASM).read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


@cache
def phone_catalog(language: str) -> bytes:
    """The phone's catalog of ``language`` (see :class:`scopa.i18n.Keyed`): the translated
    messages whose places in the sources include one of :func:`core_files`."""
    from babel.messages.pofile import read_po

    root = Path(scopa.__file__).parent
    files = {f"src/scopa/{name}" for name in core_files(root)}
    with (i18n.LOCALE_DIR / language / "LC_MESSAGES" / "scopa.po").open("rb") as handle:
        catalog = read_po(handle, locale=language)
    messages: dict[str, object] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if not any(str(path) in files for path, _line in message.locations):
            continue
        ident: object = message.id
        string: object = message.string
        if isinstance(ident, (list, tuple)) and isinstance(string, (list, tuple)):
            if len(string) == 2 and all(string):
                messages[i18n.message_key(message.context, str(ident[0]))] = list(string)
        elif isinstance(ident, str) and isinstance(string, str) and string and string != ident:
            messages[i18n.message_key(message.context, ident)] = string
    text = json.dumps(messages, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return zlib.compress(text.encode(), 9)


@cache
def app_version() -> str:
    """A digest of the static files (vendor aside) and the core: the caches' name."""
    digest = hashlib.sha256(scopa.__version__.encode())
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file() and "vendor" not in path.parts:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    digest.update(core_zip())
    for language in i18n.LANGUAGES[1:]:
        digest.update(phone_catalog(language))
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
    """The Web App Manifest, its name and description in the reader's language."""
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
        "name": i18n._("Scopa score sheet"),
        "short_name": "Scopa",
        "description": i18n._("Keep score of Scopa at the table, with or without a connection."),
        "lang": i18n.language(),
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


@router.get("/offline/catalog/{language}")
def catalog(request: Request, language: str) -> Response:
    """The phone's catalog of a language (404 for English or a language not spoken)."""
    if language not in i18n.LANGUAGES[1:]:
        return JSONResponse(
            {
                "error": i18n._("no catalog for that language"),
                "where": "language",
                "code": "catalog.no_language",
            },
            status_code=404,
        )
    etag = f'"{app_version()}"'
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(phone_catalog(language), media_type="application/octet-stream", headers=headers)
