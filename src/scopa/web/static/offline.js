// The sheet with no connection: the service worker, the offline bar, the sheet scored on the
// device while changes wait (device.js), the conflict choices, and the live update's banner.
import { _, deck, describeDeal, matchName, ngettext, sideName } from "./i18n.js";
import { handedOver, localState, queue, scorer } from "./device.js";
import { mine, outbox } from "./outbox.js";
import { changedRules, readRules } from "./forms.js";
import { $, $all, control, esc, expose, onPage } from "./util.js";

/** @typedef {import("./merge.js").Entry} Entry */
/** @typedef {import("./merge.js").Deal} Deal */
/** @typedef {import("./device.js").State} State */
/** @typedef {import("./device.js").Change} Change */
/** @typedef {import("./forms.js").SettingKind} SettingKind */

// --- the device's scorer: started when this device may have to score alone --------------
// Online the server scores every change and checks the deal form as it is filled in
// (dealform.js), so the scorer (seconds of CPU to start, and its memory) starts only where a
// sheet may be scored on the device and only when it may have to be: offline, a request
// that got no answer, changes waiting to be sent, or a weak signal (2G or 3G as the browser
// measures it: the connection is likely to drop at the table). Not on the Play page (it
// starts its own worker: play_device.js), nor at a table, its join form or its television
// (the server deals and scores a table). Anything typed meanwhile is kept as typed and read
// once the scorer is up.
var scoresHere = false;
/** @type {{effectiveType?: string, addEventListener?: Function} | undefined} */
var connection = /** @type {any} */ (navigator).connection;
function weakSignal() {
  return !!connection && /^(slow-2g|2g|3g)$/.test(connection.effectiveType || "");
}
/** Opened from the home screen (installed): the phone taken to the table, where the signal
 * may go at any moment; its scorer starts early, as with a weak signal. */
function installed() {
  return !!window.matchMedia && window.matchMedia("(display-mode: standalone)").matches;
}
/** Starts the scorer (once) after the page has painted, where this page may score. */
function warmScorer() {
  if (scoresHere && !scorer.worker) { requestAnimationFrame(function () { setTimeout(scorer.start, 0); }); }
}
if (connection && connection.addEventListener) {
  connection.addEventListener("change", function () { if (weakSignal()) { warmScorer(); } });
}
window.addEventListener("offline", warmScorer);

// The scorer's start, shown from the first tap that waits for it (a cold start takes seconds,
// tens of them on a slow phone): what it is doing and for how long, until it is up.
var progress = {
  /** @type {ReturnType<typeof setInterval> | undefined} */ timer: undefined,
  since: 0,
  phase: "",
  show: function () {
    var line = document.getElementById("scorer-progress");
    if (!line) {
      line = document.createElement("p");
      line.id = "scorer-progress";
      line.className = "alert scorer-progress";
      line.setAttribute("role", "status");
      var main = document.querySelector("main") || document.body;
      main.prepend(line);
    }
    var seconds = Math.round((Date.now() - progress.since) / 1000);
    var doing = progress.phase === "core" ? _("Loading the rules of the game on this phone…")
      : progress.phase === "python" ? _("Starting the scorer on this phone…")
      : _("Getting this phone's scorer ready…");
    line.hidden = false;
    line.textContent = doing + " " + ngettext("{n} second", "{n} seconds", seconds) + " " +
      _("(the first time takes longest; what you typed is kept)");
  },
  /** @param {Event} event */
  waiting: function (event) {
    if (/** @type {CustomEvent} */ (event).detail.worker !== "" || scorer.isReady || progress.timer !== undefined) { return; }
    progress.since = Date.now();
    progress.show();
    progress.timer = setInterval(progress.show, 1000);
  },
  /** @param {Event} event */
  phased: function (event) {
    var detail = /** @type {CustomEvent} */ (event).detail;
    if (detail.worker !== "") { return; }
    progress.phase = String(detail.phase);
    if (progress.timer !== undefined) { progress.show(); }
  },
  /** @param {Event} event */
  done: function (event) {
    if (/** @type {CustomEvent} */ (event).detail.worker !== "") { return; }
    clearInterval(progress.timer);
    progress.timer = undefined;
    var line = document.getElementById("scorer-progress");
    if (line) { line.hidden = true; }
  },
};
document.addEventListener("scopa:scorer-waiting", progress.waiting);
document.addEventListener("scopa:scorer-phase", progress.phased);
document.addEventListener("scopa:scorer-ready", progress.done);

