/* The Play page: the set-up form's choices, and the table of a game against the computer.
 *
 * Online, the server keeps the game and thinks for the computer; this script draws what seat
 * 0 may see (GET /play/{id}/state) and sends each move with the step it saw. The computer's
 * moves are shown one at a time, about a second each (Skip, or a tap on the table, hurries
 * them). The cards are drawn by cards.js with the Italian suits in inline SVG.
 *
 * With no connection the game goes on on this device: the same Python game (the engine and
 * the search player, scopa/web/play_device.py) runs in a Pyodide worker
 * (/static/scorer.js, named "play") and answers the same moves with the same table. The game is
 * kept on the device (localStorage "scopa-play-…": its seed and every play), so a reload or a
 * closed tab resumes it; when the server answers again, its plays are sent once (with an
 * Idempotency-Key) and the server keeps the game from there: its finished deals go to the
 * match "Against the computer" like any game's. A game started online whose connection drops
 * goes on on the device from the last state the page had, and is brought up to date the same
 * way. See docs/offline.md.
 */
import { _, decimal, ngettext, pgettext } from "./i18n.js";
import { back, cardName, el, face } from "./cards.js";
import * as D from "./play_device.js";
import { $, $all, expose, onPage } from "./util.js";

/** The computer's level as the reader says it (a thinking time, "500ms", as it is).
 * @param {string} level */
function levelName(level) {
  /** @type {Record<string, string>} */
  var names = { easy: pgettext("level", "easy"), normal: pgettext("level", "normal"), strong: pgettext("level", "strong") };
  return names[level] || level;
}

/** Cards in words joined by "and" in the page's language: "ace of clubs and jack of clubs".
 * @param {string[]} cards */
function namedAnd(cards) {
  var and = " " + _("and") + " ";
  return cards.map(cardName).join(and);
}

/** A play: the card and the cards it takes.
 * @typedef {{card: string, capture: string[]}} Play */
/** A move made: who, the play, whether it swept, in words.
 * @typedef {{seat: number, name: string, card: string, capture: string[], sweep: boolean, text: string}} Move */
/** A seat as seat 0 may see it.
 * @typedef {{name: string, cards: number, shown: string[], taken: number, sweeps: number}} Seat */
/** The table as seat 0 may see it (GET /play/{id}/state, or the device's game).
 * @typedef {object} TableState
 * @property {string} title
 * @property {string} level
 * @property {number} step
 * @property {number} deal
 * @property {number} turn
 * @property {boolean} your_turn
 * @property {boolean} deal_over
 * @property {boolean} match_over
 * @property {Seat[]} seats
 * @property {string[]} table
 * @property {string[]} hand
 * @property {number} stock
 * @property {Play[]} legal
 * @property {Move[]} moves
 * @property {Move[]} [made] the moves this answer made
 * @property {{name: string, cards: string[]} | null} [leftovers]
 * @property {{sides: string[], totals: number[], target: number, winner?: string,
 *   last?: Record<string, number>[], keys?: string[], labels?: Record<string, string>}} score
 *   (last: the deal's points per side under the variant's own keys, in order, with their
 *   words in English: said here in the page's language, pgettext("category", …))
 * @property {string | null} [sheet]
 * @property {string | null} [unverified_text] why the server does not vouch for the game (none: it does, or a device's own game)
 * @property {unknown} [replay]
 * @property {number | null} [match_id]
 */
/** @typedef {import("./play_device.js").Answer} Answer */

function pause() {
  var p = Number(window.SCOPA_PLAY_PAUSE);
  return isFinite(p) && p >= 0 ? p : 1000;
}

/**
 * @param {number} ms
 * @param {Table} game
 * @returns {Promise<void>}
 */
function wait(ms, game) {
  return new Promise(function (resolve) {
    if (game.hurry || ms <= 0) { resolve(); return; }
    var timer = setTimeout(done, ms);
    function done() { clearTimeout(timer); game.wake = null; resolve(); }
    game.wake = done;
  });
}

/**
 * The server's answer as {ok, status, data}; a server that cannot be reached rejects.
 * @param {string} url
 * @param {object} [body]
 * @returns {Promise<Answer>}
 */
