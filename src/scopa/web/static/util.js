// Small helpers every page script shares: queries, start-up, a new Idempotency-Key, a page
// answered by a fetch shown in place, and the handles kept on window.scopa for the tests and
// the console (nothing in the page reads them: the modules import each other).

/**
 * The first element matching `selector` under `root` (the document by default); with
 * `kind`, only an element of that kind (HTMLInputElement, …).
 * @template {Element} [T=HTMLElement]
 * @param {string} selector
 * @param {ParentNode | null} [root]
 * @param {new () => T} [kind]
 * @returns {T | null}
 */
export function $(selector, root, kind) {
  var found = (root || document).querySelector(selector);
  return found && (!kind || found instanceof kind) ? /** @type {T} */ (found) : null;
}

/**
 * Every element matching `selector` under `root`, as an array; with `kind`, those of that kind.
 * @template {Element} [T=HTMLElement]
 * @param {string} selector
 * @param {ParentNode | null} [root]
 * @param {new () => T} [kind]
 * @returns {T[]}
 */
export function $all(selector, root, kind) {
  var found = Array.from((root || document).querySelectorAll(selector));
  return /** @type {T[]} */ (kind ? found.filter(function (el) { return el instanceof kind; }) : found);
}

/**
 * An element the page has (by its id), of the kind given: an error when it has not.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} kind
 * @returns {T}
 */
export function byId(id, kind) {
  var found = document.getElementById(id);
  if (!(found instanceof kind)) { throw new Error("the page has no " + kind.name + " #" + id); }
  return found;
}

/**
 * A form's control by name, of the kind given (null when it has none of that kind).
 * @template {Element} T
 * @param {HTMLFormElement} form
 * @param {string} name
 * @param {new () => T} kind
 * @returns {T | null}
 */
export function control(form, name, kind) {
  var found = form.elements.namedItem(name);
  return found instanceof kind ? found : null;
}

/**
 * A form's fields as a urlencoded body (what the browser would post).
 * @param {HTMLFormElement} form
 */
export function formBody(form) {
  var body = new URLSearchParams();
  new FormData(form).forEach(function (value, name) { body.append(name, String(value)); });
  return body;
}

/**
 * Runs `fn` once the document is parsed, and again whenever showPage() puts a new page in.
 * @param {() => void} fn
 */
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
/** @param {string} html */
export function showPage(html) {
  var page = new DOMParser().parseFromString(html, "text/html");
  document.title = page.title;
  document.body.replaceWith(document.adoptNode(page.body));
  if (window.htmx) { window.htmx.process(document.body); }
  document.dispatchEvent(new Event("scopa:page"));
}

/** Keeps `value` as window.scopa[name], for the tests and the console. */
/**
 * @param {string} name
 * @param {unknown} value
 */
export function expose(name, value) {
  var handles = window.scopa || (window.scopa = {});
  handles[name] = value;
}

/**
 * `text` as HTML text or a quoted attribute's value: `&`, `<`, `>`, `"` and `'` escaped (the
 * browser's own textContent/innerHTML round trip leaves quotes, so a name could close an
 * attribute).
 * @param {unknown} text
 * @returns {string}
 */
export function esc(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
