// The service worker (a classic script) run in a node:vm context with a stand-in `self`: its
// routes, and its precache list in step with the files the pages load.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const STATIC = fileURLToPath(new URL("../../src/scopa/web/static/", import.meta.url));
const ORIGIN = "http://127.0.0.1:8000";

function loadWorker() {
  const listeners = {};
  const context = vm.createContext({
    URL, Request: class {}, Response: class {}, setTimeout, clearTimeout,
    self: { location: { origin: ORIGIN }, addEventListener: (type, fn) => { listeners[type] = fn; } },
  });
  const text = readFileSync(STATIC + "sw.js", "utf8").replace("__VERSION__", "test");
  vm.runInContext(text, context, { filename: "sw.js" });
  const read = (name) => vm.runInContext(name, context);
  return { listeners, routeOf: read("routeOf"), shell: read("SHELL_FILES"), vendor: read("VENDOR_FILES"),
           names: { shell: read("SHELL"), vendor: read("VENDOR") } };
}

const sw = loadWorker();
const route = (method, path, htmx = false) => {
  const found = sw.routeOf(method, path.startsWith("http") ? path : ORIGIN + path, ORIGIN, htmx);
  return found === null ? null : { ...found }; // out of the vm's realm, for deepEqual
};

test("it listens for install, activate, message and fetch", () => {
  assert.deepEqual(Object.keys(sw.listeners).sort(), ["activate", "fetch", "install", "message"]);
});

test("pages and the match JSON: network first, keyed by path and query", () => {
  for (const path of ["/", "/matches/3", "/matches/3/deals/new", "/matches/3/deals/2/edit", "/play", "/play/here",
    "/play/12", "/api/matches", "/api/matches/3"]) {
    assert.deepEqual(route("GET", path), { use: "network-first", key: path }, path);
  }
  assert.deepEqual(route("GET", "/matches/3/deals/new?mode=cards"),
    { use: "network-first", key: "/matches/3/deals/new?mode=cards" });
});

test("the players' pages are kept too: a player's figures as of the last sync", () => {
  for (const path of ["/players", "/players/Anna", "/players/Anna%20B.", "/players/vs?a=Anna&b=Bruno"]) {
    assert.deepEqual(route("GET", path), { use: "network-first", key: path }, path);
  }
  assert.equal(route("POST", "/players/Anna/rename"), null);
  assert.equal(route("GET", "/players/Anna/rename/x"), null);
});

test("the rules page is kept (read offline), the television's board is not", () => {
  assert.deepEqual(route("GET", "/help"), { use: "network-first", key: "/help" });
  assert.deepEqual(route("GET", "/help?lang=it"), { use: "network-first", key: "/help?lang=it" });
  assert.equal(route("GET", "/matches/3/tv"), null);
  assert.equal(route("GET", "/matches/3/share.svg"), null);
});

test("the sheet after a change or an undo is kept as the plain sheet", () => {
  assert.deepEqual(route("GET", "/matches/3?done=1"), { use: "network-first", key: "/matches/3" });
  assert.deepEqual(route("GET", "/matches/3?undo=4"), { use: "network-first", key: "/matches/3" });
});

test("static files are served from the cache and refreshed; Pyodide and the core, cache first", () => {
  assert.deepEqual(route("GET", "/static/app.js"), { use: "stale" });
  assert.deepEqual(route("GET", "/manifest.webmanifest"), { use: "stale" });
  assert.deepEqual(route("GET", "/static/vendor/pyodide/pyodide.asm.wasm"),
    { use: "cache-first", cache: sw.names.vendor });
  assert.deepEqual(route("GET", "/offline/core.zip"), { use: "cache-first", cache: sw.names.shell });
  assert.deepEqual(route("GET", "/offline/catalog/it"), { use: "cache-first", cache: sw.names.shell });
});

