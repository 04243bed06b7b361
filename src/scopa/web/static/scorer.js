// The one scorer, on the device: a module Web Worker running the project's own Python core
// (cards, rules, deal, scoring, match, formats, and the deal form's reader) in Pyodide (npm
// pyodide, pinned, served by `scopa serve` from /static/vendor/pyodide/). No second scorer in
// JavaScript: the same code gives the same points and the same messages as the server.
//
// A cold start is mostly Python starting up (the interpreter and its imports, several seconds
// on a slow phone), so the first start on a device keeps a memory snapshot of the started
// interpreter with the core imported (Cache Storage "scopa-snapshot-v1", keyed by the Pyodide
// version and a digest of the core's zip); later starts restore it instead (about a third of
// the time). Without Cache Storage (plain HTTP on the LAN) every start is a full one.
//
// Messages in: {id, op, payload} (op: "score", "check", "apply", "parse"; see
// scopa/web/phone/device.py). Out: {id, result} or {id, failure}; once loaded:
// {ready: ms, restored: bool, phases}.
//
// Started with the name "play" it runs the Play page's game instead
// (scopa/web/phone/play_device.py: the engine and the search player, from the same zip), with a
// snapshot of its own.
import { loadPyodide, version } from "/static/vendor/pyodide/pyodide.mjs";

const INDEX = "/static/vendor/pyodide/";
/** @type {Record<string, string>} */
const MODULES = { sheet: "scopa.web.phone.device", play: "scopa.web.phone.play_device" };
// new Worker(…, {name: "play:it:french"}): a URL's query is lost when the service worker answers
const KIND = self.name.split(":")[0] === "play" ? "play" : "sheet";
const LANGUAGE = /^[a-z]{2}$/.test(self.name.split(":")[1] || "") ? self.name.split(":")[1] : "en"; // the page's, for the core's messages
const DECK = self.name.split(":")[2] === "french" ? "french" : "italian"; // how the page shows the cards (scopa/words.py)
const SNAPSHOTS = "scopa-snapshot-v1";
const started = performance.now();
/** @type {Record<string, number>} */
const phases = {};
/** @param {string} name */
const mark = (name) => { phases[name] = Math.round(performance.now() - started); };

/** @param {Uint8Array<ArrayBuffer>} bytes */
async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function snapshots() {
  try { return self.caches ? await caches.open(SNAPSHOTS) : null; } catch (_) { return null; }
}

// The phone's catalog of the page's language only (scopa/web/phone/offline.py): English needs
// none; without it (never fetched, and offline) the core speaks English.
async function fetchCatalog() {
  if (LANGUAGE === "en") { return null; }
  try {
    const response = await fetch("/offline/catalog/" + LANGUAGE);
    return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch (_) { return null; }
}

/**
 * @param {import("/static/vendor/pyodide/pyodide.mjs").Pyodide} pyodide
 * @param {Uint8Array} zip
 * @param {Uint8Array | null} catalog
 */
function loadCore(pyodide, zip, catalog) {
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/core" });
  if (catalog) {
    const folder = "/home/pyodide/core/scopa/locale/" + LANGUAGE;
    pyodide.FS.mkdirTree(folder);
    pyodide.FS.writeFile(folder + "/phone.json.z", catalog);
  }
  pyodide.runPython("import sys\nif '/home/pyodide/core' not in sys.path: sys.path.insert(0, '/home/pyodide/core')");
  pyodide.runPython("from scopa import i18n, words\ni18n.translations.cache_clear()\ni18n.use('" + LANGUAGE + "')\nwords.use_deck('" + DECK + "')"); // the core speaks the page's language and names the cards as the page shows them
  return pyodide.pyimport(MODULES[KIND]);
}

const ready = (async () => {
  const response = await fetch("/offline/core.zip");
  if (!response.ok) { throw new Error("the core could not be loaded (" + response.status + ")"); }
  const zip = new Uint8Array(await response.arrayBuffer());
  const catalog = await fetchCatalog();
  const kind = KIND === "sheet" ? "" : KIND + "/"; // the sheet's key as it always was
  const key = "/offline/snapshot/" + kind + version + "/" + (await digest(zip));
  const cache = await snapshots();
  const kept = cache ? await cache.match(key) : null;
  mark("core");
  self.postMessage({ phase: "python" }); // the page says what the start is doing
  let pyodide = null, restored = false;
  if (kept) {
    try {
      pyodide = await loadPyodide({ indexURL: INDEX, _loadSnapshot: kept.arrayBuffer() });
      restored = true;
    } catch (_) { pyodide = null; /* a snapshot this build cannot read: start afresh */ }
  }
  if (!pyodide) { pyodide = await loadPyodide({ indexURL: INDEX, _makeSnapshot: !!cache }); }
  mark("pyodide");
  self.postMessage({ phase: "core" });
  const device = loadCore(pyodide, zip, catalog);
  mark("import");
  let snapshot = null;
  if (!restored && cache) {
    try { snapshot = pyodide.makeMemorySnapshot(); } catch (_) { snapshot = null; }
  }
  self.postMessage({ ready: Math.round(performance.now() - started), restored, phases });
  if (snapshot && cache) {
    const bytes = snapshot, store = cache;
    // Kept after the answer: the page need not wait for the write.
    (async () => {
      for (const request of await store.keys()) { // this worker's older snapshots
        const path = new URL(request.url).pathname;
        if (path.startsWith("/offline/snapshot/play/") === (KIND === "play")) { await store.delete(request); }
      }
      await store.put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
      self.postMessage({ snapshot: bytes.length });
    })().catch(() => { /* no room: the next start is a full one */ });
  }
  return device;
})();

/** @param {unknown} error */
const said = (error) => String(error instanceof Error && error.message || error);

ready.catch((error) => self.postMessage({ failed: said(error) }));

self.onmessage = async (event) => {
  const { id, op, payload } = event.data || {};
  try {
    const device = await ready;
    const text = device.run(op, JSON.stringify(payload || {}));
    self.postMessage({ id, result: JSON.parse(text) });
  } catch (error) {
    self.postMessage({ id, failure: said(error) });
  }
};
