// Who took each point, on the deal form: a tap on a side gives it the point (the other sides
// lose it), "Tie" lets several sides share it (with two sides: both at once), "All to" gives
// every point to one side, so a usual deal is a tap or two before the sweeps. Without the
// script the same fields are plain checkboxes: several ticked = a tie, none = nobody.
import { $, $all, onPage } from "./util.js";

/**
 * @param {HTMLElement} row a category's fieldset
 * @returns {HTMLInputElement[]}
 */
function inputs(row) {
  return $all("input", row, HTMLInputElement);
}

/** @param {HTMLElement} row */
function tie(row) {
  return $("button[data-tie]", row, HTMLButtonElement);
}

function setup() {
  var box = document.getElementById("categories");
  var form = document.getElementById("deal-form");
  if (!box || !(form instanceof HTMLFormElement)) { return; }
  var sides = parseInt(box.dataset.sides || "2", 10);
  var rows = $all("fieldset.category", box);

  function changed() { form && form.dispatchEvent(new Event("change", { bubbles: true })); }

  rows.forEach(function (row) {
    var button = tie(row);
    row.addEventListener("change", function (event) {
      var input = event.target;
      if (!(input instanceof HTMLInputElement) || input.type !== "checkbox") { return; }
      if (input.checked && !(button && button.getAttribute("aria-pressed") === "true")) {
        inputs(row).forEach(function (other) { if (other !== input) { other.checked = false; } });
      }
      if (button && inputs(row).filter(function (i) { return i.checked; }).length < 2 && !input.checked) {
        button.setAttribute("aria-pressed", "false");
      }
    });
    if (!button) { return; }
    const pressed = button;
    pressed.addEventListener("click", function () {
      var on = pressed.getAttribute("aria-pressed") !== "true";
      pressed.setAttribute("aria-pressed", on ? "true" : "false");
      if (on && sides === 2) { inputs(row).forEach(function (i) { i.checked = true; }); }
      if (!on) {
        var first = inputs(row).find(function (i) { return i.checked; });
        inputs(row).forEach(function (i) { i.checked = i === first; });
      }
      changed();
    });
  });

  // A tie shown as one (a restored draft, a form sent back with its errors).
  function syncTies() {
    rows.forEach(function (row) {
      var pressed = tie(row);
      var checked = inputs(row).filter(function (i) { return i.checked; }).length;
      if (pressed && checked > 1) { pressed.setAttribute("aria-pressed", "true"); }
    });
  }
  form.addEventListener("change", syncTies);
  syncTies();

  $all("button[data-all-to]", box).forEach(function (button) {
    button.addEventListener("click", function () {
      var side = button.dataset.allTo;
      rows.forEach(function (row) {
        inputs(row).forEach(function (i) { i.checked = i.value === side; });
        var pressed = tie(row);
        if (pressed) { pressed.setAttribute("aria-pressed", "false"); }
      });
      changed();
    });
  });
  box.dataset.ready = "1"; // its buttons answer from now on (a tap before this does nothing)
}
onPage(setup);
