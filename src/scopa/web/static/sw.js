// The service worker: the sheet with no connection. Served at /sw.js (scope: the whole site);
// the server writes the app's version in place of __VERSION__, so a new version re-caches.
//
// - The app shell (styles, scripts, icons, the home page) is cached at install; the pinned
//   Pyodide files and the core's zip are cached too ("downloaded once and kept"). The Play
//   page (its set-up form and the table of a game on this device) is kept at install too, so
//   the computer can be played with no connection (play.js, scorer.js named "play").
// - Pages and the match JSON: network first (with a short timeout), the cached copy when the
//   server cannot be reached. Every match page opened is kept, with its deal forms.
// - Changes (POST, PUT, PATCH, DELETE) are never cached: the page's outbox keeps them.
// - Hosted, every answer names its group (X-Scopa-Group): each group's pages are kept apart,
//   and offline the worker answers with the pages of the group last in use only. Switching
//   or leaving a group forgets which one is in use until the next page arrives.
"use strict";

/** This script's global scope: a service worker's. */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const VERSION = "__VERSION__";
const SHELL = "scopa-shell-" + VERSION;
const VENDOR = "scopa-vendor-v1";
const PAGES = "scopa-pages-v1";
const TIMEOUT_MS = 2500;
// Every answer varies by Accept-Language (the server's pages are in the reader's language),
// but what is kept is looked up by its own key (a page's language is in its key or its
// content): a browser whose language changed still finds it.
const ANY_LANGUAGE = { ignoreVary: true };

const SHELL_FILES = [
  "/",
  "/static/style.css",
  "/static/app.js",
  "/static/util.js",
  "/static/i18n.js",
  "/static/i18n/it.json",
  "/static/i18n/es.json",
  "/static/merge.js",
  "/static/forms.js",
  "/static/pyworker.js",
  "/static/live.js",
  "/static/stream.js",
  "/static/dealform.js",
  "/static/share.js",
  "/static/tv.js",
  "/static/variant_hints.js",
  "/static/categories.js",
  "/static/offline.js",
  "/static/outbox.js",
  "/static/device.js",
  "/static/scorer.js",
  "/static/cards.js",
  "/static/play.js",
  "/static/play_device.js",
  "/static/play.css",
  "/static/vendor/htmx.min.js",
  "/static/vendor/idb/index.js",
  "/static/icon.svg",
  "/static/icons/icon-192.png",
  "/manifest.webmanifest",
  "/offline/core.zip",
  // the core's messages in each language the pages speak (scopa.i18n.LANGUAGES but English):
  // kept with the core, so the phone speaks the page's language from its first offline second
  "/offline/catalog/it",
  "/offline/catalog/es",
];
const PLAY_PAGES = ["/play", "/play/here"]; // kept if the server serves them (a SQL store)
const HELP_PAGE = "/help"; // the rules, kept at install too
const VENDOR_FILES = [
  "/static/vendor/pyodide/pyodide.mjs",
  "/static/vendor/pyodide/pyodide.asm.mjs",
  "/static/vendor/pyodide/pyodide.asm.wasm",
  "/static/vendor/pyodide/python_stdlib.zip",
  "/static/vendor/pyodide/pyodide-lock.json",
];

sw.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const shell = await caches.open(SHELL);
    await shell.addAll(SHELL_FILES.map((url) => new Request(url, { cache: "reload" })));
    const pages = await caches.open(PAGES);
    for (const url of [...PLAY_PAGES, HELP_PAGE]) {
      try {
        const response = await fetch(new Request(url, { cache: "reload", credentials: "same-origin" }));
        if (response.ok && !response.redirected) {
          await pages.put(keyFor(url, response.headers.get(GROUP_HEADER)), response);
        }
      } catch (_) { /* kept when first opened instead */ }
    }
    const vendor = await caches.open(VENDOR);
    for (const url of VENDOR_FILES) {
      if (!(await vendor.match(url, ANY_LANGUAGE))) { await vendor.add(url); }
    }
    await sw.skipWaiting();
  })());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("scopa-shell-") && name !== SHELL) { await caches.delete(name); }
    }
    await sw.clients.claim();
  })());
});

