"""The native kernel (``scopa.engine.native._kernel``), built where a C compiler is present.

Everything else is configured in pyproject.toml. The extension is optional: without a
compiler the install goes on and the pure-Python engine runs (``scopa simulate`` says so).
``scripts/build-native.py`` builds it in place for development.
"""

from setuptools import Extension, setup  # type: ignore[import-untyped]

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

if __name__ == "__main__":
    setup(ext_modules=[KERNEL])
