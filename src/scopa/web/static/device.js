// The device's side of the sheet: the scorer (the project's Python core in a Pyodide module
// worker, scorer.js) and the queue of changes made on this device (kept in the outbox,
// outbox.js, and scored here until the server has them).
import { _ } from "./i18n.js";
import { outbox } from "./outbox.js";
import { PyWorker } from "./pyworker.js";
import { expose, formBody } from "./util.js";

// --- the scorer: the project's Python core in a Pyodide module worker ---------------------
// One per window: a page shown in place (util.js showPage) keeps the worker, warm or starting.
export var scorer = new PyWorker("", _("this browser cannot run the device's scorer"));
expose("scorer", scorer);
/**
 * @param {string} op
 * @param {unknown} payload
 */
function call(op, payload) { return scorer.call(op, payload); }

/** @typedef {import("./merge.js").Entry} Entry */
/** @typedef {import("./merge.js").Stored} Stored */
/** @typedef {import("./merge.js").Base} Base */
/** The match as this device has it: the worker's answer to "apply" (docs/offline.md), or
 * the last copy from the server when nothing waits. JSON as the server writes it.
 * @typedef {object} State
 * @property {any} match the match, with the changes waiting
 * @property {unknown} [removed] its removed deals
 * @property {any} sheet its sheet
 * @property {string} [dealer] who deals the next deal, as the core says it (Match.next_dealer)
 * @property {string} [rules_line] the house rules, in words
 * @property {Stored} base the last copy from the server
 * @property {number} pending how many changes wait
 * @property {string[]} [labels] what each change waiting is
 * @property {string[]} [notes] what the changes waiting did, as the server says it
 * @property {string} [chart] the sheet's chart (SVG), drawn by the server's code
 * @property {number} [read] deals kept as typed that the scorer read just now
 * @property {number[]} [deal_ids] each deal's identity on the server (0: not sent yet)
 */
/** A change of the sheet's forms, before it is kept (outbox.js Entry, less its match).
 * @typedef {Omit<Entry, "match">} Change */

/**
 * The request a form would make (resent as it is).
 * @param {HTMLFormElement} form
 * @returns {import("./merge.js").Sent}
 */
export function formRequest(form) {
  return { url: form.getAttribute("action"), method: "POST", type: "application/x-www-form-urlencoded",
           body: formBody(form).toString() };
}

// A deal kept while the scorer was still starting holds the form's fields: read them now
// (the same reader as the server's). Refused: the entry says why and the form's draft is back.
/**
 * @param {Stored} base
 * @param {Entry[]} list
 * @returns {Promise<number>}
 */
function readKept(base, list) {
  var raw = list.filter(function (e) { return e.fields && !e.body && !e.conflict && !e.error; });
  return raw.reduce(function (/** @type {Promise<unknown>} */ done, e) {
    return done.then(function () {
      return call("check", { match: base.match, fields: e.fields, number: e.number || null });
    }).then(function (result) {
      if (result.ok) { e.body = result.deal; return outbox.update(e); }
      /** @type {Record<string, string>} */
      var errors = result.errors || {};
      var messages = Object.keys(errors).map(function (k) { return errors[k]; });
      e.refused_here = true;
      e.error = (messages[0] || result.error || _("the deal is not complete")) + " " + _("(the form keeps what was typed)");
      return outbox.draft.put(e.draft || "", e.fields || {}).then(function () { return outbox.update(e); });
    });
  }, Promise.resolve()).then(function () { return raw.length; });
}

// The match as this device has it: the last copy from the server and the changes waiting.
/**
 * @param {number} matchId
 * @returns {Promise<State | null>}
 */
export function localState(matchId) {
  return Promise.all([outbox.match(matchId), outbox.entries(matchId)]).then(function (got) {
    const base = got[0];
    if (!base) { return null; }
    var read = 0;
    return readKept(base, got[1]).then(function (n) { read = n; return outbox.entries(matchId); })
      .then(function (list) { return stateOf(base, list); })
      .then(function (state) { state.read = read; return state; });
  });
}

/**
 * @param {Stored} base
 * @param {Entry[]} list
 * @returns {State | Promise<State>}
 */
function stateOf(base, list) {
  var open = list.filter(function (e) { return !e.conflict && !e.error; });
  var ids = localIds(base, open);
  var changes = open.map(function (e) {
    return { kind: e.kind, number: e.number, body: e.body, removed_id: e.removed_id, local_removed: e.local_removed };
  });
  if (!changes.length) {
    return { match: base.match, removed: base.removed, sheet: base.sheet, base: base, pending: 0, deal_ids: ids };
  }
  return call("apply", { match: base.match, removed: base.removed, changes: changes }).then(function (/** @type {State} */ r) {
    r.base = base; r.pending = changes.length; r.deal_ids = ids;
    r.labels = open.map(function (e) { return e.label || e.kind; });
    return r;
  });
}

/**
 * Each deal's identity on the server as this device numbers its deals now (the changes
 * waiting applied; 0: a deal not sent yet), so that a change names the deal it was made on
 * and identical deals never mix.
 * @param {Stored} base
 * @param {Entry[]} open
 * @returns {number[]}
 */
