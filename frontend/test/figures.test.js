/// <reference types="node" />
// template.js fills a figure's template as figures/template.py `filled` does: the head and model views' templates
// (export/attention.py attention_templates), filled with the `views` graph's numbers for a short and a long sentence,
// and the Heads page's grids with numbers that take each branch of the colour rule (tests/frontend_fixtures.py
// figures_fixture), give Python's figures leaf for leaf, on every screen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unpack } from "../src/numbers.js";
import { filled } from "../src/template.js";

test("a template filled in the browser is the figure Python fills", () => {
  const folder = process.env.BVL_FIXTURES;
  if (!folder) throw new Error("BVL_FIXTURES is not set: run tests/test_frontend.py, or see numbers.test.js.");
  const { templates, cases } = JSON.parse(readFileSync(join(folder, "figures.json"), "utf8"));
  assert.equal(cases.length, 8);
  for (const c of cases) {
    const names = Object.fromEntries(Object.entries(c.names).map(([k, v]) => [
      k, v && typeof v === "object" && !Array.isArray(v) && "data" in v ? unpack(v) : v]));
    const plain = (/** @type {unknown} */ f) => JSON.parse(JSON.stringify(
      f, (_, v) => (ArrayBuffer.isView(v) ? Array.from(/** @type {Float32Array} */ (v)) : v)));
    const screens = c.view.reduce((/** @type {any} */ part, /** @type {string} */ key) => part[key], templates);
    for (const screen of ["browse", "lecture", "phone"]) {
      assert.deepEqual(plain(filled(screens[screen], names)), c[screen], `${c.view.join(" ")}: ${screen}`);
    }
  }
});
