// Who sits where is data (issue 50): static/i18n.js words a seat the program names (a match's
// seat_kinds) in the page's language, and shows a person's name as typed, even a person who
// calls themselves "Computer 2". The module is loaded as a Spanish page loads it: its
// catalog fetched for <html lang="es">.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.document = /** @type {any} */ ({ documentElement: { lang: "es", dataset: {} }, cookie: "" });
globalThis.fetch = /** @type {any} */ (async () => ({
  ok: true,
  json: async () => ({ messages: { You: "Tú", Partner: "Compañero", Computer: "Ordenador", "Computer {number}": "Ordenador {number}" } }),
}));
const { sideName, seatWord } = await import("../../src/scopa/web/static/i18n.js");

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