function send(url, body) {
  return fetch(url, {
    method: body ? "POST" : "GET",
    headers: body ? { "Content-Type": "application/json", Accept: "application/json" } : { Accept: "application/json" },
    body: body ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  }).then(function (response) {
    return response.json().catch(function () { return { error: _("the server's answer was not readable") }; })
      .then(function (data) { return { ok: response.ok, status: response.status, data: data }; });
  });
}

var kept = D.kept, stepOf = D.stepOf, syncGame = D.syncGame;

/** @param {Play} p */
function playText(p) {
  return cardName(p.card) + ": " + (p.capture.length ? _("takes {cards}", { cards: namedAnd(p.capture) }) : _("lay it on the table"));
}

/** A play of the coach's with what it takes at once, in the table's words (the server's or
 * the device's Python says them in the page's language: scopa/engine/ai/coach.py Takes).
 * @typedef {Play & {expected: number, takes?: {words: string}}} Advice */

/* A play of the coach's: the play, then what it takes ("7 of coins: takes 7 of cups — a
 * scopa, the settebello, 1 coin, 2 cards"). */
/** @param {Advice} a */
function adviceText(a) {
  var takes = a.takes && a.takes.words;
  return takes ? _("{play} — {takes}", { play: playText(a), takes: takes }) : playText(a);
}

/* Expected points: your side's less the others' at the end of the deal. */
/** @param {number} value */
function expected(value) {
  var shown = decimal(Math.abs(value));
  return value >= 0 ? _("about {points} points ahead by the deal's end", { points: shown }) : _("about {points} points behind by the deal's end", { points: shown });
}

