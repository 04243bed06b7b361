// Nothing typed is lost: the outbox of changes, kept in IndexedDB (it survives a closed tab
// and a restarted phone), sent in order when the server answers, each with its
// Idempotency-Key. Also the drafts of the deal form and the last copy of each match.
//
// An entry: {seq, key, match, kind: "add"|"replace"|"delete"|"restore"|"rules"|"create"|"import", number,
//   removed_id, body (the deal or the settings, as JSON), base ({version, count, deal, rules}:
//   the match as this device saw it), sent ({url, method, body, type}: the exact request last
//   tried, resent as it is so that a lost answer is never a second deal), label, conflict, error}
import { _ } from "./i18n.js";
import { openDB } from "./vendor/idb/index.js";
import { same } from "./merge.js";
import { expose, newKey } from "./util.js";

/** @typedef {import("./merge.js").Entry} Entry */
/** @typedef {import("./merge.js").Stored} Stored */
/** A deal form's fields as typed (name: its values).
 * @typedef {Record<string, string[]>} Fields */
/** The stores of the database "scopa": the outbox, the deal forms' drafts, the last copy of
 * each match.
 * @typedef {{
 *   outbox: {key: number, value: Entry},
 *   drafts: {key: string, value: {id: string, fields: Fields, at: number}},
 *   matches: {key: number, value: {id: number, body?: Stored, moved?: number, at: number}},
 * }} Schema */
/** @typedef {keyof Schema} Store */
/** What sending one entry came to.
 * @typedef {"sent" | "dropped" | "blocked" | "refused" | "conflict" | "offline"} Outcome */

var DB_NAME = "scopa";
/** @type {Promise<import("./vendor/idb/index.js").IDBPDatabase<Schema>> | null} */
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

/**
 * @template {Store} S
 * @param {S} store
 */
function all(store) { return db().then(function (d) { return d.getAll(store); }); }
/**
 * @template {Store} S
 * @param {S} store
 * @param {Schema[S]["key"]} key
 */
function get(store, key) { return db().then(function (d) { return d.get(store, key); }); }
/**
 * @template {Store} S
 * @param {S} store
 * @param {Schema[S]["value"]} value
 */
function put(store, value) { return db().then(function (d) { return d.put(store, value); }); }
/**
 * @template {Store} S
 * @param {S} store
 * @param {Schema[S]["key"]} key
 */
function remove(store, key) { return db().then(function (d) { return d.delete(store, key); }); }

/** @type {(() => void)[]} */
var listeners = [];
function changed() { listeners.forEach(function (fn) { try { fn(); } catch (_) { /* next */ } }); }

/**
 * The entries waiting, in order: a match's, or (null) all.
 * @param {number | null} matchId
 * @returns {Promise<Entry[]>}
 */
function entries(matchId) {
  return all("outbox").then(function (list) {
    list.sort(function (a, b) { return (a.seq || 0) - (b.seq || 0); });
    return matchId == null ? list : list.filter(function (e) { return e.match === matchId; });
  });
}

/**
 * Keeps a change: its seq (or nothing when it undoes a deletion still waiting).
 * @param {Entry} entry
 * @returns {Promise<number | void>}
 */
function add(entry) {
  entry.key = entry.key || newKey();
  entry.at = entry.at || new Date().toISOString();
  // Restoring a deal deleted on this device while the deletion still waits: both vanish.
  if (entry.kind === "restore" && (entry.removed_id || 0) < 0) {
    return entries(entry.match).then(function (list) {
      var del = list.filter(function (e) { return e.kind === "delete" && e.local_removed === entry.removed_id; })[0];
      return (del && del.seq ? remove("outbox", del.seq) : Promise.resolve()).then(changed);
    });
  }
  return put("outbox", entry).then(function (seq) { changed(); return seq; });
}

// --- sending -----------------------------------------------------------------------------

/** An error with the server's HTTP status. */
class HttpError extends Error {
  /** @param {number} status */
  constructor(status) { super("status " + status); this.status = status; }
}

/**
 * The match as the server has it now, kept as this device's last copy.
 * @param {number} matchId
 * @returns {Promise<Stored>}
 */
