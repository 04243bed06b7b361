// Nothing typed is lost: the outbox of changes, kept in IndexedDB (it survives a closed tab
// and a restarted phone), sent in order when the server answers, each with its
// Idempotency-Key. Also the drafts of the deal form and the last copy of each match.
//
// An entry: {seq, key, match, kind: "add"|"replace"|"delete"|"restore"|"rules", number,
//   removed_id, body (the deal or the settings, as JSON), base ({version, count, deal, rules}:
//   the match as this device saw it), sent ({url, method, body, type}: the exact request last
//   tried, resent as it is so that a lost answer is never a second deal), label, conflict, error}
import { openDB } from "./vendor/idb/index.js";
import { resolve, same } from "./merge.js";
import { expose, newKey } from "./util.js";

var DB_NAME = "scopa";
/** @type {Promise<import("./vendor/idb/index.js").IDBPDatabase> | null} */
var dbPromise = null;

function db() {
  if (!dbPromise) {
    dbPromise = openDB(DB_NAME, 1, {
      upgrade: function (d) {
        d.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true });
        d.createObjectStore("drafts", { keyPath: "id" });
        d.createObjectStore("matches", { keyPath: "id" });
      },
    });
  }
  return dbPromise;
}

function all(store) { return db().then(function (d) { return d.getAll(store); }); }
function get(store, key) { return db().then(function (d) { return d.get(store, key); }); }
function put(store, value) { return db().then(function (d) { return d.put(store, value); }); }
function remove(store, key) { return db().then(function (d) { return d.delete(store, key); }); }

var listeners = [];
function changed() { listeners.forEach(function (fn) { try { fn(); } catch (_) { /* next */ } }); }

function entries(matchId) {
  return all("outbox").then(function (list) {
    list.sort(function (a, b) { return a.seq - b.seq; });
    return matchId == null ? list : list.filter(function (e) { return e.match === matchId; });
  });
}

function add(entry) {
  entry.key = entry.key || newKey();
  entry.at = entry.at || new Date().toISOString();
  // Restoring a deal deleted on this device while the deletion still waits: both vanish.
  if (entry.kind === "restore" && entry.removed_id < 0) {
    return entries(entry.match).then(function (list) {
      var del = list.filter(function (e) { return e.kind === "delete" && e.local_removed === entry.removed_id; })[0];
      return (del ? remove("outbox", del.seq) : Promise.resolve()).then(changed);
    });
  }
  return put("outbox", entry).then(function (seq) { changed(); return seq; });
}

// --- sending -----------------------------------------------------------------------------

function fresh(matchId) {
  return fetch("/api/matches/" + matchId, { cache: "no-store", credentials: "same-origin" })
    .then(function (r) {
      if (!r.ok) { var e = new Error("status " + r.status); e.status = r.status; throw e; }
      return r.json();
    })
    .then(function (body) { return remember(body).then(function () { return body; }); });
}

function remember(body) {
  return put("matches", { id: body.id, body: body, at: Date.now() });
}

function send(entry) {
  var s = entry.sent;
  // The small answer (what changed): the outbox patches its copy of the match with it.
  var headers = { "Idempotency-Key": entry.key, "Prefer": "return=minimal" };
  if (s.type) { headers["Content-Type"] = s.type; }
  return fetch(s.url, { method: s.method, body: s.body, headers: headers, credentials: "same-origin" });
}

var flushing = null;
function flush() {
  if (flushing) { return flushing; }
  flushing = run().then(function (r) { flushing = null; changed(); return r; },
                        function (e) { flushing = null; changed(); throw e; });
  return flushing;
}

function run() {
  return entries(null).then(function (list) {
    var blocked = {};
    var sentAny = false;
    function next(i) {
      if (i >= list.length) { return { sent: sentAny }; }
      var entry = list[i];
      if (blocked[entry.match] || entry.conflict || entry.error) {
        blocked[entry.match] = true;
        return next(i + 1);
      }
      return one(entry, 0).then(function (outcome) {
        if (outcome === "sent") { sentAny = true; }
        if (outcome !== "sent" && outcome !== "dropped") { blocked[entry.match] = true; }
        if (outcome === "offline") { return { sent: sentAny, offline: true }; }
        return next(i + 1);
      });
    }
    return next(0);
  });
}

function one(entry, tries) {
  if (tries > 4) { return Promise.resolve("blocked"); }
  var attempt;
  if (entry.sent) {
    attempt = send(entry).then(function (response) {
      if (response.ok) {
        return remove("outbox", entry.seq).then(function () { return refreshAfter(entry, response); });
      }
      if (response.status === 409) {
        entry.sent = null; entry.key = newKey();
        // A deal kept as typed (the scorer was starting) waits until the scorer has read it.
        var unread = entry.fields && !entry.body;
        return put("outbox", entry).then(function () { return unread ? "blocked" : one(entry, tries + 1); });
      }
      if (response.status === 404 && entry.kind === "restore") {
        return remove("outbox", entry.seq).then(function () { return "dropped"; });
      }
      return response.text().then(function (text) {
        var message;
        try { message = JSON.parse(text).error || text; } catch (_) { message = "the server refused the change (" + response.status + ")"; }
        entry.error = message;
        return put("outbox", entry).then(function () { return "refused"; });
      });
    });
  } else if (entry.fields && !entry.body) {
    return Promise.resolve("blocked");
  } else {
    attempt = fresh(entry.match).then(function (now) {
      var plan = resolve(entry, now);
      if (plan.drop) { return remove("outbox", entry.seq).then(function () { return "dropped"; }); }
      if (plan.conflict) {
        entry.conflict = plan.conflict;
        return put("outbox", entry).then(function () { return "conflict"; });
      }
      entry.sent = plan.request;
      return put("outbox", entry).then(function () { return one(entry, tries + 1); });
    }, function (error) {
      if (error.status === 404) {
        entry.error = "this match was deleted on another device";
        return put("outbox", entry).then(function () { return "refused"; });
      }
      throw error;
    });
  }
  return attempt.catch(function () { return "offline"; });
}