// --- being offline ------------------------------------------------------------------------
var unreachable = false;
// A match started on this device (id < 0) is not on the server yet: its changes wait too.
function startedHere() { return /^\/matches\/-\d+/.test(location.pathname); }
export function offline() { return !navigator.onLine || unreachable || startedHere(); }

export function updateBar() {
  var bar = document.getElementById("offline-bar");
  if (!bar) { return; }
  outbox.entries(null).then(function (list) {
    var waiting = list.length;
    var conflicts = list.filter(function (e) { return e.conflict || e.error; }).length;
    var parts = [], away = !navigator.onLine || unreachable;
    if (away) { parts.push(_("Offline: this page is kept on this device.")); }
    if (waiting) {
      parts.push(away ? ngettext("{n} change waits to be sent when the connection is back.", "{n} changes wait to be sent when the connection is back.", waiting)
                           : ngettext("{n} change waits to be sent.", "{n} changes wait to be sent.", waiting));
    } else if (away && !document.getElementById("play")) { /* a game's plays: play_device.js */
      parts.push(_("No changes wait to be sent."));
    }
    if (conflicts) { parts.push(ngettext("One change needs your choice.", "{n} changes need your choice.", conflicts)); }
    if (!bar) { return; }
    bar.textContent = parts.join(" ");
    bar.hidden = !parts.length;
    bar.classList.toggle("is-offline", away);
  });
  // a page of figures kept on the device says they are as of the last sync
  document.querySelectorAll("[data-offline-note]").forEach(function (note) {
    /** @type {HTMLElement} */ (note).hidden = !offline();
  });
}

export function flushNow() {
  if (!navigator.onLine) { updateBar(); return Promise.resolve(); }
  return outbox.flush().then(function (result) {
    unreachable = !!(result && result.offline);
    if (unreachable) { warmScorer(); }
    updateBar();
    var sheet = document.getElementById("sheet");
    var id = sheet ? parseInt(sheet.dataset.match || "", 10) : 0;
    if (id < 0) { // started on this device: once the server has it, its page is there
      return outbox.movedTo(id).then(function (to) {
        if (to) { location.replace(location.pathname.replace("/matches/" + id, "/matches/" + to)); } else { sheetPage.render(); }
      });
    }
    if (result && result.sent && sheet && !unreachable) { location.reload(); }
    else if (sheet) { sheetPage.render(); }
  }, function () { updateBar(); });
}

window.addEventListener("online", function () { unreachable = false; flushNow(); });
window.addEventListener("offline", updateBar);
setInterval(function () {
  outbox.entries(null).then(function (list) {
    if (list.some(function (e) { return !e.conflict && !e.error; })) { flushNow(); }
  });
}, 8000);

expose("flush", flushNow);

// --- changes made on the sheet while the server cannot be reached -------------------------
// The house rules' form: every setting of the match's variant (its data-settings, from the
// server's own definition), the ones changed since the form was shown (forms.js).
/** @param {HTMLFormElement} form */
function settingsOf(form) {
  var box = $("[data-settings]", form);
  /** @type {Record<string, SettingKind>} */
  var kinds = box ? JSON.parse(box.dataset.settings || "{}") : {};
  /** @type {[string, string][]} */
  var typed = Array.from(new FormData(form), function (pair) { return [pair[0], String(pair[1])]; });
  return changedRules(readRules(typed, kinds), readRules(shownFields(form), kinds));
}

// The form's fields as the page showed them (or as last kept: keepShown).
/**
 * @param {HTMLFormElement} form
 * @returns {[string, string][]}
 */
function shownFields(form) {
  /** @type {[string, string][]} */
  var fields = [];
  Array.from(form.elements).forEach(function (el) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement) || !el.name) { return; }
    if (el instanceof HTMLInputElement) {
      if (el.type !== "checkbox" && el.type !== "radio") { fields.push([el.name, el.defaultValue]); }
      else if (el.defaultChecked) { fields.push([el.name, el.value]); }
    } else if (el instanceof HTMLSelectElement) {
      var shown = Array.from(el.options).filter(function (o) { return o.defaultSelected; })[0] || el.options[0];
      if (shown) { fields.push([el.name, shown.value]); }
    }
  });
  return fields;
}

// What the form says now becomes what it showed: the next change is measured from it.
/** @param {HTMLFormElement} form */
function keepShown(form) {
  Array.from(form.elements).forEach(function (el) {
    if (el instanceof HTMLInputElement) {
      if (el.type === "checkbox" || el.type === "radio") { el.defaultChecked = el.checked; } else { el.defaultValue = el.value; }
    } else if (el instanceof HTMLSelectElement) {
      Array.from(el.options).forEach(function (o) { o.defaultSelected = o.selected; });
    }
  });
}

