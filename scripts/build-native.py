"""Build the native kernel in place (src/scopa/native/_kernel*.so) for development.

    .venv/bin/python scripts/build-native.py

Uses setuptools' build_ext directly, so it works whatever setuptools the environment has
(``pip install -e .`` builds it too, in its own build environment).
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import Distribution  # type: ignore[import-untyped]
from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    os.chdir(ROOT)
    kernel = runpy.run_path(str(ROOT / "setup.py"), run_name="build-native")["KERNEL"]
    kernel.optional = False  # here a failure should show
    dist = Distribution({"ext_modules": [kernel], "package_dir": {"": "src"}})
    dist.src_root = str(ROOT)
    command = build_ext(dist)
    command.inplace = True
    command.ensure_finalized()
    command.run()


if __name__ == "__main__":
    main()
