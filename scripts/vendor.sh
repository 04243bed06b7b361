#!/usr/bin/env bash
# Copies the pinned npm packages' files that the web app serves itself into
# src/scopa/web/static/vendor/ (not committed; made by `make setup`).
set -euo pipefail
cd "$(dirname "$0")/.."
out=src/scopa/web/static/vendor
rm -rf "$out"
mkdir -p "$out/pyodide" "$out/swagger-ui" "$out/idb"
cp node_modules/htmx.org/dist/htmx.min.js "$out/"
# idb (IndexedDB with promises): the ES module the outbox imports, and its types for tsc.
cp node_modules/idb/build/index.js node_modules/idb/build/*.d.ts "$out/idb/"
for f in pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json; do
  cp "node_modules/pyodide/$f" "$out/pyodide/"
done
for f in swagger-ui-bundle.js swagger-ui.css; do
  cp "node_modules/swagger-ui-dist/$f" "$out/swagger-ui/"
done