test("changes, htmx's requests, the live stream, other sites and other pages go to the network", () => {
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    assert.equal(route(method, "/api/matches/3"), null, method);
  }
  assert.equal(route("GET", "/matches/3", true), null);
  assert.equal(route("GET", "/api/matches/3/events?since=4"), null);
  assert.equal(route("GET", "https://example.com/static/app.js"), null);
  for (const path of ["/api/docs", "/matches/3/history", "/api/matches/3/export.json"]) {
    assert.equal(route("GET", path), null, path);
  }
});

test("New match and Import are kept; a match started on this device is answered here", () => {
  for (const path of ["/import", "/matches/new"]) {
    assert.deepEqual(route("GET", path), { use: "network-first", key: path }, path);
  }
  for (const path of ["/matches/-17", "/matches/-17/deals/new", "/matches/-17/deals/new?mode=cards"]) {
    assert.deepEqual(route("GET", path), { use: "local" }, path);
  }
  assert.deepEqual(route("GET", "/matches/-17/sheet?since=1", true), { use: "local" });
  assert.equal(route("POST", "/matches/-17/deals/new"), null);
});

test("switching, leaving or joining a group forgets the group in use", () => {
  for (const path of ["/groups/switch", "/groups/leave", "/join"]) {
    assert.deepEqual(route("POST", path), { use: "group" }, path);
  }
  assert.equal(route("GET", "/join"), null);
});

// Each module a page loads, and each module it imports, is in the precache list: offline, a
// module missing from it would stop the page's whole module graph.
function importsOf(file) {
  const text = readFileSync(STATIC + file, "utf8");
  return Array.from(text.matchAll(/^\s*import\b[^"']*["']([^"']+)["']/gm), (m) => m[1]);
}

test("the precache list has every page module and everything they import", () => {
  const listed = new Set(sw.shell);
  // Not kept: the worker itself, the API's docs, and a table played together (online only).
  const online = new Set(["sw.js", "api-docs.js", "table.js"]);
  const pages = readdirSync(STATIC).filter((f) => f.endsWith(".js") && !online.has(f));
  const seen = new Set();
  const todo = pages.slice();
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file)) { continue; }
    seen.add(file);
    assert.ok(listed.has("/static/" + file), "/static/" + file + " is not in SHELL_FILES");
    for (const spec of importsOf(file)) {
      if (spec.startsWith("/static/vendor/pyodide/")) { continue; } // VENDOR_FILES
      assert.ok(spec.startsWith("./"), file + " imports " + spec + ": only ./ paths are served and listed");
      todo.push(spec.slice(2));
    }
  }
  assert.ok(seen.has("vendor/idb/index.js"));
});

test("every file in the precache lists exists (vendor/: made by make setup)", () => {
  for (const url of [...sw.shell, ...sw.vendor]) {
    if (!url.startsWith("/static/")) { continue; } // pages and the core's zip: the server's
    assert.ok(existsSync(STATIC + url.slice("/static/".length)), url);
  }
});

test("the phone's catalog of every language the pages speak is kept at install, with the core", () => {
  const languages = readdirSync(STATIC + "i18n").filter((name) => /^[a-z]{2}\.json$/.test(name))
    .map((name) => name.slice(0, 2));
  assert.ok(languages.length >= 2);
  for (const language of languages) {
    assert.ok(sw.shell.includes("/offline/catalog/" + language), language);
    assert.deepEqual(route("GET", "/offline/catalog/" + language), { use: "cache-first", cache: sw.names.shell });
  }
});

test("every lookup in the caches ignores Vary (every answer varies by Accept-Language)", () => {
  const text = readFileSync(STATIC + "sw.js", "utf8");
  const lookups = text.match(/\.match\((?:[^()]|\([^()]*\))*\)/g) || [];
  assert.ok(lookups.length > 10);
  for (const call of lookups) {
    assert.match(call, /ANY_LANGUAGE|ignoreVary: true/, call);
  }
});
