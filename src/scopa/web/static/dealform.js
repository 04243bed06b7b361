// The deal form on the device: its draft kept through a reload, a closed tab, a failed submit
// or a lost connection; the live check run by the project's own core in the scorer worker
// (green exactly when the server would accept the deal); and the submit, sent with an
// Idempotency-Key or kept in the outbox when the server cannot be reached.
import { _, sideName } from "./i18n.js";
import { formRequest, handOver, localState, queue, scorer } from "./device.js";
import { offline } from "./offline.js";
import { mine, outbox } from "./outbox.js";
import { $, $all, control, onPage, showPage } from "./util.js";

/** @typedef {import("./outbox.js").Fields} Fields */

/**
 * The form's fields as typed (name: its values).
 * @param {HTMLFormElement} form
 * @returns {Fields}
 */
function fieldsOf(form) {
  /** @type {Fields} */
  var fields = {};
  new FormData(form).forEach(function (value, name) {
    (fields[name] = fields[name] || []).push(String(value));
  });
  return fields;
}

/**
 * @param {HTMLFormElement} form
 * @param {Fields} fields
 */
function fill(form, fields) {
  /** @type {(HTMLInputElement | HTMLSelectElement)[]} */
  var controls = $all("input, select", form).filter(function (el) {
    return el instanceof HTMLInputElement || el instanceof HTMLSelectElement;
  });
  controls.forEach(function (el) {
    if (!el.name || el.name === "version" || el.name === "mode" || el.name === "base") { return; }
    var values = fields[el.name] || [];
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) { el.checked = values.indexOf(el.value) >= 0; }
    else if (values.length) { el.value = values[0]; }
  });
}

/** The device's check of a deal (scopa/web/phone/device.py "check").
 * @typedef {{ok: boolean, errors: Record<string, string>, error?: string, points: Record<string, number>,
 *   notes: string[], coins?: string[], deal?: import("./merge.js").Deal}} Checked */

