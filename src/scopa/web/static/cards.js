/* Playing cards with the Italian suits, drawn in inline SVG (no image or font is fetched):
 * a gold coin, a red cup, a blue sword, a green club. Used by the Play page (play.js) and the
 * tables (table.js). With the French-suited display (the menu's "French suits", i18n.js) the
 * same cards show ♦ ♥ ♠ ♣ and J Q K: coins are diamonds, cups hearts, swords spades, clubs
 * clubs, the horse the queen (scopa/words.py). The card codes never change.
 */
import { cardName, FRENCH_SIGNS, french, RANK_LETTERS } from "./i18n.js";

var SVG = "http://www.w3.org/2000/svg";
/** @type {Record<string, string>} */
export var SUITS = { d: "coins", c: "cups", s: "swords", b: "clubs" };
/** @type {Record<string, string>} */
var FACE_WORDS = { J: "Fante", H: "Cavallo", K: "Re" }; /* the names printed on an Italian card's face */
export { cardName }; /* "7 of coins", "sette di denari": i18n.js */

/**
 * A new element with a class and a text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [cls]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, cls, text) {
  var node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * @param {Element} parent
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 */
function shape(parent, tag, attrs) {
  var node = document.createElementNS(SVG, tag);
  Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
  parent.appendChild(node);
  return node;
}

/** One suit's sign on a 24x24 box: a gold coin, a red cup, a blue sword, a green club.
 * @param {string} suit */
function suitSign(suit) {
  var svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "suit suit-" + suit);
  if (suit === "d") {
    shape(svg, "circle", { cx: 12, cy: 12, r: 10, fill: "#e0a81e", stroke: "#8a6210", "stroke-width": 1.5 });
    shape(svg, "circle", { cx: 12, cy: 12, r: 6, fill: "none", stroke: "#8a6210", "stroke-width": 1.2 });
    shape(svg, "circle", { cx: 12, cy: 12, r: 2.2, fill: "#b3261e" });
  } else if (suit === "c") {
    shape(svg, "path", { d: "M4 3h16c0 6-3 9-8 10C7 12 4 9 4 3z", fill: "#c0392b", stroke: "#7a1f16", "stroke-width": 1 });
    shape(svg, "rect", { x: 10.8, y: 13, width: 2.4, height: 5, fill: "#e0a81e" });
    shape(svg, "path", { d: "M6.5 22h11l-2-4h-7z", fill: "#e0a81e", stroke: "#8a6210", "stroke-width": 0.8 });
  } else if (suit === "s") {
    shape(svg, "path", { d: "M12 1l2.2 4v11h-4.4V5z", fill: "#9fb8d0", stroke: "#1f4e79", "stroke-width": 1 });
    shape(svg, "rect", { x: 6, y: 16, width: 12, height: 2.2, rx: 1, fill: "#1f4e79" });
    shape(svg, "rect", { x: 10.9, y: 18, width: 2.2, height: 4, fill: "#7a4b1e" });
    shape(svg, "circle", { cx: 12, cy: 22.3, r: 1.4, fill: "#e0a81e" });
  } else {
    shape(svg, "path", { d: "M10.2 23l-1.4-13c-.3-5 1.3-8.5 3.2-9 1.9.5 3.5 4 3.2 9l-1.4 13z", fill: "#8b5a2b", stroke: "#4e3015", "stroke-width": 1 });
    shape(svg, "circle", { cx: 9.3, cy: 9, r: 1.3, fill: "#2e7d32" });
    shape(svg, "circle", { cx: 14.7, cy: 12, r: 1.3, fill: "#2e7d32" });
    shape(svg, "circle", { cx: 9.8, cy: 15.5, r: 1.3, fill: "#2e7d32" });
  }
  return svg;
}

/**
 * A card's face: its rank in the corners, the suit's sign, the face's name.
 * @template {keyof HTMLElementTagNameMap} [K="span"]
 * @param {string} card
 * @param {K} [tag]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function face(card, tag) {
  var rank = card.slice(0, -1), suit = card.slice(-1);
  var node = /** @type {HTMLElementTagNameMap[K]} */ (el(tag || "span", "pc pc-" + SUITS[suit] + (french ? " pc-french" : "")));
  node.dataset.card = card;
  if (french) {
    var letter = RANK_LETTERS[rank] || rank;
    [["pc-rank", letter], ["pc-pip", FRENCH_SIGNS[suit]], ["pc-rank pc-rank-end", letter]].forEach(function (part) {
      var span = el("span", part[0]);
      span.dataset.t = part[1];
      span.setAttribute("aria-hidden", "true");
      node.appendChild(span);
    });
    return node;
  }
  /* the glyphs are drawn by the styles from data-t, so a card's name is its label alone */
  var corner = RANK_LETTERS[rank] || rank;
  [["pc-rank", corner], ["pc-word", FACE_WORDS[rank]], ["pc-rank pc-rank-end", corner]].forEach(function (part, i) {
    if (!part[1]) return;
    var span = el("span", part[0]);
    span.dataset.t = part[1];
    span.setAttribute("aria-hidden", "true");
    node.appendChild(span);
    if (i === 0) node.appendChild(suitSign(suit));
  });
  return node;
}

export function back() {
  var node = el("span", "pc pc-back");
  node.setAttribute("aria-hidden", "true");
  return node;
}

