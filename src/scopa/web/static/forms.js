// The pure side of the page's forms (no page, no storage: node --test runs it, in English).
import { _ } from "./i18n.js";

/** The coins' ranks in order, ace to king. */
export var RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"];

/** How a form writes a setting (scopa.rules.setting_kind): the template says which each of
 * the variant's settings is, in the settings form's data-settings.
 * @typedef {"whole" | "on_off" | "choice"} SettingKind */

/** A setting's value: a whole number, on/off, or a choice's name.
 * @typedef {number | boolean | string} SettingValue */

/**
 * The settings a rules form says, read as the server reads the form (phone/forms.py
 * settings_from_form): each of the variant's settings (`kinds`, its data-settings), a whole
 * number as typed, on when the form sends its name (Scopone's partnerships: a hidden "on"),
 * a choice as chosen (absent: left as it is).
 * @param {Iterable<[string, string]>} fields the form's fields, in order (FormData entries)
 * @param {Record<string, SettingKind>} kinds
 * @returns {Record<string, SettingValue>}
 * @throws {Error} a whole number left empty or not whole, in the server's words
 */
export function readRules(fields, kinds) {
  /** @type {Record<string, string>} */
  var first = {};
  for (var [name, value] of fields) { if (!(name in first)) { first[name] = value; } }
  /** @type {Record<string, SettingValue>} */
  var rules = {};
  for (var setting of Object.keys(kinds)) {
    var kind = kinds[setting], text = first[setting];
    if (kind === "on_off") {
      rules[setting] = text !== undefined;
    } else if (kind === "whole") {
      var what = setting === "target" ? _("the target") : setting.replace(/_/g, " ");
      text = (text || "").trim();
      if (!text) { throw new Error(_("enter {what}", { what: what })); }
      if (!/^[+-]?\d+$/.test(text)) { throw new Error(_("{value} is not a whole number ({what})", { value: "'" + text + "'", what: what })); }
      rules[setting] = parseInt(text, 10);
    } else if (text !== undefined) {
      rules[setting] = text;
    }
  }
  return rules;
}

/**
 * The settings that differ from what the form showed: the change to send, so that a setting
 * changed meanwhile on another device and not touched here is left as it is there.
 * @param {Record<string, SettingValue>} now
 * @param {Record<string, SettingValue>} shown
 * @returns {Record<string, SettingValue>}
 */
export function changedRules(now, shown) {
  /** @type {Record<string, SettingValue>} */
  var changed = {};
  for (var name of Object.keys(now)) {
    if (now[name] !== shown[name]) { changed[name] = now[name]; }
  }
  return changed;
}

/**
 * A count as typed, as the core reads it (``forms.whole``: one to six ASCII digits, spaces
 * around them aside), or NaN: "-3", "2.5", "3x" and "" count nothing.
 * @param {string} text
 * @returns {number}
 */
export function countOf(text) {
  var digits = text.trim();
  return /^[0-9]{1,6}$/.test(digits) ? parseInt(digits, 10) : NaN;
}

/**
 * What the side that took the rest holds on the tally form: the cards the others did not
 * count (null while a count is missing or they count more than 40) and the coins they did not
 * tap. `counts`: the others' counts as typed ("" when empty).
 * @param {string[]} counts
 * @param {string[]} taken the coins the others tapped
 * @returns {{count: number | null, coins: string[]}}
 */
export function restOf(counts, taken) {
  var others = 0, known = true;
  counts.forEach(function (text) {
    var v = countOf(text);
    if (isNaN(v)) { known = false; } else { others += v; }
  });
  return {
    count: known && others <= 40 ? 40 - others : null,
    coins: RANKS.filter(function (r) { return taken.indexOf(r) < 0; }),
  };
}

/**
 * Whether the side that took the rest holds a suit's 7: every other side names its best card
 * of that suit, and none names the 7. `others`: their choices ("" when none).
 * @param {string[]} others
 */
export function holdsTheSeven(others) {
  return others.every(function (value) { return value !== "" && value !== "7"; });
}
