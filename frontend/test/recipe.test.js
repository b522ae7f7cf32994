/// <reference types="node" />
// recipe.js works out a cell's recipe as the app's ops/working.py does: every operation that has a recipe, on cells
// of the tiny models' first layer (tests/recipe_fixtures.py), gives the app's formula character for character, its
// terms (labels alike, values to float64's last bits), its recomputed value, its labels, its inputs and its figure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unpack, at } from "../src/numbers.js";
import { workedOut, toldOf } from "../src/recipe.js";
import { askedOf } from "../src/asked.js";

/** @typedef {import("../src/numbers.js").Unpacked} Unpacked */

// Both evaluators compute in float64 from the same float32 arrays, in the same order: their terms agree to the last
// bits. An activation is the exception: the app applies the model's own function in float32, this evaluator its
// float64 formula (activations.js), so a value made by one (a gelu, its curve) agrees to float32's precision, as
// tests/test_export_explain.py holds a figure (atol 1e-6, rtol 1e-5).
const EXACT = { atol: 1e-12, rtol: 1e-12 }, FLOAT32 = { atol: 1e-6, rtol: 1e-5 };

/**
 * @param {unknown} ours
 * @param {unknown} apps
 * @param {string} where
 * @param {{ atol: number, rtol: number }} bound
 */
function close(ours, apps, where, bound = EXACT) {
  if (typeof apps === "number" && typeof ours === "number") {
    const within = ours === apps || Math.abs(ours - apps) <= bound.atol + bound.rtol * Math.abs(apps);
    assert.ok(within, `${where}: ${ours} vs ${apps}`);
  } else if (Array.isArray(apps)) {
    assert.ok(Array.isArray(ours) && ours.length === apps.length, `${where}: length`);
    apps.forEach((v, k) => close(ours[k], v, `${where}[${k}]`, bound));
  } else {
    assert.deepEqual(ours, apps, where);
  }
}

/** @param {any} c a case of recipes.json */
function recipeCell(c) {
  /** @type {Record<string, Unpacked>} */
  const arrays = Object.fromEntries(Object.entries(c.arrays).map(([k, v]) => [k, unpack(/** @type {any} */ (v))]));
  const m = c.module, tables = m.table && { ids: m.table.ids, rows: unpack(m.table.rows) };
  const window = c.node.attrs.window;
  return {
    at: c.at, head: c.head, node: c.node, array: arrays[c.step], tokens: c.tokens, ids: c.ids,
    input: (/** @type {number} */ k) => arrays[c.node.inputs[k]], source: (/** @type {string} */ n) => arrays[n],
    token: (/** @type {number} */ i) => `${i} ${c.tokens[i]}`,
    row: (/** @type {number} */ i, /** @type {Unpacked | undefined} */ of) => {  // as steps.js Cell.row names a row
      const rows = (of || arrays[c.step]).shape.at(-2);
      if (rows === c.tokens.length && c.axes.includes("T")) return `${i} ${c.tokens[i]}`;
      return c.axes.includes("2k") ? `${i} (δ = ${i - Math.floor(/** @type {number} */ (rows) / 2)})` : String(i);
    },
    step: (/** @type {string} */ n) => arrays[n],
    visible: (/** @type {number} */ i, /** @type {number} */ j) => c.mask[j] === 1
      && (window === undefined || window === null || Math.abs(i - j) <= window),
    module: { weight: m.weight && unpack(m.weight), bias: m.bias && unpack(m.bias), eps: m.eps, function: m.function,
              buffer: (/** @type {string} */ n) => unpack(m.buffers[n]),
              tableRow: (/** @type {number} */ id) => at(/** @type {Unpacked} */ (tables.rows), tables.ids.indexOf(id)) },
  };
}