/**
 * The copy of the match kept for offline use, brought up to date from a small answer
 * (Prefer: return=minimal): a deal recorded on the copy it was based on is added to it with
 * its row; anything else (an edit, another device's change in between) reads the match afresh.
 * @param {any} entry
 * @param {any} small
 */
function patch(entry, small) {
  return get("matches", entry.match).then(function (kept) {
    var body = kept && kept.body;
    if (!body || entry.kind !== "add" || body.version !== small.version - 1 ||
        body.match.deals.length !== small.deals - 1 || !entry.body) {
      return fresh(entry.match);
    }
    body.match.deals.push(entry.body);
    body.sheet.deals = body.sheet.deals.slice(0, small.from - 1).concat(small.rows);
    ["sides", "totals", "status", "winner", "decided_at"].forEach(function (key) {
      body.sheet[key] = small[key];
    });
    body.version = small.version;
    body.updated_at = small.updated_at;
    return remember(body);
  });
}

function refreshAfter(entry, response) {
  var type = response.headers.get("content-type") || "";
  var done = type.indexOf("application/json") >= 0
    ? response.json().then(function (body) {
      if (body && body.version) { mine.add(entry.match, body.version); }
      if (body && body.match) { return remember(body); }
      if (body && body.rows) { return patch(entry, body); }
    })
    : response.text().then(function (html) {
      mine.fromHtml(entry.match, html);
      return fresh(entry.match);
    }).catch(function () { /* next time */ });
  return done.then(function () { return "sent"; });
}

// --- choices after a conflict -------------------------------------------------------------

function choose(seq, choice) {
  return get("outbox", seq).then(function (entry) {
    if (!entry) { return; }
    if (choice === "discard") { return remove("outbox", seq).then(changed); }
    var c = entry.conflict || {};
    if (c.type === "appended") { entry.accept_after = true; }
    if (c.type === "edited") { entry.force = true; }
    if (c.type === "rules") {
      entry.accept_rules = true;
      if (choice && choice.indexOf("theirs:") === 0) {
        var name = choice.slice(7);
        delete entry.body[name];
        if (!Object.keys(entry.body).length) { return remove("outbox", seq).then(changed); }
        entry.accept_rules = false;
        entry.base = entry.base || {};
        entry.base.rules = Object.assign({}, entry.base.rules || {});
        delete entry.base.rules[name];
      }
    }
    entry.conflict = null; entry.error = null; entry.sent = null; entry.key = newKey();
    return put("outbox", entry).then(changed);
  });
}

// The versions this device's own changes made (any tab): a live update to one of them is
// not "another device". Kept in localStorage, the last few per match.
var MINE = "scopa-mine";
function mineAll() { try { return JSON.parse(localStorage.getItem(MINE) || "{}"); } catch (_) { return {}; } }
var mine = {
  add: function (matchId, version) {
    if (!matchId || !version) { return; }
    var all = mineAll(), list = all[matchId] || [];
    if (list.indexOf(Number(version)) < 0) { list.push(Number(version)); }
    all[matchId] = list.slice(-20);
    try { localStorage.setItem(MINE, JSON.stringify(all)); } catch (_) { /* full: it only words a note */ }
  },
  drop: function (matchId, version) {
    var all = mineAll();
    all[matchId] = (all[matchId] || []).filter(function (v) { return v !== Number(version); });
    try { localStorage.setItem(MINE, JSON.stringify(all)); } catch (_) { /* */ }
  },
  has: function (matchId, version) { return (mineAll()[matchId] || []).indexOf(Number(version)) >= 0; },
  fromHtml: function (matchId, html) {
    var found = /id="sheet"[^>]*data-version="(\d+)"/.exec(html || "");
    if (found) { mine.add(matchId, found[1]); }
  },
};

export { mine };

export var outbox = {
  add: add,
  update: function (entry) { return put("outbox", entry).then(changed); },
  entries: entries,
  flush: flush,
  choose: choose,
  remember: remember,
  fresh: fresh,
  match: function (id) { return get("matches", id).then(function (r) { return r && r.body; }); },
  draft: {
    get: function (id) { return get("drafts", id).then(function (r) { return r && r.fields; }); },
    put: function (id, fields) { return put("drafts", { id: id, fields: fields, at: Date.now() }); },
    drop: function (id) { return remove("drafts", id); },
  },
  onChange: function (fn) { listeners.push(fn); },
  newKey: newKey,
  same: same,
};
expose("outbox", outbox);
