// Cirulla's deal form: as coins are tapped, each side says what they score
// ("piccola 4, grande 5", "cappotto"), read from the coins alone as the sheet does.
import { RANKS, cirullaHint } from "./forms.js";
import { onPage } from "./util.js";

function setup() {
  const facts = document.getElementById("variant-facts");
  const form = document.getElementById("deal-form");
  if (!facts || !(form instanceof HTMLFormElement) || facts.dataset.variant !== "cirulla") return;
  const cap = Number(facts.dataset.piccolaCap || 6);

  /** @param {HTMLElement} side */
  function hintFor(side) {
    let hint = side.querySelector(".variant-hint");
    if (!hint) {
      hint = document.createElement("p");
      hint.className = "variant-hint muted small";
      hint.setAttribute("aria-live", "polite");
      const coins = side.querySelector(".coins");
      if (!coins) return null;
      coins.after(hint);
    }
    return hint;
  }

  /** @param {HTMLElement} side */
  const tapped = (side) =>
    new Set(Array.from(side.querySelectorAll("input[data-coin]:checked"), (input) => /** @type {HTMLInputElement} */ (input).value));

  const update = () => {
    const sides = Array.from(form.querySelectorAll("fieldset.side"), (side) => /** @type {HTMLElement} */ (side));
    const restInput = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=rest]:checked"));
    const rest = restInput && restInput.value !== "" ? restInput.value : null;
    for (const side of sides) {
      let held = tapped(side);
      if (side.dataset.side === rest) {
        // The side that took the rest holds every coin the others did not tap.
        const others = new Set();
        for (const other of sides) {
          if (other !== side) for (const rank of tapped(other)) others.add(rank);
        }
        held = new Set(RANKS.filter((rank) => !others.has(rank)));
      }
      const hint = hintFor(side);
      if (hint) hint.textContent = cirullaHint(held, cap);
    }
  };

  const later = () => window.setTimeout(update, 0);
  form.addEventListener("change", later);
  form.addEventListener("click", later);
  update();
}

onPage(setup);
