// The pure side of the page's forms (no page, no storage: node --test runs it).

/** The coins' ranks in order, ace to king. */
export var RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"];

/** What a side's coins score in Cirulla ("piccola 4", "grande 5", "cappotto: all ten
 * coins"), read from the coins alone as the sheet does. `held`: the ranks of its coins;
 * `cap`: the piccola's cap (the match's piccola_cap). */
export function cirullaHint(held, cap) {
  var run = 0;
  while (run < RANKS.length && held.has(RANKS[run])) { run += 1; }
  var parts = [];
  if (run >= 3) { parts.push("piccola " + Math.min(run, cap)); }
  if (["J", "H", "K"].every(function (rank) { return held.has(rank); })) { parts.push("grande 5"); }
  if (held.size === 10) { parts.push("cappotto: all ten coins"); }
  return parts.join(", ");
}