// A change of the sheet's forms as the outbox keeps it; null when there is nothing to keep
// (the house rules as they were).
/**
 * @param {HTMLFormElement} form
 * @param {string | undefined} key
 * @returns {Change | null}
 */
function changeOf(form, key) {
  var kind = /** @type {Entry["kind"]} */ (form.dataset.change);
  /** @type {Change} */
  var change = { kind: kind, label: form.dataset.label || kind, key: key };
  if (kind === "delete") { change.number = parseInt(form.dataset.number || "", 10); }
  if (kind === "restore") { change.removed_id = parseInt(form.dataset.removed || "", 10); }
  if (kind === "rules") {
    change.body = settingsOf(form);
    if (!Object.keys(change.body).length) { return null; }
  }
  return change;
}

function closePanels() {
  $all("details.settings", document, HTMLDetailsElement).forEach(function (d) { d.open = false; });
  var detail = document.getElementById("detail");
  if (detail) { detail.innerHTML = ""; }
}

// --- the sheet page -----------------------------------------------------------------------
var sheetPage = {
  id: null,
  render: function () {
    var sheet = document.getElementById("sheet");
    if (!sheet) { return Promise.resolve(); }
    var id = parseInt(sheet.dataset.match || "", 10);
    return Promise.all([outbox.entries(id), outbox.match(id)]).then(function (got) {
      var list = got[0];
      showConflicts(list, got[1] ? got[1].match : null);
      if (!list.some(function (e) { return !e.conflict && !e.error; })) { return; }
      var handed = handedOver(id, list);
      if (handed) { paint(handed); return; }
      if (!scorer.isReady) { localNote(_("Kept on this device; scoring it here…")); }
      return localState(id).then(function (state) {
        if (state && state.pending) { paint(state); }
        else { var kept = $("#sheet .local-note"); if (kept) { kept.remove(); } }
        if (state && state.read && navigator.onLine) { flushNow(); } // a kept deal, now read, can go
        return outbox.entries(id).then(function (kept) { showConflicts(kept, state ? state.match : got[1] && got[1].match); }); // a kept deal the reader refused
      });
    }).catch(function (error) { note(_("The sheet could not be re-scored on this device: {error}", { error: error.message })); });
  },
};

/** @param {number} n */
function signed(n) { return n > 0 ? "+" + n : String(n); }
/** @param {string} text */

/** A sheet's row, as the core writes it (docs/formats.md).
 * @typedef {{number: number, points: Record<string, {total: number}>, totals: Record<string, number>,
 *   after_end: boolean}} Row */

/**
 * The sheet as this device scored it, drawn in place of the server's.
 * @param {State} state
 */
