/* The Play page: the set-up form's choices, and the table of a game against the computer.
 *
 * The server keeps the game and thinks for the computer; this script draws what seat 0 may
 * see (GET /play/{id}/state) and sends each move with the step it saw. The computer's moves
 * are shown one at a time, about a second each (Skip, or a tap on the table, hurries them).
 * Cards are drawn here with the Italian suits in inline SVG: nothing is fetched but JSON.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var SUITS = { d: "coins", c: "cups", s: "swords", b: "clubs" };
  var RANKS = { A: "ace", J: "jack", H: "horse", K: "king" };
  var FACE_WORDS = { J: "Fante", H: "Cavallo", K: "Re" };

  function pause() {
    var p = Number(window.SCOPA_PLAY_PAUSE);
    return isFinite(p) && p >= 0 ? p : 1000;
  }

  function cardName(card) {
    var rank = card.slice(0, -1);
    return (RANKS[rank] || rank) + " of " + SUITS[card.slice(-1)];
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function shape(parent, tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    parent.appendChild(node);
    return node;
  }

  /* One suit's sign on a 24x24 box: a gold coin, a red cup, a blue sword, a green club. */
  function suitSign(suit) {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    svg.setAttribute("class", "suit suit-" + suit);
    if (suit === "d") {
      shape(svg, "circle", { cx: 12, cy: 12, r: 10, fill: "#e0a81e", stroke: "#8a6210", "stroke-width": 1.5 });
      shape(svg, "circle", { cx: 12, cy: 12, r: 6, fill: "none", stroke: "#8a6210", "stroke-width": 1.2 });
      shape(svg, "circle", { cx: 12, cy: 12, r: 2.2, fill: "#b3261e" });
    } else if (suit === "c") {
      shape(svg, "path", { d: "M4 3h16c0 6-3 9-8 10C7 12 4 9 4 3z", fill: "#c0392b", stroke: "#7a1f16", "stroke-width": 1 });
      shape(svg, "rect", { x: 10.8, y: 13, width: 2.4, height: 5, fill: "#e0a81e" });
      shape(svg, "path", { d: "M6.5 22h11l-2-4h-7z", fill: "#e0a81e", stroke: "#8a6210", "stroke-width": 0.8 });
    } else if (suit === "s") {
      shape(svg, "path", { d: "M12 1l2.2 4v11h-4.4V5z", fill: "#9fb8d0", stroke: "#1f4e79", "stroke-width": 1 });
      shape(svg, "rect", { x: 6, y: 16, width: 12, height: 2.2, rx: 1, fill: "#1f4e79" });
      shape(svg, "rect", { x: 10.9, y: 18, width: 2.2, height: 4, fill: "#7a4b1e" });
      shape(svg, "circle", { cx: 12, cy: 22.3, r: 1.4, fill: "#e0a81e" });
    } else {
      shape(svg, "path", { d: "M10.2 23l-1.4-13c-.3-5 1.3-8.5 3.2-9 1.9.5 3.5 4 3.2 9l-1.4 13z", fill: "#8b5a2b", stroke: "#4e3015", "stroke-width": 1 });
      shape(svg, "circle", { cx: 9.3, cy: 9, r: 1.3, fill: "#2e7d32" });
      shape(svg, "circle", { cx: 14.7, cy: 12, r: 1.3, fill: "#2e7d32" });
      shape(svg, "circle", { cx: 9.8, cy: 15.5, r: 1.3, fill: "#2e7d32" });
    }
    return svg;
  }

  /* A card's face: its rank in the corners, the suit's sign, the face's name. */
  function face(card, tag) {
    var rank = card.slice(0, -1), suit = card.slice(-1);
    var node = el(tag || "span", "pc pc-" + SUITS[suit]);
    node.dataset.card = card;
    /* the glyphs are drawn by the styles from data-t, so a card's name is its label alone */
    [["pc-rank", rank], ["pc-word", FACE_WORDS[rank]], ["pc-rank pc-rank-end", rank]].forEach(function (part, i) {
      if (!part[1]) return;
      var span = el("span", part[0]);
      span.dataset.t = part[1];
      span.setAttribute("aria-hidden", "true");
      node.appendChild(span);
      if (i === 0) node.appendChild(suitSign(suit));
    });
    return node;
  }

  function back() {
    var node = el("span", "pc pc-back");
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  function wait(ms, game) {
    return new Promise(function (resolve) {
      if (game.hurry || ms <= 0) { resolve(); return; }
      var timer = setTimeout(done, ms);
      function done() { clearTimeout(timer); game.wake = null; resolve(); }
      game.wake = done;
    });
  }

  function send(url, body) {
    return fetch(url, {
      method: body ? "POST" : "GET",
      headers: body ? { "Content-Type": "application/json", Accept: "application/json" } : { Accept: "application/json" },
      body: body ? JSON.stringify(body) : undefined,
      credentials: "same-origin",
    }).then(function (response) {
      return response.json().catch(function () { return { error: "the server's answer was not readable" }; })
        .then(function (data) { return { ok: response.ok, status: response.status, data: data }; });
    });
  }

  function Table(root) {
    this.root = root;
    this.base = "/play/" + root.dataset.game;
    this.state = null;
    this.busy = false;
    this.hurry = false;
    this.wake = null;
    this.$ = function (id) { return document.getElementById(id); };
    var self = this;
    this.$("play-hint").addEventListener("click", function () { self.hint(); });
    this.$("play-skip").addEventListener("click", function () { self.skip(); });
    root.querySelector(".play-felt").addEventListener("click", function () { self.skip(); });
    this.$("play-next").addEventListener("click", function () { self.nextDeal(); });
  }

  Table.prototype.skip = function () {
    if (!this.busy) return;
    this.hurry = true;
    if (this.wake) this.wake();
  };

  Table.prototype.say = function (text, alert) {
    var status = this.$("play-status");
    status.textContent = text;
    status.classList.toggle("play-alert", !!alert);
  };

  Table.prototype.load = function () {
    var self = this;
    return send(this.base + "/state").then(function (answer) {
      if (!answer.ok) { self.say(answer.data.error || "the game could not be read", true); return; }
      self.draw(answer.data);
      self.go();
    });
  };

  /* Draw a state: the others' seats, the table, your hand, the score, the deal's end. */
  Table.prototype.draw = function (state) {
    this.state = state;
    var self = this;
    var seats = this.$("play-seats");
    seats.replaceChildren();
    state.seats.forEach(function (seat, index) {
      if (index === 0) return;
      var box = el("div", "play-seat" + (state.turn === index ? " play-turn" : ""));
      box.appendChild(el("span", "play-seat-name", seat.name + (state.turn === index ? " (to play)" : "")));
      var hand = el("span", "play-seat-hand");
      for (var k = 0; k < seat.cards - seat.shown.length; k++) hand.appendChild(back());
      seat.shown.forEach(function (card) {
        var shown = face(card);
        shown.setAttribute("role", "img");
        shown.setAttribute("aria-label", cardName(card) + ", shown");
        hand.appendChild(shown);
      });
      box.appendChild(hand);
      box.appendChild(el("span", "play-seat-facts small", seat.cards + " in hand · " + seat.taken + " taken" + (seat.sweeps ? " · " + seat.sweeps + " sweep" + (seat.sweeps > 1 ? "s" : "") : "")));
      seats.appendChild(box);
    });
    this.drawTable(state.table, []);
    var me = state.seats[0];
    this.$("play-stock").textContent = state.stock ? state.stock + " cards still to deal" : state.deal_over ? "" : "Last hand: no cards left to deal";
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
    score.textContent = state.score.sides.map(function (side, i) { return side + " " + state.score.totals[i]; }).join(" · ") + " (to " + state.score.target + ") · you took " + me.taken + (me.sweeps ? ", " + me.sweeps + " sweep" + (me.sweeps > 1 ? "s" : "") : "");
    var sheet = this.$("play-sheet");
    if (state.sheet) { sheet.href = state.sheet; sheet.hidden = false; }
    var log = this.$("play-log-list");
    log.replaceChildren();
    state.moves.forEach(function (move) { log.appendChild(el("li", "", move.text)); });
    this.$("play-hints").hidden = true;
    this.$("play-choices").hidden = true;
    this.$("play-hint").disabled = !state.your_turn;
    this.$("play-hint").hidden = state.deal_over;
    this.drawEnd(state);
  };

  Table.prototype.drawTable = function (cards, marked) {
    var table = this.$("play-table");
    table.replaceChildren();
    if (!cards.length) table.appendChild(el("span", "muted play-empty", "The table is empty"));
    cards.forEach(function (card) {
      var node = face(card);
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", cardName(card) + (marked.indexOf(card) >= 0 ? ", can be taken" : ""));
      if (marked.indexOf(card) >= 0) node.classList.add("pc-marked");
      table.appendChild(node);
    });
  };

  Table.prototype.drawEnd = function (state) {
    var end = this.$("play-end");
    end.replaceChildren();
    this.$("play-next").hidden = !(state.deal_over && !state.match_over);
    end.hidden = !state.deal_over;
    if (!state.deal_over) return;
    end.appendChild(el("h2", "", state.match_over ? (state.score.winner + " won the match") : "End of deal " + state.deal));
    if (state.leftovers && state.leftovers.cards.length) {
      end.appendChild(el("p", "", "The last cards on the table go to " + state.leftovers.name + ": " + state.leftovers.cards.map(cardName).join(", ") + "."));
    }
    if (state.score.last) {
      /* a row per category, a column per side: it fits a phone with three sides */
      var table = el("table", "play-points");
      table.appendChild(el("caption", "visually-hidden", "Points of deal " + state.deal));
      var head = el("tr");
      head.appendChild(el("th", "", "Points"));
      state.score.sides.forEach(function (side) { var th = el("th", "", side); th.scope = "col"; head.appendChild(th); });
      var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
      var body = el("tbody");
      var rows = [["Cards", "cards"], ["Coins", "coins"], ["Settebello", "settebello"], ["Primiera", "primiera"], ["Sweeps", "sweeps"], ["This deal", "total"]];
      if (state.score.last.some(function (p) { return p.napola; })) rows.splice(5, 0, ["Napola", "napola"]);
      rows.forEach(function (pair) {
        var row = el("tr");
        var th = el("th", "", pair[0]); th.scope = "row"; row.appendChild(th);
        state.score.last.forEach(function (p) { row.appendChild(el("td", "", String(p[pair[1]]))); });
        body.appendChild(row);
      });
      var total = el("tr", "play-total");
      var label = el("th", "", "Match"); label.scope = "row"; total.appendChild(label);
      state.score.totals.forEach(function (t) { total.appendChild(el("td", "", t + " of " + state.score.target)); });
      body.appendChild(total);
      table.appendChild(body);
      end.appendChild(table);
    }
    this.say(state.match_over ? state.score.winner + " won the match. It is on the sheet." : "The deal is over: Next deal when you are ready.");
  };

  /* What to do next: the computer's turn, your turn, or the deal's end. */
  Table.prototype.go = function () {
    var state = this.state;
    if (state.deal_over) { this.drawEnd(state); return; }
    if (state.your_turn) { this.say("Your turn: tap a card to play it."); return; }
    this.computer();
  };

  Table.prototype.computer = function () {
    var self = this;
    this.busy = true;
    this.$("play-skip").hidden = false;
    var name = this.state.seats[this.state.turn].name;
    this.say(name + " is thinking…");
    return send(this.base + "/computer", { step: this.state.step }).then(function (answer) {
      return self.after(answer);
    });
  };

  /* Show the moves an answer made one by one, then draw where the game stands. */
  Table.prototype.after = function (answer) {
    var self = this;
    if (!answer.ok) return this.trouble(answer);
    var next = answer.data;
    var chain = Promise.resolve();
    next.made.forEach(function (move) {
      chain = chain.then(function () { return self.show(move, move.seat === 0 ? pause() / 2 : pause()); });
    });
    return chain.then(function () {
      self.busy = false;
      self.$("play-skip").hidden = true;
      self.draw(next);
      if (next.your_turn) self.hurry = false;
      self.go();
    });
  };

  /* One move: the card played, the cards it takes marked on the table, a sweep called. */
  Table.prototype.show = function (move, ms) {
    var played = this.$("play-played");
    played.replaceChildren();
    var card = face(move.card);
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", cardName(move.card));
    played.appendChild(el("span", "play-who small", move.name));
    played.appendChild(card);
    if (move.sweep) played.appendChild(el("strong", "play-sweep", "Scopa!"));
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
      played.hidden = true;
      var log = self.$("play-log-list");
      log.appendChild(el("li", "", move.text));
    });
  };

  /* The table as it was when ``move`` was made (the cards drawn now, less what was trailed). */
  Table.prototype.tableBefore = function (move) {
    var now = Array.prototype.map.call(this.$("play-table").querySelectorAll(".pc"), function (n) { return n.dataset.card; });
    var seen = now.length ? now : this.state.table.slice();
    move.capture.forEach(function (card) { if (seen.indexOf(card) < 0) seen.push(card); });
    return seen;
  };

  Table.prototype.trouble = function (answer) {
    this.busy = false;
    this.$("play-skip").hidden = true;
    this.say((answer.data && answer.data.error) || "something went wrong", true);
    if (answer.status === 409) {
      var self = this;
      setTimeout(function () { self.load(); }, 800);
    }
  };

  /* You tapped a card: play it, or offer its captures when there are several. */
  Table.prototype.pick = function (card) {
    var state = this.state;
    if (!state.your_turn || this.busy) return;
    var options = state.legal.filter(function (p) { return p.card === card; });
    var self = this;
    if (options.length === 1) { this.play(options[0]); return; }
    this.$("play-hand").querySelectorAll("button").forEach(function (b) {
      b.classList.toggle("pc-selected", b.dataset.card === card);
      b.setAttribute("aria-pressed", b.dataset.card === card ? "true" : "false");
    });
    var all = [];
    options.forEach(function (p) { p.capture.forEach(function (c) { if (all.indexOf(c) < 0) all.push(c); }); });
    this.drawTable(state.table, all);
    var list = this.$("play-choice-list");
    list.replaceChildren();
    options.forEach(function (p) {
      var label = "Take " + p.capture.map(cardName).join(" and ");
      var button = el("button", "play-choice");
      button.type = "button";
      button.setAttribute("aria-label", label);
      button.appendChild(el("span", "play-choice-text", "Take"));
      p.capture.forEach(function (c) { button.appendChild(face(c)); });
      button.addEventListener("click", function () { self.play(p); });
      list.appendChild(button);
    });
    var cancel = el("button", "play-choice-cancel", "Back");
    cancel.type = "button";
    cancel.addEventListener("click", function () { self.draw(state); self.go(); });
    list.appendChild(cancel);
    this.$("play-choices").hidden = false;
    this.say("The " + cardName(card) + " can take in " + options.length + " ways: choose which.");
    list.querySelector("button").focus();
  };

  Table.prototype.play = function (play) {
    var self = this;
    this.busy = true;
    this.hurry = false;
    this.$("play-choices").hidden = true;
    this.$("play-hand").querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    return send(this.base + "/play", { step: this.state.step, card: play.card, capture: play.capture })
      .then(function (answer) { return self.after(answer); });
  };

  Table.prototype.hint = function () {
    var state = this.state;
    if (!state.your_turn) return;
    var box = this.$("play-hints");
    box.replaceChildren();
    box.appendChild(el("h2", "", "Your legal plays"));
    var list = el("ul");
    var takers = [];
    state.legal.forEach(function (p) {
      var text = cardName(p.card) + (p.capture.length ? ": takes " + p.capture.map(cardName).join(" and ") : ": lay it on the table");
      list.appendChild(el("li", "", text));
      p.capture.forEach(function (c) { if (takers.indexOf(c) < 0) takers.push(c); });
    });
    box.appendChild(list);
    box.hidden = false;
    this.drawTable(state.table, takers);
  };

  Table.prototype.nextDeal = function () {
    var self = this;
    this.$("play-next").hidden = true;
    this.hurry = false;
    send(this.base + "/next", { step: this.state.step }).then(function (answer) {
      if (!answer.ok) { self.trouble(answer); return; }
      self.draw(answer.data);
      self.say("Deal " + answer.data.deal + ".");
      self.go();
    });
  };

  /* The set-up form: only the player counts the chosen game is dealt for. */
  function setup(form) {
    function sync() {
      var chosen = form.querySelector("input[name=variant]:checked");
      var counts = (chosen && chosen.dataset.players || "").split(" ");
      var fieldset = document.getElementById("play-players");
      fieldset.hidden = counts.length === 1;
      form.querySelectorAll("input[name=players]").forEach(function (input) {
        input.disabled = counts.indexOf(input.value) < 0;
        input.closest("label").hidden = input.disabled;
        if (input.disabled && input.checked) form.querySelector("input[name=players][value='" + counts[0] + "']").checked = true;
      });
    }
    form.addEventListener("change", sync);
    sync();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("play");
    if (root) { window.scopaTable = new Table(root); window.scopaTable.load(); }
    var form = document.querySelector("form.play-setup");
    if (form) setup(form);
  });
})();
