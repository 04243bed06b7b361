/* The Play page's game on this device, when the server cannot be reached (play.js uses it).
 *
 * - engine/think: the Python game (scopa/web/play_device.py: the engine and the search player)
 *   in a Pyodide module worker, /static/scorer.js, named "play", answering like the server.
 * - kept: each game on the device in localStorage ("scopa-play-<id>"): its seed and every play.
 * - syncGame: its plays sent once when the server answers (an Idempotency-Key, the request kept
 *   and resent as it is), to /play/games (a game started here) or /play/{id}/sync.
 * - the set-up form's side: a game dealt here when the server cannot be reached, the games kept
 *   here still to send, and a background start while online that keeps the worker's snapshot.
 */
import { language } from "./i18n.js";
import { el } from "./cards.js";
import { newKey, showPage } from "./util.js";

/* The server's answer as {ok, status, data}; a server that cannot be reached rejects. */
function send(url, body, key) {
  var headers = { Accept: "application/json", "Content-Type": "application/json", "Idempotency-Key": key };
  return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body), credentials: "same-origin" })
    .then(function (response) {
      return response.json().catch(function () { return { error: "the server's answer was not readable" }; })
        .then(function (data) { return { ok: response.ok, status: response.status, data: data }; });
    });
}

/* --- the game on this device ------------------------------------------------------------ */

/* The Python game in a Pyodide worker, started once per page (a cold start; later starts
 * restore the worker's memory snapshot). think(op, payload) answers like the server:
 * {ok, status, data}, data the table with the game to keep (data.game). */
var engine = { worker: null, ready: null, calls: {}, next: 1, info: null };
function startEngine() {
  if (engine.ready) { return engine.ready; }
  engine.ready = new Promise(function (resolve, reject) {
    if (!window.Worker) { reject(new Error("this browser cannot run the game on the device")); return; }
    var worker = new Worker("/static/scorer.js", { type: "module", name: "play:" + language });
    engine.worker = worker;
    worker.onmessage = function (event) {
      var data = event.data || {};
      if (data.ready !== undefined) { engine.info = data; resolve(data); return; }
      if (data.snapshot !== undefined) { engine.snapshot = data.snapshot; return; }
      if (data.failed) { reject(new Error(data.failed)); return; }
      var waiting = engine.calls[data.id];
      if (!waiting) { return; }
      delete engine.calls[data.id];
      if (data.failure) { waiting.reject(new Error(data.failure)); } else { waiting.resolve(data.result); }
    };
    worker.onerror = function (event) { reject(new Error(event.message || "the game could not start on this device")); };
  });
  return engine.ready;
}
function think(op, payload) {
  return startEngine().then(function () {
    return new Promise(function (resolve, reject) {
      var id = engine.next++;
      engine.calls[id] = { resolve: resolve, reject: reject };
      engine.worker.postMessage({ id: id, op: op, payload: payload });
    });
  }).then(function (result) {
    if (result.error) { return { ok: false, status: result.status || 422, data: { error: result.error } }; }
    result.state.game = result.game;
    return { ok: true, status: 200, data: result.state };
  }, function (error) {
    return { ok: false, status: 0, data: { error: "The game cannot run on this device: " + error.message } };
  });
}

/* A game kept on the device: {id, server (its id there, once sent), match_id, game
 * ({variant, players, level, seed, log}), synced (the step the server has), sending (the
 * request being sent, resent as it is), conflict, updated}. */
var PREFIX = "scopa-play-";
var kept = {
  get: function (id) {
    try { return JSON.parse(localStorage.getItem(PREFIX + id) || "null"); } catch (_) { return null; }
  },
  put: function (record) {
    record.updated = Date.now();
    try { localStorage.setItem(PREFIX + record.id, JSON.stringify(record)); } catch (_) { /* no room */ }
  },
  all: function () {
    var list = [];
    for (var k = 0; k < localStorage.length; k++) {
      var key = localStorage.key(k);
      if (key && key.indexOf(PREFIX) === 0) { var r = kept.get(key.slice(PREFIX.length)); if (r) { list.push(r); } }
    }
    return list.sort(function (a, b) { return b.updated - a.updated; });
  },
};
function stepOf(game) {
  return game.log.reduce(function (n, plays) { return n + plays.length; }, 0) + game.log.length - 1;
}
function newSeed() { /* 52 bits: exact as a JavaScript number */
  var words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (words[0] & 0xfffff) * 4294967296 + words[1];
}

