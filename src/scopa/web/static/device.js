// The device's side of the sheet: the scorer (the project's Python core in a Pyodide module
// worker, scorer.js) and the queue of changes made on this device (kept in the outbox,
// outbox.js, and scored here until the server has them).
import { language } from "./i18n.js";
import { outbox } from "./outbox.js";
import { expose } from "./util.js";

// --- the scorer: the project's Python core in a Pyodide module worker ---------------------
function makeScorer() {
  var worker = null, calls = {}, nextId = 1, readyResolve, readyReject, scorer;
  var scorerReady = new Promise(function (resolve, reject) { readyResolve = resolve; readyReject = reject; });
  scorerReady.catch(function () { /* reported on use */ });
  function startScorer() {
    if (worker) { return scorerReady; }
    if (!window.Worker) { readyReject(new Error("this browser cannot run the device's scorer")); return scorerReady; }
    try {
      worker = new Worker("/static/scorer.js", { type: "module", name: "sheet:" + language });
    } catch (error) { readyReject(error); return scorerReady; }
    worker.onmessage = function (event) {
      var data = event.data || {};
      if (data.ready !== undefined) {
        Object.assign(scorer, { coldMs: data.ready, restored: data.restored, phases: data.phases });
        readyResolve(data.ready);
        return;
      }
      if (data.snapshot !== undefined) { scorer.snapshot = data.snapshot; return; }
      if (data.failed) { readyReject(new Error(data.failed)); return; }
      var waiting = calls[data.id];
      if (!waiting) { return; }
      delete calls[data.id];
      if (data.failure) { waiting.reject(new Error(data.failure)); } else { waiting.resolve(data.result); }
    };
    worker.onerror = function (event) { readyReject(new Error(event.message || "the scorer failed to start")); };
    return scorerReady;
  }
  function callScorer(op, payload) {
    startScorer();
    if (!worker) { return scorerReady.then(function () { return callScorer(op, payload); }); }
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      calls[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, op: op, payload: payload });
    });
  }
  scorer = { call: callScorer, start: startScorer, ready: scorerReady, coldMs: null, isReady: false,
             started: function () { return !!worker; } };
  scorerReady.then(function () { scorer.isReady = true; }, function () { /* */ });
  return scorer;
}
// One per window: a page shown in place (util.js showPage) keeps the worker, warm or starting.
export var scorer = makeScorer();
expose("scorer", scorer);
function call(op, payload) { return scorer.call(op, payload); }

export function formRequest(form) {
  return { url: form.getAttribute("action"), method: "POST", type: "application/x-www-form-urlencoded",
           body: new URLSearchParams(new FormData(form)).toString() };
}

// A deal kept while the scorer was still starting holds the form's fields: read them now
// (the same reader as the server's). Refused: the entry says why and the form's draft is back.
function readKept(base, list) {
  var raw = list.filter(function (e) { return e.fields && !e.body && !e.conflict && !e.error; });
  return raw.reduce(function (done, e) {
    return done.then(function () {
      return call("check", { match: base.match, fields: e.fields, number: e.number || null });
    }).then(function (result) {
      if (result.ok) { e.body = result.deal; return outbox.update(e); }
      var messages = Object.keys(result.errors || {}).map(function (k) { return result.errors[k]; });
      e.refused_here = true;
      e.error = (messages[0] || result.error || "the deal is not complete") + " (the form keeps what was typed)";
      return outbox.draft.put(e.draft, e.fields).then(function () { return outbox.update(e); });
    });
  }, Promise.resolve()).then(function () { return raw.length; });
}

// The match as this device has it: the last copy from the server and the changes waiting.
export function localState(matchId) {
  return Promise.all([outbox.match(matchId), outbox.entries(matchId)]).then(function (got) {
    var base = got[0];
    if (!base) { return null; }
    var read = 0;
    return readKept(base, got[1]).then(function (n) { read = n; return outbox.entries(matchId); })
      .then(function (list) { return stateOf(base, list); })
      .then(function (state) { state.read = read; return state; });
  });
}