class Table extends D.DeviceTable {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root);
    this.base = "/play/" + root.dataset.game;
    this.busy = false;
    this.hurry = false;
    /** @type {(() => void) | null} hurries the move shown */
    this.wake = null;
    /** @type {string | null} the computer's move shown until you play */
    this.lastMove = null;
    var self = this;
    this.$("play-hint").addEventListener("click", function () { self.hint(); });
    this.$("play-skip").addEventListener("click", function () { self.skip(); });
    root.querySelector(".play-felt")?.addEventListener("click", function () { self.skip(); });
    this.$("play-next").addEventListener("click", function () { self.nextDeal(); });
    window.addEventListener("online", function () { self.syncSoon(); });
  }

  /* A move to the server, or to the device's game when the server cannot be reached (from
   * then on the game goes on on the device, from the last state the page had). */
  /**
   * @param {string} kind
   * @param {object} [body]
   * @returns {Promise<Answer>}
   */
  move(kind, body) {
    var self = this;
    if (this.device) { return this.onDevice(kind, body); }
    return send(this.base + "/" + kind, body).then(function (answer) {
      if (answer.ok) { self.remember(answer.data); }
      return answer;
    }, function () {
      var record = kept.get("s" + self.serverId);
      if (!record) { return { ok: false, status: 0, data: { error: _("The server cannot be reached.") } }; }
      self.toDevice(record);
      return self.onDevice(kind, body);
    });
  }

  skip() {
    if (!this.busy) return;
    this.hurry = true;
    if (this.wake) this.wake();
  }

  load() {
    var self = this;
    if (this.serverId === null) { /* /play/here#id: a game started on this device */
      var record = kept.get(decodeURIComponent(location.hash.slice(1)));
      if (!record) { this.say(_("This game is not kept on this device."), true); return Promise.resolve(); }
      this.toDevice(record);
      return this.onDevice("state").then(function (answer) { self.shown(answer); });
    }
    var local = kept.get("s" + this.serverId);
    var behind = local && !local.conflict && local.synced !== stepOf(local.game);
    var first = behind && navigator.onLine ? syncGame(local) : Promise.resolve(null);
    return first.then(function () { return send(self.base + "/state"); }).then(function (answer) {
      local = kept.get("s" + self.serverId);
      if (answer.ok && local && !local.conflict && local.synced !== stepOf(local.game)) {
        throw new Error(_("the device has plays the server has not")); /* go on here */
      }
      if (answer.ok) { self.remember(answer.data); }
      self.shown(answer);
    }).catch(function () {
      if (!local) { self.say(_("No connection, and this game is not kept on this device."), true); return; }
      self.toDevice(local);
      return self.onDevice("state").then(function (answer) { self.shown(answer); });
    });
  }

  /** @param {Answer} answer */
  shown(answer) {
    if (!answer.ok) { this.say(answer.data.error || _("the game could not be read"), true); return; }
    this.draw(answer.data);
    this.go();
  }

  /* Draw a state: the others' seats, the table, your hand, the score, the deal's end. */
  /** @param {TableState} state */
  draw(state) {
    this.state = state;
    var self = this;
    this.$("play-title").textContent = state.title;
    this.$("play-level").textContent = "· " + levelName(state.level);
    this.showDevice();
    var seats = this.$("play-seats");
    seats.replaceChildren();
    state.seats.forEach(function (seat, index) {
      if (index === 0) return;
      var box = el("div", "play-seat" + (state.turn === index ? " play-turn" : ""));
      box.appendChild(el("span", "play-seat-name", seat.name + (state.turn === index ? " " + _("(to play)") : "")));
      var hand = el("span", "play-seat-hand");
      for (var k = 0; k < seat.cards - seat.shown.length; k++) hand.appendChild(back());
      seat.shown.forEach(function (card) {
        var shown = face(card);
        shown.setAttribute("role", "img");
        shown.setAttribute("aria-label", cardName(card) + ", shown");
        hand.appendChild(shown);
      });
      box.appendChild(hand);
      box.appendChild(el("span", "play-seat-facts small", _("{count} in hand", { count: seat.cards }) + " · " + _("{count} taken", { count: seat.taken }) + (seat.sweeps ? " · " + ngettext("{n} sweep", "{n} sweeps", seat.sweeps) : "")));
      seats.appendChild(box);
    });
    this.drawTable(state.table, []);
    var me = state.seats[0];
    this.$("play-stock").textContent = state.stock ? ngettext("{n} card still to deal", "{n} cards still to deal", state.stock) : state.deal_over ? "" : _("Last hand: no cards left to deal");
    var hand = this.$("play-hand");
    hand.replaceChildren();
    state.hand.forEach(function (card) {
      var button = face(card, "button");
      button.type = "button";
      button.setAttribute("aria-label", cardName(card));
      button.classList.add("pc-button");
      button.disabled = !state.your_turn;
      button.addEventListener("click", function () { self.pick(card); });
      hand.appendChild(button);
    });
    var score = this.$("play-score");
    score.textContent = state.score.sides.map(function (side, i) { return side + " " + state.score.totals[i]; }).join(" · ") + " " + _("(to {points})", { points: state.score.target }) + " · " + _("you took {count}", { count: me.taken }) + (me.sweeps ? ", " + ngettext("{n} sweep", "{n} sweeps", me.sweeps) : "");
    var sheet = /** @type {HTMLAnchorElement} */ (this.$("play-sheet"));
    if (state.sheet) { sheet.href = state.sheet; sheet.hidden = false; }
    if (state.unverified_text !== undefined) { /* the server's word: a device's own game has none */
      var unverified = this.$("play-unverified");
      unverified.textContent = state.unverified_text || "";
      unverified.hidden = !state.unverified_text;
    }
    var log = this.$("play-log-list");
    log.replaceChildren();
    state.moves.forEach(function (move) { log.appendChild(el("li", "", move.text)); });
    this.$("play-hints").hidden = true;
    this.$("play-choices").hidden = true;
    /** @type {HTMLButtonElement} */ (this.$("play-hint")).disabled = !state.your_turn;
    this.$("play-hint").hidden = state.deal_over;
    this.drawEnd(state);
  }

  /**
   * @param {string[]} cards
   * @param {string[]} marked
   */
  drawTable(cards, marked) {
    var table = this.$("play-table");
    table.replaceChildren();
    if (!cards.length) table.appendChild(el("span", "muted play-empty", _("The table is empty")));
    cards.forEach(function (card) {
      var node = face(card);
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", cardName(card) + (marked.indexOf(card) >= 0 ? ", " + _("can be taken") : ""));
      if (marked.indexOf(card) >= 0) node.classList.add("pc-marked");
      table.appendChild(node);
    });
  }

  /** @param {TableState} state */
  drawEnd(state) {
    var end = this.$("play-end");
    end.replaceChildren();
    this.$("play-next").hidden = !(state.deal_over && !state.match_over);
    end.hidden = !state.deal_over;
    if (!state.deal_over) return;
    end.appendChild(el("h2", "", state.match_over ? _("{name} won the match", { name: state.score.winner || "" }) : _("End of deal {number}", { number: state.deal })));
    if (state.leftovers && state.leftovers.cards.length) {
      end.appendChild(el("p", "", _("The last cards on the table go to {name}: {cards}.", { name: state.leftovers.name, cards: state.leftovers.cards.map(cardName).join(", ") })));
    }
    if (state.score.last) {
      /* a row per category, a column per side: it fits a phone with three sides */
      var table = el("table", "play-points");
      table.appendChild(el("caption", "visually-hidden", _("Points of deal {number}", { number: state.deal })));
      var head = el("tr");
      head.appendChild(el("th", "", _("Points")));
      state.score.sides.forEach(function (side) { var th = el("th", "", side); th.scope = "col"; head.appendChild(th); });
      var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
      var body = el("tbody");
      // The variant's own categories, as the server sends them (scopa.variants.deal_points).
      var labels = state.score.labels || {};
      var rows = (state.score.keys || []).map(function (key) {
        return [key === "total" ? _("This deal") : pgettext("category", labels[key] || key), key];
      });
      rows.forEach(function (pair) {
        var row = el("tr");
        var th = el("th", "", pair[0]); th.scope = "row"; row.appendChild(th);
        (state.score.last || []).forEach(function (p) { row.appendChild(el("td", "", String(p[pair[1]]))); });
        body.appendChild(row);
      });
      var total = el("tr", "play-total");
      var label = el("th", "", _("Match")); label.scope = "row"; total.appendChild(label);
      state.score.totals.forEach(function (t) { total.appendChild(el("td", "", _("{points} of {target}", { points: t, target: state.score.target }))); });
      body.appendChild(total);
      table.appendChild(body);
      end.appendChild(table);
    }
    this.review(end, state);
    this.say(state.match_over ? _("{name} won the match. It is on the sheet.", { name: state.score.winner || "" }) : _("The deal is over: Next deal when you are ready."));
  }

  /* What to do next: the computer's turn, your turn, or the deal's end. */
  go() {
    /** @type {TableState} */
    var state = this.state;
    if (state.deal_over) { this.drawEnd(state); return; }
    if (state.your_turn) {
      // The computer's last move stays said (and its card shown) until you play.
      var last = this.lastMove;
      this.lastMove = null;
      this.say((last ? last + " " : "") + _("Your turn: tap a card to play it."));
      return;
    }
    this.computer();
  }

  computer() {
    var self = this;
    this.busy = true;
    this.$("play-skip").hidden = false;
    var name = this.state.seats[this.state.turn].name;
    this.say(this.device ? _("{name} is thinking on this device…", { name: name }) : _("{name} is thinking…", { name: name }));
    return this.move("computer", { step: this.state.step }).then(function (answer) {
      return self.after(answer);
    });
  }

  /* Show the moves an answer made one by one, then draw where the game stands. */
  /** @param {Answer} answer */
  after(answer) {
    var self = this;
    if (!answer.ok) return this.trouble(answer);
    /** @type {TableState} */
    var next = answer.data;
    var chain = Promise.resolve();
    var made = next.made || [];
    this.lastMove = null;
    made.forEach(function (move, i) {
      // the computer's move just before your turn stays on the table until you play
      var keep = i === made.length - 1 && move.seat !== 0 && !!next.your_turn;
      chain = chain.then(function () { return self.show(move, move.seat === 0 ? pause() / 2 : pause(), keep); });
    });
    return chain.then(function () {
      self.busy = false;
      self.$("play-skip").hidden = true;
      self.draw(next);
      if (next.your_turn) self.hurry = false;
      self.go();
    });
  }

  /* One move: the card played, the cards it takes marked on the table, a sweep called. */
  /**
   * @param {Move} move
   * @param {number} ms
   * @param {boolean} [keep] left shown (and said) after the pause: the move before your turn
   */
  show(move, ms, keep) {
    var played = this.$("play-played");
    played.replaceChildren();
    var card = face(move.card);
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", cardName(move.card));
    played.appendChild(el("span", "play-who small", move.name));
    played.appendChild(card);
    if (move.sweep) played.appendChild(el("strong", "play-sweep", _("Scopa!")));
    played.hidden = false;
    var box = move.seat ? this.$("play-seats").children[move.seat - 1] : null;
    if (box) { /* the card leaves that player's hand */
      var gone = box.querySelector(".pc[data-card='" + move.card + "']") || box.querySelector(".pc-back:last-child");
      if (gone) gone.remove();
    }
    this.drawTable(this.tableBefore(move), move.capture);
    this.say(move.text);
    var self = this;
    return wait(ms, this).then(function () {
      played.hidden = !keep;
      if (keep) { self.lastMove = move.text; }
      var log = self.$("play-log-list");
      log.appendChild(el("li", "", move.text));
    });
  }

  /* The table as it was when ``move`` was made (the cards drawn now, less what was trailed). */
  /** @param {Move} move */
  tableBefore(move) {
    var now = Array.prototype.map.call(this.$("play-table").querySelectorAll(".pc"), function (n) { return n.dataset.card; });
    var seen = now.length ? now : this.state.table.slice();
    move.capture.forEach(function (card) { if (seen.indexOf(card) < 0) seen.push(card); });
    return seen;
  }

  /** @param {Answer} answer */
  trouble(answer) {
    this.busy = false;
    this.$("play-skip").hidden = true;
    this.say((answer.data && answer.data.error) || _("something went wrong"), true);
    if (answer.status === 409) {
      var self = this;
      setTimeout(function () { self.load(); }, 800);
    }
  }

  /* You tapped a card: play it, or offer its captures when there are several. */
  /** @param {string} card */
  pick(card) {
    /** @type {TableState} */
    var state = this.state;
    if (!state.your_turn || this.busy) return;
    var options = state.legal.filter(function (p) { return p.card === card; });
    var self = this;
    if (options.length === 1) { this.play(options[0]); return; }
    this.$("play-hand").querySelectorAll("button").forEach(function (b) {
      b.classList.toggle("pc-selected", b.dataset.card === card);
      b.setAttribute("aria-pressed", b.dataset.card === card ? "true" : "false");
    });
    /** @type {string[]} */
    var all = [];
    options.forEach(function (p) { p.capture.forEach(function (c) { if (all.indexOf(c) < 0) all.push(c); }); });
    this.drawTable(state.table, all);
    var list = this.$("play-choice-list");
    list.replaceChildren();
    options.forEach(function (p) {
      var label = _("Take {cards}", { cards: namedAnd(p.capture) });
      var button = el("button", "play-choice");
      button.type = "button";
      button.setAttribute("aria-label", label);
      button.appendChild(el("span", "play-choice-text", _("Take")));
      p.capture.forEach(function (c) { button.appendChild(face(c)); });
      button.addEventListener("click", function () { self.play(p); });
      list.appendChild(button);
    });
    var cancel = el("button", "play-choice-cancel", _("Back"));
    cancel.type = "button";
    cancel.addEventListener("click", function () { self.draw(state); self.go(); });
    list.appendChild(cancel);
    this.$("play-choices").hidden = false;
    this.say(_("The {card} can take in {count} ways: choose which.", { card: cardName(card), count: options.length }));
    list.querySelector("button")?.focus();
  }

  /** @param {Play} play */
  play(play) {
    var self = this;
    this.busy = true;
    this.hurry = false;
    this.$("play-choices").hidden = true;
    this.$("play-hand").querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    return this.move("play", { step: this.state.step, card: play.card, capture: play.capture })
      .then(function (answer) { return self.after(answer); });
  }

  /* The hint: the coach's best play and the runner-up with the points each is expected to
   * bring and what each takes at once (from the server, or the device's game: there a
   * lighter search, which the hint says), or every legal play when the coach cannot answer. */
  hint() {
    /** @type {TableState} */
    var state = this.state;
    if (!state.your_turn) return;
    var box = this.$("play-hints");
    function legalOnly() {
      box.replaceChildren();
      box.appendChild(el("h2", "", _("Your legal plays")));
      var list = el("ul");
      state.legal.forEach(function (p) { list.appendChild(el("li", "", playText(p))); });
      box.appendChild(list);
      box.hidden = false;
    }
    /** @type {string[]} */
    var takers = [];
    state.legal.forEach(function (p) {
      p.capture.forEach(function (c) { if (takers.indexOf(c) < 0) takers.push(c); });
    });
    this.drawTable(state.table, takers);
    box.replaceChildren(el("p", "", _("Thinking…")));
    box.hidden = false;
    /** @type {Promise<Answer>} */
    var asked = this.device && this.record
      ? D.engine.call("coach", { game: this.record.game }).then(function (/** @type {any} */ data) {
        return { ok: !data.error, status: data.status || 200, data: data };
      })
      : send(this.base + "/coach");
    asked.then(function (answer) {
      if (!answer.ok || answer.data.step !== state.step || !answer.data.advice.length) { legalOnly(); return; }
      /** @type {Advice[]} */
      var advice = answer.data.advice;
      box.replaceChildren();
      box.appendChild(el("h2", "", _("The coach's advice")));
      box.appendChild(el("p", "play-best", _("Best: {play} ({expected}).", { play: adviceText(advice[0]), expected: expected(advice[0].expected) })));
      if (advice.length > 1) {
        box.appendChild(el("p", "", _("Next best: {play} ({expected}).", { play: adviceText(advice[1]), expected: expected(advice[1].expected) })));
      }
      if (answer.data.lighter) {
        box.appendChild(el("p", "play-lighter", _("A lighter search here than the computer's own (no native engine on this device): take these figures as a rough guide.")));
      }
    }, legalOnly);
  }



  /* After a deal: your plays that cost the most, with the better play then. */
  /**
   * @param {HTMLElement} end
   * @param {TableState} state
   */
  review(end, state) {
    if (this.device) return;
    var box = el("div", "play-review");
    end.appendChild(box);
    send(this.base + "/coach").then(function (answer) {
      if (!answer.ok || answer.data.step !== state.step) return;
      /** @type {{played: Play, best: Play, cost: number}[]} */
      var costly = answer.data.review.slice(0, 3);
      box.appendChild(el("h3", "", _("The coach's review")));
      if (!costly.length) { box.appendChild(el("p", "", _("No play of yours cost a point worth saying: well played."))); return; }
      var list = el("ul");
      costly.forEach(function (m) {
        list.appendChild(el("li", "", _("You played {played}; better was {best} (about {cost} points lost).", { played: playText(m.played), best: playText(m.best), cost: decimal(m.cost) })));
      });
      box.appendChild(list);
    }, function () { /* no review without the server */ });
  }

  nextDeal() {
    var self = this;
    this.$("play-next").hidden = true;
    this.hurry = false;
    this.move("next", { step: this.state.step }).then(function (answer) {
      if (!answer.ok) { self.trouble(answer); return; }
      self.draw(answer.data);
      self.say(_("Deal {number}.", { number: answer.data.deal }));
      self.go();
    });
  }
}

