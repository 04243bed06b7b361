// The one escape of text put into the pages' HTML by script (static/util.js): quotes
// included, so a player named `Q" data-pwn="1` stays text (issue 25, finding 7).
import { test } from "node:test";
import assert from "node:assert/strict";
import { esc } from "../../src/scopa/web/static/util.js";

test("esc escapes what could end a text or an attribute", () => {
  assert.equal(esc('Q" data-pwn="1'), "Q&quot; data-pwn=&quot;1");
  assert.equal(esc("it's <b>&"), "it&#39;s &lt;b&gt;&amp;");
  assert.equal(esc(7), "7");
});

test("an escaped name inside an attribute is one attribute value", () => {
  const cell = '<td aria-label="' + esc('Anna" onclick="x') + '">';
  assert.equal((cell.match(/"/g) || []).length, 2);
});