/** @param {HTMLFormElement} form */
function setup(form) {
  var matchId = parseInt(form.dataset.match || "", 10);
  var number = form.dataset.number ? parseInt(form.dataset.number, 10) : null;
  var draftId = location.pathname + "#" + form.dataset.mode;
  /** @type {any} */
  var seated = null;  // the match as this device has it: who sits where (its seat_kinds)
  const check = $("#check", form);
  if (!check) { return; }
  var line = check;
  var core = $(".check-core", check) || check.appendChild(document.createElement("span"));
  core.className = "check-core";
  var draftBar = document.getElementById("draft-bar");
  var version = control(form, "version", HTMLInputElement);
  var seen = version ? parseInt(version.value, 10) : NaN;
  /** @type {any} the match as the server last had it (JSON) */
  var match = null;
  var seq = 0;

  // The match the form was shown for: the kept copy when it is that version, else the
  // server's (a form re-shown after another device's change checks against the new rules).
  function matchJson() {
    if (match) { return Promise.resolve(match); }
    return outbox.match(matchId).then(function (body) {
      if (body && (body.version === seen || isNaN(seen) || offline())) { match = body.match; return match; }
      return outbox.fresh(matchId).then(function (fresh) { match = fresh.match; return match; },
                                        function (error) { if (body) { match = body.match; return match; } throw error; });
    });
  }

  /** @type {{fields: string, result: any}} */
  var lastCheck = { fields: "", result: null };
  var checkUrl = "/matches/" + matchId + "/deals/" + (number || "new") + "/check";
  /** @returns {Promise<Checked>} */
  function runCheck() {
    var mine = ++seq;
    var fields = fieldsOf(form);
    var typed = JSON.stringify(fields);
    function onDevice() {
      return matchJson().then(function (m) {
        return scorer.call("check", { match: m, fields: fields, number: number });
      });
    }
    // The device's scorer once it runs (offline, or changes waiting: offline.js starts it);
    // until then the server runs the same check on the match as stored. No answer from the
    // server: the device is offline after all, and its scorer starts for this check.
    function onServer() {
      var request = formRequest(form);
      return fetch(checkUrl, { method: "POST", body: request.body, credentials: "same-origin",
                               headers: { "Content-Type": request.type } }).then(function (response) {
        // Refused (the match gone, a session ended): the form's own post will say why.
        return response.ok ? response.json() : { ok: false, errors: {}, notes: [] };
      }, onDevice);
    }
    var checking = scorer.isReady || offline() ? onDevice() : onServer();
    return checking.then(function (result) {
      lastCheck = { fields: typed, result: result };
      if (mine !== seq) { return result; }
      show(result);
      return result;
    });
  }
  // The check already shown for exactly these fields (a tap on Record right after it), or a
  // fresh one.
  function checked() {
    var last = lastCheck.result;
    if (last && last.ok && lastCheck.fields === JSON.stringify(fieldsOf(form))) {
      return Promise.resolve(last);
    }
    return runCheck();
  }

  /** @param {Checked} result */
  function show(result) {
    // The marks under the fields follow the check: one whose problem is gone goes (whichever
    // field fixed it), one whose problem is still there says it as it is now (a field changed
    // but still wrong: 41 cards become 39).
    $all(".field-error[data-for]", form).forEach(function (el) {
      if (!(el instanceof HTMLElement)) { return; }
      var key = el.dataset.for || "";
      if (!Object.prototype.hasOwnProperty.call(result.errors, key)) { el.remove(); return; }
      if (el.textContent !== result.errors[key]) { el.textContent = result.errors[key]; }
    });
    line.classList.toggle("ok", !!result.ok);
    line.classList.toggle("bad", !result.ok && Object.keys(result.errors).length > 0);
    line.dataset.core = result.ok ? "ok" : "refused";
    if (result.ok) {
      var pts = Object.keys(result.points).map(function (s) { return sideName(s, seated) + " " + result.points[s]; }).join(" · ");
      core.textContent = " — " + (result.notes.length ? _("ready: {points}. Note: {notes}", { points: pts, notes: result.notes.join("; ") })
                                                       : _("ready: {points}", { points: pts }));
    } else {
      var messages = Object.keys(result.errors).map(function (k) { return result.errors[k]; });
      core.textContent = messages.length ? " — " + _("not yet: {reason}", { reason: messages[0] }) : "";
    }
    $all(".check-notes", form).forEach(function (el) { el.remove(); });
    form.dispatchEvent(new CustomEvent("scopa:checked", { detail: result }));
  }

  /**
   * Where an error about ``key`` goes, as the server's page places it: after the side's title
   * (``side-N``), else after the field's own block in its side or the form.
   * @param {string} key
   * @returns {Element | null}
   */
  function placeOf(key) {
    var side = /^side-(\d+)$/.exec(key);
    if (side) {
      var box = form.querySelector('[data-side="' + side[1] + '"]');
      return box ? box.querySelector("legend") : null;
    }
    var prefix = key === "cards" ? "card-" : key + "-";
    /** @type {Element | null} */
    var el = form.querySelector('[name="' + key + '"]') || form.querySelector('[name^="' + prefix + '"]');
    while (el && el.parentElement && el.parentElement !== form && el.parentElement.tagName !== "FIELDSET") {
      el = el.parentElement;
    }
    return el;
  }

  /**
   * A deal this device's scorer refused on Record: each error under its field, as the server
   * marks them (a plain check only says the first in the check line, while typing). The marks
   * already there are the check's (show() keeps them in step): only the missing ones are added.
   * @param {Record<string, string>} errors
   */
  function mark(errors) {
    Object.keys(errors).forEach(function (key) {
      var shown = $all(".field-error[data-for]", form).some(function (el) {
        return el instanceof HTMLElement && el.dataset.for === key;
      });
      var place = shown ? null : placeOf(key);
      if (!place) { return; }
      var said = document.createElement("p");
      said.className = "field-error live";
      said.dataset.for = key;
      said.textContent = errors[key];
      place.after(said);
    });
  }

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  var timer;
  function changed() {
    outbox.draft.put(draftId, fieldsOf(form));
    if (draftBar) { draftBar.hidden = false; }
    clearTimeout(timer);
    timer = setTimeout(runCheck, 120);
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  // The match as the server has it, kept on the device now (the form may be filled in, and
  // checked, after the signal has gone).
  matchJson().then(undefined, function () { /* offline: the copy kept before, if any */ });
  runCheck();
  scorer.ready.then(undefined, function () {
    core.textContent = " " + _("(the device's scorer could not start: the server checks the deal)");
  });

  // Who deals this deal, from the match as this device has it (with the changes waiting in
  // the outbox: a form kept for offline use was drawn before them), and who sits where.
  var dealer = $("p.dealer");
  localState(matchId).then(function (state) {
    var m = state && state.match;
    seated = m || null;
    if (!dealer || !m || !m.players) { return; }
    var first = Math.max(0, m.players.indexOf(m.first_dealer)), n = number || m.deals.length + 1;
    dealer.textContent = _("{name} deals this deal", { name: sideName(m.players[(first + n - 1) % m.players.length], m) });
  }, function () { /* the server's line stays */ });

  // The draft: restored when the form opens, dropped once recorded or discarded.
  outbox.draft.get(draftId).then(function (fields) {
    if (!fields || form.dataset.errors === "1") { return; }
    fill(form, fields);
    form.dispatchEvent(new Event("change", { bubbles: true }));
    if (draftBar) { draftBar.hidden = false; var text = $(".draft-text", draftBar); if (text) { text.textContent = _("Draft restored from this device."); } }
  });
  var discard = document.getElementById("discard-draft");
  if (discard) {
    discard.addEventListener("click", function () {
      outbox.draft.drop(draftId).then(function () { location.href = location.pathname + location.search; });
    });
  }

  function label() { return number ? _("Deal {number} edited", { number: number }) : _("A deal recorded"); }
  function kept() {
    return outbox.draft.drop(draftId).then(function () { location.href = "/matches/" + matchId; });
  }
  // Kept offline with the scorer warm: the sheet is opened in this window (its page as the
  // service worker keeps it, put in place of the form), so the scorer, the outbox's database
  // and the scripts stay as they are; the sheet then shows the state handed over at once.
  // Anything amiss: the plain navigation.
  function keptHere() {
    var url = "/matches/" + matchId;
    if (!offline() || !window.history || !window.history.pushState) { return kept(); }
    var page = fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok || response.redirected) { throw new Error(String(response.status)); }
      return response.text();
    });
    return Promise.all([page, outbox.draft.drop(draftId)]).then(function (got) {
      if (!/id="sheet"/.test(got[0])) { throw new Error("not the sheet"); }
      history.pushState({ sheet: matchId }, "", url);
      window.addEventListener("popstate", function () { location.reload(); }, { once: true });
      showPage(got[0]);
    }).catch(function () { location.href = url; });
  }

  // Kept in the outbox (sent = the form's request, resent as it is). With the scorer still
  // starting, the fields are kept as typed and the sheet reads them once the scorer is up.
  /**
   * @param {string} key
   * @param {boolean} sent
   * @returns {Promise<void>}
   */
  function keep(key, sent) {
    if (!scorer.isReady) {
      /** @type {import("./device.js").Change} */
      var raw = { kind: number ? "replace" : "add", number: number || undefined, fields: fieldsOf(form),
                  draft: draftId, key: key, label: label(),
                  seen: number ? undefined : { version: seen, count: parseInt(form.dataset.count || "", 10) } };
      return queue(matchId, sent ? form : null, raw).then(function (entry) {
        return entry ? kept() : keepChecked(key, sent);
      });
    }
    return keepChecked(key, sent);
  }

  /**
   * @param {string} key
   * @param {boolean} sent
   * @returns {Promise<void>}
   */
  function keepChecked(key, sent) {
    return checked().then(function (result) {
      if (!result.ok) { mark(result.errors); throw new Error(_("fix the deal first")); }
      /** @type {import("./device.js").Change} */
      var change = { kind: number ? "replace" : "add", number: number || undefined, body: result.deal, key: key,
                     label: label() };
      return queue(matchId, sent ? form : null, change);
    }).then(function () { return handOver(matchId); }).then(keptHere);
  }

  var sending = false;
  form.addEventListener("submit", function (event) {
    // Always sent from here (never a plain post), so the draft is dropped once the server
    // has the deal, whether or not the scorer has started.
    event.preventDefault();
    if (sending) { return; }
    // A finished match: recorded only once the person says so (it counts after the end).
    if (form.dataset.afterEnd && !window.confirm(form.dataset.afterEnd)) { return; }
    sending = true;
    var key = outbox.newKey();
    var request = formRequest(form);
    var done = function () { sending = false; };
    if (offline()) {
      keep(key, true).catch(function (error) { core.textContent = " — " + _("not kept: {error}", { error: error.message }); }).then(done);
      return;
    }
    var predicted = seen + 1; // this change's version
    mine.add(matchId, predicted);
    fetch(request.url || "", { method: "POST", body: request.body, credentials: "same-origin",
                         headers: { "Content-Type": request.type, "Idempotency-Key": key } })
      .then(function (response) {
        if (response.ok && response.redirected) {
          return response.text().then(function (html) {
            mine.fromHtml(matchId, html);
            return outbox.draft.drop(draftId);
          }).then(function () { location.href = response.url; });
        }
        mine.drop(matchId, predicted);
        // 409: another device changed the match meanwhile; the server re-checked the deal
        // (one merge policy) and shows the form again with what changed, typed fields kept.
        return response.text().then(showPage);
      }, function () {
        mine.drop(matchId, predicted);
        return keep(key, true); // no answer: kept with the same key, sent again later
      })
      .catch(function (error) { core.textContent = " — " + _("not kept: {error}", { error: error.message }); })
      .then(done);
  }, true);
}