function fresh(matchId) {
  return fetch("/api/matches/" + matchId, { cache: "no-store", credentials: "same-origin" })
    .then(function (r) {
      if (!r.ok) { throw new HttpError(r.status); }
      return r.json();
    })
    .then(function (body) { return remember(body).then(function () { return body; }); });
}

/** @param {Stored} body */
function remember(body) {
  return put("matches", { id: body.id, body: body, at: Date.now() });
}

/**
 * @param {Entry} entry
 * @param {import("./merge.js").Sent} s its request
 */
function send(entry, s) {
  // The small answer (what changed): the outbox patches its copy of the match with it.
  /** @type {Record<string, string>} */
  var headers = { "Idempotency-Key": entry.key || "", "Prefer": "return=minimal" };
  if (s.type) { headers["Content-Type"] = s.type; }
  return fetch(s.url || "", { method: s.method, body: s.body, headers: headers, credentials: "same-origin" });
}

/** @typedef {{sent: boolean, offline?: boolean}} Flushed */
/** @type {Promise<Flushed> | null} */
var flushing = null;
/** Sends what waits, in order (once at a time). */
function flush() {
  if (flushing) { return flushing; }
  flushing = run().then(function (r) { flushing = null; changed(); return r; },
                        function (e) { flushing = null; changed(); throw e; });
  return flushing;
}

/** @returns {Promise<Flushed>} */
function run() {
  return entries(null).then(function (list) {
    /** @type {Record<number, boolean>} */
    var blocked = {};
    var sentAny = false;
    /**
     * @param {number} i
     * @returns {Flushed | Promise<Flushed>}
     */
    function next(i) {
      if (i >= list.length) { return { sent: sentAny }; }
      var entry = list[i];
      if (blocked[entry.match] || entry.conflict || entry.error) {
        blocked[entry.match] = true;
        return next(i + 1);
      }
      return one(entry, 0).then(function (outcome) {
        if (outcome === "sent" && (entry.kind === "create" || entry.kind === "import")) {
          // a match started on this device is on the server now: what waits for it follows
          return run().then(function (rest) { return { sent: true, offline: rest.offline }; });
        }
        if (outcome === "sent") { sentAny = true; }
        if (outcome !== "sent" && outcome !== "dropped") { blocked[entry.match] = true; }
        if (outcome === "offline") { return { sent: sentAny, offline: true }; }
        return next(i + 1);
      });
    }
    return next(0);
  });
}

/**
 * @param {Entry} entry
 * @param {number} tries
 * @returns {Promise<Outcome>}
 */
function one(entry, tries) {
  if (tries > 4) { return Promise.resolve("blocked"); }
  var seq = entry.seq || 0;
  /** @type {Promise<Outcome>} */
  var attempt;
  if (entry.sent) {
    var merging = (entry.sent.url || "").slice(-8) === "/changes";
    attempt = send(entry, entry.sent).then(function (response) {
      if (response.ok) {
        return remove("outbox", seq).then(function () { return refreshAfter(entry, response); });
      }
      if (response.status === 409 && merging) {
        // A real clash, as the server's merge policy found it: both shown, the person decides.
        return response.json().then(function (answer) {
          entry.conflict = answer.conflict; entry.sent = null;
          return put("outbox", entry).then(function () { return /** @type {Outcome} */ ("conflict"); });
        });
      }
      if (response.status === 409) {
        // The form's request was based on an older version: the merge policy decides.
        entry.sent = null; entry.key = newKey();
        // A deal kept as typed (the scorer was starting) waits until the scorer has read it.
        var unread = entry.fields && !entry.body;
        return put("outbox", entry).then(function () { return unread ? "blocked" : one(entry, tries + 1); });
      }
      if (response.status === 404 && entry.kind === "restore") {
        return remove("outbox", seq).then(function () { return /** @type {Outcome} */ ("dropped"); });
      }
      if (response.status === 404 && merging) {
        entry.error = _("this match was deleted on another device");
        return put("outbox", entry).then(function () { return /** @type {Outcome} */ ("refused"); });
      }
      return response.text().then(function (text) {
        var message;
        try { message = JSON.parse(text).error || text; } catch (unreadable) { message = _("the server refused the change ({status})", { status: response.status }); }
        entry.error = message;
        return put("outbox", entry).then(function () { return /** @type {Outcome} */ ("refused"); });
      });
    });
  } else if (entry.fields && !entry.body) {
    return Promise.resolve("blocked");
  } else {
    // Sent to the server's merge policy (scopa.changes.resolve): it makes the change on the
    // match as it is now, drops it (nothing left to do) or answers the clash (409).
    entry.sent = { url: "/api/matches/" + entry.match + "/changes", method: "POST", type: "application/json",
                   body: JSON.stringify(mergeBody(entry)) };
    attempt = put("outbox", entry).then(function () { return one(entry, tries + 1); });
  }
  return attempt.catch(function () { return /** @type {Outcome} */ ("offline"); });
}

