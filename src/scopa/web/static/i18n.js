// The page scripts' words, from the same gettext catalog as the pages: scripts/catalogs.py
// makes static/i18n/<lang>.json from each .po (the messages found in these scripts by
// `make messages`, Babel's javascript extractor). The page's language is <html lang>.
//   _("Deal {number} recorded", {number: 3})    ngettext("{n} change waits", "{n} changes wait", n)
// English, Italian and Spanish share one plural rule (one form for 1, the other for the rest).
// Outside a page (the scripts' node tests) there is no document: English.
const tag = typeof document === "undefined" ? "en" : document.documentElement.lang;
export const language = /^[a-z]{2}$/.test(tag) ? tag : "en";

/** The catalog: a message to its translation (plural forms as a list).
 * @type {Record<string, string | string[]>} */
let messages = {};
if (language !== "en") {
  try {
    const response = await fetch("/static/i18n/" + language + ".json");
    if (response.ok) { messages = (await response.json()).messages || {}; }
  } catch (error) { /* no catalog (offline and never fetched): English */ }
}
// The scripts' words are in place (<html data-words>): the modules that import this one run
// next, with them.
if (typeof document !== "undefined") { document.documentElement.dataset.words = language; }

/** @typedef {Record<string, string | number>} Params */

/**
 * @param {string} text
 * @param {Params} [params]
 */
function fill(text, params) {
  if (!params) { return text; }
  var given = params;
  return text.replace(/\{(\w+)\}/g, function (whole, key) { return key in given ? String(given[key]) : whole; });
}

/**
 * A message in the page's language, its {placeholders} filled.
 * @param {string} text
 * @param {Params} [params]
 */
export function _(text, params) {
  const found = messages[text];
  return fill(typeof found === "string" && found ? found : text, params);
}

const ONE_DECIMAL = new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/**
 * A number with one decimal written the page's language's way ("0.5", "0,5").
 * @param {number} value
 */
export function decimal(value) { return ONE_DECIMAL.format(value); }

/**
 * @param {string} one
 * @param {string} many
 * @param {number} n
 * @param {Params} [params]
 */
export function ngettext(one, many, n, params) {
  const forms = messages[one];
  const chosen = Array.isArray(forms) && forms.length === 2 ? forms[n === 1 ? 0 : 1] : (n === 1 ? one : many);
  return fill(chosen, Object.assign({ n: n }, params || {}));
}

/**
 * A message said in a context (the catalog keys it "context\u0004message", as gettext does):
 * pgettext("french suit", "clubs") is "fiori" where "clubs" alone is "bastoni".
 * @param {string} context
 * @param {string} text
 * @param {Params} [params]
 */
export function pgettext(context, text, params) {
  const found = messages[context + "\u0004" + text];
  return fill(typeof found === "string" && found ? found : text, params);
}

// The names the program makes for a match (against the computer, a table's match, a
// rematch) come as data, a match's "generated_name" ({"kind": "computer", "variant": "Scopa",
// "level": "normal"}): worded here in the page's language, as scopa/words.py shown_name words
// them; the text of "name" is never read back, so a name a person typed stays as typed.
/** @type {Record<string, string>} */
const LEVEL_WORDS = { easy: pgettext("level", "easy"), normal: pgettext("level", "normal"), strong: pgettext("level", "strong") };

/**
 * A name the program made, in the page's language.
 * @param {Record<string, string>} made
 * @returns {string}
 */
function madeName(made) {
  if (made.kind === "computer") {
    return _("Against the computer ({variant}, {level})", { variant: made.variant, level: LEVEL_WORDS[made.level] || made.level });
  }
  if (made.kind === "table") { return _("Table {code} ({variant})", { code: made.code, variant: made.variant }); }
  if (made.kind === "rematch") {
    /** @type {Record<string, string>} */
    const original = Object.assign({}, made, { kind: made.of || "" });
    return _("{name} (rematch)", { name: made.of ? madeName(original) : made.name });
  }
  return "";
}

/**
 * A match's name as the reader says it: one the program made worded from its data, one a
 * person typed as typed ("" when it has none).
 * @param {{name?: string | null, generated_name?: Record<string, string> | null}} match
 * @returns {string}
 */
export function matchName(match) {
  const made = match.generated_name;
  return (made && madeName(made)) || match.name || "";
}

// Who sits where is data (scopa/made_names.py Seat; a match's "seat_kinds"): a seat the
// program names (you, a computer with its number among several, your partner the computer)
// is worded in the page's language from it (scopa/words.py side_name); a person's name is
// shown as typed, whatever it reads like. A team's name joins its players with " & ".
/** @type {Record<string, string>} */
const SEAT_WORDS = { you: _("You"), computer: _("Computer"), partner: _("Partner") };
/**
 * A seat the program names, in the page's language ("" for a person's seat).
 * @param {{kind?: string, number?: number | null} | null | undefined} seat
 * @returns {string}
 */
export function seatWord(seat) {
  if (!seat || !seat.kind) { return ""; }
  if (seat.kind === "computer" && seat.number) { return _("Computer {number}", { number: seat.number }); }
  return Object.prototype.hasOwnProperty.call(SEAT_WORDS, seat.kind) ? SEAT_WORDS[seat.kind] : "";
}
/**
 * A side (a player or a team) as the reader says it, the seats the program named in `match`
 * (its players and seat_kinds) in the page's language.
 * @param {string} side
 * @param {{players?: string[], seat_kinds?: ({kind?: string, number?: number | null} | null)[] | null} | null} [match]
 * @returns {string}
 */
