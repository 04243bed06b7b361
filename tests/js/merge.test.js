// The outbox's merge decision (static/merge.js): what a change made on this device sends,
// given the match as the server has it now.
import { test } from "node:test";
import assert from "node:assert/strict";
import { canonical, resolve, same } from "../../src/scopa/web/static/merge.js";

const deal = (who, sweeps = 0) => ({ piles: { Anna: { count: 20 }, Bruno: { count: 20 } }, last_capture: who,
  sweeps: { Anna: sweeps, Bruno: 0 } });
const RULES = { target: 11, primiera: true, napola: "off", partnerships: false, last_capture_sweep: false, ties: "withhold" };
const server = (deals, version, rules = RULES) => ({ version, match: { deals, rules } });
const body = (plan) => JSON.parse(plan.request.body);

test("canonical JSON sorts keys at every depth; same compares by it", () => {
  assert.equal(canonical({ b: 1, a: [{ d: 2, c: null }] }), '{"a":[{"c":null,"d":2}],"b":1}');
  assert.ok(same({ x: 1, y: { z: [1, 2] } }, { y: { z: [1, 2] }, x: 1 }));
  assert.ok(!same([1, 2], [2, 1]));
  assert.ok(same(undefined, null));
});

test("a deal added with nothing new on the server is posted at the server's version", () => {
  const plan = resolve({ match: 7, kind: "add", body: deal("Anna"), base: { count: 1 } }, server([deal("Bruno")], 4));
  assert.equal(plan.request.url, "/api/matches/7/deals");
  assert.equal(plan.request.method, "POST");
  assert.deepEqual(body(plan), { ...deal("Anna"), version: 4 });
});

test("a deal added while another device appended one asks, unless the person said yes", () => {
  const entry = { match: 7, kind: "add", body: deal("Anna"), base: { count: 0 } };
  const now = server([deal("Bruno")], 2);
  assert.deepEqual(resolve(entry, now).conflict, { type: "appended", theirs: [deal("Bruno")], count: 1 });
  assert.equal(resolve({ ...entry, accept_after: true }, now).request.method, "POST");
});

test("an edited deal follows its deal when others moved it, and asks when it was changed", () => {
  const mine = deal("Anna", 3);
  const entry = { match: 7, kind: "replace", number: 2, body: mine, base: { deal: deal("Bruno") } };
  // The first deal was deleted elsewhere: deal 2 is now deal 1.
  const moved = resolve(entry, server([deal("Bruno")], 9));
  assert.equal(moved.request.url, "/api/matches/7/deals/1");
  assert.equal(moved.request.method, "PUT");
  // Changed elsewhere: the person chooses; "keep mine" forces it at its number.
  const changed = server([deal("Anna"), deal("Bruno", 1)], 9);
  assert.deepEqual(resolve(entry, changed).conflict, { type: "edited", theirs: deal("Bruno", 1), number: 2 });
  assert.equal(resolve({ ...entry, force: true }, changed).request.url, "/api/matches/7/deals/2");
});

test("a deletion of a deal already changed or deleted elsewhere is dropped", () => {
  const entry = { match: 7, kind: "delete", number: 1, base: { deal: deal("Anna") } };
  assert.match(resolve(entry, server([deal("Bruno")], 3)).drop, /already changed or deleted/);
  const plan = resolve(entry, server([deal("Bruno"), deal("Anna")], 3));
  assert.equal(plan.request.url, "/api/matches/7/deals/2");
  assert.equal(plan.request.method, "DELETE");
  assert.deepEqual(body(plan), { version: 3 });
});

test("a restore posts to the removed deal's restore", () => {
  const plan = resolve({ match: 7, kind: "restore", removed_id: 5 }, server([], 2));
  assert.equal(plan.request.url, "/api/matches/7/removed/5/restore");
  assert.deepEqual(body(plan), { version: 2 });
});

test("rules: unrelated settings merge; the same setting changed both ways asks", () => {
  const base = { rules: RULES };
  const mine = { match: 7, kind: "rules", body: { target: 21 }, base };
  // The other device changed primiera only: mine go as a PATCH of the settings I changed.
  const merged = resolve(mine, server([], 5, { ...RULES, primiera: false }));
  assert.equal(merged.request.method, "PATCH");
  assert.equal(body(merged).target, 21);
  // The other device changed the target too.
  const clash = resolve(mine, server([], 5, { ...RULES, target: 15 }));
  assert.deepEqual(clash.conflict, { type: "rules", settings: [{ name: "target", mine: 21, theirs: 15 }] });
  assert.equal(resolve({ ...mine, accept_rules: true }, server([], 5, { ...RULES, target: 15 })).request.method, "PATCH");
  // Both changed it to the same value: no question.
  assert.ok(resolve(mine, server([], 5, { ...RULES, target: 21 })).request);
});

test("an unknown kind is dropped", () => {
  assert.deepEqual(resolve({ match: 1, kind: "nonsense" }, server([], 1)), { drop: "unknown change" });
});
