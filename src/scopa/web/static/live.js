// Live updates pushed: an open sheet listens to /api/matches/ID/events (Server-Sent Events)
// and, on a change, refreshes through the sheet's own refresh (app.js: the poll's request,
// so a panel in use still holds the new sheet behind its banner). While the stream is open
// the 3-second poll runs only every 30 s; when the stream drops, the poll is back at once.
import { refreshSheet } from "./app.js";

var SLOW_POLL_MS = 30000;
/** @type {EventSource | null} */
var source = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
var timer;
var live = false, lastPoll = 0, forcing = false, retry = 0;
var wanted = 0;  // the newest version an event announced

function sheet() { return document.getElementById("sheet"); }

function refresh() {
  forcing = true;
  try { refreshSheet(); } finally { forcing = false; }
}

function close() {
  if (source) { source.close(); source = null; }
  live = false;
  document.documentElement.classList.remove("live");
}

function open() {
  var el = sheet();
  if (!el || source || !window.EventSource || document.hidden) { return; }
  clearTimeout(timer);
  source = new EventSource("/api/matches/" + encodeURIComponent(el.dataset.match || "") +
                           "/events?since=" + encodeURIComponent(el.dataset.version || ""));
  source.addEventListener("open", function () {
    live = true; retry = 0;
    document.documentElement.classList.add("live");
  });
  source.addEventListener("change", function (/** @type {MessageEvent} */ event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    var current = sheet();
    if (data.version === null) { close(); refresh(); return; }
    if (current && String(data.version) !== current.dataset.version) {
      wanted = Math.max(wanted, Number(data.version) || 0);
      refresh();
    }
  });
  source.addEventListener("error", function () {
    live = false;
    document.documentElement.classList.remove("live");
    if (source && source.readyState === 2) {  // CLOSED: refused (shutting down, gone)
      source = null;
      retry = Math.min(retry + 1, 6);
      timer = setTimeout(open, 5000 * retry);
    }  // else the browser reconnects by itself; the poll covers the gap
  });
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
  if (!elt || !elt.classList || !elt.classList.contains("poll") || forcing || !live) { return; }
  var now = Date.now();
  if (now - lastPoll < SLOW_POLL_MS) { event.preventDefault(); } else { lastPoll = now; }
});

document.addEventListener("visibilitychange", function () {
  if (document.hidden) { close(); } else { open(); refresh(); }
});
window.addEventListener("pagehide", close);
window.addEventListener("pageshow", function (event) { if (event.persisted) { open(); refresh(); } });

if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", open); } else { open(); }
