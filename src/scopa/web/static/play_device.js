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
import { el } from "./cards.js";
import { _ } from "./i18n.js";
import { PyWorker } from "./pyworker.js";
import { formBody, newKey, showPage } from "./util.js";

/** A move's answer, from the server or the device's game: data the table (or {error}).
 * @typedef {{ok: boolean, status: number, data: any}} Answer */

/**
 * The server's answer as {ok, status, data}; a server that cannot be reached rejects.
 * @param {string} url
 * @param {unknown} body
 * @param {string} key its Idempotency-Key
 * @returns {Promise<Answer>}
 */
function send(url, body, key) {
  var headers = { Accept: "application/json", "Content-Type": "application/json", "Idempotency-Key": key };
  return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body), credentials: "same-origin" })
    .then(function (response) {
      return response.json().catch(function () { return { error: _("the server's answer was not readable") }; })
        .then(function (data) { return { ok: response.ok, status: response.status, data: data }; });
    });
}

/* --- the game on this device ------------------------------------------------------------ */

/* The Python game in a Pyodide worker, started once per page (a cold start; later starts
 * restore the worker's memory snapshot). think(op, payload) answers like the server:
 * {ok, status, data}, data the table with the game to keep (data.game). */
var engine = new PyWorker("play", _("this browser cannot run the game on the device"));
function startEngine() { return engine.start(); }

/**
 * @param {string} op
 * @param {unknown} payload
 * @returns {Promise<Answer>}
 */
function think(op, payload) {
  return engine.call(op, payload).then(function (result) {
    if (result.error) { return { ok: false, status: result.status || 422, data: { error: result.error } }; }
    result.state.game = result.game;
    return { ok: true, status: 200, data: result.state };
  }, function (error) {
    return { ok: false, status: 0, data: { error: _("The game cannot run on this device: {error}", { error: error.message }) } };
  });
}

/** A game as the engine replays it: its seed (a number, or digits as the server issues it)
 * and every play of every deal; thinking "iterations" while every computer play made on this
 * device was made by the phone's numbers of iterations (marked here on a game with no play
 * made on the device yet, kept by the worker only while its search counts iterations), so
 * that the server replays them (sent with the game).
 * @typedef {{variant: string, players: number | null, level: string, seed: number | string, log: unknown[][], thinking?: string}} Game */

/** A game kept on the device.
 * @typedef {object} Kept
 * @property {string} id its key on the device ("d…" started here, "s<id>" a server game)
 * @property {number | null} server its id on the server, once sent
 * @property {number | null} [match_id] its match on the server
 * @property {Game} game
 * @property {number | null} [ticket] the ticket of the seed the server issued for it
 *   (/play/seeds), sent with it; none: dealt from a seed of this device's, and the server
 *   keeps it as unverified
 * @property {number | null} [synced] the step the server has
 * @property {{key: string, url: string, body: unknown} | null} [sending] the request being
 *   sent, resent as it is
 * @property {string | null} [conflict] why the server refused its plays
 * @property {number} [updated]
 */

var PREFIX = "scopa-play-";
/* A game with no play made on this device yet: the worker keeps the mark while its computer
 * thinks by the phone's numbers of iterations. */
var ITERATIONS = "iterations";
var kept = {
  /** @param {string} id @returns {Kept | null} */
  get: function (id) {
    try { return JSON.parse(localStorage.getItem(PREFIX + id) || "null"); } catch (_) { return null; }
  },
  /** @param {Kept} record */
  put: function (record) {
    record.updated = Date.now();
    try { localStorage.setItem(PREFIX + record.id, JSON.stringify(record)); } catch (_) { /* no room */ }
  },
  /** @returns {Kept[]} */
  all: function () {
    /** @type {Kept[]} */
    var list = [];
    for (var k = 0; k < localStorage.length; k++) {
      var key = localStorage.key(k);
      if (key && key.indexOf(PREFIX) === 0) { var r = kept.get(key.slice(PREFIX.length)); if (r) { list.push(r); } }
    }
    return list.sort(function (a, b) { return (b.updated || 0) - (a.updated || 0); });
  },
};
/** @param {Game} game */
function stepOf(game) {
  return game.log.reduce(function (n, plays) { return n + plays.length; }, 0) + game.log.length - 1;
}
/* A seed the server issued, kept for the next game dealt here with no connection: a game
 * dealt from it (sent with its ticket) is one the server can vouch for, and counts in the
 * players' figures. One is fetched whenever the set-up page opens online and none is kept. */
