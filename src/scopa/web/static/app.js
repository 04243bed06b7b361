// The score sheet's few behaviours. No inline scripts anywhere (CSP script-src 'self'):
// everything that runs is in the ES modules of static/ and vendor/ (htmx, idb: npm, pinned), wired by data attributes.
import { countOf, holdsTheSeven, restOf } from "./forms.js";
import { _, cardName, ngettext, RANK_LETTERS, suitName } from "./i18n.js";
import { $, $all, control, onPage } from "./util.js";

var Input = HTMLInputElement, Select = HTMLSelectElement;

document.documentElement.classList.add("js");

// --- confirmations and the sheet's rows ---------------------------------------------
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});

document.addEventListener("click", function (event) {
  var target = event.target;
  if (!(target instanceof Element)) { return; }
  var close = /** @type {HTMLElement | null} */ (target.closest("[data-close]"));
  if (close) {
    var box = document.getElementById(close.dataset.close || "");
    if (box) { event.preventDefault(); box.innerHTML = ""; }
    return;
  }
  var row = target.closest("tr[data-href]");
  if (row && !target.closest("a, button, form")) {
    var link = $("a.deal-link", row);
    if (link) { link.click(); }
  }
});

// --- new match: remembered names, seating order, teams ---------------------------------
/** @param {HTMLFormElement} form */
function setupNewMatch(form) {
  var seats = $all("#seats input[name=player]", form, Input);
  function names() { return seats.map(function (s) { return s.value.trim(); }).filter(Boolean); }
  function showTeams() {
    var box = $("#teams", form);
    var partners = $("input[name=partnerships]", form, Input);
    var list = names();
    if (!box || !partners) { return; }
    if (partners.checked && (list.length === 4 || list.length === 6)) {
      var a = list.filter(function (_, i) { return i % 2 === 0; }).join(" & ");
      var b = list.filter(function (_, i) { return i % 2 === 1; }).join(" & ");
      box.textContent = _("Teams:") + " " + a + "  vs  " + b;
    } else if (partners.checked) {
      box.textContent = _("Partnerships need 4 or 6 players ({n} so far).", { n: list.length });
    } else {
      box.textContent = "";
    }
  }
  $all("[data-name]", form).forEach(function (chip) {
    chip.addEventListener("click", function () {
      var name = chip.dataset.name;
      if (seats.some(function (s) { return s.value.trim() === name; })) { return; }
      var empty = seats.filter(function (s) { return !s.value.trim(); })[0];
      if (empty) { empty.value = name || ""; chip.classList.add("on"); showTeams(); showDealers(); }
    });
  });
  $all("button[data-move]", form).forEach(function (button) {
    button.addEventListener("click", function () {
      var input = $("input", button.closest("li"), Input);
      var i = input ? seats.indexOf(input) : -1;
      var j = button.dataset.move === "up" ? i - 1 : i + 1;
      if (!input || i < 0 || j < 0 || j >= seats.length) { return; }
      var keep = seats[j].value; seats[j].value = input.value; input.value = keep;
      seats[j].focus(); showTeams(); showDealers();
    });
  });
  // Who deals first: each seat's option shows the name typed in it; empty seats are hidden.
  function showDealers() {
    $all("select[name=first_dealer] option", form, HTMLOptionElement).forEach(function (option) {
      var seat = seats[parseInt(option.value, 10)];
      var name = seat ? seat.value.trim() : "";
      option.textContent = name || _("Seat {number}", { number: parseInt(option.value, 10) + 1 });
      option.hidden = !name && option.value !== "0";
    });
  }
  form.addEventListener("input", function () { showTeams(); showDealers(); });
  form.addEventListener("change", showTeams);
  showTeams();
  showDealers();
}

/** @param {HTMLElement} check */
function counts_(check) { return $(".check-counts", check) || check; }