test("every operation's recipe is worked out as the app works it out", () => {
  const folder = process.env.BVL_FIXTURES;
  if (!folder) throw new Error("BVL_FIXTURES is not set: run tests/test_frontend.py, or see numbers.test.js.");
  const { cases, ops } = JSON.parse(readFileSync(join(folder, "recipes.json"), "utf8"));
  assert.ok(ops.length >= 20 && cases.length > 100);
  for (const c of cases) {
    const where = `${c.op} ${c.step} head ${c.head} at ${c.at}`;
    const bound = c.op.endsWith("activation") ? FLOAT32 : EXACT;
    const ours = workedOut(c.recipe, recipeCell(c)), apps = c.worked;
    assert.equal(ours.formula, apps.formula, where);
    assert.deepEqual(ours.terms.map(([label]) => label), apps.terms.map((/** @type {any} */ [label]) => label), where);
    close(ours.terms.map(([, v]) => v), apps.terms.map((/** @type {any} */ [, v]) => v), `${where} terms`);
    close(ours.recomputed, apps.recomputed, `${where} recomputed`, bound);
    close(ours.labels, apps.labels, `${where} labels`);
    for (const part of /** @type {const} */ (["inputs", "figure"])) {
      assert.deepEqual(Object.keys(ours[part]).sort(), Object.keys(apps[part]).sort(), `${where} ${part}`);
      for (const key of Object.keys(apps[part])) close(ours[part][key], apps[part][key], `${where} ${part}.${key}`, bound);
    }
  }
});

test("every narrator tells a step's chapter as the app tells it", () => {
  const folder = /** @type {string} */ (process.env.BVL_FIXTURES);
  const { tellings, narrators } = JSON.parse(readFileSync(join(folder, "recipes.json"), "utf8"));
  assert.ok(narrators.length >= 12 && tellings.length > 100);
  for (const c of tellings) {
    const array = unpack(c.array), inputs = c.inputs.map((/** @type {any} */ p) => unpack(p));
    const context = { array, head: c.head, mine: c.head === null ? array : at(array, c.head), chosen: c.chosen,
                      where: c.where, heads: c.heads, length: c.tokens.length,
                      tok: (/** @type {number} */ i) => `'${c.tokens[i]}'`,
                      input: (/** @type {number} */ k) => inputs[k] };
    assert.deepEqual(toldOf(c.telling, context), c.told, `${c.narrator} ${c.step} head ${c.head} token ${c.chosen}`);
  }
});

test("every chapter asks the question the app asks, or none where the app asks none", () => {
  const folder = /** @type {string} */ (process.env.BVL_FIXTURES);
  const { askings, asking } = JSON.parse(readFileSync(join(folder, "recipes.json"), "utf8"));
  /** @type {any} */ (globalThis).window = { BVL_SITE: { asking } };  // as a site's data.js holds them
  const asked = askings.filter((/** @type {any} */ c) => c.asked !== null);
  assert.ok(askings.length > 200 && asked.length > 50, `${asked.length} of ${askings.length} asked`);
  for (const c of askings) {
    const tok = (/** @type {number} */ i) => `'${c.tokens[i]}'`;
    const context = c.step ? (() => {
      const array = unpack(c.array), inputs = c.inputs.map((/** @type {any} */ p) => unpack(p));
      return { array, head: c.head, mine: c.head === null ? array : at(array, c.head), chosen: c.chosen,
               where: c.where, heads: c.heads, length: c.tokens.length, tok, input: (/** @type {number} */ k) => inputs[k] };
    })() : { cosines: unpack(c.cosines), lengths: unpack(c.lengths), chosen: c.chosen, tok };
    assert.deepEqual(askedOf(c.asking, /** @type {any} */ (context)), c.asked, `${c.step || "stream"} token ${c.chosen}`);
  }
});

/**
 * One expression worked out, with `names` bound before it.
 * @param {import("../src/recipe.js").Tree} tree
 * @param {Record<string, number>} [names]
 */
function evaluated(tree, names = {}) {
  const recipe = { let: [...Object.entries(names), ["out", tree]], formula: "", value: 0, terms: [],
                   inputs: { out: ["v", "out"] }, labels: {}, figure: {} };
  return workedOut(/** @type {any} */ (recipe), /** @type {any} */ ({})).inputs.out;
}

test("a word the site does not know is named, not guessed", () => {
  assert.throws(() => evaluated(["no_such_word", 1]), /"no_such_word"/);
});

test("numbers and strings combine as Python's do", () => {
  assert.equal(evaluated(["%", -7, 3]), 2);  // Python's modulo takes the divisor's sign
  assert.equal(evaluated(["//", -7, 2]), -4);
  assert.equal(evaluated(["+", ["fmt", "q_{i}"], " (shared)"], { i: 3 }), "q_3 (shared)");
  assert.equal(evaluated(["fmt", "{x:num} {y:plus} {d:+d}"], { x: 1e5, y: -0.25, d: -3 }), "1e+05 − 0.2500 -3");
});