/* Send a kept game's plays the server does not have yet, once: the request is kept with its
 * Idempotency-Key before it goes, and resent as it is until it is answered. */
function syncGame(record) {
  if (!record || record.conflict) { return Promise.resolve(null); }
  if (!record.sending) {
    if (record.synced === stepOf(record.game)) { return Promise.resolve(null); }
    record.sending = record.server
      ? { key: newKey(), url: "/play/" + record.server + "/sync", body: { log: record.game.log } }
      : { key: newKey(), url: "/play/games", body: record.game };
    kept.put(record);
  }
  var sending = record.sending;
  return send(sending.url, sending.body, sending.key).then(function (answer) {
    var now = kept.get(record.id) || record;
    now.sending = null;
    if (answer.ok) {
      now.server = answer.data.id;
      now.match_id = answer.data.match_id;
      now.synced = answer.data.step;
    } else if (answer.status === 409 || answer.status === 422) {
      now.conflict = answer.data.error || "the server refused the game's plays";
    } else {
      now.sending = sending; /* the server is not well: the same request later */
    }
    kept.put(now);
    return { answer: answer, record: now };
  }, function () { return null; /* still unreachable */ });
}

/* Deal on the server; when it cannot be reached, on this device. */
function start(form) {
  var fields = new FormData(form);
  var button = form.querySelector("button[type=submit]");
  button.disabled = true;
  var online = navigator.onLine ? fetch("/play", {
    method: "POST", body: new URLSearchParams(fields), credentials: "same-origin",
  }) : Promise.reject(new Error("offline"));
  online.then(function (response) {
    if (response.ok && response.redirected) { location.assign(response.url); return; }
    return response.text().then(showPage);
  }, function () {
    var players = fields.get("players");
    var record = {
      id: "d" + Date.now().toString(36),
      server: null,
      match_id: null,
      synced: null,
      game: {
        variant: String(fields.get("variant")),
        players: players === null ? null : Number(players),
        level: String(fields.get("level")),
        seed: newSeed(),
        log: [[]],
      },
    };
    kept.put(record);
    location.assign("/play/here#" + record.id);
  });
}

/* The games on this device whose plays the server does not have yet (or that it refused). */
function listKept() {
  var box = document.getElementById("play-kept");
  if (!box) { return; }
  var waiting = kept.all().filter(function (r) {
    return r.game && (r.conflict || r.synced !== stepOf(r.game));
  }).slice(0, 10);
  box.hidden = !waiting.length;
  var list = box.querySelector("ul");
  list.replaceChildren();
  waiting.forEach(function (r) {
    var a = el("a", "match-link");
    a.href = r.server && !r.conflict ? "/play/" + r.server : "/play/here#" + encodeURIComponent(r.id);
    a.appendChild(el("span", "match-name", r.game.variant.charAt(0).toUpperCase() + r.game.variant.slice(1) + ", " + r.game.level));
    var deals = r.game.log.length;
    a.appendChild(el("span", "muted small", "deal " + deals + " · " + (r.conflict ? "not sent: " + r.conflict : "not sent yet")));
    var li = el("li");
    li.appendChild(a);
    list.appendChild(li);
  });
}

/* Once, while online, start the device's game in the background so that its memory snapshot
 * is kept (a later start with no connection takes a second or two instead of ten). */