sw.addEventListener("message", (event) => {
  // A page asks for its match's pages to be kept (the forms it may need offline).
  const data = event.data || {};
  if (data.type === "keep" && Array.isArray(data.urls)) {
    event.waitUntil(keep(data.urls));
  }
  if (data.type === "shapes") { event.waitUntil(keepShapes(/^[a-z]{2}$/.test(data.language) ? data.language : "en", data.deck === "french" ? "french" : "italian")); }
});

// --- a match started on this device with no connection (id < 0), before the server has it --
// Its pages are the server's own, rendered ahead once per shape of match (the variant, the
// players, in partnerships or not: scopa/web/pages/shapes.py) for a match whose id and names
// are markers; they are kept with the shell (a new version renders them again) and, offline,
// filled in with the match kept in the outbox's store (IndexedDB "scopa", "matches").
const SHAPE_ID = "987654321"; // scopa.web.pages.shapes.SHAPE_ID
// Kept in the language of the page that asked (the one in use), each under "?lang=xx", and in
// its display of the cards ("&deck=french" for the French suits: i18n.js).
/** @type {Record<string, Promise<void>>} */
const shaping = {};
const LANGUAGE_ENTRY = "/__scopa-language__";
const DECK_ENTRY = "/__scopa-deck__";

/** The key a shape is kept under. @param {string} url @param {string} language @param {string} deck */
function shapeKey(url, language, deck) {
  return url + (url.indexOf("?") < 0 ? "?" : "&") + "lang=" + language + (deck === "french" ? "&deck=french" : "");
}

/** @param {string} language @param {string} deck */
function keepShapes(language, deck) {
  const asked = language + " " + deck;
  if (!shaping[asked]) {
    shaping[asked] = (async () => {
      const shell = await caches.open(SHELL);
      await (await caches.open(PAGES)).put(LANGUAGE_ENTRY, new Response(language));
      await (await caches.open(PAGES)).put(DECK_ENTRY, new Response(deck));
      await keep(["/matches/new", "/import"]);
      const response = await fetch("/offline/shapes", { credentials: "same-origin" });
      if (!response.ok) { return; }
      /** @type {{urls: string[]}} */
      const listed = await response.json();
      for (const url of listed.urls) {
        const key = shapeKey(url, language, deck);
        if (await shell.match(key, ANY_LANGUAGE)) { continue; }
        // the page's language (a lang cookie, if any, names the same one)
        const page = await fetch(url, { credentials: "same-origin", headers: { "Accept-Language": language } });
        if (page.ok) { await shell.put(key, page); }
      }
    })().catch(() => { delete shaping[asked]; /* offline: next time */ });
  }
  return shaping[asked];
}

/**
 * The match kept on this device under an id (null: none; {moved}: the server has it now).
 * @param {number} id
 * @returns {Promise<{body?: any, moved?: number} | null>}
 */