// --- record a deal: the live check, exclusive coins, tapping cards into piles ---------
/** @param {HTMLFormElement} form */
function setupTally(form) {
  var check = $("#check", form);
  if (!check) { return; }
  var shown = check;
  // Who took the rest: that side's cards and coins are what the others did not take.
  function restSide() {
    var chosen = $("input[name=rest]:checked", form, Input);
    return chosen && chosen.value !== "" ? chosen.value : null;
  }
  function showRest() {
    var rest = restSide();
    var counts = $all("input[data-count]", form, Input);
    /** @type {string[]} */
    var others = [];
    $all("fieldset[data-side]", form).forEach(function (box) {
      var mine = box.dataset.side === rest;
      box.classList.toggle("is-rest", mine);
      if (!mine) { others.push($("input[data-count]", box, Input)?.value || ""); }
    });
    $all("[data-rest-summary]", form).forEach(function (p) { p.textContent = ""; });
    if (rest === null) { return null; }
    var taken = $all("input[data-coin]:checked", form, Input).filter(function (box) {
      return /** @type {HTMLElement} */ (box.closest("fieldset[data-side]")).dataset.side !== rest;
    }).map(function (box) { return box.value; });
    var held = restOf(others, taken), coins = held.coins, count = held.count;
    var summary = $("[data-rest-summary='" + rest + "']", form);
    // The coins in the letters the toggles above show (F C R, S C R, J Q K: i18n.js's
    // RANK_LETTERS, the server's rank_letter); the cards in words while a count is missing.
    var letters = coins.map(function (r) { return RANK_LETTERS[r] || r; }).join(" ") || _("none");
    if (summary) {
      summary.textContent = count === null
        ? _("The rest: the cards the others did not take; coins {coins}", { coins: letters })
        : _("The rest: {cards}; coins {coins}", { cards: ngettext("{count} card", "{count} cards", count, { count: count }), coins: letters });
    }
    counts.forEach(function (input) { if (input.closest("fieldset")?.dataset.side === rest) { input.value = ""; } });
    return count;
  }
  $all(".pair", form).forEach(function (chip) {
    chip.addEventListener("click", function () {
      var suit = chip.dataset.pair;
      var a = $("select[name=best-0-" + suit + "]", form, Select), b = $("select[name=best-1-" + suit + "]", form, Select);
      if (a) { a.value = chip.dataset.a || ""; }
      if (b) { b.value = chip.dataset.b || ""; }
      $all(".pair[data-pair='" + suit + "']", form).forEach(function (c) { c.setAttribute("aria-pressed", String(c === chip)); });
      form.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
  // Three sides or more: a best card in one tap (tapped again: none); the list has the rest.
  $all(".rank[data-best-for]", form).forEach(function (chip) {
    chip.addEventListener("click", function () {
      var select = control(form, chip.dataset.bestFor || "", Select);
      if (!select) { return; }
      select.value = select.value === chip.dataset.rank ? "" : chip.dataset.rank || "";
      delete select.dataset.implied;
      form.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
  // Each suit's 7 is in someone's pile: when every other side names its best card there and
  // none names the 7, the side that took the rest holds it (shown, and changed by a tap).
  function implySevens() {
    var rest = restSide();
    /** @type {string[]} */
    var said = [];
    if (!$(".best-rows", form)) { return; }
    [["c", "cups"], ["s", "swords"], ["b", "clubs"]].forEach(function (suit) {
      var selects = $all("select[data-best=" + suit[0] + "]", form, Select);
      var mine = rest === null ? null : control(form, "best-" + rest + "-" + suit[0], Select);
      var others = selects.filter(function (sel) { return sel !== mine; });
      others.forEach(function (sel) { if (sel.dataset.implied) { sel.value = ""; delete sel.dataset.implied; } });
      var holds = mine && holdsTheSeven(others.map(function (sel) { return sel.value; }));
      if (mine && holds && (mine.value === "" || mine.dataset.implied)) {
        mine.value = "7"; mine.dataset.implied = "1"; said.push(suit[1]);
      } else if (mine && mine.dataset.implied && !holds) {
        mine.value = ""; delete mine.dataset.implied;
      }
    });
    $all("select[data-best]", form).forEach(function (sel) { sel.classList.toggle("implied", !!sel.dataset.implied); });
    $all("[data-implied-note]", form).forEach(function (p) {
      p.textContent = p.dataset.impliedNote === rest && said.length
        ? _("The 7 of {suits}: no one else named it, so it is in the rest.", { suits: said.map(suitName).join(" · ") }) : "";
    });
    $all(".rank[data-best-for]", form).forEach(function (chip) {
      var select = control(form, chip.dataset.bestFor || "", Select);
      chip.setAttribute("aria-pressed", String(!!select && select.value === chip.dataset.rank));
    });
  }
  // Two sides: a pair chip shows as tapped when the two lists hold its pair (a draft put
  // back, a list changed by hand).
  function showPairs() {
    $all(".pair", form).forEach(function (chip) {
      var suit = chip.dataset.pair;
      var a = control(form, "best-0-" + suit, Select), b = control(form, "best-1-" + suit, Select);
      chip.setAttribute("aria-pressed", String(!!a && !!b && a.value === chip.dataset.a && b.value === chip.dataset.b));
    });
  }
  function update() {
    implySevens();
    showPairs();
    var restCount = showRest();
    var counts = $all("input[data-count]", form, Input).filter(function (input) {
      return !input.closest("fieldset")?.classList.contains("is-rest");
    });
    var total = restCount === null ? 0 : restCount;
    /** @type {HTMLInputElement[]} */
    var empty = [];
    counts.forEach(function (input) {
      var v = countOf(input.value);
      if (isNaN(v)) { empty.push(input); } else { total += v; }
    });
    counts.forEach(function (input) { input.placeholder = ""; });
    if (empty.length === 1 && total <= 40) { empty[0].placeholder = String(40 - total); }
    var coins = restSide() === null ? $all("input[data-coin]:checked", form).length : 10;
    var sevens = ["c", "s", "b"].map(function (s) {
      return $all("select[data-best=" + s + "]", form, Select).some(function (sel) { return sel.value === "7"; });
    }).filter(Boolean).length;
    var parts = [_("Cards {count} of 40", { count: total }) + (total < 40 ? " " + _("({n} missing)", { n: 40 - total }) : total > 40 ? " " + _("({n} too many)", { n: total - 40 }) : " ✓"),
                 _("coins {count} of 10", { count: coins }) + (coins === 10 ? " ✓" : ""),
                 _("sevens {count} of 3", { count: sevens }) + (sevens === 3 ? " ✓" : "")];
    // The counts at once; "ok" (green) only from the core's check (dealform.js), so it is
    // green exactly when the server would accept the deal.
    counts_(shown).textContent = parts.join(" · ");
    shown.classList.toggle("over", total > 40);
  }
  form.addEventListener("change", function (event) {
    var box = event.target;
    if (!(box instanceof HTMLInputElement || box instanceof HTMLSelectElement)) { update(); return; }
    if (box.dataset.implied) { delete box.dataset.implied; } // changed by hand
    if (box instanceof HTMLInputElement && box.dataset.coin && box.checked) {
      $all("input[data-coin='" + box.dataset.coin + "']", form, Input).forEach(function (other) {
        if (other !== box) { other.checked = false; }
      });
    }
    update();
  });
  form.addEventListener("input", update);
  update();
}


/** @param {HTMLFormElement} form */
function setupCards(form) {
  var picker = $("#pile-picker", form);
  var check = $("#check", form);
  if (!picker || !check) { return; }
  var box = picker, shown = check;
  /** @type {Record<string, string>} */
  var pileNames = {};
  $all("[data-pick]", picker).forEach(function (b) { pileNames[b.dataset.pick || ""] = b.dataset.owner || ""; });
  var active = "0";
  form.classList.add("tapping");
  picker.hidden = false;
  function update() {
    /** @type {Record<string, number>} */
    var counts = {};
    var placed = 0;
    $all("fieldset[data-card]", form).forEach(function (card) {
      var chosen = $("input:checked", card, Input);
      card.className = card.className.replace(/\s*(taken|side-\d)/g, "");
      var code = card.dataset.card || "";
      var name = cardName(code);
      var tapButton = $(".card-tap", card);
      if (tapButton) {
        tapButton.setAttribute("aria-label", tapButton.textContent + ", " + name +
                               ", " + (chosen ? _("in the pile of {name}", { name: pileNames[chosen.value] }) : _("in no pile yet")));
        tapButton.setAttribute("aria-pressed", chosen ? "true" : "false");
      }
      if (chosen) {
        placed += 1;
        counts[chosen.value] = (counts[chosen.value] || 0) + 1;
        card.classList.add("taken", "side-" + chosen.value);
      }
    });
    $all("[data-pile-count]", form).forEach(function (el) { el.textContent = "(" + (counts[el.dataset.pileCount || ""] || 0) + ")"; });
    counts_(shown).textContent = _("{count} of 40 cards in piles", { count: placed }) + (placed === 40 ? " ✓" : " " + _("({n} to go)", { n: 40 - placed }));
  }
  $all("[data-pick]", picker).forEach(function (button) {
    button.addEventListener("click", function () {
      active = button.dataset.pick || "0";
      $all("[data-pick]", box).forEach(function (b) { b.classList.toggle("on", b === button); });
    });
  });
  // Every change of a card's pile (a tap, "the rest go to", a draft put back, a radio
  // chosen by hand) is a change event on the form: one path for the counts drawn here and
  // the draft and the live check (dealform.js), online and offline alike.
  $all("[data-rest-to]", picker).forEach(function (button) {
    button.addEventListener("click", function () {
      $all("fieldset[data-card]", form).forEach(function (card) {
        var rest = $("input[value='" + button.dataset.restTo + "']", card, Input);
        if (!$("input:checked", card) && rest) { rest.checked = true; }
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
  $all("fieldset[data-card]", form).forEach(function (card) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "card-tap";
    // The legend's visible part (the card's name for a screen reader is in the label below).
    var legend = $("legend [aria-hidden]", card) || $("legend", card);
    button.textContent = legend?.textContent || "";
    card.appendChild(button);
    /** @param {Event} event */
    function tap(event) {
      event.preventDefault();
      var radio = $("input[value='" + active + "']", card, Input);
      if (!radio) { return; }
      radio.checked = !radio.checked;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
    }
    button.addEventListener("click", tap);
  });
  form.addEventListener("change", update);
  update();
}

document.addEventListener("click", function (event) {
  var target = event.target;
  var step = target instanceof Element ? /** @type {HTMLElement | null} */ (target.closest("[data-step]")) : null;
  if (!step) { return; }
  event.preventDefault();
  var input = $("input[name='" + step.dataset.step + "']", document, Input);
  if (!input) { return; }
  input.value = String((countOf(input.value) || 0) + 1);
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

// --- the sheet's refresh now (live.js calls it on a pushed change): the poll's request ----
export function refreshSheet() {
  var poll = $("#sheet .poll");
  if (poll && window.htmx) {
    window.htmx.ajax("GET", poll.getAttribute("hx-get"), { source: poll, target: "#sheet", swap: "outerHTML" });
  }
}

// On a phone the menu is a row that scrolls sideways: the page's own entry is brought into
// it (the row alone scrolls, never the page).
function showCurrentEntry() {
  var menu = $(".top .main-nav"), current = $('.top .main-nav a[aria-current="page"]');
  if (!menu || !current || menu.scrollWidth <= menu.clientWidth) { return; }
  var box = menu.getBoundingClientRect(), link = current.getBoundingClientRect();
  if (link.left >= box.left && link.right <= box.right) { return; }
  menu.scrollLeft += link.left - box.left - (box.width - link.width) / 2;
}

function setup() {
  showCurrentEntry();
  var newMatch = $("#new-match", document, HTMLFormElement);
  if (newMatch) { setupNewMatch(newMatch); }
  var deal = $("#deal-form", document, HTMLFormElement);
  if (deal && deal.dataset.mode === "tally") { setupTally(deal); }
  if (deal && deal.dataset.mode === "cards") { setupCards(deal); }
}

onPage(setup);
