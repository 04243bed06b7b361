"""What runs on the phone is a declared package with a checked boundary (issue 21): the core,
the engine and the phone's own modules (:data:`scopa.web.phone.offline.PHONE_PACKAGES`), and
nothing they import lies outside it."""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from scopa import i18n
from scopa.web.phone.offline import KERNEL_WASM, core_files, core_zip, phone_catalog
from tests.test_imports import MODULES, PACKAGE, imports, layer

FILES = core_files(PACKAGE)
DECLARED = {name for name, path in MODULES.items() if path.relative_to(PACKAGE).as_posix() in FILES}
LEFT_BEHIND = {
    "scopa.web": {"scopa.web.serve.app", "scopa.web.serve.settings", "scopa.web.serve"},
    "scopa.engine.native": {"scopa.engine.native._kernel"},
    "scopa.engine.ai.playouts": {"scopa.engine.native._kernel"},
    "scopa.engine.native.wasm": {"scopa.engine.native._kernel"},
}
"""Imports that stay on the server, each guarded: ``scopa.web``'s app is imported on first use
of ``create_app`` (never on the phone), and the native kernel is imported if it was built
(``native_ready()`` says no without it); the playouts and the WebAssembly build's wrapper name the
kernel's types only for the type checker (``TYPE_CHECKING``)."""


def test_the_phone_runs_the_core_the_engine_and_its_own_modules_only() -> None:
    assert set(MODULES) >= DECLARED
    kinds = {
        name: layer(name) if not name.startswith("scopa.web") else "phone" for name in DECLARED
    }
    assert set(kinds.values()) == {"core", "engine", "phone"}
    own = {name for name, kind in kinds.items() if kind == "phone"}
    assert own <= {"scopa.web", "scopa.web.phone"} | {
        name for name in own if name.startswith("scopa.web.phone.")
    }
    assert "scopa.web.phone.offline" not in DECLARED  # the server's routes for the phone


def test_nothing_in_the_phone_package_imports_outside_it() -> None:
    outside = {
        f"{name} imports {target}"
        for name in sorted(DECLARED)
        for target in imports(name)
        if target.startswith("scopa")
        and target not in DECLARED
        and target not in LEFT_BEHIND.get(name, set())
    }
    assert outside == set()


BESIDE_THE_STANDARD_LIBRARY = {"scopa.engine.native.wasm": {"js", "pyodide", "wasmtime"}}
"""The kernel's WebAssembly build is instantiated by Pyodide's own modules in the worker (``js``,
``pyodide.ffi``) and by wasmtime under CPython (tests, benches: never on the phone), each
imported in the function that uses it."""


def test_beside_it_the_phone_package_needs_only_the_standard_library() -> None:
    """Pyodide ships the standard library; nothing else is installed in the worker."""
    found = {
        f"{name} imports {target}"
        for name in sorted(DECLARED)
        for target in imports(name)
        if not target.startswith("scopa")
        and target.split(".")[0] not in sys.stdlib_module_names
        and target.split(".")[0] not in BESIDE_THE_STANDARD_LIBRARY.get(name, set())
    }
    assert found == set()


def test_the_zip_is_the_declared_package() -> None:
    names = set(zipfile.ZipFile(io.BytesIO(core_zip())).namelist())
    # the kernel's WebAssembly build where it was built (scripts/build-wasm.py)
    kernel = {f"scopa/{KERNEL_WASM}"} if (PACKAGE / KERNEL_WASM).is_file() else set()
    assert names == {f"scopa/{name}" for name in FILES} | kernel  # no catalog: per language
    assert not any(name.endswith((".so", ".c", ".pyi", ".mo", ".po")) for name in names)


def phone_messages() -> list[tuple[str | None, Any]]:
    """Every message of the catalog said by one of the phone's modules."""
    from babel.messages.pofile import read_po

    files = {f"src/scopa/{name}" for name in FILES}
    with (i18n.LOCALE_DIR / "it" / "LC_MESSAGES" / "scopa.po").open("rb") as handle:
        catalog = read_po(handle, locale="it")
    return [
        (m.context, m.id)
        for m in catalog
        if m.id and any(str(path) in files for path, _ in m.locations)
    ]


@pytest.mark.parametrize("language", ["it", "es"])
def test_the_phone_s_catalog_says_what_the_server_s_says(language: str) -> None:
    """The phone's catalog of a language (keyed, compressed, its own messages only) gives
    every message of the phone's modules exactly as the server's .mo does, and is a few
    kilobytes: at most 5% of the core's zip (it was two whole .mo files in it: +34%)."""
    phone = i18n.Keyed.read(phone_catalog(language))
    server = i18n.translations(language)
    messages = phone_messages()
    assert len(messages) > 150
    for context, ident in messages:
        if isinstance(ident, tuple):
            for n in (1, 2, 5):
                said = (
                    server.npgettext(context, ident[0], ident[1], n)
                    if context
                    else server.ngettext(ident[0], ident[1], n)
                )
                assert phone.npgettext(context, ident[0], ident[1], n) == said
        elif context:
            assert phone.pgettext(context, ident) == server.pgettext(context, ident)
        else:
            assert phone.gettext(ident) == server.gettext(ident)
    assert phone.gettext("not a message") == "not a message"
    assert len(phone_catalog(language)) <= 0.05 * len(core_zip())


def test_the_catalog_route(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from scopa.store import MatchStore
    from scopa.web import create_app

    store = MatchStore.open(f"sqlite:///{tmp_path / 'scopa.db'}")
    with TestClient(create_app(store)) as client:
        answer = client.get("/offline/catalog/it")
        assert answer.status_code == 200
        assert answer.content == phone_catalog("it")
        again = client.get("/offline/catalog/it", headers={"If-None-Match": answer.headers["etag"]})
        assert again.status_code == 304
        italian = client.get("/manifest.webmanifest", headers={"Accept-Language": "it-IT"})
        assert italian.json()["name"] == "Foglio dei punti della Scopa"
        assert italian.json()["lang"] == "it"
        assert "Accept-Language" in italian.headers["vary"]
        english = client.get("/manifest.webmanifest").json()
        assert (english["name"], english["lang"]) == ("Scopa score sheet", "en")
        for missing in ("en", "fr", "xx"):
            refused = client.get(f"/offline/catalog/{missing}")
            assert refused.status_code == 404
            assert refused.json()["code"] == "catalog.no_language"
    store.close()
