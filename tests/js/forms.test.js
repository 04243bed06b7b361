// The forms' pure logic (static/forms.js): the house rules read from a form as the server
// reads it, the change they make, the tally's rest, and Cirulla's coin hints.
import { test } from "node:test";
import assert from "node:assert/strict";
import { changedRules, countOf, holdsTheSeven, readRules, restOf } from "../../src/scopa/web/static/forms.js";

const SCOPONE = { target: "whole", primiera: "on_off", napola: "choice", partnerships: "on_off",
  last_capture_sweep: "on_off", ties: "choice", last_play_sweep: "on_off" };
const CIRULLA = { target: "whole", primiera: "on_off", primiera_mode: "choice", partnerships: "on_off",
  last_capture_sweep: "on_off", ties: "choice", cirulla_points: "whole", decino_points: "whole",
  piccola_cap: "whole", cappotto: "choice" };

test("Scopone's partnerships are on: the form sends them as a hidden field", () => {
  const fields = [["version", "3"], ["target", "11"], ["primiera", "on"], ["napola", "off"], ["ties", "withhold"],
    ["variant", "scopone"], ["partnerships", "on"], ["last_play_sweep", "on"]];
  assert.deepEqual(readRules(fields, SCOPONE), { target: 11, primiera: true, napola: "off", partnerships: true,
    last_capture_sweep: false, ties: "withhold", last_play_sweep: true });
});

test("every setting of the variant is read, and nothing else", () => {
  const fields = [["target", " 51 "], ["primiera_mode", "sevens"], ["ties", "share"], ["cirulla_points", "0"],
    ["decino_points", "10"], ["piccola_cap", "4"], ["cappotto", "off"], ["napola", "run"], ["ace_sweep", "on"]];
  assert.deepEqual(readRules(fields, CIRULLA), { target: 51, primiera: false, primiera_mode: "sevens",
    partnerships: false, last_capture_sweep: false, ties: "share", cirulla_points: 0, decino_points: 10,
    piccola_cap: 4, cappotto: "off" });
});

test("the first of a repeated field counts, as on the server", () => {
  assert.equal(readRules([["target", "15"], ["target", "21"]], { target: "whole" }).target, 15);
});

test("a choice the form does not send is left as it is", () => {
  assert.deepEqual(readRules([["target", "11"]], { target: "whole", ties: "choice" }), { target: 11 });
});

test("a whole number left empty or not whole is refused, saying which", () => {
  assert.throws(() => readRules([["target", " "]], { target: "whole" }), /^Error: enter the target$/);
  assert.throws(() => readRules([["piccola_cap", "4.5"]], { piccola_cap: "whole" }),
    /^Error: '4.5' is not a whole number \(piccola cap\)$/);
  assert.throws(() => readRules([], { decino_points: "whole" }), /enter decino points/);
});

test("the change is the settings that differ from what the form showed", () => {
  const shown = { target: 11, primiera: true, ties: "withhold" };
  assert.deepEqual(changedRules({ target: 21, primiera: true, ties: "withhold" }, shown), { target: 21 });
  assert.deepEqual(changedRules({ ...shown, primiera: false, ties: "share" }, shown), { primiera: false, ties: "share" });
  assert.deepEqual(changedRules(shown, shown), {});
});

test("the rest: the cards and coins the other sides did not count", () => {
  assert.deepEqual(restOf(["22"], ["A", "2", "7"]), { count: 18, coins: ["3", "4", "5", "6", "J", "H", "K"] });
  assert.deepEqual(restOf(["10", "12"], []).count, 18);
  assert.equal(restOf(["10", ""], []).count, null); // a count still missing
  assert.equal(restOf(["30", "11"], []).count, null); // more than the deck
  // what the core does not read as a count counts nothing (it was -3 + 43 = 40 ✓)
  for (const typed of ["-3", "2.5", "3x", "1e1", "٣"]) {
    assert.equal(restOf([typed], []).count, null, typed);
    assert.ok(Number.isNaN(countOf(typed)), typed);
  }
  assert.equal(countOf(" 22 "), 22);
  assert.equal(restOf([" 22 ", "0"], []).count, 18);
  assert.deepEqual(restOf([], ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"]), { count: 40, coins: [] });
});

test("the rest holds a suit's 7 when every other side names another best card", () => {
  assert.ok(holdsTheSeven(["6", "A"]));
  assert.ok(!holdsTheSeven(["6", ""])); // one has not said
  assert.ok(!holdsTheSeven(["7", "6"])); // someone else has it
  assert.ok(holdsTheSeven([])); // vacuously: no other side
});
