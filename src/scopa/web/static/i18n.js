// The page scripts' words, from the same gettext catalog as the pages: scripts/catalogs.py
// makes static/i18n/<lang>.json from each .po (the messages found in these scripts by
// `make messages`, Babel's javascript extractor). The page's language is <html lang>.
//   _("Deal {number} recorded", {number: 3})    ngettext("{n} change waits", "{n} changes wait", n)
// English, Italian and Spanish share one plural rule (one form for 1, the other for the rest).
export const language = /^[a-z]{2}$/.test(document.documentElement.lang) ? document.documentElement.lang : "en";

let messages = {};
if (language !== "en") {
  try {
    const response = await fetch("/static/i18n/" + language + ".json");
    if (response.ok) { messages = (await response.json()).messages || {}; }
  } catch (error) { /* no catalog (offline and never fetched): English */ }
}

function fill(text, params) {
  if (!params) { return text; }
  return text.replace(/\{(\w+)\}/g, function (whole, key) { return key in params ? String(params[key]) : whole; });
}

export function _(text, params) {
  const found = messages[text];
  return fill(typeof found === "string" && found ? found : text, params);
}

export function ngettext(one, many, n, params) {
  const forms = messages[one];
  const chosen = Array.isArray(forms) && forms.length === 2 ? forms[n === 1 ? 0 : 1] : (n === 1 ? one : many);
  return fill(chosen, Object.assign({ n: n }, params || {}));
}

// A card in words, as the server names it (scopa/words.py): "7 of coins", "sette di denari".
const RANK_WORDS = { A: _("ace"), 2: _("2"), 3: _("3"), 4: _("4"), 5: _("5"), 6: _("6"), 7: _("7"), J: _("jack"), H: _("horse"), K: _("king") };
const SUIT_WORDS = { d: _("coins"), c: _("cups"), s: _("swords"), b: _("clubs") };
export function cardName(code) {
  return _("{rank} of {suit}", { rank: RANK_WORDS[code.slice(0, -1)] || code.slice(0, -1), suit: SUIT_WORDS[code.slice(-1)] || code.slice(-1) });
}
export function suitName(letter) { return SUIT_WORDS[letter] || letter; }
