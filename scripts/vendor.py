"""The pinned npm packages' files that the web app serves itself (never from a CDN), copied into
src/scopa/web/static/vendor/ (not committed): htmx, idb (the outbox's IndexedDB), Pyodide (the
offline sheet's Python) and Swagger UI. ``make setup`` runs it after ``npm ci``; so does the
package build (setup.py), which installs the npm packages first when node_modules/ lacks them,
so an sdist and a wheel always carry the offline sheet.

``python3 scripts/vendor.py`` copies (node_modules/ must hold the packages);
``python3 scripts/vendor.py --check`` only says whether every file is in place.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "scopa" / "web" / "static" / "vendor"
FILES = {
    "htmx.min.js": "htmx.org/dist/htmx.min.js",
    # idb (IndexedDB with promises): the ES module the outbox imports, and its types for tsc
    "idb/index.js": "idb/build/index.js",
    "idb/": "idb/build/*.d.ts",
    "pyodide/pyodide.mjs": "pyodide/pyodide.mjs",
    "pyodide/pyodide.asm.mjs": "pyodide/pyodide.asm.mjs",
    "pyodide/pyodide.asm.wasm": "pyodide/pyodide.asm.wasm",
    "pyodide/python_stdlib.zip": "pyodide/python_stdlib.zip",
    "pyodide/pyodide-lock.json": "pyodide/pyodide-lock.json",
    "swagger-ui/swagger-ui-bundle.js": "swagger-ui-dist/swagger-ui-bundle.js",
    "swagger-ui/swagger-ui.css": "swagger-ui-dist/swagger-ui.css",
}
"""Each file served under /static/vendor/, from its place in node_modules/ (a folder: every
file the pattern matches)."""


COMPRESSED = (".js", ".mjs", ".wasm", ".json", ".css")
"""The files kept beside a gzip copy (``NAME.gz``), which the server sends to a browser that
takes gzip (scopa.web.serve.static): a phone's first visit downloads Pyodide's 13.5 MB as 6.3
MB. Zip files (the standard library's) are compressed already."""


def precompress(out: Path = OUT) -> list[Path]:
    """Write ``NAME.gz`` beside each compressible file under ``out`` that lacks an up-to-date
    one (gzip level 9, no name or time inside: the same bytes at every build); returns the
    copies written."""
    written = []
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESSED:
            continue
        target = path.with_name(path.name + ".gz")
        if target.is_file() and target.stat().st_mtime >= path.stat().st_mtime:
            continue
        data = gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)
        target.write_bytes(data)
        written.append(target)
    return written


class VendorError(RuntimeError):
    """The vendored files cannot be made (no npm, or npm failed)."""


def missing(out: Path = OUT) -> list[str]:
    """The vendored files not in ``out`` (a folder: when it is empty or absent)."""
    return [
        name
        for name in FILES
        if not (((out / name).is_dir() and any((out / name).iterdir())) or (out / name).is_file())
    ]


def sources(modules: Path) -> dict[str, list[Path]]:
    """What node_modules/ holds for each vendored name (empty: absent)."""
    return {
        name: sorted(modules.glob(source))
        if name.endswith("/")
        else [modules / source]
        if (modules / source).is_file()
        else []
        for name, source in FILES.items()
    }


def copy(root: Path = ROOT, out: Path = OUT) -> None:
    """Copy every file from ``root``/node_modules into ``out`` (emptied first)."""
    found = sources(root / "node_modules")
    absent = [FILES[name] for name, paths in found.items() if not paths]
    if absent:
        raise VendorError(f"node_modules/ lacks {', '.join(absent)}: run npm ci first")
    shutil.rmtree(out, ignore_errors=True)
    for name, paths in found.items():
        for path in paths:
            target = out / name / path.name if name.endswith("/") else out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


def ensure(root: Path = ROOT, out: Path = OUT) -> None:
    """Make sure every vendored file is in ``out``: copied from node_modules/, after
    ``npm ci`` (the pinned package-lock.json, no install scripts) when that lacks them. Fails
    loudly (:class:`VendorError`) when npm is missing or fails: a package without these
    files has no offline sheet."""
    if not missing(out):
        precompress(out)
        return
    if not all(sources(root / "node_modules").values()):
        npm = shutil.which("npm")
        if npm is None:
            raise VendorError(
                f"{out} lacks {', '.join(missing(out))} (htmx, Pyodide, Swagger UI: the offline "
                "sheet) and npm is not installed to fetch them: install Node.js and npm "
                "(Debian: apt-get install nodejs npm), or run make setup, then build again"
            )
        command = [npm, "ci", "--omit=dev", "--ignore-scripts", "--prefer-offline", "--no-audit"]
        done = subprocess.run(command, cwd=root, check=False)
        if done.returncode != 0:
            raise VendorError(f"npm ci failed (exit status {done.returncode}) in {root}")
    copy(root, out)
    precompress(out)


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        gone = missing()
        print("\n".join(gone) or "every vendored file is in place")
        sys.exit(1 if gone else 0)
    try:
        copy()
        precompress()
    except VendorError as error:
        sys.exit(f"vendor: {error}")
