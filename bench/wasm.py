"""Benchmark: the kernel's WebAssembly build (the phone's) against the C extension (the
server's): the search tree's iterations per millisecond of CPU time in each, and what the build
adds to the phone's download.

The tree is the one the levels grow (``KernelTree``: greedy playouts, the others' plays read,
the endgame solved), from the same positions and seeds in both builds (they grow the same tree:
tests/native/test_wasm.py). The WebAssembly build runs under wasmtime (Cranelift) in this
process, not in Chromium's worker: the browser's engine (V8's optimizing tier) is of the same
kind, but its figure is not measured here. The download is the build's bytes in the phone's
``core.zip`` (deflated, as the zip carries it) against the phone's first full visit
(``bench/first_visit.py``: 6.77 MB, README), target <= 10%.

Run: ``.venv/bin/python bench/wasm.py [--quick] [--iterations N]``. Target: >= 1/3 of the
native iterations per ms.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scopa.engine import VARIANTS, legal_plays  # noqa: E402
from scopa.engine import native as native_module  # noqa: E402
from scopa.engine.ai import observe  # noqa: E402
from scopa.engine.ai.inference import Inference  # noqa: E402
from scopa.engine.ai.ismcts import KernelTree  # noqa: E402
from scopa.engine.native import rules, rules_args, wasm  # noqa: E402
from scopa.engine.native.simulate import _scoring_ready, scoring_tables  # noqa: E402
from tests.engine.test_ai import greedy_until  # noqa: E402

FIRST_VISIT_BYTES = 6_770_000
"""The phone's first full visit before the kernel (bench/first_visit.py, README's table)."""
TARGET_RATIO = 1 / 3
TARGET_GROWTH = 0.10


def positions(count: int) -> list[Any]:
    """Two-player Scopa positions a few plays in, with two plays or more to choose from."""
    found: list[tuple[int, Any]] = []
    seed = 0
    while len(found) < count:
        state = greedy_until("scopa", 2, seed, 1 + seed % 6)
        if not state.finished and len(legal_plays(state)) > 1:
            found.append((seed, state))
        seed += 1
    return found


def iterations_per_ms(kernel_rules: Any, cases: list[Any], iterations: int) -> float:
    """The tree's iterations per ms of this process's CPU time, over every position."""
    variant = VARIANTS["scopa"]
    native = native_module
    spent = 0.0
    grown = 0
    saved = native.rules
    try:
        native.rules = lambda v: kernel_rules  # type: ignore[assignment]
        for seed, state in cases:
            k = observe(state, state.turn)
            tree = KernelTree(k, variant.settings, random.Random(seed), inference=Inference(k))
            start = time.process_time()
            tree.run(iterations)
            spent += time.process_time() - start
            grown += tree.iterations
    finally:
        native.rules = saved
    return grown / (spent * 1000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few positions, few iterations")
    parser.add_argument("--iterations", type=int, default=20_000, help="per position")
    parser.add_argument("--positions", type=int, default=8)
    args = parser.parse_args()
    iterations = 500 if args.quick else args.iterations
    count = 2 if args.quick else args.positions
    built = wasm.wasm_path()
    if not native_module.AVAILABLE or not built.is_file():
        print("needs both builds: the C extension and kernel.wasm (make setup)")
        sys.exit(1)
    data = built.read_bytes()
    kernel = wasm.Kernel(lambda points: wasm.wasmtime_instance(data, points))
    kernel.set_scoring(*scoring_tables())
    _scoring_ready()
    cases = positions(count)
    variant = VARIANTS["scopa"]
    native_rate = iterations_per_ms(rules(variant), cases, iterations)
    wasm_rate = iterations_per_ms(kernel.Rules(*rules_args(variant)), cases, iterations)
    ratio = wasm_rate / native_rate
    print(f"tree, {count} positions x {iterations} iterations, CPU time:")
    print(f"  native (C extension):      {native_rate:8.1f} iterations/ms")
    print(f"  WebAssembly (wasmtime):    {wasm_rate:8.1f} iterations/ms")
    print(f"  ratio: {ratio:.2f} (target >= {TARGET_RATIO:.2f})")

    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("scopa/engine/native/kernel.wasm", data)
    info = zipfile.ZipFile(zipped).getinfo("scopa/engine/native/kernel.wasm")
    growth = info.compress_size / FIRST_VISIT_BYTES
    print(f"download: kernel.wasm {len(data):,} bytes, {info.compress_size:,} deflated in core.zip")
    print(f"  against the first visit's {FIRST_VISIT_BYTES:,} bytes: +{growth:.1%}")
    print(f"  (target <= {TARGET_GROWTH:.0%})")


if __name__ == "__main__":
    main()