/**
 * What the server's merge policy is sent for an entry (schema ChangeBody).
 * @param {Entry} entry
 */
function mergeBody(entry) {
  /** @type {Record<string, unknown>} */
  var body = { kind: entry.kind, base: entry.base || {} };
  if (entry.number) { body.number = entry.number; }
  if (entry.kind === "restore") { body.removed_id = entry.removed_id; }
  if (entry.body && entry.kind !== "delete" && entry.kind !== "restore") { body.body = entry.body; }
  ["accept_after", "force", "accept_rules"].forEach(function (flag) {
    if (/** @type {any} */ (entry)[flag]) { body[flag] = true; }
  });
  return body;
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
    /** @type {Promise<unknown>} */
    var done;
    const body = kept && kept.body;
    if (!body || entry.kind !== "add" || body.version !== small.version - 1 ||
        body.match.deals.length !== small.deals - 1 || !entry.body) {
      done = fresh(entry.match);
      return done;
    }
    body.match.deals.push(entry.body);
    body.sheet.deals = body.sheet.deals.slice(0, small.from - 1).concat(small.rows);
    var sheet = body.sheet;
    ["sides", "totals", "status", "winner", "decided_at"].forEach(function (key) {
      sheet[key] = small[key];
    });
    body.version = small.version;
    body.updated_at = small.updated_at;
    done = remember(body);
    return done;
  });
}

/**
 * After a change was stored: the versions it made marked as this device's, and the match
 * kept as the server now has it.
 * @param {Entry} entry
 * @param {Response} response
 * @returns {Promise<Outcome>}
 */
function refreshAfter(entry, response) {
  if (entry.kind === "create" || entry.kind === "import") {
    return response.json().then(function (body) { return moved(entry.match, body); })
      .then(function () { return /** @type {Outcome} */ ("sent"); });
  }
  var type = response.headers.get("content-type") || "";
  /** @type {Promise<unknown>} */
  var done = type.indexOf("application/json") >= 0
    ? response.json().then(function (body) {
      if (body && body.version) { mine.add(entry.match, body.version); }
      /** @type {Promise<unknown> | undefined} */
      var kept;
      if (body && body.match) { kept = remember(body); } else if (body && body.rows) { kept = patch(entry, body); }
      return kept;
    })
    : response.text().then(function (html) {
      mine.fromHtml(entry.match, html);
      return fresh(entry.match);
    }).catch(function () { /* next time */ });
  return done.then(function () { return /** @type {Outcome} */ ("sent"); });
}

/**
 * A match started on this device (id < 0) now on the server (``body``, its answer): the
 * changes waiting for it go to the server's match (same keys, their requests' addresses moved),
 * its copy is kept under the server's id, and the device's id remembers where it went (the
 * service worker sends a page of it there).
 * @param {number} local
 * @param {Stored} body
 */
function moved(local, body) {
  return entries(local).then(function (list) {
    return Promise.all(list.map(function (e) {
      e.match = body.id;
      if (e.sent && e.sent.url) { e.sent.url = e.sent.url.replace("/matches/" + local + "/", "/matches/" + body.id + "/"); }
      return put("outbox", e);
    }));
  }).then(function () {
    return Promise.all([remember(body), put("matches", { id: local, moved: body.id, at: Date.now() })]);
  }).then(function () {
    mine.add(body.id, body.version);
    try { sessionStorage.setItem("scopa-moved-" + local, String(body.id)); } catch (_) { /* the worker says it too */ }
  });
}

