"""Two build steps beside pyproject.toml's configuration.

- The offline sheet's files (htmx, Pyodide, Swagger UI) in ``src/scopa/web/static/vendor/``:
  not committed, they are copied from the pinned npm packages (``scripts/vendor.py``, running
  ``npm ci`` first when ``node_modules/`` lacks them) before the sdist, the wheel or an
  editable install is built. Without npm the build fails and says so: a package without them
  would have no offline sheet. The sdist carries them, so a wheel built from it needs no npm.
- The native kernel (``scopa.engine.native._kernel``), built where a C compiler is present.
  The extension is optional: without a compiler the install goes on and the pure-Python
  engine runs (``scopa simulate`` says so). ``scripts/build-native.py`` builds it in place
  for development. ``SCOPA_PURE_WHEEL=1`` (set by ``make dist``) leaves it out of the wheel,
  which is then ``py3-none-any``, for every platform; the sdist keeps its C sources all the
  same, so installing from the sdist builds the kernel where a compiler is present.
- The kernel built to WebAssembly (``scopa/engine/native/kernel.wasm``, the phone's), by
  ``scripts/build-wasm.py`` into the built package where clang, lld and wasi-libc are present;
  without them the package leaves it out and the phone plays with the pure engine.
- The gettext catalogs (``scopa/locale/*/LC_MESSAGES/scopa.mo``, the command line toolkit's
  ``toolkit.mo`` and the page scripts' ``scopa/web/static/i18n/*.json``), compiled from the
  ``.po`` files by ``scripts/catalogs.py`` into the built package (``make setup`` compiles
  them in place).
"""

from __future__ import annotations

import importlib.util
import os
import runpy
from pathlib import Path
from typing import Any

from setuptools import Extension, setup  # type: ignore[import-untyped]
from setuptools.command.bdist_wheel import bdist_wheel  # type: ignore[import-untyped]
from setuptools.command.build_py import build_py  # type: ignore[import-untyped]
from setuptools.command.egg_info import egg_info  # type: ignore[import-untyped]
from setuptools.command.sdist import sdist  # type: ignore[import-untyped]

HERE = Path(__file__).resolve().parent

KERNEL = Extension(
    "scopa.engine.native._kernel",
    sources=["src/scopa/engine/native/_kernel.c"],
    depends=[
        "src/scopa/engine/native/fold.h",
        "src/scopa/engine/native/game.h",
        "src/scopa/engine/native/methods.h",
        "src/scopa/engine/native/mt.h",
        "src/scopa/engine/native/plays.h",
        "src/scopa/engine/native/tree.h",
        "src/scopa/engine/native/tree_methods.h",
        "src/scopa/engine/native/facts.h",
    ],
    # -ffp-contract=off: no fused multiply-add, so the floats equal CPython's to the bit.
    extra_compile_args=["-O3", "-ffp-contract=off", "-std=c11"],
    optional=True,
)


def vendor() -> None:
    """Put the offline sheet's files in place (scripts/vendor.py), or fail saying why."""
    spec = importlib.util.spec_from_file_location("scopa_vendor", HERE / "scripts" / "vendor.py")
    if spec is None or spec.loader is None:
        raise SystemExit("scripts/vendor.py is missing: the offline sheet cannot be packaged")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.ensure(HERE, HERE / "src" / "scopa" / "web" / "static" / "vendor")
    except module.VendorError as error:
        raise SystemExit(f"scopa build: {error}") from None


def long_description() -> str:
    """README.md without its relative pictures and links (scripts/description.py): what an
    index page shows."""
    spec = importlib.util.spec_from_file_location(
        "scopa_description", HERE / "scripts" / "description.py"
    )
    if spec is None or spec.loader is None:
        raise SystemExit("scripts/description.py is missing: the description cannot be made")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text: str = module.description((HERE / "README.md").read_text(encoding="utf-8"))
    return text


def vendoring(command: Any) -> Any:
    """``command`` with the vendored files put in place before it runs."""

    class Vendoring(command):  # type: ignore[misc,valid-type]
        def run(self) -> None:
            vendor()
            super().run()

    Vendoring.__name__ = command.__name__
    return Vendoring


class BuildWithCatalogs(vendoring(build_py)):  # type: ignore[misc]
    """The package as usual, then the catalogs compiled into it and the example matches
    (``examples/*.json``) put in as ``scopa/examples``."""

    def run(self) -> None:
        super().run()
        examples = Path(self.build_lib) / "scopa" / "examples"
        examples.mkdir(parents=True, exist_ok=True)
        for example in sorted((HERE / "examples").glob("*.json")):
            (examples / example.name).write_bytes(example.read_bytes())
        script = HERE / "scripts" / "catalogs.py"
        compile_all = runpy.run_path(str(script))["compile_all"]
        compile_all(Path(self.build_lib) / "scopa")
        build_wasm = runpy.run_path(str(HERE / "scripts" / "build-wasm.py"), run_name="setup")
        why = build_wasm["missing"]()
        if why:
            print(f"scopa build: kernel.wasm left out ({why}): the phone plays the pure engine")
        else:
            build_wasm["build"](
                Path(self.build_lib) / "scopa" / "engine" / "native" / "kernel.wasm"
            )


class Wheel(bdist_wheel):  # type: ignore[misc]
    """The wheel, without the native kernel when ``SCOPA_PURE_WHEEL`` is set (not ``0``): no
    extension, so setuptools tags it ``py3-none-any``. Only the wheel: the sdist, built by the
    same ``python -m build``, still carries the kernel's sources."""

    def finalize_options(self) -> None:
        if os.environ.get("SCOPA_PURE_WHEEL", "0") not in ("", "0"):
            self.distribution.ext_modules = []
        super().finalize_options()


if __name__ == "__main__":
    setup(
        long_description=long_description(),
        long_description_content_type="text/markdown",
        ext_modules=[KERNEL],
        cmdclass={
            "egg_info": vendoring(egg_info),
            "build_py": BuildWithCatalogs,
            "sdist": vendoring(sdist),
            "bdist_wheel": Wheel,
        },
    )
