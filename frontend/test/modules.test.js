/// <reference types="node" />
// The modules' shape: each exports only what another module (or main.js, the entry) imports from it, and imports
// only what its source exports. (tests/test_package_shape.py holds them to no import circle and 400 lines each.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../src", import.meta.url));
const files = readdirSync(SRC).filter((name) => name.endsWith(".js"));

/**
 * The names a module's source exports.
 * @param {string} text
 * @returns {Set<string>}
 */
function exportsOf(text) {
  const found = new Set();
  for (const [, name] of text.matchAll(/^export (?:async )?(?:function|class|const|let) (\w+)/gm)) found.add(name);
  for (const [, list] of text.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const item of list.split(",").filter((text) => text.trim())) {  // `export {}`: a module of types exports none
      found.add(item.trim().split(/\s+as\s+/).pop() || "");
    }
  }
  return found;
}

/**
 * What a module's source imports from the other modules: [file, name] pairs.
 * @param {string} text
 * @returns {[string, string][]}
 */
function importsOf(text) {
  /** @type {[string, string][]} */
  const found = [];
  for (const [, list, file] of text.matchAll(/^import \{([^}]*)\}\s*from "\.\/([\w.]+)"/gm)) {
    for (const item of list.split(",").map((i) => i.trim()).filter(Boolean)) found.push([file, item.split(/\s+as\s+/)[0]]);
  }
  return found;
}

const sources = Object.fromEntries(files.map((name) => [name, readFileSync(join(SRC, name), "utf8")]));

test("every module imports only names its source exports", () => {
  for (const [name, text] of Object.entries(sources)) {
    for (const [file, imported] of importsOf(text)) {
      assert.ok(file in sources, `${name} imports from ${file}, which is not a module of src/`);
      assert.ok(exportsOf(sources[file]).has(imported), `${name} imports ${imported}, which ${file} does not export`);
    }
  }
});

test("every export is imported by another module or by main.js", () => {
  const used = new Set(Object.values(sources).flatMap((text) => importsOf(text).map(([file, n]) => `${file}:${n}`)));
  const unused = Object.entries(sources).flatMap(([name, text]) => [...exportsOf(text)]
    .filter((exported) => !used.has(`${name}:${exported}`)).map((exported) => `${name}: ${exported}`));
  assert.deepEqual(unused, []);
  assert.ok(used.size > 50);
});
