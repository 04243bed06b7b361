"""What runs on the phone is a declared package with a checked boundary (issue 21): the core,
the engine and the phone's own modules (:data:`scopa.web.phone.offline.PHONE_PACKAGES`), and
nothing they import lies outside it."""

from __future__ import annotations

import io
import sys
import zipfile

from scopa.web.phone.offline import core_files, core_zip
from tests.test_imports import MODULES, PACKAGE, imports, layer

FILES = core_files(PACKAGE)
DECLARED = {name for name, path in MODULES.items() if path.relative_to(PACKAGE).as_posix() in FILES}
LEFT_BEHIND = {
    "scopa.web": {"scopa.web.serve.app", "scopa.web.serve.settings", "scopa.web.serve"},
    "scopa.engine.native": {"scopa.engine.native._kernel"},
}
"""Imports that stay on the server, each guarded: ``scopa.web``'s app is imported on first use
of ``create_app`` (never on the phone), and the native kernel is imported if it was built
(``native_ready()`` says no without it)."""


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


def test_beside_it_the_phone_package_needs_only_the_standard_library() -> None:
    """Pyodide ships the standard library; nothing else is installed in the worker."""
    found = {
        f"{name} imports {target}"
        for name in sorted(DECLARED)
        for target in imports(name)
        if not target.startswith("scopa") and target.split(".")[0] not in sys.stdlib_module_names
    }
    assert found == set()


def test_the_zip_is_the_declared_package() -> None:
    names = set(zipfile.ZipFile(io.BytesIO(core_zip())).namelist())
    catalogs = {f"scopa/locale/{lang}/LC_MESSAGES/scopa.mo" for lang in ("it", "es")}
    assert names == {f"scopa/{name}" for name in FILES} | catalogs  # and the catalogs they read
    assert not any(name.endswith((".so", ".c", ".pyi")) for name in names)
