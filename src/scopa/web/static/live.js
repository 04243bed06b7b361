// Live updates pushed: an open sheet listens to /api/matches/ID/events (Server-Sent Events).
// On the next version it fetches what that change altered (/matches/ID/sheet/change?since=V:
// the rows from the deal it altered, the head, the totals, the chart, the log; made once per
// change on the server) and patches them in. Further behind, a change of the rules or the
// names, a panel in use, a sheet showing every deal: the sheet's own refresh (app.js: the
// poll's request for the whole piece, so a panel in use still holds the new sheet behind its
// banner). While the stream is open the 3-second poll runs only every 30 s; when the stream
// drops, the poll is back at once. The stream itself: stream.js.
import { refreshSheet } from "./app.js";
import { busy } from "./offline.js";
import { mine } from "./outbox.js";
import { _ } from "./i18n.js";
import { follow } from "./stream.js";
import { $, $all } from "./util.js";

var SLOW_POLL_MS = 30000;
var lastPoll = 0, forcing = false;
var wanted = 0;  // the newest version an event announced
var patching = false;

function sheet() { return document.getElementById("sheet"); }

function refresh() {
  forcing = true;
  try { refreshSheet(); } finally { forcing = false; }
}

var stream = follow(sheet, {
  opened: function () { lastPoll = Date.now(); },  // the stream tells: the next poll in 30 s
  changed: function (version) {
    var current = sheet();
    wanted = Math.max(wanted, version);
    if (current) { update(current); }
  },
  gone: refresh,
  pause: function (attempt) { return 5000 * Math.min(attempt, 6); },  // the poll covers the gap
});

/**
 * The next version patched in, anything else refreshed whole.
 * @param {HTMLElement} current
 */
function update(current) {
  var version = Number(current.dataset.version), poll = $(".poll", current);
  if (patching) { return; }  // the patch's end looks at `wanted` again
  if (wanted !== version + 1 || !window.htmx || !poll || /all=1/.test(poll.getAttribute("hx-get") || "") ||
      $("#sheet .local-note") || busy(current)) {
    refresh();
    return;
  }
  patching = true;
  fetch("/matches/" + encodeURIComponent(current.dataset.match || "") + "/sheet/change?since=" + version,
        { credentials: "same-origin" })
    .then(function (response) {
      if (response.status === 204) { return; }
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.text().then(function (html) { if (!patch(html, String(version))) { refresh(); } });
    })
    .catch(function () { refresh(); })
    .then(function () {
      patching = false;
      var now = sheet();
      if (now && wanted > Number(now.dataset.version)) { update(now); }
    });
}

/**
 * Patches one change's fragment into the sheet it was made for; false when it cannot be
 * (the whole piece is wanted, or the sheet moved meanwhile).
 * @param {string} html
 * @param {string} since
 * @returns {boolean}
 */
function patch(html, since) {
  var doc = new DOMParser().parseFromString(html, "text/html");
  var change = doc.getElementById("sheet-change"), el = sheet();
  if (!change || change.dataset.whole || !el || el.dataset.version !== since) { return false; }
  var body = $("table.scores tbody", el), version = change.dataset.version || "";
  var first = Number(change.dataset.from), shown = Number(change.dataset.shown);
  var parts = ["sheet-head", "sheet-totals", "sheet-chart", "history"];
  if (!body || parts.some(function (id) { return !document.getElementById(id); })) { return false; }
  if ($all("tr.deal-row", body).some(function (row) { return !row.dataset.number; })) { return false; }
  var into = body, added = [];
  // The rows: those from the first the change altered are the fragment's; the oldest drop
  // off beyond what the sheet shows.
  $all("tr.deal-row, tr.earlier", body).forEach(function (row) {
    if (!row.dataset.number || Number(row.dataset.number) >= first) { row.remove(); }
  });
  $all("td.empty", body).forEach(function (cell) { if (cell.parentElement) { cell.parentElement.remove(); } });
  $all("tr.deal-row", change).forEach(function (row) { into.appendChild(row); added.push(row); });
  var rows = $all("tr.deal-row", body);
  rows.slice(0, Math.max(0, rows.length - shown)).forEach(function (row) { row.remove(); });
  var earlier = $("tr.earlier", change);
  if (earlier) { body.prepend(earlier); added.push(earlier); }
  // The head, the totals, the chart, the deleted deals, the log (kept open if it was).
  ["sheet-head", "sheet-totals", "sheet-chart", "sheet-removed", "history"].forEach(function (id) {
    var old = document.getElementById(id), fresh = doc.getElementById(id);
    if (!old || !fresh) { return; }
    if (old instanceof HTMLDetailsElement && fresh instanceof HTMLDetailsElement) { fresh.open = old.open; }
    old.replaceWith(fresh);
    added.push(fresh);
  });
  // The note: what the change did (worded as this device's own when it made it).
  $all(".alert.note, .alert.conflict", el).forEach(function (old) { old.remove(); });
  var note = $(".alert.note", change), poll = $(".poll", el);
  if (note && poll) {
    var text = $(".note-text", note);
    if (text && mine.has(el.dataset.match, version)) {
      text.textContent = (text.textContent || "").replace(_("Updated on another device: ").trim(), _("Changed on this device:"));
    }
    poll.after(note);
  }
  // The version the page shows: its forms' and its poll's.
  el.dataset.version = version;
  $all("input[name=version]", el).forEach(function (input) { if (input instanceof HTMLInputElement) { input.value = version; } });
  if (poll) {
    var next = /** @type {HTMLElement} */ (poll.cloneNode(false));
    next.setAttribute("hx-get", (poll.getAttribute("hx-get") || "").replace(/since=\d+/, "since=" + version));
    poll.replaceWith(next);
    added.push(next);
  }
  added.forEach(function (node) { if (window.htmx) { window.htmx.process(node); } });
  document.dispatchEvent(new CustomEvent("scopa:patched", { detail: { version: version } }));
  return true;
}

// An event that came while the previous refresh was still on its way (and was dropped by
// it) is not lost: once the sheet is swapped in, an older version than announced refreshes
// again.
document.addEventListener("htmx:afterSettle", function () {
  var current = sheet();
  if (current && wanted && Number(current.dataset.version) < wanted) { refresh(); }
});

// The poll: skipped while the stream is open, except now and then (and when forced).
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail && event.detail.elt;
  if (!elt || !elt.classList || !elt.classList.contains("poll") || forcing || !stream.live()) { return; }
  var now = Date.now();
  if (now - lastPoll < SLOW_POLL_MS) { event.preventDefault(); } else { lastPoll = now; }
});

document.addEventListener("visibilitychange", function () {
  if (document.hidden) { stream.close(); } else { stream.open(); refresh(); }
});
window.addEventListener("pagehide", stream.close);
window.addEventListener("pageshow", function (event) { if (event.persisted) { stream.open(); refresh(); } });

if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", stream.open); } else { stream.open(); }
document.addEventListener("scopa:page", stream.open);  // a page put in place of this one (util.showPage)
