/// <reference types="node" />
// matrix_figure.js draws a step's matrix as the app draws it: the template of the form its length takes (export/
// matrices.py), filled with the names a site gives it, is the app's figure (figures/charts.py attention_heatmap,
// matrix_window), styled for each screen as the Layers page styles it, leaf for leaf (tests/frontend_fixtures.py
// matrices_fixture: short, middling and long head's matrices with a masked cell, escaped tokens and a chosen cell;
// windows of dimensions); and so are a typed sentence's analyses' figures (export/analysis_figures.py, the tour's
// residual stream; frontend_fixtures.py analysis_figures_fixture).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unpack } from "../src/numbers.js";
import { formFigure, matrixFigure } from "../src/matrix_figure.js";
import { filled } from "../src/template.js";
import { FIGURE_WORDS } from "../src/figure_words.js";

test("a step's matrix is the app's own, on every screen and at every length", () => {
  const folder = process.env.BVL_FIXTURES;
  if (!folder) throw new Error("BVL_FIXTURES is not set: run tests/test_frontend.py, or see numbers.test.js.");
  const { matrices, cases } = JSON.parse(readFileSync(join(folder, "matrices.json"), "utf8"));
  /** @type {any} */ (globalThis).window = { BVL_SITE: { views: { matrices } } };
  assert.equal(cases.length, 5);
  for (const c of cases) {
    const names = { ...c.names, z: unpack(c.names.z) };
    for (const screen of /** @type {const} */ (["browse", "lecture", "phone"])) {
      const drawn = JSON.parse(JSON.stringify(matrixFigure(c.kind, names, screen)));
      assert.deepEqual(drawn, c[screen], `${c.kind} of ${c.names.labels.length}: ${screen}`);
    }
  }
});

test("a matrix averaged over blocks is numpy's, to float32's last bit", () => {
  const { pooled } = JSON.parse(readFileSync(join(/** @type {string} */ (process.env.BVL_FIXTURES), "matrices.json"),
                                             "utf8"));
  const found = /** @type {import("../src/numbers.js").Unpacked} */ (FIGURE_WORDS.pooled(null, unpack(pooled.matrix),
                                                                                         pooled.step));
  assert.deepEqual(found.shape, [4, 4]);
  pooled.expected.flat().forEach((/** @type {number | null} */ want, /** @type {number} */ k) => {
    const got = found.data[k];
    if (want === null) assert.ok(Number.isNaN(got), `block ${k}`);
    else assert.ok(Math.abs(got - want) <= 1e-7 * Math.max(1, Math.abs(want)), `block ${k}: ${got}, not ${want}`);
  });
});

test("a typed sentence's analyses' figures are the app's own, on every screen", () => {
  const { figures, cases } = JSON.parse(readFileSync(join(/** @type {string} */ (process.env.BVL_FIXTURES),
                                                          "analysis_figures.json"), "utf8"));
  assert.equal(cases.length, 14);
  for (const c of cases) {
    const names = c.names.z ? { ...c.names, z: unpack(c.names.z) } : c.names;
    for (const screen of /** @type {const} */ (["browse", "lecture", "phone"])) {
      const kind = figures[c.kind];  // forms by length, or a template for each screen
      const figure = Array.isArray(kind) ? formFigure(kind, names, screen) : filled(kind[screen], names);
      const drawn = JSON.parse(JSON.stringify(figure));
      assert.deepEqual(drawn, c[screen], `${c.kind} (${c.names.z ? c.names.z.shape.join(" × ") : ""}): ${screen}`);
    }
  }
});
