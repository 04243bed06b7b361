// The one scorer, on the device: a module Web Worker running the project's own Python core
// (cards, rules, deal, scoring, match, formats, and the deal form's reader) in Pyodide (npm
// pyodide, pinned, served by `scopa serve` from /static/vendor/pyodide/). No second scorer in
// JavaScript: the same code gives the same points and the same messages as the server.
//
// Messages in: {id, op, payload} (op: "score", "check", "apply", "parse"; see
// scopa/web/device.py). Out: {id, result} or {id, failure}; once loaded: {ready: ms}.
import { loadPyodide } from "/static/vendor/pyodide/pyodide.mjs";

const started = performance.now();

const ready = (async () => {
  const pyodide = await loadPyodide({ indexURL: "/static/vendor/pyodide/" });
  const response = await fetch("/offline/core.zip");
  if (!response.ok) { throw new Error("the core could not be loaded (" + response.status + ")"); }
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/home/pyodide/core" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/core')");
  const device = pyodide.pyimport("scopa.web.device");
  self.postMessage({ ready: Math.round(performance.now() - started) });
  return device;
})();

ready.catch((error) => self.postMessage({ failed: String(error && error.message || error) }));

self.onmessage = async (event) => {
  const { id, op, payload } = event.data || {};
  try {
    const device = await ready;
    const text = device.run(op, JSON.stringify(payload || {}));
    self.postMessage({ id, result: JSON.parse(text) });
  } catch (error) {
    self.postMessage({ id, failure: String(error && error.message || error) });
  }
};
