// The outbox's merge decision (outbox.js): what to send for a change made on this device,
// given the match as the server has it now. Pure: no page, no storage (node --test runs it,
// in English).
import { _ } from "./i18n.js";

/** A deal as the match format writes it (docs/formats.md).
 * @typedef {{piles?: Record<string, {cards?: string[], count?: number, coins?: string[]}>,
 *   categories?: Record<string, string | string[] | null>,
 *   sweeps?: Record<string, number>, last_capture?: string | null}} Deal */

/** The match as this device saw it when the change was made.
 * @typedef {{version?: number, count?: number, deal?: Deal, rules?: Record<string, unknown>}} Base */

/** The exact request an entry sends (resent as it is, so that a lost answer counts once).
 * @typedef {{url: string | null, method: string, body: string, type: string}} Sent */

/** Why an entry waits for the person's choice.
 * @typedef {{type: "appended", theirs: Deal[], count: number}
 *   | {type: "edited", theirs: Deal | null, number: number}
 *   | {type: "rules", settings: {name: string, mine: unknown, theirs: unknown}[]}} Conflict */

/** A change kept in the outbox (outbox.js).
 * @typedef {object} Entry
 * @property {number} [seq] its place in the outbox (IndexedDB's key)
 * @property {string} [key] its Idempotency-Key
 * @property {number} match the match's id
 * @property {"add" | "replace" | "delete" | "restore" | "rules" | "create" | "import"} kind
 * @property {number} [number] the deal (replace, delete)
 * @property {number} [removed_id] the removed deal (restore)
 * @property {number} [local_removed] a deletion made here: the id its removed deal has here
 * @property {any} [body] the deal or the settings, as JSON
 * @property {Record<string, string[]>} [fields] a deal's form fields, kept while the scorer started
 * @property {string} [draft] the form's draft this deal came from
 * @property {{version: number, count: number}} [seen] what the deal form showed
 * @property {Base} [base] the match as this device saw it
 * @property {Sent | null} [sent] the request last tried
 * @property {string} [label] what the sheet says of it
 * @property {string} [at] when it was made (ISO 8601)
 * @property {Conflict | null} [conflict]
 * @property {string | null} [error] why the server (or the device's check) refused it
 * @property {boolean} [refused_here] refused by the check on this device
 * @property {boolean} [accept_after] added after another device's deals all the same
 * @property {boolean} [force] kept over another device's edit
 * @property {boolean} [accept_rules] the settings kept over another device's
 */

/** The match as the server has it (GET /api/matches/{id}).
 * @typedef {{id: number, version: number, match: {deals: Deal[], rules: Record<string, unknown>},
 *   removed?: unknown, sheet?: any, updated_at?: string}} Stored */

/** What to do with an entry now.
 * @typedef {{request: Sent} | {drop: string} | {conflict: Conflict}} Plan */

/**
 * A JSON text of `value` with the keys of every object sorted: equal values, equal texts.
 * @param {unknown} value
 * @returns {string}
 */
export function canonical(value) {
  if (Array.isArray(value)) { return "[" + value.map(canonical).join(",") + "]"; }
  if (value && typeof value === "object") {
    return "{" + Object.keys(value).sort().map(function (k) {
      return JSON.stringify(k) + ":" + canonical(/** @type {Record<string, unknown>} */ (value)[k]);
    }).join(",") + "}";
  }
  return JSON.stringify(value === undefined ? null : value);
}

/**
 * Whether two JSON values are equal.
 * @param {unknown} a
 * @param {unknown} b
 */
export function same(a, b) { return canonical(a) === canonical(b); }

/**
 * @param {string} url
 * @param {string} method
 * @param {unknown} body
 * @returns {Sent}
 */
function json(url, method, body) {
  return { url: url, method: method, body: JSON.stringify(body), type: "application/json" };
}

/**
 * What to send now for an entry, given the match as the server has it (fresh): a request,
 * nothing (dropped), or a conflict. Unrelated changes merge; the rest ask the person.
 * @param {Entry} entry
 * @param {Stored} now
 * @returns {Plan}
 */
export function resolve(entry, now) {
  /** @type {Base} */
  var base = entry.base || {};
  var deals = now.match.deals;
  var api = "/api/matches/" + entry.match;
  var version = now.version;
  /** @param {Deal[]} list @param {Deal} deal */
  function at(list, deal) {
    for (var i = 0; i < list.length; i++) { if (same(list[i], deal)) { return i + 1; } }
    return 0;
  }
  if (entry.kind === "add") {
    var count = base.count;
    if (count !== undefined && deals.length > count && !entry.accept_after) {
      return { conflict: { type: "appended", theirs: deals.slice(count), count: deals.length } };
    }
    return { request: json(api + "/deals", "POST", Object.assign({}, entry.body, { version: version })) };
  }
  if (entry.kind === "replace" || entry.kind === "delete") {
    var n = entry.number || 0;
    var where = base.deal ? at(deals, base.deal) : n;
    if (entry.force) { where = Math.min(n, deals.length); }
    if (!where) {
      if (entry.kind === "delete") { return { drop: _("deal {number} was already changed or deleted on another device", { number: n }) }; }
      var theirs = n <= deals.length ? deals[n - 1] : null;
      return { conflict: { type: "edited", theirs: theirs, number: n } };
    }
    if (entry.kind === "delete") { return { request: json(api + "/deals/" + where, "DELETE", { version: version }) }; }
    return { request: json(api + "/deals/" + where, "PUT", Object.assign({}, entry.body, { version: version })) };
  }
  if (entry.kind === "restore") {
    return { request: json(api + "/removed/" + entry.removed_id + "/restore", "POST", { version: version }) };
  }
  if (entry.kind === "rules") {
    /** @type {Record<string, unknown>} */
    var rules = base.rules || {};
    var clash = Object.keys(entry.body).filter(function (name) {
      var was = rules[name], theirs = now.match.rules[name], mine = entry.body[name];
      return !entry.accept_rules && was !== undefined && !same(was, theirs) && !same(theirs, mine);
    });
    if (clash.length) {
      return { conflict: { type: "rules", settings: clash.map(function (name) {
        return { name: name, mine: entry.body[name], theirs: now.match.rules[name] };
      }) } };
    }
    return { request: json(api + "/rules", "PATCH", Object.assign({}, entry.body, { version: version })) };
  }
  return { drop: _("unknown change") };
}