function paint(state) {
  var sheet = state.sheet, table = $("#sheet table.scores");
  var body = table && $("tbody", table);
  if (!table || !body) { return; }
  var labels = state.labels || [];
  var rows = sheet.deals.map(function (/** @type {Row} */ row) {
    var cells = sheet.sides.map(function (/** @type {string} */ side) {
      var pts = row.points[side].total, run = row.totals[side];
      var label = ngettext("deal {deal}, {side}: {points} point", "deal {deal}, {side}: {points} points", Math.abs(pts), { deal: row.number, side: sideName(side, state.match), points: pts }) +
                  (row.after_end ? "" : ", " + _("total {total}", { total: run }));
      return '<td class="cell" aria-label="' + esc(label) + '"><span class="pts">' + signed(pts) + "</span>" +
             (row.after_end ? "" : ' <span class="run">' + run + "</span>") + "</td>";
    }).join("");
    var href = "/matches/" + state.base.id + "/deals/" + row.number;
    var number = state.base.id < 0 ? String(row.number) : '<a class="deal-link" href="' + href + '">' + row.number + "</a>";
    return '<tr class="deal-row' + (row.after_end ? " after-end" : "") + '"><th scope="row" class="num">' + number +
           (row.after_end ? ' <span class="tag">' + esc(_("after the end")) + "</span>" : "") + "</th>" + cells + "</tr>";
  });
  body.innerHTML = rows.join("") ||
    '<tr><td colspan="' + (sheet.sides.length + 1) + '" class="muted empty">' + esc(_("No deals yet: record the first one.")) + "</td></tr>";
  $all("tfoot td", table).forEach(function (td, i) {
    var side = sheet.sides[i];
    td.textContent = sheet.totals[side];
    td.classList.toggle("won", sheet.winner === side);
  });
  var status = $("#sheet .status > span");
  if (status) {
    status.innerHTML = sheet.winner ? '<strong class="winner">' + esc(_("{name} wins", { name: sideName(sheet.winner, state.match) })) + "</strong> " + esc(_("at deal {number}", { number: sheet.decided_at }))
                                    : esc(_("In progress"));
  }
  var dealer = $("#sheet .dealer");
  if (dealer && state.dealer) { // who deals next, as the core says it (the worker's answer)
    dealer.textContent = _("{name} deals deal {number}", { name: sideName(state.dealer, state.match), number: sheet.deals.length + 1 });
    dealer.hidden = !!sheet.winner;
  }
  // The chart and what the changes did, as the server draws and says them (the worker runs
  // the server's code: scopa/web/phone/chart.py, and device.py's notes).
  var chart = $("#sheet .chart"), detail = $("#sheet #detail");
  if (state.chart && chart) { chart.outerHTML = state.chart; }
  else if (state.chart && detail) { detail.insertAdjacentHTML("afterend", state.chart); }
  else if (chart) { chart.hidden = true; }
  var said = state.notes && state.notes.length ? state.notes : labels;
  localNote(_("Scored on this device, not yet on the server: {changes}.", { changes: said.join("; ") }));
  // The house rules as the core says them (Settings.describe, in the page's language; none
  // until the scorer has read the changes: the server's line stays meanwhile).
  var rules = $("#sheet .rules-line");
  if (rules && state.rules_line) {
    var served = rules.dataset.served === undefined ? (rules.dataset.served = rules.textContent || "") : rules.dataset.served;
    rules.textContent = state.base.id < 0 || state.rules_line === served ? state.rules_line
      : state.rules_line + " " + _("(changed on this device)");
  }
}

/** @param {string} text */
function localNote(text) {
  var local = $("#sheet .local-note"), at = $("#sheet .status");
  if (!local && at) {
    local = document.createElement("p");
    local.className = "alert local-note";
    local.setAttribute("role", "status");
    at.before(local);
  }
  if (local) { local.textContent = text; }
}

/** @param {string} text */
function note(text) {
  var bar = document.getElementById("offline-bar");
  if (bar) { bar.hidden = false; bar.textContent = text; }
}

/** The words for a deal's keys (the variant's categories, as the sheet names them). @param {string} key */
function categoryLabel(key) {
  var box = document.getElementById("conflicts");
  try {
    var labels = JSON.parse((box && box.dataset.labels) || "{}");
    return typeof labels[key] === "string" ? labels[key] : key;
  } catch (_) { return key; }
}

/**
 * @param {Entry[]} list
 * @param {Parameters<typeof sideName>[1]} match the match as this device last had it
 */
