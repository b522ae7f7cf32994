/// <reference types="node" />
// page.js said fills the package's templates as Python's str.format fills them: every template of the tour's words
// (tests/frontend_fixtures.py templates_fixture), with numbers in fields that have a format spec and words elsewhere.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { said } from "../src/page.js";

test("said fills every template of the tour's words as Python does", () => {
  const folder = process.env.BVL_FIXTURES;
  if (!folder) throw new Error("BVL_FIXTURES is not set: run tests/test_frontend.py, or see numbers.test.js.");
  /** @type {{ cases: { template: string, values: Record<string, string>, numbers: string[], python: string }[] }} */
  const { cases } = JSON.parse(readFileSync(join(folder, "templates.json"), "utf8"));
  assert.ok(cases.length > 60);
  for (const { template, values, numbers, python } of cases) {
    /** @type {Record<string, unknown>} */
    const given = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, numbers.includes(k) ? Number(v) : v]));
    assert.equal(said(template, given), python, template);
  }
});

test("a field with no value is an error, as in Python", () => {
  assert.throws(() => said("{me} has {n} numbers.", { me: "'fox'" }), /names \{n\}/);
});
