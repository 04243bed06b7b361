// A match's event stream (/api/matches/ID/events, Server-Sent Events), as the open sheet
// (live.js) and the TV board (tv.js) follow it: opened from the version the piece shows,
// <html class="live"> while it is open, each newer version announced handed on, a match gone
// (version null) said once; refused (shutting down, gone), it is opened again after a pause.

/**
 * @typedef {{
 *   changed: (version: number) => void,
 *   gone: () => void,
 *   opened?: () => void,
 *   pause: (attempt: number) => number,
 * }} Follower
 */

/**
 * Follow the match the piece `shown()` shows (its data-match and data-version).
 * @param {() => HTMLElement | null} shown
 * @param {Follower} on
 */
export function follow(shown, on) {
  /** @type {EventSource | null} */
  var source = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  var timer;
  var live = false, attempt = 0;

  function close() {
    if (source) { source.close(); source = null; }
    live = false;
    document.documentElement.classList.remove("live");
  }

  function open() {
    var el = shown();
    if (!el || source || !window.EventSource || document.hidden) { return; }
    clearTimeout(timer);
    source = new EventSource("/api/matches/" + encodeURIComponent(el.dataset.match || "") +
                             "/events?since=" + encodeURIComponent(el.dataset.version || ""));
    source.addEventListener("open", function () {
      live = true; attempt = 0;
      document.documentElement.classList.add("live");
      if (on.opened) { on.opened(); }
    });
    source.addEventListener("change", function (/** @type {MessageEvent} */ event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      var current = shown();
      if (data.version === null) { close(); on.gone(); return; }
      if (current && String(data.version) !== current.dataset.version) { on.changed(Number(data.version) || 0); }
    });
    source.addEventListener("error", function () {
      live = false;
      document.documentElement.classList.remove("live");
      if (source && source.readyState === 2) {  // CLOSED: refused (shutting down, gone)
        source = null;
        attempt += 1;
        timer = setTimeout(open, on.pause(attempt));
      }  // else the browser reconnects by itself
    });
  }

  return { open: open, close: close, live: function () { return live; } };
}
