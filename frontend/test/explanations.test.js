/// <reference types="node" />
// explanation_figure.js draws a clicked cell's figure as the app draws it: each kind's template (export/
// explanations.py), named from an explanation as a cell's recipe gives it and filled, is the app's figure
// (figures/explanation.py), styled for each screen as the Layers page styles it, leaf for leaf
// (tests/frontend_fixtures.py explanations_fixture: few terms and many, a masked score, a point off its curve, panel
// titles that wrap on a phone).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { explanationFigure } from "../src/explanation_figure.js";

test("a cell's figure is the app's own, on every screen", () => {
  const folder = process.env.BVL_FIXTURES;
  if (!folder) throw new Error("BVL_FIXTURES is not set: run tests/test_frontend.py, or see numbers.test.js.");
  const { explanations, tokens, cases } = JSON.parse(readFileSync(join(folder, "explanations.json"), "utf8"));
  /** @type {any} */ (globalThis).window = { BVL_SITE: { views: { explanations } } };
  assert.equal(cases.length, 8);
  for (const c of cases) {
    for (const screen of /** @type {const} */ (["browse", "lecture", "phone"])) {
      const drawn = JSON.parse(JSON.stringify(explanationFigure(c.e, tokens, screen)));
      assert.deepEqual(drawn, c[screen], `${c.e.drawn_as} (${c.e.terms.length} terms): ${screen}`);
    }
  }
});