function showConflicts(list, match) {
  var box = document.getElementById("conflicts");
  if (!box) { return; }
  var open = list.filter(function (e) { return e.conflict || e.error; });
  box.hidden = !open.length;
  box.innerHTML = open.map(function (e) {
    var c = e.conflict, html = '<div class="card conflict-choice" data-seq="' + e.seq + '">';
    if (e.error) {
      html += "<p><strong>" + esc(_("Not saved:")) + "</strong> " + esc(e.label || e.kind) + ". " + esc(e.refused_here ? _("The check on this device (the server's own rules) says:") : _("The server says:")) + " " + esc(e.error) + "</p>" +
              (e.draft ? '<a class="button primary" href="' + esc(e.draft.replace("#tally", "").replace("#", "?mode=")) + '">' + esc(_("Open the form again")) + "</a> " : "") +
              '<button type="button" class="button" data-choose="discard">' + esc(_("Discard this change")) + "</button>";
    } else if (!c) {
      return "";
    } else if (c.type === "appended") {
      html += "<p>" + esc(e.offline ? _("While this device was offline, another device recorded deal {number}. Both are shown: theirs, then yours.", { number: c.count })
                                    : _("Meanwhile another device recorded deal {number}. Both are shown: theirs, then yours.", { number: c.count })) +
              "</p><ul><li>" + esc(_("Theirs: {deal}", { deal: describeDeal(c.theirs[c.theirs.length - 1], match, categoryLabel) })) +
              "</li><li>" + esc(_("Yours: {deal}", { deal: describeDeal(e.body, match, categoryLabel) })) + "</li></ul>" +
              '<button type="button" class="button primary" data-choose="keep">' + esc(_("Add mine as deal {number}", { number: c.count + 1 })) + "</button> " +
              '<button type="button" class="button" data-choose="discard">' + esc(_("Discard mine (it is the same deal)")) + "</button>";
    } else if (c.type === "edited") {
      html += "<p>" + esc(c.theirs ? _("Deal {number} was changed here and on another device.", { number: c.number })
                                   : _("Deal {number} was changed here and deleted on another device.", { number: c.number })) +
              (c.fields && c.fields.length ? " " + esc(_("Both changed: {fields}.", { fields: c.fields.join(", ") })) : "") +
              (c.refused ? " " + esc(c.refused) : "") + "</p><ul><li>" +
              esc(_("Theirs: {deal}", { deal: describeDeal(c.theirs, match, categoryLabel) })) + "</li><li>" + esc(_("Yours: {deal}", { deal: describeDeal(e.body, match, categoryLabel) })) + "</li></ul>" +
              '<button type="button" class="button primary" data-choose="keep">' + esc(_("Keep mine")) + "</button> " +
              '<button type="button" class="button" data-choose="discard">' + esc(_("Keep theirs")) + "</button>";
    } else if (c.type === "rules") {
      html += "<p>" + esc(_("A house rule was changed here and on another device:")) + "</p><ul>" + c.settings.map(function (s) {
        return "<li>" + esc(_("{setting}: yours {mine}, theirs {theirs}", { setting: s.name, mine: String(s.mine), theirs: String(s.theirs) })) +
               ' <button type="button" class="button small" data-choose="theirs:' + esc(s.name) + '">' + esc(_("Keep theirs")) + "</button></li>";
      }).join("") + "</ul>" + '<button type="button" class="button primary" data-choose="keep">' + esc(_("Keep mine")) + "</button> " +
              '<button type="button" class="button" data-choose="discard">' + esc(_("Keep theirs for all")) + "</button>";
    }
    return html + "</div>";
  }).join("");
}

document.addEventListener("click", function (event) {
  var target = event.target;
  var button = target instanceof Element ? /** @type {HTMLElement | null} */ (target.closest("[data-choose]")) : null;
  var holder = button && /** @type {HTMLElement | null} */ (button.closest("[data-seq]"));
  if (!button || !holder) { return; }
  var seq = parseInt(holder.dataset.seq || "", 10);
  outbox.choose(seq, button.dataset.choose || "").then(flushNow);
});

// Forms of the sheet (and the deal page) with data-change: kept in the outbox when offline.
document.addEventListener("submit", function (event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.change || !offline()) { return; }
  event.preventDefault();
  event.stopImmediatePropagation();
  var matchId = parseInt(form.dataset.match || "", 10);
  /** @type {Promise<Change | null>} */ (new Promise(function (resolve) { resolve(changeOf(form, undefined)); })).then(function (change) {
    if (!change) { closePanels(); return; }
    return queue(matchId, form, change).then(function () {
      if (change.kind === "rules") { keepShown(form); }
      if (!document.getElementById("sheet")) { location.href = "/matches/" + matchId; return; }
      closePanels();
      return sheetPage.render().then(function () { if (change.kind === "rules") { showMoved(); } });
    });
  }).then(updateBar).catch(function (error) { note(_("Not kept: {error}", { error: error.message })); });
}, true);

// --- a match started with no connection: New match, Import, Rematch ----------------------
// Read by the worker as the server reads the form (scopa/web/phone/starting.py), kept on
// this device under an id of its own (< 0) with its creation in the outbox (sent once, with
// its Idempotency-Key, when the server answers: outbox.js), and shown at /matches/<id>
// (the service worker fills in the server's pages for its shape).
/**
 * @param {HTMLFormElement} form
 * @param {string} text
 */
function formNote(form, text) {
  var box = /** @type {HTMLElement | null} */ (form.querySelector(".start-note"));
  if (!box) {
    box = document.createElement("p");
    box.className = "alert start-note";
    box.setAttribute("role", "alert");
    form.prepend(box);
  }
  box.textContent = text;
}

/**
 * @param {"new" | "rematch" | "import"} how
 * @param {Record<string, unknown>} payload
 * @param {HTMLFormElement} form
 */
