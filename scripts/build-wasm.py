"""Build the kernel to WebAssembly: src/scopa/engine/native/kernel.wasm, what the phone's worker
runs (scopa.engine.native.wasm), from wasm.c over the same headers as the C extension.

    .venv/bin/python scripts/build-wasm.py [--out PATH] [--if-possible]

Needs Debian's clang, lld (wasm-ld) and wasi-libc (scripts/system-deps.sh installs them).
``--if-possible`` (make setup, setup.py) says why and succeeds where they are missing: the
package is then without kernel.wasm and the phone plays with the pure engine.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "src" / "scopa" / "engine" / "native"
SYSROOT = Path("/usr/include/wasm32-wasi")
FLAGS = [
    "--target=wasm32-wasi",
    "--sysroot=/usr",
    "-O2",
    "-msimd128",  # the generator's lanes (mt.h) as WebAssembly SIMD: every current browser
    "-ffp-contract=off",  # no fused multiply-add: the floats equal CPython's to the bit
    "-std=c11",
    "-mexec-model=reactor",  # a library: _initialize, then the k_* exports
    "-Wl,-z,stack-size=1048576",  # the endgame solver recurses with 6 KB a level
    "-Wl,--strip-all",
    "-Wall",
    "-Wno-unused-function",
]


def missing() -> str:
    """What is missing to build it ('' when nothing)."""
    if not shutil.which("clang"):
        return "clang is not installed"
    if not shutil.which("wasm-ld"):
        return "lld (wasm-ld) is not installed"
    if not SYSROOT.is_dir():
        return "wasi-libc is not installed"
    return ""


def build(out: Path) -> None:
    """Compile wasm.c to ``out`` (CalledProcessError when clang fails)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["clang", *FLAGS, "-o", str(out), str(NATIVE / "wasm.c")], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=NATIVE / "kernel.wasm")
    parser.add_argument("--if-possible", action="store_true")
    args = parser.parse_args()
    why = missing()
    if why:
        print(f"kernel.wasm not built: {why}", file=sys.stderr)
        sys.exit(0 if args.if_possible else 1)
    build(args.out)


if __name__ == "__main__":
    main()