function stateOf(base, list) {
  var open = list.filter(function (e) { return !e.conflict && !e.error; });
  var changes = open.map(function (e) {
    return { kind: e.kind, number: e.number, body: e.body, removed_id: e.removed_id, local_removed: e.local_removed };
  });
  if (!changes.length) {
    return { match: base.match, removed: base.removed, sheet: base.sheet, base: base, pending: 0 };
  }
  return call("apply", { match: base.match, removed: base.removed, changes: changes }).then(function (r) {
    r.base = base; r.pending = changes.length;
    r.labels = open.map(function (e) { return e.label || e.kind; });
    return r;
  });
}

function baseOf(state, number) {
  var m = state.match;
  return { version: state.base.version, count: m.deals.length, rules: m.rules,
           deal: number ? m.deals[number - 1] : undefined };
}

// What this device saw, without the scorer (it is still starting): the last copy from the
// server and the count of deals the changes waiting make. Null when only the scorer can say
// (a deal edited while other changes wait).
function quickBase(matchId, change) {
  return Promise.all([outbox.match(matchId), outbox.entries(matchId)]).then(function (got) {
    var stored = got[0], list = got[1].filter(function (e) { return !e.conflict && !e.error; });
    var seen = change.seen; // what the form showed: {version, count} (a new deal)
    if ((!stored && !seen) || (change.number && (list.length || !stored))) { return null; }
    var count = seen ? seen.count : stored.match.deals.length;
    list.forEach(function (e) { count += e.kind === "add" || e.kind === "restore" ? 1 : e.kind === "delete" ? -1 : 0; });
    return { version: seen ? seen.version : stored.version, count: count, rules: stored ? stored.match.rules : undefined,
             deal: change.number ? stored.match.deals[change.number - 1] : undefined };
  });
}

// Queue one change of the sheet's forms (form: the posted form; change: what it does).
export function queue(matchId, form, change) {
  if (change.fields && !scorer.isReady) {
    return quickBase(matchId, change).then(function (base) {
      if (!base) { delete change.fields; return null; }
      var entry = Object.assign({ match: matchId, sent: form ? formRequest(form) : null, base: base }, change);
      return outbox.add(entry).then(function () { return entry; });
    });
  }
  if (change.kind === "add" && change.body) {
    // A new deal needs only the count of deals it was recorded after: read from the kept
    // copy and the changes waiting, without the scorer (the sheet re-scores it once, below).
    return quickBase(matchId, change).then(function (base) {
      if (!base) { return queueScored(matchId, form, change); }
      var entry = Object.assign({ match: matchId, sent: form ? formRequest(form) : null, base: base }, change);
      return outbox.add(entry).then(function () { return entry; });
    });
  }
  return queueScored(matchId, form, change);
}

function queueScored(matchId, form, change) {
  return localState(matchId).then(function (state) {
    if (!state) { throw new Error("this match is not kept on this device yet"); }
    var entry = Object.assign({ match: matchId, sent: form ? formRequest(form) : null,
                                base: baseOf(state, change.number) }, change);
    if (entry.kind === "delete") { entry.local_removed = -Date.now(); }
    return outbox.add(entry).then(function () { return entry; });
  });
}
// The deal form's warm scorer hands the sheet it opens the state it computed, so the sheet
// shows the change at once instead of waiting for its own worker (valid for the same outbox).
function openSeqs(list) {
  return list.filter(function (e) { return !e.conflict && !e.error; }).map(function (e) { return e.seq; }).join(",");
}
export function handOver(matchId) {
  return Promise.all([localState(matchId), outbox.entries(matchId)]).then(function (got) {
    var state = got[0];
    if (!state || !state.sheet) { return; }
    var kept = { sheet: state.sheet, labels: state.labels, pending: state.pending, base: { id: state.base.id },
                 match: { rules: state.match.rules }, rules_line: state.rules_line };
    try { sessionStorage.setItem("scopa-state-" + matchId, JSON.stringify({ seqs: openSeqs(got[1]), state: kept })); }
    catch (_) { /* no room: the sheet scores it itself */ }
  }).catch(function () { /* the sheet scores it itself */ });
}
export function handedOver(matchId, list) {
  var key = "scopa-state-" + matchId, saved;
  try { saved = JSON.parse(sessionStorage.getItem(key) || "null"); sessionStorage.removeItem(key); } catch (_) { saved = null; }
  return saved && saved.seqs === openSeqs(list) ? saved.state : null;
}