function keptMatch(id) {
  return new Promise((resolve) => {
    const opening = indexedDB.open("scopa");
    // No database yet: nothing is kept (and the page's scripts make it, with its stores).
    opening.onupgradeneeded = () => { if (opening.transaction) { opening.transaction.abort(); } };
    opening.onerror = () => resolve(null);
    opening.onsuccess = () => {
      const db = opening.result;
      if (!db.objectStoreNames.contains("matches")) { db.close(); resolve(null); return; }
      const read = db.transaction("matches").objectStore("matches").get(id);
      read.onsuccess = () => { db.close(); resolve(read.result || null); };
      read.onerror = () => { db.close(); resolve(null); };
    };
  });
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * A page of a match started on this device: its shape, filled in.
 * @param {URL} url
 */
async function localPage(url) {
  const found = /^\/matches\/(-\d+)(\/.*)?$/.exec(url.pathname);
  const id = found ? parseInt(found[1], 10) : 0;
  if (found && found[2] === "/sheet") { return new Response(null, { status: 204 }); } // its poll: nothing new
  const kept = await keptMatch(id);
  if (kept && kept.moved) {  // created on the server meanwhile: its address there
    return Response.redirect(new URL("/matches/" + kept.moved + ((found && found[2]) || "") + url.search, url).href, 303);
  }
  if (!kept || !kept.body) { return notKept(id); }
  const match = kept.body.match;
  const players = match.players || [];
  const teams = match.rules && match.rules.partnerships ? 1 : 0;
  const page = found && found[2] ? "deal" : "sheet";
  // The deal form: its quick tally, or who took each point (kept too); card by card is asked.
  const mode = url.searchParams.get("mode");
  const shape = "/offline/shape/" + (match.variant || "scopa") + "-" + players.length + "-" + teams + "/" + page +
    (page === "deal" && mode === "categories" ? "?mode=categories" : "");
  const inUse = await (await caches.open(PAGES)).match(LANGUAGE_ENTRY, ANY_LANGUAGE);
  const language = inUse ? await inUse.text() : "en";
  const deckInUse = await (await caches.open(PAGES)).match(DECK_ENTRY, ANY_LANGUAGE);
  const deck = deckInUse ? await deckInUse.text() : "italian";
  let response = await caches.match(shapeKey(shape, language, deck), ANY_LANGUAGE);
  if (!response || url.searchParams.get("mode") === "cards") {  // card by card: asked when there is a connection
    try {
      const asked = await fetch(shape.split("?")[0] + url.search, { credentials: "same-origin", headers: { "Accept-Language": language } });
      if (asked.ok || !response) { response = asked; }
    } catch (_) { /* the tally's shape, kept */ }
  }
  if (!response || !response.ok) { return notKept(id); }
  let text = (await response.text()).split(SHAPE_ID).join(String(id));
  for (let i = players.length - 1; i >= 0; i--) { text = text.split("Qq" + i + "Zz").join(escapeHtml(String(players[i]))); }
  return new Response(text, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** A match this device does not keep: the home page says so (offline.js). @param {number | string} id */
function notKept(id) {
  return Response.redirect(new URL("/?missing=" + id, sw.location.origin).href, 303);
}

/** @param {string[]} urls */
async function keep(urls) {
  const cache = await caches.open(PAGES);
  await Promise.all(urls.map(async (url) => {
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (response.ok) { await cache.put(keyFor(url, response.headers.get(GROUP_HEADER)), response); }
    } catch (_) { /* offline: keep what is there */ }
  }));
}

// The group in use (hosted): "" on a server without groups, "?" right after a switch.
const GROUP_HEADER = "X-Scopa-Group";
const GROUP_ENTRY = "/__scopa-group__";
/** @type {string | undefined} */
let groupInUse;

async function currentGroup() {
  if (groupInUse === undefined) {
    const kept = await (await caches.open(PAGES)).match(GROUP_ENTRY, ANY_LANGUAGE);
    groupInUse = kept ? await kept.text() : "";
  }
  return groupInUse;
}

/** @param {string} group */
async function useGroup(group) {
  if (group === groupInUse) { return; }
  groupInUse = group;
  await (await caches.open(PAGES)).put(GROUP_ENTRY, new Response(group));
}

/**
 * A page's key in the cache, in its group's part (hosted).
 * @param {string} key
 * @param {string | null} group
 */
function keyFor(key, group) {
  if (!group) { return key; }
  const url = new URL(key, sw.location.origin);
  url.searchParams.set("scopa-group", group);
  return url.pathname + url.search;
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @returns {Promise<T>}
 */
function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); },
                 (error) => { clearTimeout(timer); reject(error); });
  });
}

/**
 * @param {Request} request
 * @param {string} cacheKey
 */
async function networkFirst(request, cacheKey) {
  const cache = await caches.open(PAGES);
  try {
    const response = await withTimeout(fetch(request), TIMEOUT_MS);
    const group = response.headers.get(GROUP_HEADER) || "";
    if (group) { await useGroup(group); }
    if (response.ok && response.status === 200) {
      await cache.put(keyFor(cacheKey, group), response.clone());
    }
    return response;
  } catch (error) {
    const group = await currentGroup();
    // A match's page never kept here: the home page says so, instead of showing it silently.
    const missing = request.mode === "navigate" ? /^\/matches\/(\d+)/.exec(new URL(request.url).pathname) : null;
    if (group) {  // hosted: only the pages of the group in use
      const path = new URL(request.url).pathname;
      const mine = (await cache.match(keyFor(cacheKey, group), ANY_LANGUAGE)) || (await cache.match(keyFor(path, group), ANY_LANGUAGE));
      if (mine) { return mine; }
      if (missing && (await cache.match(keyFor("/", group), ANY_LANGUAGE))) { return notKept(missing[1]); }
      const home = request.mode === "navigate" ? await cache.match(keyFor("/", group), ANY_LANGUAGE) : undefined;
      if (home) { return home; }
      throw error;
    }
    const cached = (await cache.match(cacheKey, ANY_LANGUAGE)) || (await cache.match(new URL(request.url).pathname, ANY_LANGUAGE)) ||
      (await caches.match(cacheKey, { ignoreSearch: true, ignoreVary: true }));
    if (cached) { return cached; }
    if (missing && (await caches.match("/", ANY_LANGUAGE))) { return notKept(missing[1]); }
    if (request.mode === "navigate") {
      const home = await caches.match("/", ANY_LANGUAGE);
      if (home) { return home; }
    }
    throw error;
  }
}