function localIds(base, open) {
  var ids = (base.deal_ids || []).slice();
  open.forEach(function (e) {
    if (e.kind === "add") { ids.push(0); }
    else if (e.kind === "delete" && e.number) { ids.splice(e.number - 1, 1); }
    else if (e.kind === "restore") {
      var back = (base.removed || []).filter(function (r) { return r.id === e.removed_id; })[0];
      var at = Math.min(back ? back.number || 1 : 1, ids.length + 1);
      ids.splice(at - 1, 0, (e.removed_id || 0) > 0 ? e.removed_id || 0 : 0);
    }
  });
  return ids;
}

/**
 * @param {State} state
 * @param {number} [number]
 * @returns {Base}
 */
function baseOf(state, number) {
  var m = state.match;
  /** @type {Base} */
  var base = { version: state.base.version, count: m.deals.length, rules: m.rules,
               deal: number ? m.deals[number - 1] : undefined };
  var id = number && state.deal_ids ? state.deal_ids[number - 1] : 0;
  if (id) { base.deal_id = id; }
  return base;
}

// What this device saw, without the scorer (it is still starting): the last copy from the
// server and the count of deals the changes waiting make. Null when only the scorer can say
// (a deal edited while other changes wait).
/**
 * @param {number} matchId
 * @param {Change} change
 * @returns {Promise<Base | null>}
 */
function quickBase(matchId, change) {
  return Promise.all([outbox.match(matchId), outbox.entries(matchId)]).then(function (got) {
    var stored = got[0], list = got[1].filter(function (e) { return !e.conflict && !e.error; });
    var seen = change.seen; // what the form showed: {version, count} (a new deal)
    if (!stored && !seen) { return null; }
    if (change.number && (list.length || !stored)) { return null; }
    var count = seen ? seen.count : stored ? stored.match.deals.length : 0;
    list.forEach(function (e) { count += e.kind === "add" || e.kind === "restore" ? 1 : e.kind === "delete" ? -1 : 0; });
    var id = change.number && stored && stored.deal_ids ? stored.deal_ids[change.number - 1] : 0;
    return { version: seen ? seen.version : stored ? stored.version : undefined, count: count,
             rules: stored ? stored.match.rules : undefined,
             deal: change.number && stored ? stored.match.deals[change.number - 1] : undefined,
             deal_id: id || undefined };
  });
}

/**
 * Queue one change of the sheet's forms (form: the posted form; change: what it does): the
 * entry kept, or null when only the scorer can say what it does (it is still starting).
 * @param {number} matchId
 * @param {HTMLFormElement | null} form
 * @param {Change} change
 * @returns {Promise<Entry | null>}
 */
export function queue(matchId, form, change) {
  if (change.fields && !scorer.isReady) {
    return quickBase(matchId, change).then(function (base) {
      if (!base) { delete change.fields; return null; }
      /** @type {Entry} */
      var entry = Object.assign({ match: matchId, sent: form ? formRequest(form) : null, base: base, offline: true }, change);
      return outbox.add(entry).then(function () { return entry; });
    });
  }
  if (change.kind === "add" && change.body) {
    // A new deal needs only the count of deals it was recorded after: read from the kept
    // copy and the changes waiting, without the scorer (the sheet re-scores it once, below).
    return quickBase(matchId, change).then(function (base) {
      if (!base) { return queueScored(matchId, form, change); }
      var entry = Object.assign({ match: matchId, sent: form ? formRequest(form) : null, base: base, offline: true }, change);
      return outbox.add(entry).then(function () { return entry; });
    });
  }
  return queueScored(matchId, form, change);
}

/**
 * @param {number} matchId
 * @param {HTMLFormElement | null} form
 * @param {Change} change
 * @returns {Promise<Entry>}
 */
function queueScored(matchId, form, change) {
  return localState(matchId).then(function (state) {
    if (!state) { throw new Error(_("this match is not kept on this device yet")); }
    /** @type {Entry} */
    var entry = Object.assign({ match: matchId, sent: form ? formRequest(form) : null,
                                base: baseOf(state, change.number), offline: true }, change);
    if (entry.kind === "delete") { entry.local_removed = -Date.now(); }
    return outbox.add(entry).then(function () { return entry; });
  });
}
// The deal form's warm scorer hands the sheet it opens the state it computed, so the sheet
// shows the change at once instead of waiting for its own worker (valid for the same outbox).
/** @param {Entry[]} list */
function openSeqs(list) {
  return list.filter(function (e) { return !e.conflict && !e.error; }).map(function (e) { return e.seq; }).join(",");
}
/** @param {number} matchId */
export function handOver(matchId) {
  return Promise.all([localState(matchId), outbox.entries(matchId)]).then(function (got) {
    var state = got[0];
    if (!state || !state.sheet) { return; }
    // The state as the scorer answered (the match with the changes in, its sheet, who deals
    // next, the notes, the chart): the sheet is drawn from it as from its own; of the server's
    // copy it was made from, only the match's id.
    var kept = Object.assign({}, state, { base: { id: state.base.id } });
    try { sessionStorage.setItem("scopa-state-" + matchId, JSON.stringify({ seqs: openSeqs(got[1]), state: kept })); }
    catch (_) { /* no room: the sheet scores it itself */ }
  }).catch(function () { /* the sheet scores it itself */ });
}
/**
 * @param {number} matchId
 * @param {Entry[]} list
 * @returns {State | null}
 */
export function handedOver(matchId, list) {
  var key = "scopa-state-" + matchId, saved;
  try { saved = JSON.parse(sessionStorage.getItem(key) || "null"); sessionStorage.removeItem(key); } catch (_) { saved = null; }
  return saved && saved.seqs === openSeqs(list) ? saved.state : null;
}