export function sideName(side, match) {
  const players = (match && match.players) || [], kinds = (match && match.seat_kinds) || [];
  /** @param {string} name */
  const say = function (name) { const k = players.indexOf(name); return (k >= 0 && seatWord(kinds[k])) || name; };
  const text = String(side);
  if (players.indexOf(text) >= 0 || text.indexOf(" & ") < 0) { return say(text); }
  const parts = text.split(" & ");
  return parts.every(function (p) { return players.indexOf(p) >= 0; }) ? parts.map(say).join(" & ") : text;
}

// How the cards show (the menu's switch, scopa/words.py): the Italian suits, or a French-suited
// deck (♦ ♥ ♠ ♣, J Q K). The device's choice (the deck cookie) first, so a page kept offline
// follows it too; else the page's own (<html data-deck>).
/** @returns {string} */
function chosenDeck() {
  if (typeof document === "undefined") { return "italian"; }
  const kept = /(?:^|;\s*)deck=(italian|french)(?:;|$)/.exec(document.cookie || "");
  if (kept) { return kept[1]; }
  return document.documentElement.dataset.deck === "french" ? "french" : "italian";
}
export const deck = chosenDeck();
export const french = deck === "french";

// A card in words, as the server names it (scopa/words.py): "7 of coins", "sette di denari";
// in French suits "7 of diamonds", "donna di cuori".
/** @type {Record<string, string>} */
const RANK_WORDS = french
  ? { A: _("ace"), 2: _("2"), 3: _("3"), 4: _("4"), 5: _("5"), 6: _("6"), 7: _("7"), J: pgettext("french rank", "jack"), H: pgettext("french rank", "queen"), K: pgettext("french rank", "king") }
  : { A: _("ace"), 2: _("2"), 3: _("3"), 4: _("4"), 5: _("5"), 6: _("6"), 7: _("7"), J: _("jack"), H: _("horse"), K: _("king") };
/** @type {Record<string, string>} */
const SUIT_WORDS = french
  ? { d: pgettext("french suit", "diamonds"), c: pgettext("french suit", "hearts"), s: pgettext("french suit", "spades"), b: pgettext("french suit", "clubs") }
  : { d: _("coins"), c: _("cups"), s: _("swords"), b: _("clubs") };
/** The French-suited deck's signs and letters (coins ♦, cups ♥, swords ♠, clubs ♣; the horse is Q). */
export const FRENCH_SIGNS = /** @type {Record<string, string>} */ ({ d: "♦", c: "♥", s: "♠", b: "♣" });
const FRENCH_LETTERS = /** @type {Record<string, string>} */ ({ J: "J", H: "Q", K: "K" });
/** The letters the table writes on the face cards, as the server's pages write them
 * (scopa/words.py rank_letter): J H K in English, F C R in Italian, S C R in Spanish; J Q K in
 * French suits. */
export const RANK_LETTERS = /** @type {Record<string, string>} */ (french
  ? FRENCH_LETTERS
  : { J: pgettext("letter", "J"), H: pgettext("letter", "H"), K: pgettext("letter", "K") });
/** @param {string} code */
export function cardName(code) {
  return _("{rank} of {suit}", { rank: RANK_WORDS[code.slice(0, -1)] || code.slice(0, -1), suit: SUIT_WORDS[code.slice(-1)] || code.slice(-1) });
}
/** @param {string} letter */
export function suitName(letter) { return SUIT_WORDS[letter] || letter; }

/**
 * A deal in words, for a choice between two phones' versions (static/offline.js); its sides as
 * the reader says them (the seats the program named in `match`, in the page's language), each
 * point by `label` (the sheet's words for a category key).
 * @param {import("./merge.js").Deal | null | undefined} deal
 * @param {Parameters<typeof sideName>[1]} match
 * @param {(key: string) => string} label
 */
export function describeDeal(deal, match, label) {
  /** @param {string} side */
  var name = function (side) { return sideName(side, match); };
  if (!deal) { return _("deleted"); }
  var last = deal.last_capture ? " · " + _("last cards: {name}", { name: name(deal.last_capture) }) : "";
  var swept = deal.sweeps || {};
  /** @param {string} owner */
  var sweeps = function (owner) { return ngettext("{count} sweep", "{count} sweeps", swept[owner] || 0, { count: swept[owner] || 0 }); };
  if (deal.categories) { // who took each point: each category's taker(s), then the sweeps
    var won = deal.categories;
    return Object.keys(won).map(function (key) {
      var took = won[key];
      var who = took === null ? "–" : Array.isArray(took) ? took.map(name).join(" = ") :
        typeof took === "string" ? name(took) : String(took);
      return label(key) + ": " + who;
    }).concat(Object.keys(swept).filter(function (o) { return swept[o]; }).map(function (o) {
      return name(o) + ": " + sweeps(o);
    })).join(" · ") + last;
  }
  var piles = deal.piles || {};
  return Object.keys(piles).map(function (owner) {
    var p = piles[owner];
    var count = p.cards ? p.cards.length : p.count || 0;
    var coins = p.cards ? p.cards.filter(function (c) { return c.slice(-1) === "d"; }).length : (p.coins || []).length;
    return name(owner) + ": " + [ngettext("{count} card", "{count} cards", count, { count: count }),
      ngettext("{count} coin", "{count} coins", coins, { count: coins }), sweeps(owner)].join(", ");
  }).join(" · ") + last;
}