function warmUp() {
  if (!navigator.onLine || !window.caches || !navigator.serviceWorker) { return; }
  navigator.serviceWorker.ready.then(function () {
    return caches.open("scopa-snapshot-v1");
  }).then(function (cache) { return cache.keys(); }).then(function (keys) {
    var has = keys.some(function (r) { return new URL(r.url).pathname.indexOf("/offline/snapshot/play/") === 0; });
    if (has) { return; }
    setTimeout(function () {
      startEngine().catch(function () { /* later */ });
    }, 1500);
  }).catch(function () { /* no Cache Storage: every start is a full one */ });
}

/* The table's side of a game on the device (play.js's Table). */
function tableMethods(proto) {
  /* A server game's last state, kept so that it can go on here if the connection drops. */
  proto.remember = function (state) {
    if (!state.replay || this.serverId === null) { return; }
    var record = kept.get("s" + this.serverId) || { id: "s" + this.serverId, server: this.serverId };
    if (record.synced !== undefined && record.synced !== stepOf(record.game) && !record.conflict) { return; }
    if (record.conflict) { /* the server kept its own: the device's copy stays here, unsent */
      kept.put(Object.assign({}, record, { id: record.id + "-" + Date.now().toString(36), server: null }));
    }
    record.game = state.replay;
    record.synced = state.step;
    record.match_id = state.match_id;
    record.conflict = null;
    kept.put(record);
  };

  proto.toDevice = function (record) {
    this.device = true;
    this.record = record;
    if (!engine.info) { this.say("No connection: the game goes on on this device (starting it)…"); }
    this.showDevice();
  };

  proto.onDevice = function (kind, body) {
    var self = this, record = this.record;
    var payload = Object.assign({ game: record.game }, body || {});
    return think(kind, payload).then(function (answer) {
      if (answer.ok) {
        record.game = answer.data.game;
        kept.put(record);
        self.decorate(answer.data);
        self.syncSoon();
      }
      return answer;
    });
  };

  /* The device's table with what the server gave this game (its id, its match). */
  proto.decorate = function (state) {
    var record = this.record;
    state.id = record.server || null;
    state.match_id = record.match_id || null;
    state.sheet = record.match_id ? "/matches/" + record.match_id : null;
    return state;
  };

  proto.showDevice = function () {
    var bar = this.$("play-device"), record = this.record;
    if (!this.device || !record) { bar.hidden = true; return; }
    var waiting = record.synced !== stepOf(record.game);
    var text;
    if (record.conflict) {
      text = "This game moved on another way on the server, so the plays made here were not sent (" + record.conflict + ").";
    } else if (waiting) {
      text = "No connection: the game goes on on this device. Its plays are kept here and sent when the server answers again.";
    } else {
      text = "Playing on this device. The server has every play" + (record.match_id ? ", and the finished deals are on the sheet." : ".");
    }
    bar.textContent = text;
    bar.hidden = false;
    bar.classList.toggle("play-waiting", waiting || !!record.conflict);
  };

  /* Send the device's plays when the server answers (nothing twice: see syncGame). */
  proto.syncSoon = function () {
    var self = this, record = this.record;
    if (!this.device || !record || this.syncing || !navigator.onLine) { return; }
    this.syncing = true;
    syncGame(record).then(function (result) {
      self.syncing = false;
      if (!result) { return; }
      var now = result.record;
      self.record.server = now.server; self.record.match_id = now.match_id; self.record.synced = now.synced;
      self.record.conflict = now.conflict; self.record.sending = now.sending;
      if (self.state) {
        self.decorate(self.state);
        var sheet = self.$("play-sheet");
        if (self.state.sheet) { sheet.href = self.state.sheet; sheet.hidden = false; }
      }
      if (now.synced !== stepOf(now.game) && !now.conflict && result.answer.ok) { self.syncSoon(); return; }
      if (self.serverId !== null && result.answer.ok && now.synced === stepOf(now.game)) {
        self.device = false; /* the server has it all: it thinks again */
      }
      self.showDevice();
    });
  };

}

export { engine, kept, listKept, start, startEngine, stepOf, syncGame, tableMethods, think, warmUp };