function startHere(how, payload, form) {
  formNote(form, _("No connection: the match is started on this device…"));
  return scorer.call("start", Object.assign({ how: how }, payload)).then(function (result) {
    if (result.errors || result.error) {
      /** @type {Record<string, string>} */
      var errors = result.errors || {};
      var said = Object.keys(errors).map(function (k) { return errors[k]; });
      if (result.error) { said.push(result.message || result.error); }
      formNote(form, _("Nothing was saved: {error}", { error: said.join("; ") }));
      return;
    }
    var id = -Date.now();
    /** @type {"create" | "import"} */
    var kind = how === "import" ? "import" : "create";
    /** @type {Entry} */
    var entry = { match: id, kind: kind, label: kind === "import" ? _("Match imported") : _("Match created"),
                  sent: { url: kind === "import" ? "/api/import" : "/api/matches", method: "POST", type: "application/json",
                          body: JSON.stringify(result.match) } };
    return outbox.remember({ id: id, version: 1, match: result.match, sheet: result.sheet, removed: [] })
      .then(function () { return outbox.add(entry); })
      .then(function () { location.href = "/matches/" + id; });
  }).catch(function (error) { formNote(form, _("Not kept: {error}", { error: error.message })); });
}

document.addEventListener("submit", function (event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !offline()) { return; }
  var action = form.getAttribute("action") || "";
  var rematch = /^\/matches\/(-?\d+)\/rematch$/.exec(action);
  var dropped = /^\/matches\/(-\d+)\/delete$/.exec(action); // started here: the phone forgets it
  if (action !== "/matches/new" && action !== "/import" && !rematch && !dropped) { return; }
  event.preventDefault();
  event.stopImmediatePropagation();
  if (dropped) {
    if (!form.dataset.confirm || window.confirm(form.dataset.confirm)) {
      outbox.forget(parseInt(dropped[1], 10)).then(function () { location.href = "/"; });
    }
    return;
  }
  var submitter = /** @type {HTMLButtonElement | null} */ (event.submitter);
  if (action === "/matches/new" && submitter && submitter.name === "preset") {
    formNote(form, _("The presets need a connection: set the rules below instead."));
  } else if (action === "/matches/new") {
    /** @type {Record<string, string[]>} */
    var fields = {};
    new FormData(form).forEach(function (value, name) { (fields[name] = fields[name] || []).push(String(value)); });
    startHere("new", { fields: fields }, form);
  } else if (action === "/import") {
    var picked = control(form, "file", HTMLInputElement), pasted = form.elements.namedItem("text");
    var file = picked && picked.files && picked.files[0];
    var text = pasted instanceof HTMLTextAreaElement ? pasted.value : "";
    (file ? file.text() : Promise.resolve(text)).then(function (content) { startHere("import", { text: content }, form); });
  } else if (rematch) {
    outbox.match(parseInt(rematch[1], 10)).then(function (kept) {
      if (kept) { startHere("rematch", { match: kept.match }, form); }
      else { formNote(form, _("This match is not kept on this phone, so its rematch needs a connection.")); }
    });
  }
}, true);

/**
 * A match's totals as its list line says them ("Anna 4 · Bruno 0").
 * @param {{sides: string[], totals: Record<string, number>}} sheet
 * @param {any} match
 */
function scoreLine(sheet, match) {
  return sheet.sides.map(function (side) { return sideName(side, match) + " " + sheet.totals[side]; }).join(" · ");
}

// The home page: the matches started on this phone that the server does not have yet, as they
// stand on the phone. What was kept when each started, at once; a match with changes waiting
// besides its creation (deals recorded, a rule changed) is scored with them by the device's
// scorer (localState, as its sheet is), its totals meanwhile said to be on their way.
function listStartedHere() {
  const filters = document.querySelector("main form.filters");
  if (location.pathname !== "/" || !filters || document.querySelector(".started-here")) { return; }
  outbox.entries(null).then(function (list) {
    var started = list.filter(function (e) { return e.kind === "create" || e.kind === "import"; });
    return Promise.all(started.map(function (e) {
      var changed = list.some(function (c) { return c.match === e.match && c !== e && !c.conflict && !c.error; });
      return outbox.match(e.match).then(function (stored) { return stored ? { stored: stored, changed: changed } : null; });
    }));
  }).then(function (found) {
    var kept = found.filter(function (k) { return !!k; }).map(function (k) { return /** @type {{stored: import("./merge.js").Stored, changed: boolean}} */ (k); });
    var items = kept.map(function (k) {
      var stored = k.stored, sheet = stored.sheet || { sides: [], totals: {} };
      var seated = /** @type {any} */ (stored.match);
      var title = matchName(seated) || sheet.sides.map(function (/** @type {string} */ side) { return sideName(side, seated); }).join(" vs ");
      var score = k.changed ? _("Kept on this device; scoring it here…") : scoreLine(sheet, seated);
      return '<li><a class="match-link" href="/matches/' + stored.id + '"><span class="match-name">' + esc(title) +
             '</span><span class="match-score" data-match="' + stored.id + '">' + esc(score) + "</span></a></li>";
    });
    if (!items.length || document.querySelector(".started-here")) { return; }
    var box = document.createElement("section");
    box.className = "card started-here";
    box.innerHTML = "<h2>" + esc(_("Started on this phone, not yet on the server")) + '</h2><ul class="matches">' + items.join("") + "</ul>";
    filters.before(box);
    kept.filter(function (k) { return k.changed; }).reduce(function (/** @type {Promise<unknown>} */ done, k) {
      var id = k.stored.id, line = $('.match-score[data-match="' + id + '"]', box);
      return done.then(function () { return localState(id); }).then(function (state) {
        if (line) { line.textContent = state ? scoreLine(state.sheet, state.match) : ""; }
      }, function () { if (line) { line.textContent = ""; } }); // not scored here: no totals rather than old ones
    }, Promise.resolve());
  });
}

