// The deal form: under each side's coins, what they score beyond the coins themselves (the
// run from the ace, Cirulla's grande, a cappotto: "Piccola 4, Grande 5"), as the deal's check
// says it (scopa/web/phone/device.py coins_said, on the device or the server: the core's own
// scoring, in the page's language); nothing while the deal is not complete.
import { onPage } from "./util.js";

function setup() {
  const form = document.getElementById("deal-form");
  if (!(form instanceof HTMLFormElement)) return;

  /** @param {HTMLElement} side */
  function hintFor(side) {
    let hint = side.querySelector(".variant-hint");
    if (!hint) {
      const coins = side.querySelector(".coins");
      if (!coins) return null;
      hint = document.createElement("p");
      hint.className = "variant-hint muted small";
      hint.setAttribute("aria-live", "polite");
      coins.after(hint);
    }
    return hint;
  }

  form.addEventListener("scopa:checked", (event) => {
    const result = /** @type {CustomEvent<import("./dealform.js").Checked>} */ (event).detail;
    const said = result && result.ok && result.coins ? result.coins : [];
    for (const side of Array.from(form.querySelectorAll("fieldset.side"), (el) => /** @type {HTMLElement} */ (el))) {
      const text = said[Number(side.dataset.side)] || "";
      const hint = text ? hintFor(side) : side.querySelector(".variant-hint");
      if (hint) hint.textContent = text;
    }
  });
}

onPage(setup);