/**
 * @param {Request} request
 * @param {string} cacheName
 */
async function cacheFirst(request, cacheName) {
  const cached = await caches.match(request, { ignoreSearch: true, ignoreVary: true });
  if (cached) { return cached; }
  const response = await fetch(request);
  if (response.ok) { (await caches.open(cacheName)).put(request, response.clone()); }
  return response;
}

/** @param {Request} request */
async function staleWhileRevalidate(request) {
  const cache = await caches.open(SHELL);
  const cached = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
  const fresh = fetch(request).then((response) => {
    if (response.ok) { cache.put(request, response.clone()); }
    return response;
  }).catch(() => cached || Response.error());
  return cached || fresh;
}

/**
 * How the worker answers a request (pure: node --test runs it): null leaves it to the
 * network untouched; "group" forgets the group in use (a switch, a leave, a join: the
 * request itself goes to the network); the others name a strategy, with the cache or the key.
 * @param {string} method
 * @param {string} href the request's absolute URL
 * @param {string} origin this worker's origin
 * @param {boolean} htmx whether it is htmx's request (HX-Request)
 * @returns {null | {use: "group"} | {use: "cache-first", cache: string} | {use: "stale"} |
 *   {use: "local"} | {use: "network-first", key: string}}
 */
function routeOf(method, href, origin, htmx) {
  const url = new URL(href);
  const path = url.pathname;
  if (method === "POST" && /^\/(groups\/(switch|leave)|join)$/.test(path)) { return { use: "group" }; }
  if (method !== "GET" || url.origin !== origin) { return null; }
  const core = path === "/offline/core.zip" || /^\/offline\/catalog\/[a-z]{2}$/.test(path);
  if (path.startsWith("/static/vendor/pyodide/") || core) {
    return { use: "cache-first", cache: core ? SHELL : VENDOR };
  }
  if (path.startsWith("/static/") || path === "/manifest.webmanifest") { return { use: "stale" }; }
  if (/^\/matches\/-\d+(\/|$)/.test(path)) { return { use: "local" }; }  // the server has none of it
  if (htmx || url.searchParams.has("since")) { return null; }
  const page = path === "/" || path === HELP_PAGE || path === "/matches/new" || path === "/import" ||
    /^\/matches\/\d+(\/deals\/(new|\d+)(\/edit)?)?$/.test(path) ||
    /^\/play(\/here|\/\d+)?$/.test(path) || /^\/players(\/[^/]+)?$/.test(path);
  const json = /^\/api\/matches\/\d+$/.test(path) || path === "/api/matches";
  if (!page && !json) { return null; }
  // The sheet after a change (?done=1) is kept as the plain sheet.
  const key = url.searchParams.has("done") || url.searchParams.has("undo") ? path : path + url.search;
  return { use: "network-first", key };
}

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  const route = routeOf(request.method, request.url, sw.location.origin, !!request.headers.get("HX-Request"));
  if (!route) { return; }
  if (route.use === "group") {
    event.waitUntil(useGroup("?")); // which group comes next is known from its first page
  } else if (route.use === "cache-first") {
    event.respondWith(cacheFirst(request, route.cache));
  } else if (route.use === "stale") {
    event.respondWith(staleWhileRevalidate(request));
  } else if (route.use === "local") {
    event.respondWith(localPage(new URL(request.url)));
  } else {
    event.respondWith(networkFirst(request, route.key));
  }
});
