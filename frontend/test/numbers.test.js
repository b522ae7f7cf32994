/// <reference types="node" />
// numbers.js against Python: each format spec it ports (.Nf, .Ng, g, .Ne, +d, round, math.fsum) and ops/worked.py's
// num and plus, character for character, on the values tests/frontend_fixtures.py writes (exact ties, signs and
// zeros, the tiny and the huge, the mask, nan and inf, random floats); and an array packed by export/steps.py
// read back as numpy reads it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  unpack, get, row, matrix, at, fixed, general, num, pyRound, exactSum, norm,
  within, formatted, difference,
} from "../src/numbers.js";

// The fixtures Python writes for these tests (tests/frontend_fixtures.py), read from the folder BVL_FIXTURES names:
// tests/test_frontend.py fills a folder and runs `node --test` with it; by hand, from the repository's root,
//   python tests/frontend_fixtures.py /tmp/fixtures && (cd frontend && BVL_FIXTURES=/tmp/fixtures npm test)

/**
 * A fixture file's JSON (the fixtures are Python's untyped JSON).
 * @param {string} name
 * @returns {any}
 */
function fixture(name) {
  const folder = process.env.BVL_FIXTURES;
  if (!folder) {
    throw new Error("BVL_FIXTURES is not set: these tests compare the modules with what Python writes. Run " +
                    "`python tests/frontend_fixtures.py FOLDER` from the repository's root, then `BVL_FIXTURES=FOLDER " +
                    "npm test` (tests/test_frontend.py does both).");
  }
  return JSON.parse(readFileSync(join(folder, name), "utf8"));
}

/**
 * A float as the fixtures write it (Python's repr, which also holds nan, inf, -inf and -0.0).
 * @param {string} text
 * @returns {number}
 */
function float(text) {
  return text === "nan" ? NaN : text === "inf" ? Infinity : text === "-inf" ? -Infinity : Number(text);
}

const numbers = fixture("numbers.json");

/**
 * numbers.js's function for a Python format spec, or null where it ports none.
 * @param {string} spec
 * @returns {((value: number) => string) | null}
 */
function formatter(spec) {
  if (spec.includes("z")) return (value) => formatted(value, spec);  // Python's "z", on top of .Nf, .Ne
  const [, digits, kind] = /^\.(\d+)([efg])$/.exec(spec) || [null, "6", spec];
  const n = Number(digits);
  if (kind === "f") return (value) => fixed(value, n);
  if (kind === "g") return (value) => general(value, n);
  if (kind === "e") return (value) => formatted(value, spec);
  return null;
}

test("every format spec writes each value as Python's format() does", () => {
  /** @type {string[]} */
  const wrong = [];
  for (const { value, spec, python } of numbers.format) {
    const write = formatter(spec);
    assert.ok(write, `numbers.js ports no ${spec}`);
    const ours = write(float(value));
    if (ours !== python) wrong.push(`format(${value}, "${spec}"): Python ${python}, numbers.js ${ours}`);
  }
  assert.deepEqual(wrong, []);
  assert.ok(numbers.format.length > 1000);
});

test("num and plus write a formula's numbers as ops/worked.py does", () => {
  for (const { value, num: python, plus: pythonPlus } of numbers.worked) {
    assert.equal(num(float(value)), python, `num(${value})`);
    assert.equal(formatted(float(value), "plus"), pythonPlus, `plus(${value})`);
  }
});

test("pyRound rounds as Python's round, a half to the even neighbour", () => {
  for (const { value, python } of numbers.round) {
    assert.ok(pyRound(float(value)) === python, `round(${value}): Python ${python}, numbers.js ${pyRound(float(value))}`);
  }
});

test("signed writes a whole number as f\"{k:+d}\"", () => {
  for (const { value, python } of numbers.signed) assert.equal(formatted(value, "+d"), python);
});

test("difference writes a check's difference as stepthrough/words.py does (minus signs, no hyphen)", () => {
  for (const { value, digits, python } of numbers.difference) assert.equal(difference(float(value), digits), python);
});

test("exactSum is math.fsum", () => {
  for (const { values, python } of numbers.fsum) {
    assert.ok(Object.is(exactSum(values.map(float)), float(python)), `fsum of ${values.length} values`);
  }
});

test("norm sums in float64, in order", () => {
  assert.equal(norm(new Float32Array([1, 2, 2])), 3);
  assert.equal(norm([3, 4]), 5);
});

test("an array packed by export/steps.py reads back as numpy reads it", () => {
  for (const { packed, shape, values } of fixture("packed.json").arrays) {
    const array = unpack(packed);
    assert.deepEqual(array.shape, shape);
    assert.equal(array.data.length, values.length);
    assert.ok(array.data instanceof (packed.type === "i4" ? Int32Array : Float32Array));
    values.forEach((/** @type {string} */ value, /** @type {number} */ k) => {
      assert.ok(Object.is(array.data[k], float(value)), `${shape} [${k}]: ${array.data[k]}, numpy ${value}`);
    });
    if (shape.length !== 3) continue;
    const [, rows, columns] = shape, expected = values.map(float);
    const flat = (/** @type {number} */ i, /** @type {number} */ j, /** @type {number} */ k) =>
      expected[(i * rows + j) * columns + k];
    assert.equal(get(array, 1, 2, 3), flat(1, 2, 3));
    assert.deepEqual(row(array, 1, 2), [0, 1, 2, 3].map((k) => flat(1, 2, k)));
    assert.deepEqual(matrix(array, 0), [0, 1, 2].map((j) => [0, 1, 2, 3].map((k) => flat(0, j, k))));
    const second = at(array, 1);
    assert.deepEqual(second.shape, [rows, columns]);
    assert.deepEqual(Array.from(second.data), expected.slice(rows * columns));
  }
});

test("within bounds a check by the reference's size as closeness.py does", () => {
  const { tolerances, cases } = fixture("closeness.json");
  for (const { tolerance, got, expected, python } of cases) {
    assert.equal(within(float(got), float(expected), tolerances[tolerance]), python, `${tolerance}: ${got} vs ${expected}`);
  }
});

test("formatted writes a number as Python's format(value, spec) does, for every spec the fixtures hold", () => {
  for (const { value, spec, python } of fixture("numbers.json").format) {
    assert.equal(formatted(float(value), spec), python, `format(${value}, "${spec}")`);
  }
});