// The home page after a tap on a match this phone does not keep (the service worker).
function sayNotKept() {
  if (!/[?&]missing=/.test(location.search)) { return; }
  var main = document.querySelector("main");
  if (main && !main.querySelector(".not-kept")) {
    var box = document.createElement("p");
    box.className = "alert not-kept";
    box.setAttribute("role", "alert");
    box.textContent = _("That match is not kept on this phone, so it cannot be shown with no connection. Open it once while online and it will be kept here.");
    main.prepend(box);
  }
  history.replaceState(null, "", location.pathname);
}

// Online: every htmx change carries an Idempotency-Key; one that cannot reach the server
// goes to the outbox with that same key and body, so a lost answer never counts twice.
document.addEventListener("htmx:configRequest", function (event) {
  var d = event.detail;
  if (d.verb === "get") { return; }
  var key = outbox.newKey();
  d.headers["Idempotency-Key"] = key;
  d.elt.dataset.idempotencyKey = key;
  // Each change moves the match's version up by one: marked as this device's before the
  // answer, so another tab's live update that arrives first is not "another device".
  var form = d.elt.closest("form"), sheet = document.getElementById("sheet");
  var version = form && control(form, "version", HTMLInputElement);
  var seen = version ? parseInt(version.value, 10) : NaN;
  if (sheet && !isNaN(seen)) { d.elt.dataset.predicted = String(seen + 1); mine.add(sheet.dataset.match, seen + 1); }
});
document.addEventListener("htmx:afterRequest", function (event) {
  var d = event.detail, elt = d.elt, sheet = document.getElementById("sheet");
  if (!d.successful && elt && elt.dataset && elt.dataset.predicted && sheet) {
    mine.drop(sheet.dataset.match, elt.dataset.predicted); // refused: not ours after all
  }
});
document.addEventListener("htmx:sendError", function (event) {
  var d = event.detail, elt = d.elt;
  const form = elt.closest("form");
  unreachable = true;
  warmScorer();
  if (d.requestConfig && d.requestConfig.verb === "get") {
    var href = elt.getAttribute("href");
    if (href) { location.href = href; }
    return;
  }
  if (!form || !form.dataset.change) { updateBar(); return; }
  var matchId = parseInt(form.dataset.match || "", 10);
  /** @type {Promise<Change | null>} */ (new Promise(function (resolve) { resolve(changeOf(form, form.dataset.idempotencyKey)); })).then(function (change) {
    if (!change) { return; }
    return queue(matchId, form, change).then(function () {
      if (change.kind === "rules") { keepShown(form); }
      return sheetPage.render();
    });
  }).then(updateBar).catch(function (error) { note(_("Not kept: {error}", { error: error.message })); });
});