/* The set-up form: only the player counts the chosen game is dealt for. */
/** @param {HTMLFormElement} form */
function setup(form) {
  function sync() {
    var chosen = $("input[name=variant]:checked", form);
    var counts = (chosen && chosen.dataset.players || "").split(" ");
    var fieldset = document.getElementById("play-players");
    if (fieldset) { fieldset.hidden = counts.length === 1; }
    var scopone = document.getElementById("play-scopone-note"); // said only for Scopone
    if (scopone) { scopone.hidden = !chosen || /** @type {HTMLInputElement} */ (chosen).value.indexOf("scopone") !== 0; }
    $all("input[name=players]", form, HTMLInputElement).forEach(function (input) {
      input.disabled = counts.indexOf(input.value) < 0;
      var label = input.closest("label");
      if (label) { label.hidden = input.disabled; }
      var first = $("input[name=players][value='" + counts[0] + "']", form, HTMLInputElement);
      if (input.disabled && input.checked && first) { first.checked = true; }
    });
  }
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    D.start(form);
  });
  D.listKept();
  D.warmUp();
}

onPage(function () {
  var root = document.getElementById("play");
  if (root) { var table = new Table(root); expose("table", table); table.load(); }
  expose("playEngine", D.engine);
  expose("think", D.think);
  var form = $("form.play-setup", document, HTMLFormElement);
  if (form) setup(form);
});
