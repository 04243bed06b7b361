// The score sheet's few behaviours. No inline scripts anywhere (CSP script-src 'self'):
// everything that runs is in this file and vendor/htmx.min.js (npm htmx.org, pinned), wired by data attributes.
(function () {
  "use strict";

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }

  document.documentElement.classList.add("js");

  // --- confirmations and the sheet's rows ---------------------------------------------
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    var close = target.closest && target.closest("[data-close]");
    if (close) {
      var box = document.getElementById(close.dataset.close);
      if (box) { event.preventDefault(); box.innerHTML = ""; }
      return;
    }
    var row = target.closest && target.closest("tr[data-href]");
    if (row && !target.closest("a, button, form")) {
      var link = $("a.deal-link", row);
      if (link) { link.click(); }
    }
  });

  // --- new match: remembered names, seating order, teams ---------------------------------
  function setupNewMatch(form) {
    var seats = $all("#seats input[name=player]", form);
    function names() { return seats.map(function (s) { return s.value.trim(); }).filter(Boolean); }
    function showTeams() {
      var box = $("#teams", form);
      var partners = $("input[name=partnerships]", form);
      var list = names();
      if (!box || !partners) { return; }
      if (partners.checked && (list.length === 4 || list.length === 6)) {
        var a = list.filter(function (_, i) { return i % 2 === 0; }).join(" & ");
        var b = list.filter(function (_, i) { return i % 2 === 1; }).join(" & ");
        box.textContent = "Teams: " + a + "  vs  " + b;
      } else if (partners.checked) {
        box.textContent = "Partnerships need 4 or 6 players (" + list.length + " so far).";
      } else {
        box.textContent = "";
      }
    }
    $all("[data-name]", form).forEach(function (chip) {
      chip.addEventListener("click", function () {
        var name = chip.dataset.name;
        if (seats.some(function (s) { return s.value.trim() === name; })) { return; }
        var empty = seats.filter(function (s) { return !s.value.trim(); })[0];
        if (empty) { empty.value = name; chip.classList.add("on"); showTeams(); }
      });
    });
    $all("button[data-move]", form).forEach(function (button) {
      button.addEventListener("click", function () {
        var input = $("input", button.closest("li"));
        var i = seats.indexOf(input);
        var j = button.dataset.move === "up" ? i - 1 : i + 1;
        if (j < 0 || j >= seats.length) { return; }
        var keep = seats[j].value; seats[j].value = input.value; input.value = keep;
        seats[j].focus(); showTeams();
      });
    });
    form.addEventListener("input", showTeams);
    form.addEventListener("change", showTeams);
    showTeams();
  }

  function counts_(check) { return $(".check-counts", check) || check; }

  // --- record a deal: the live check, exclusive coins, tapping cards into piles ---------
  function setupTally(form) {
    var check = $("#check", form);
    function update() {
      var counts = $all("input[data-count]", form);
      var total = 0, empty = [];
      counts.forEach(function (input) {
        var v = parseInt(input.value, 10);
        if (isNaN(v)) { empty.push(input); } else { total += v; }
      });
      counts.forEach(function (input) { input.placeholder = ""; });
      if (empty.length === 1 && total <= 40) { empty[0].placeholder = String(40 - total); }
      var coins = $all("input[data-coin]:checked", form).length;
      var sevens = ["c", "s", "b"].map(function (s) {
        return $all("select[data-best=" + s + "]", form).some(function (sel) { return sel.value === "7"; });
      }).filter(Boolean).length;
      var parts = ["Cards " + total + " of 40" + (total < 40 ? " (" + (40 - total) + " missing)" : total > 40 ? " (" + (total - 40) + " too many)" : " ✓"),
                   "coins " + coins + " of 10" + (coins === 10 ? " ✓" : ""),
                   "sevens " + sevens + " of 3" + (sevens === 3 ? " ✓" : "")];
      // The counts at once; "ok" (green) only from the core's check (dealform.js), so it is
      // green exactly when the server would accept the deal.
      counts_(check).textContent = parts.join(" · ");
      check.classList.toggle("over", total > 40);
    }
    form.addEventListener("change", function (event) {
      var box = event.target;
      if (box.dataset && box.dataset.coin && box.checked) {
        $all("input[data-coin='" + box.dataset.coin + "']", form).forEach(function (other) {
          if (other !== box) { other.checked = false; }
        });
      }
      update();
    });
    form.addEventListener("input", update);
    update();
  }

  function setupCards(form) {
    var picker = $("#pile-picker", form);
    var check = $("#check", form);
    var active = "0";
    form.classList.add("tapping");
    picker.hidden = false;
    function update() {
      var counts = {};
      var placed = 0;
      $all("fieldset[data-card]", form).forEach(function (card) {
        var chosen = $("input:checked", card);
        card.className = card.className.replace(/\s*(taken|side-\d)/g, "");
        if (chosen) {
          placed += 1;
          counts[chosen.value] = (counts[chosen.value] || 0) + 1;
          card.classList.add("taken", "side-" + chosen.value);
        }
      });
      $all("[data-pile-count]", form).forEach(function (el) { el.textContent = "(" + (counts[el.dataset.pileCount] || 0) + ")"; });
      counts_(check).textContent = placed + " of 40 cards in piles" + (placed === 40 ? " ✓" : " (" + (40 - placed) + " to go)");
    }
    $all("[data-pick]", picker).forEach(function (button) {
      button.addEventListener("click", function () {
        active = button.dataset.pick;
        $all("[data-pick]", picker).forEach(function (b) { b.classList.toggle("on", b === button); });
      });
    });
    $all("fieldset[data-card]", form).forEach(function (card) {
      card.setAttribute("tabindex", "0");
      card.setAttribute("role", "button");
      function tap(event) {
        event.preventDefault();
        var radio = $("input[value='" + active + "']", card);
        if (radio.checked) { radio.checked = false; } else { radio.checked = true; }
        update();
      }
      card.addEventListener("click", tap);
      card.addEventListener("keydown", function (event) {
        if (event.key === " " || event.key === "Enter") { tap(event); }
      });
    });
    update();
  }

  function setup() {
    var newMatch = document.getElementById("new-match");
    if (newMatch) { setupNewMatch(newMatch); }
    var deal = document.getElementById("deal-form");
    if (deal && deal.dataset.mode === "tally") { setupTally(deal); }
    if (deal && deal.dataset.mode === "cards") { setupCards(deal); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
