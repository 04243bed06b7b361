// The board for a television (/matches/ID/tv) follows the match live: it listens to the
// sheet's event stream (/api/matches/ID/events, as live.js does) and on each change fetches
// the board again (?piece=1) and swaps it in (the stream itself: stream.js). While the stream
// is down it asks every 5 s (204 while nothing changed). Without JavaScript the page reloads
// itself (a <noscript> meta).
// The screen is kept on (the Screen Wake Lock API) where the device allows it.

import { follow } from "./stream.js";

var POLL_MS = 5000, SLOW_POLL_MS = 60000;
var busy = false, again = false, wanted = 0, lastPoll = 0;

function board() { return document.getElementById("tv"); }

async function refresh() {
  if (busy) { again = true; return; }
  var el = board();
  if (!el) { return; }
  busy = true;
  try {
    var url = "/matches/" + encodeURIComponent(el.dataset.match || "") + "/tv?piece=1&since=" +
      encodeURIComponent(el.dataset.version || "");
    var response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (response.status === 200) {
      var holder = document.createElement("template");
      holder.innerHTML = await response.text();
      var fresh = holder.content.querySelector("#tv");
      if (fresh) { el.replaceWith(fresh); }
    } else if (response.status === 404 || response.status === 401) {
      location.reload();  // the match is gone (or this screen was shut out): say so
    }
  } catch (error) {
    /* no connection: the next event or poll tries again */
  } finally {
    busy = false;
  }
  var now = board();
  if (again || (now && wanted && Number(now.dataset.version) < wanted)) {
    again = false;
    wanted = 0;
    refresh();
  }
}

var stream = follow(board, {
  changed: function (version) { wanted = Math.max(wanted, version); refresh(); },
  gone: function () { location.reload(); },
  pause: function () { return POLL_MS; },
});

setInterval(function () {
  var now = Date.now();
  if (document.hidden || (stream.live() && now - lastPoll < SLOW_POLL_MS)) { return; }
  lastPoll = now;
  refresh();
}, POLL_MS);

// A tablet propped at the table keeps its screen on while the board shows (where it can).
async function keepAwake() {
  try {
    if (navigator.wakeLock && !document.hidden) { await navigator.wakeLock.request("screen"); }
  } catch (error) { /* refused (battery saver): the screen sleeps as usual */ }
}

document.addEventListener("visibilitychange", function () {
  if (document.hidden) { stream.close(); } else { stream.open(); refresh(); keepAwake(); }
});
window.addEventListener("pagehide", stream.close);
window.addEventListener("pageshow", function (event) { if (event.persisted) { stream.open(); refresh(); } });

if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", stream.open); } else { stream.open(); }
keepAwake();
