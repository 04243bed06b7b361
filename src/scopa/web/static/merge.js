// The shapes of the outbox's changes (outbox.js), and JSON equality. The merge decision is
// not here: it is defined once, in Python (scopa.changes.resolve), and the server applies it
// to each change the outbox sends (POST /api/matches/{id}/changes, docs/offline.md).

/** A deal as the match format writes it (docs/formats.md).
 * @typedef {{piles?: Record<string, {cards?: string[], count?: number, coins?: string[]}>,
 *   categories?: Record<string, string | string[] | null>,
 *   sweeps?: Record<string, number>, last_capture?: string | null}} Deal */

/** The match as this device saw it when the change was made (deal_id: the identity of the
 * deal changed, so that identical deals never mix).
 * @typedef {{version?: number, count?: number, deal?: Deal, deal_id?: number,
 *   rules?: Record<string, unknown>}} Base */

/** The exact request an entry sends (resent as it is, so that a lost answer counts once).
 * @typedef {{url: string | null, method: string, body: string, type: string}} Sent */

/** Why an entry waits for the person's choice (the server's answer, scopa.changes.resolve).
 * @typedef {{type: "appended", theirs: Deal[], count: number}
 *   | {type: "edited", theirs: Deal | null, number: number, fields?: string[], refused?: string}
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
 * @property {boolean} [offline] made while the server could not be reached
 */

/** The match as the server has it (GET /api/matches/{id}).
 * @typedef {{id: number, version: number, match: {deals: Deal[], rules: Record<string, unknown>,
 *   players?: string[], seat_kinds?: ({kind?: string, number?: number | null} | null)[] | null},
 *   deal_ids?: number[], removed?: {id: number, number: number}[], sheet?: any,
 *   updated_at?: string}} Stored */

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
