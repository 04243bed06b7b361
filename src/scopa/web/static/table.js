/* A table played together (templates/table_seat.html): the server draws the table from the
 * seat's view; this script keeps it live. It follows the table's event stream
 * (/api/tables/ID/events, which the browser resumes with Last-Event-ID after a drop), fetches
 * the table's fragment after each change, sends the plays without leaving the page, and draws
 * the cards' suits with the Play page's drawing (cards.js). Without it the page refreshes.
 */
import { el, face } from "./cards.js";
import { _, cardName } from "./i18n.js";
import { formBody } from "./util.js";

var start = document.getElementById("table");
if (start) { follow(start); }

/** @param {HTMLElement} root */
function follow(root) {
  var id = root.dataset.table;
  var tv = root.dataset.tv === "1";
  var code = root.dataset.code || "";
  var fragmentUrl = tv ? "/tables/" + id + "/tv?code=" + encodeURIComponent(code) : "/tables/" + id + "/fragment";
  var streamUrl = "/api/tables/" + id + "/events" + (tv ? "?code=" + encodeURIComponent(code) : "");
  var shown = 0;
  var busy = false;
  var again = false;

  function version() {
    var felt = document.getElementById("table-felt");
    return felt ? Number(felt.dataset.version) : 0;
  }

  /* The Play page's card faces in place of the server's plain ones. */
  /** @param {HTMLElement} scope */
  function drawCards(scope) {
    scope.querySelectorAll(".pc[data-card]").forEach(function (node) {
      var drawn = face(/** @type {HTMLElement} */ (node).dataset.card || "");
      drawn.setAttribute("role", "img");
      drawn.setAttribute("aria-label", node.getAttribute("aria-label") || "");
      node.replaceWith(drawn);
    });
    scope.querySelectorAll("button.table-play[data-card]").forEach(function (node) {
      var button = /** @type {HTMLButtonElement} */ (node);
      if (button.querySelector(".pc")) return;
      // The button is named by what it shows, read in order: each face's name (hidden text
      // beside the drawing) and the words between them ("6 of cups takes 4 of coins, 2 of
      // swords"), so that the words a finger sees are in the name a screen reader says
      // (axe: label-content-name-mismatch; WCAG 2.5.3, label in name).
      button.textContent = "";
      button.removeAttribute("aria-label");
      /** @param {string} card */
      var named = function (card) {
        button.appendChild(el("span", "visually-hidden", " " + cardName(card) + " "));
        button.appendChild(face(card));
      };
      named(button.dataset.card || "");
      var taken = (button.dataset.capture || "").split(" ").filter(Boolean);
      button.appendChild(el("span", "table-takes", taken.length ? _("takes") : _("on the table")));
      taken.forEach(function (c, i) {
        if (i > 0) button.appendChild(el("span", "visually-hidden", ", "));
        named(c);
      });
    });
  }

  /** @param {string} html */
  function swap(html) {
    var box = document.createElement("div");
    box.innerHTML = html;
    var felt = /** @type {HTMLElement | null} */ (box.querySelector("#table-felt"));
    var was = document.getElementById("table-felt");
    if (!felt || !was) return;
    if (Number(felt.dataset.version) < version()) return; /* an older answer, late */
    drawCards(felt);
    was.replaceWith(felt);
    shown = Number(felt.dataset.version);
    root.dataset.shown = String(shown);
    countDown();
  }

  /* The turn clock: the server drew the seconds left when it drew the table; they count down
   * here until the table is drawn again (the computer's play for the seat, when they run
   * out, comes as an event like any play). */
  /** @type {number | undefined} */
  var ticking;
  function countDown() {
    if (ticking !== undefined) window.clearInterval(ticking);
    ticking = undefined;
    var clock = document.getElementById("table-clock");
    var left = clock ? clock.querySelector(".table-clock-left") : null;
    if (!clock || !left) return;
    var seconds = Number(clock.dataset.left);
    var drawnAt = Date.now();
    var digits = left;
    ticking = window.setInterval(function () {
      var now = Math.max(0, seconds - Math.floor((Date.now() - drawnAt) / 1000));
      digits.textContent = Math.floor(now / 60) + ":" + String(now % 60).padStart(2, "0");
      if (now === 0 && ticking !== undefined) { window.clearInterval(ticking); ticking = undefined; }
    }, 1000);
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(fragmentUrl, { headers: { "X-Scopa-Fragment": "1" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(swap)
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  /* A play or the next deal, sent without leaving the page; the answer is the new table. */
  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    fetch(form.action, {
      method: "POST",
      body: formBody(form),
      headers: { "X-Scopa-Fragment": "1" },
      credentials: "same-origin"
    }).then(function (r) { return r.text(); }).then(swap).catch(function () { refresh(); });
  });

  drawCards(root);
  countDown();
  shown = version();
  root.dataset.shown = String(shown);
  /* The stream; the browser resumes it after a drop (Last-Event-ID). When it gives up (the
   * network was away for a while), a new one starts from the version shown (?since=V), and
   * the table is read again as soon as the phone is back online. */
  /** @type {EventSource | null} */
  var source = null;
  function connect() {
    if (!window.EventSource) return;
    var sep = streamUrl.indexOf("?") < 0 ? "?" : "&";
    var opened = new EventSource(streamUrl + (source ? sep + "since=" + version() : ""));
    source = opened;
    opened.addEventListener("table", function (/** @type {MessageEvent} */ event) {
      var data = JSON.parse(event.data);
      if (data.version > version()) refresh();
    });
    opened.addEventListener("open", function () { root.dataset.live = "1"; });
    opened.addEventListener("error", function () {
      root.dataset.live = "0";
      if (opened.readyState === EventSource.CLOSED && source === opened) {
        setTimeout(function () { if (source === opened) connect(); }, 2000);
      }
    });
  }
  window.addEventListener("online", function () {
    refresh();
    if (source && source.readyState === EventSource.CLOSED) connect();
  });
  connect();
}