// The entry a table uses: "Record a deal" opens the form last chosen on this device for this
// match (a tab tapped, or the form a deal was recorded with), else the one last chosen on this
// device for any match, else "Who took each point" (every variant's deal re-scores from it).
// Kept in localStorage ("scopa-entry": {"*": mode, "<match id>": mode}, the last few matches).
var ENTRY = "scopa-entry";
var ENTRY_MATCHES = 50;
var ENTRY_MODES = ["tally", "cards", "categories"];

/** @returns {Record<string, string>} */
function entries() {
  try {
    var kept = JSON.parse(localStorage.getItem(ENTRY) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch (_) { return {}; }
}

/**
 * The entry to open for a match.
 * @param {string} matchId
 * @returns {string}
 */
export function entryFor(matchId) {
  var kept = entries();
  var mode = kept[matchId] || kept["*"];
  return ENTRY_MODES.indexOf(mode) >= 0 ? mode : "categories";
}

/**
 * Remember the entry chosen for a match (and as this device's choice).
 * @param {string} matchId
 * @param {string} mode
 */
export function rememberEntry(matchId, mode) {
  if (ENTRY_MODES.indexOf(mode) < 0 || !matchId) { return; }
  var kept = entries();
  delete kept[matchId];
  kept[matchId] = mode; // the newest last: the oldest are dropped first
  kept["*"] = mode;
  var ids = Object.keys(kept).filter(function (k) { return k !== "*"; });
  ids.slice(0, Math.max(0, ids.length - ENTRY_MATCHES)).forEach(function (k) { delete kept[k]; });
  try { localStorage.setItem(ENTRY, JSON.stringify(kept)); } catch (_) { /* full: the default form opens */ }
}

// One listener for the page (the sheet's head is swapped by live updates): "Record a deal"
// goes to the entry remembered; a tab of a new deal's form is remembered as it is tapped.
document.addEventListener("click", function (event) {
  var target = event.target instanceof Element ? event.target : null;
  var link = target && target.closest("a[data-entry]");
  if (link instanceof HTMLAnchorElement) {
    var url = new URL(link.href);
    url.searchParams.set("mode", entryFor(link.dataset.entry || ""));
    link.href = url.pathname + url.search;
    return;
  }
  var tab = target && target.closest("a.tab[data-mode]");
  var form = document.getElementById("deal-form");
  if (tab instanceof HTMLAnchorElement && form && !form.dataset.number) {
    rememberEntry(form.dataset.match || "", tab.dataset.mode || "");
  }
}, true);

function start() {
  var form = $("#deal-form", document, HTMLFormElement);
  if (form) {
    setup(form);
    var shown = form;
    if (!shown.dataset.number) {
      shown.addEventListener("submit", function () { rememberEntry(shown.dataset.match || "", shown.dataset.mode || ""); });
    }
  }
}
onPage(start);