// The live update never closes what is open nor resets a field being changed: while a panel,
// a breakdown or a form is in use, the new sheet waits behind a banner.
/** @type {string | null} the sheet a live update brought while a panel was in use */
var held = null;
/** @param {HTMLElement} sheet */
export function busy(sheet) {
  var detail = $("#detail", sheet);
  if ($("details[open]", sheet) || (detail && detail.innerHTML.trim())) { return true; }
  var active = document.activeElement;
  return !!(active && sheet.contains(active) && /INPUT|SELECT|TEXTAREA/.test(active.tagName));
}
document.addEventListener("htmx:beforeSwap", function (event) {
  var d = event.detail, elt = d.requestConfig && d.requestConfig.elt;
  if (!elt || !elt.classList || !elt.classList.contains("poll") || d.xhr.status !== 200) { return; }
  var sheet = document.getElementById("sheet");
  // A version this device made (another tab, or the outbox just now) is no other device's.
  var version = /data-version="(\d+)"/.exec(d.serverResponse || "");
  if (sheet && version && mine.has(sheet.dataset.match, version[1])) {
    d.serverResponse = d.serverResponse.replace(_("Updated on another device: ").trim(), _("Changed on this device:"));
    return;
  }
  if (sheet && busy(sheet)) {
    d.shouldSwap = false;
    held = d.serverResponse;
    var banner = document.getElementById("update-banner");
    if (banner) { banner.hidden = false; }
  }
});
document.addEventListener("click", function (event) {
  var target = event.target, banner = document.getElementById("update-banner");
  if (!(target instanceof Element) || !target.closest("#update-banner button") || !banner) { return; }
  var sheet = document.getElementById("sheet");
  banner.hidden = true;
  if (held && sheet && window.htmx) {
    sheet.outerHTML = held;
    var swapped = document.getElementById("sheet");
    if (swapped) { window.htmx.process(swapped); }
    held = null;
  }
});
/** What a rules change moved ("Primiera off: Anna 10 → 8"), at the top of the sheet: brought
 * to where the eyes are, by the button just tapped at the bottom of the house rules. */
function showMoved() {
  var moved = $("#sheet .note, #sheet .local-note");
  if (moved) { moved.scrollIntoView({ block: "center" }); }
}

document.addEventListener("htmx:afterSwap", function (event) {
  var d = event.detail, config = d.requestConfig, sheet = document.getElementById("sheet");
  if (sheet && config && config.verb && config.verb !== "get") { mine.add(sheet.dataset.match, sheet.dataset.version); }
  if (sheet && config && config.verb === "post" && /\/settings$/.test(config.path || "")) { showMoved(); }
  sheetPage.render(); keepPages();
});
// A change live.js patched in (the rows it altered): drawn over by what this device still
// holds, and its pages kept, as after a swap.
document.addEventListener("scopa:patched", function () { sheetPage.render(); keepPages(); });

function keepPages() {
  var sheet = document.getElementById("sheet"), worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  // Where a match may be started (the home page, New match, Import, a finished match's
  // Rematch): the pages a match started offline needs are kept too (sw.js keepShapes).
  if (worker && (/^\/(matches\/new|import)?$/.test(location.pathname) || document.querySelector("form.rematch"))) {
    worker.postMessage({ type: "shapes", language: document.documentElement.lang, deck: deck });
  }
  if (!sheet || !worker || parseInt(sheet.dataset.match || "", 10) < 0) { return; }
  var id = sheet.dataset.match, base = "/matches/" + id;
  var urls = [base, "/", base + "/deals/new", base + "/deals/new?mode=cards", base + "/deals/new?mode=categories"];
  $all("a.deal-link", sheet).slice(-40).forEach(function (a) {
    var href = a.getAttribute("href");
    if (href) { urls.push(href, href + "/edit"); }
  });
  worker.postMessage({ type: "keep", urls: urls });
}

// Once per window: the service worker, and the bar kept up to date with the outbox.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function () { setTimeout(keepPages, 300); }).catch(function () { /* plain HTTP on the LAN */ });
  navigator.serviceWorker.addEventListener("controllerchange", keepPages);
}
outbox.onChange(updateBar);

// Each page: the sheet scored on the device, the outbox sent, the scorer started.
function setup() {
  var sheet = document.getElementById("sheet");
  if (sheet && /[?&]done=1/.test(location.search)) { mine.add(sheet.dataset.match, sheet.dataset.version); }
  sayNotKept();
  listStartedHere();
  if (sheet) {
    var id = parseInt(sheet.dataset.match || "", 10);
    if (id < 0) { // started here: nothing of it on the server yet
      sheetPage.render().then(function () { if (navigator.onLine) { flushNow(); } });
    } else if (navigator.onLine) {
      outbox.fresh(id).then(function () { return flushNow(); }, function () { unreachable = true; warmScorer(); sheetPage.render(); });
    } else {
      sheetPage.render();
    }
  } else {
    flushNow();
  }
  updateBar();
  scoresHere = !document.querySelector("#play, form.play-setup, #table, form[action^='/t/']");
  if (offline() || weakSignal() || installed()) { warmScorer(); }
  outbox.entries(null).then(function (list) { if (list.length) { warmScorer(); } });
}

onPage(setup);
