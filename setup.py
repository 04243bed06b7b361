"""The native kernel (``scopa.engine.native._kernel``), built where a C compiler is present,
and the gettext catalogs (``scopa/locale/*/LC_MESSAGES/scopa.mo`` and the page scripts'
``scopa/web/static/i18n/*.json``), compiled from the ``.po`` files by ``scripts/catalogs.py``.

Everything else is configured in pyproject.toml. The extension is optional: without a
compiler the install goes on and the pure-Python engine runs (``scopa simulate`` says so).
``scripts/build-native.py`` builds it in place for development; ``make setup`` compiles the
catalogs in place.
"""

import runpy
from pathlib import Path

from setuptools import Extension, setup  # type: ignore[import-untyped]
from setuptools.command.build_py import build_py  # type: ignore[import-untyped]

KERNEL = Extension(
    "scopa.engine.native._kernel",
    sources=["src/scopa/engine/native/_kernel.c"],
    depends=[
        "src/scopa/engine/native/fold.h",
        "src/scopa/engine/native/game.h",
        "src/scopa/engine/native/methods.h",
        "src/scopa/engine/native/mt.h",
        "src/scopa/engine/native/plays.h",
    ],
    # -ffp-contract=off: no fused multiply-add, so the floats equal CPython's to the bit.
    extra_compile_args=["-O3", "-ffp-contract=off", "-std=c11"],
    optional=True,
)


class BuildWithCatalogs(build_py):  # type: ignore[misc]
    """The package as usual, then the catalogs compiled into it."""

    def run(self) -> None:
        super().run()
        script = Path(__file__).parent / "scripts" / "catalogs.py"
        compile_all = runpy.run_path(str(script))["compile_all"]
        compile_all(Path(self.build_lib) / "scopa")


if __name__ == "__main__":
    setup(ext_modules=[KERNEL], cmdclass={"build_py": BuildWithCatalogs})
