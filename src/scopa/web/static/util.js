// Small helpers every page script shares: queries, start-up, a new Idempotency-Key, a page
// answered by a fetch shown in place, and the handles kept on window.scopa for the tests and
// the console (nothing in the page reads them: the modules import each other).

/** The first element matching `selector` under `root` (the document by default). */
export function $(selector, root) { return (root || document).querySelector(selector); }

/** Every element matching `selector` under `root`, as an array. */
export function $all(selector, root) { return Array.from((root || document).querySelectorAll(selector)); }

/** Runs `fn` once the document is parsed, and again whenever showPage() puts a new page in. */
export function onPage(fn) {
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", fn); } else { fn(); }
  document.addEventListener("scopa:page", fn);
}

/** A new Idempotency-Key. */
export function newKey() {
  if (self.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
  return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
}

/** A page the server answered to a fetch (a refused form, with its errors), shown in place of
 * this one. The window and its modules stay (a module runs once per window, so the page's
 * set-up runs again through onPage). */
export function showPage(html) {
  var page = new DOMParser().parseFromString(html, "text/html");
  document.title = page.title;
  document.body.replaceWith(document.adoptNode(page.body));
  if (window.htmx) { window.htmx.process(document.body); }
  document.dispatchEvent(new Event("scopa:page"));
}

/** Keeps `value` as window.scopa[name], for the tests and the console. */
export function expose(name, value) {
  var handles = window.scopa || (window.scopa = {});
  handles[name] = value;
}
