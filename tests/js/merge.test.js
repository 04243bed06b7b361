// JSON equality of the outbox (static/merge.js). The merge decision itself is not in the page
// script: it is scopa.changes.resolve, applied by the server (tests/test_changes_merge.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { canonical, same } from "../../src/scopa/web/static/merge.js";

test("canonical JSON sorts keys at every depth; same compares by it", () => {
  assert.equal(canonical({ b: 1, a: [{ d: 2, c: null }] }), '{"a":[{"c":null,"d":2}],"b":1}');
  assert.ok(same({ x: 1, y: { z: [1, 2] } }, { y: { z: [1, 2] }, x: 1 }));
  assert.ok(!same([1, 2], [2, 1]));
  assert.ok(same(undefined, null));
});

test("the page script holds no merge decision of its own", async () => {
  const module = await import("../../src/scopa/web/static/merge.js");
  assert.deepEqual(Object.keys(module).sort(), ["canonical", "same"]);
});