/**
 * Where a match started on this device went (its server id), once it is there.
 * @param {number} local
 * @returns {Promise<number | undefined>}
 */
function movedTo(local) {
  return get("matches", local).then(function (r) { return r && r.moved; });
}

/**
 * A match started on this device and deleted before the server had it: its changes and its
 * copy forgotten (nothing of it is sent).
 * @param {number} local
 */
function forget(local) {
  return entries(local).then(function (list) {
    return Promise.all(list.map(function (e) { return remove("outbox", e.seq || 0); }));
  }).then(function () { return remove("matches", local); }).then(changed);
}

// --- choices after a conflict -------------------------------------------------------------

/**
 * The person's choice on a conflict: "keep", "discard", or "theirs:SETTING".
 * @param {number} seq
 * @param {string} choice
 * @returns {Promise<void>}
 */
function choose(seq, choice) {
  return get("outbox", seq).then(function (entry) {
    if (!entry) { return; }
    if (choice === "discard") { return remove("outbox", seq).then(changed); }
    var c = entry.conflict;
    if (c && c.type === "appended") { entry.accept_after = true; }
    if (c && c.type === "edited") { entry.force = true; }
    if (c && c.type === "rules") {
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
/** @returns {Record<string, number[]>} */
function mineAll() { try { return JSON.parse(localStorage.getItem(MINE) || "{}"); } catch (_) { return {}; } }
var mine = {
  /**
   * @param {number | string | undefined} matchId
   * @param {number | string | undefined} version
   */
  add: function (matchId, version) {
    if (!matchId || !version) { return; }
    var all = mineAll(), list = all[matchId] || [];
    if (list.indexOf(Number(version)) < 0) { list.push(Number(version)); }
    all[matchId] = list.slice(-20);
    try { localStorage.setItem(MINE, JSON.stringify(all)); } catch (_) { /* full: it only words a note */ }
  },
  /**
   * @param {number | string | undefined} matchId
   * @param {number | string | undefined} version
   */
  drop: function (matchId, version) {
    if (matchId === undefined) { return; }
    var all = mineAll();
    all[matchId] = (all[matchId] || []).filter(function (v) { return v !== Number(version); });
    try { localStorage.setItem(MINE, JSON.stringify(all)); } catch (_) { /* */ }
  },
  /**
   * @param {number | string | undefined} matchId
   * @param {number | string | undefined} version
   */
  has: function (matchId, version) {
    if (matchId === undefined) { return false; } return (mineAll()[matchId] || []).indexOf(Number(version)) >= 0; },
  /**
   * @param {number} matchId
   * @param {string} html
   */
  fromHtml: function (matchId, html) {
    var found = /id="sheet"[^>]*data-version="(\d+)"/.exec(html || "");
    if (found) { mine.add(matchId, found[1]); }
  },
};

export { mine };

export var outbox = {
  add: add,
  /** @param {Entry} entry */
  update: function (entry) { return put("outbox", entry).then(changed); },
  entries: entries,
  flush: flush,
  choose: choose,
  remember: remember,
  fresh: fresh,
  movedTo: movedTo,
  forget: forget,
  /** @param {number} id @returns {Promise<Stored | undefined>} */
  match: function (id) { return get("matches", id).then(function (r) { return r && r.body; }); },
  draft: {
    /** @param {string} id @returns {Promise<Fields | undefined>} */
    get: function (id) { return get("drafts", id).then(function (r) { return r && r.fields; }); },
    /** @param {string} id @param {Fields} fields */
    put: function (id, fields) { return put("drafts", { id: id, fields: fields, at: Date.now() }); },
    /** @param {string} id */
    drop: function (id) { return remove("drafts", id); },
  },
  /** @param {() => void} fn */
  onChange: function (fn) { listeners.push(fn); },
  newKey: newKey,
  same: same,
};
expose("outbox", outbox);
