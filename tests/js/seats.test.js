// Who sits where is data (issue 50): static/i18n.js words a seat the program names (a match's
// seat_kinds) in the page's language, and shows a person's name as typed, even a person who
// calls themselves "Computer 2". The module is loaded as a Spanish page loads it: its
// catalog fetched for <html lang="es">.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.document = /** @type {any} */ ({ documentElement: { lang: "es", dataset: {} }, cookie: "" });
globalThis.fetch = /** @type {any} */ (async () => ({
  ok: true,
  json: async () => ({ messages: { You: "Tú", Partner: "Compañero", Computer: "Ordenador", "Computer {number}": "Ordenador {number}", "last cards: {name}": "últimas cartas: {name}" } }),
}));
const { describeDeal, sideName, seatWord } = await import("../../src/scopa/web/static/i18n.js");

const againstTheComputer = {
  players: ["You", "Computer 1", "Partner", "Computer 2"],
  seat_kinds: [{ kind: "you" }, { kind: "computer", number: 1 }, { kind: "partner" }, { kind: "computer", number: 2 }],
};

test("a seat the program names is worded from its kind, a team seat by seat", () => {
  assert.equal(sideName("Computer 2", againstTheComputer), "Ordenador 2");
  assert.equal(sideName("You & Partner", againstTheComputer), "Tú & Compañero");
  assert.equal(seatWord({ kind: "computer" }), "Ordenador");
  assert.equal(seatWord({ kind: "person" }), "");
});

test("a person called like a computer seat keeps their name", () => {
  const people = { players: ["Computer 2", "You"] };
  assert.equal(sideName("Computer 2", people), "Computer 2");
  assert.equal(sideName("You", people), "You");
  assert.equal(sideName("Computer 2 & You", { ...people, seat_kinds: [{ kind: "person" }, { kind: "person" }] }), "Computer 2 & You");
  assert.equal(sideName("Computer 2"), "Computer 2");
});

test("a deal in a choice between two phones names the program's seats in the page's language", () => {
  const deal = {
    categories: { cards: "Computer 1", coins: ["You", "Computer 2"], settebello: null },
    sweeps: { "Computer 2": 1 },
    last_capture: "Computer 1",
  };
  /** @param {string} key */
  const label = (key) => ({ cards: "Cartas", coins: "Oros", settebello: "Sietebelo" })[key] || key;
  const said = describeDeal(deal, againstTheComputer, label);
  assert.match(said, /^Cartas: Ordenador 1 · Oros: Tú = Ordenador 2 · Sietebelo: – · Ordenador 2: /);
  assert.match(said, / · últimas cartas: Ordenador 1$/);
  assert.doesNotMatch(said, /Computer/);
  // Without the match (never kept on this device) the names stay as stored.
  assert.match(describeDeal(deal, null, label), /^Cartas: Computer 1/);
});