var SEED = "scopa-seed";
function fetchSeed() {
  try { if (!navigator.onLine || localStorage.getItem(SEED)) { return; } } catch (_) { return; }
  fetch("/play/seeds", { method: "POST", headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then(function (response) { return response.ok ? response.json() : null; })
    .then(function (data) {
      if (data && data.ticket && data.seed) { localStorage.setItem(SEED, JSON.stringify({ ticket: data.ticket, seed: String(data.seed) })); }
    })
    .catch(function () { /* later */ });
}
/** @returns {{ticket: number, seed: string} | null} the kept seed, now taken */
function takeSeed() {
  try {
    var issued = JSON.parse(localStorage.getItem(SEED) || "null");
    localStorage.removeItem(SEED);
    return issued && issued.ticket && issued.seed ? issued : null;
  } catch (_) { return null; }
}
function newSeed() { /* 52 bits: exact as a JavaScript number */
  var words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (words[0] & 0xfffff) * 4294967296 + words[1];
}

/* Send a kept game's plays the server does not have yet, once: the request is kept with its
 * Idempotency-Key before it goes, and resent as it is until it is answered. */
/**
 * @param {Kept | null} record
 * @returns {Promise<{answer: Answer, record: Kept} | null>}
 */
function syncGame(record) {
  if (!record || record.conflict) { return Promise.resolve(null); }
  if (!record.sending) {
    if (record.synced === stepOf(record.game)) { return Promise.resolve(null); }
    record.sending = record.server
      ? { key: newKey(), url: "/play/" + record.server + "/sync", body: Object.assign({ log: record.game.log }, record.game.thinking ? { thinking: record.game.thinking } : {}) }
      : { key: newKey(), url: "/play/games", body: Object.assign({}, record.game, record.ticket ? { ticket: record.ticket } : {}) };
    kept.put(record);
  }
  const sending = record.sending, mine = record;
  return send(sending.url, sending.body, sending.key).then(function (answer) {
    var now = kept.get(mine.id) || mine;
    now.sending = null;
    if (answer.ok) {
      now.server = answer.data.id;
      now.match_id = answer.data.match_id;
      now.synced = answer.data.step;
    } else if (answer.status === 409 || answer.status === 422) {
      now.conflict = answer.data.error || _("the server refused the game's plays");
    } else {
      now.sending = sending; /* the server is not well: the same request later */
    }
    kept.put(now);
    return { answer: answer, record: now };
  }, function () { return null; /* still unreachable */ });
}

/**
 * Deal on the server; when it cannot be reached, on this device.
 * @param {HTMLFormElement} form
 */
function start(form) {
  var fields = new FormData(form);
  var button = form.querySelector("button[type=submit]");
  if (button instanceof HTMLButtonElement) { button.disabled = true; }
  var online = navigator.onLine ? fetch("/play", {
    method: "POST", body: formBody(form), credentials: "same-origin",
  }) : Promise.reject(new Error("offline"));
  online.then(function (response) {
    if (response.ok && response.redirected) { location.assign(response.url); return; }
    return response.text().then(showPage);
  }, function () {
    var players = fields.get("players");
    var issued = takeSeed();
    /** @type {Kept} */
    var record = {
      id: "d" + Date.now().toString(36),
      server: null,
      match_id: null,
      synced: null,
      ticket: issued ? issued.ticket : null,
      game: {
        variant: String(fields.get("variant")),
        players: players === null ? null : Number(players),
        level: String(fields.get("level")),
        seed: issued ? issued.seed : newSeed(),
        log: [[]],
        thinking: ITERATIONS,
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
  if (!list) { return; }
  var into = list;
  into.replaceChildren();
  waiting.forEach(function (r) {
    var a = /** @type {HTMLAnchorElement} */ (el("a", "match-link"));
    a.href = r.server && !r.conflict ? "/play/" + r.server : "/play/here#" + encodeURIComponent(r.id);
    a.appendChild(el("span", "match-name", r.game.variant.charAt(0).toUpperCase() + r.game.variant.slice(1) + ", " + r.game.level));
    var deals = r.game.log.length;
    a.appendChild(el("span", "muted small", _("deal {number}", { number: deals }) + " · " + (r.conflict ? _("not sent: {reason}", { reason: r.conflict }) : _("not sent yet"))));
    var li = el("li");
    li.appendChild(a);
    into.appendChild(li);
  });
}

/* Once, while online, start the device's game in the background so that its memory snapshot
 * is kept (a later start with no connection takes a second or two instead of ten). */
function warmUp() {
  fetchSeed();
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

/* The table's side of a game on the device: play.js's Table extends it. */
export class DeviceTable {
  /** @param {HTMLElement} root the Play page's #play */
  constructor(root) {
    this.root = root;
    /** @type {number | null} the game's id on the server (null: started on this device) */
    this.serverId = root.dataset.game ? Number(root.dataset.game) : null;
    this.device = false; /* the game goes on on this device (this.record) */
    /** @type {Kept | null} */
    this.record = null;
    /** @type {any} the table as last drawn (the server's JSON, or the device's) */
    this.state = null;
    this.syncing = false;
  }

  /**
   * An element of the Play page, by id.
   * @param {string} id
   * @returns {HTMLElement}
   */
  $(id) {
    var found = document.getElementById(id);
    if (!found) { throw new Error("the Play page has no #" + id); }
    return found;
  }

  /**
   * @param {string} text
   * @param {boolean} [alert]
   */
  say(text, alert) {
    var status = this.$("play-status");
    status.textContent = text;
    status.classList.toggle("play-alert", !!alert);
  }

  /* A server game's last state, kept so that it can go on here if the connection drops. */
  /** @param {any} state the server's table */
  remember(state) {
    if (!state.replay || this.serverId === null) { return; }
    var record = kept.get("s" + this.serverId) ||
      /** @type {Kept} */ ({ id: "s" + this.serverId, server: this.serverId, game: state.replay });
    if (record.synced !== undefined && record.synced !== stepOf(record.game) && !record.conflict) { return; }
    if (record.conflict) { /* the server kept its own: the device's copy stays here, unsent */
      kept.put(Object.assign({}, record, { id: record.id + "-" + Date.now().toString(36), server: null }));
    }
    record.game = Object.assign({}, state.replay, { thinking: ITERATIONS }); /* no play made here yet */
    record.synced = state.step;
    record.match_id = state.match_id;
    record.conflict = null;
    kept.put(record);
  }

  /** @param {Kept} record */
  toDevice(record) {
    this.device = true;
    this.record = record;
    if (!engine.info) { this.say(_("No connection: the game goes on on this device (starting it)…")); }
    this.showDevice();
  }

  /**
   * @param {string} kind
   * @param {object} [body]
   * @returns {Promise<Answer>}
   */
  onDevice(kind, body) {
    var self = this;
    const record = this.record;
    if (!record) { return Promise.resolve({ ok: false, status: 0, data: { error: _("no game on this device") } }); }
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
  }

  /* The device's table with what the server gave this game (its id, its match). */
  /** @param {any} state */
  decorate(state) {
    var record = this.record;
    if (!record) { return state; }
    state.id = record.server || null;
    state.match_id = record.match_id || null;
    state.sheet = record.match_id ? "/matches/" + record.match_id : null;
    return state;
  }

  showDevice() {
    var bar = this.$("play-device"), record = this.record;
    if (!this.device || !record) { bar.hidden = true; return; }
    var waiting = record.synced !== stepOf(record.game);
    var text;
    if (record.conflict) {
      text = _("This game moved on another way on the server, so the plays made here were not sent ({reason}).", { reason: record.conflict });
    } else if (waiting) {
      text = _("No connection: the game goes on on this device. Its plays are kept here and sent when the server answers again.");
    } else {
      text = record.match_id ? _("Playing on this device. The server has every play, and the finished deals are on the sheet.") : _("Playing on this device. The server has every play.");
    }
    bar.textContent = text;
    bar.hidden = false;
    bar.classList.toggle("play-waiting", waiting || !!record.conflict);
  }

  /* Send the device's plays when the server answers (nothing twice: see syncGame). */
  syncSoon() {
    var self = this;
    const record = this.record;
    if (!this.device || !record || this.syncing || !navigator.onLine) { return; }
    this.syncing = true;
    syncGame(record).then(function (result) {
      self.syncing = false;
      if (!result) { return; }
      var now = result.record;
      record.server = now.server; record.match_id = now.match_id; record.synced = now.synced;
      record.conflict = now.conflict; record.sending = now.sending;
      if (self.state) {
        self.decorate(self.state);
        var sheet = /** @type {HTMLAnchorElement} */ (self.$("play-sheet"));
        if (self.state.sheet) { sheet.href = self.state.sheet; sheet.hidden = false; }
      }
      if (now.synced !== stepOf(now.game) && !now.conflict && result.answer.ok) { self.syncSoon(); return; }
      if (self.serverId !== null && result.answer.ok && now.synced === stepOf(now.game)) {
        self.device = false; /* the server has it all: it thinks again */
      }
      self.showDevice();
    });
  }

}

export { engine, kept, listKept, start, startEngine, stepOf, syncGame, think, warmUp };
