/// <reference types="node" />
// shortcuts.js's rule without a browser: which presses are a shortcut (Alt and Shift held, nothing else; an arrow or
// N), so that a plain arrow stays the walked matrix's and a text box's. The browser's side (the controls pressed,
// what is said) is tests/test_export_readability.py's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { shortcutOf, SHORTCUTS } from "../src/shortcuts.js";

const press = (/** @type {string} */ key, held = {}) =>
  ({ key, code: "", altKey: true, shiftKey: true, ctrlKey: false, metaKey: false, ...held });

test("Alt+Shift with an arrow or N is a shortcut", () => {
  assert.equal(shortcutOf(press("ArrowLeft")), "back");
  assert.equal(shortcutOf(press("ArrowRight")), "forward");
  assert.equal(shortcutOf(press("ArrowUp")), "shallower");
  assert.equal(shortcutOf(press("ArrowDown")), "deeper");
  assert.equal(shortcutOf(press("N")), "next");
  assert.equal(shortcutOf(press("Ñ", { code: "KeyN" })), "next");  // a layout where Alt+Shift+N types a letter
});

test("a press without both Alt and Shift, or with Control or Meta, or another key, is none", () => {
  assert.equal(shortcutOf(press("ArrowRight", { altKey: false })), null);  // the matrix's own arrow
  assert.equal(shortcutOf(press("ArrowRight", { shiftKey: false })), null);  // a browser's Forward
  assert.equal(shortcutOf(press("ArrowRight", { ctrlKey: true })), null);
  assert.equal(shortcutOf(press("N", { metaKey: true })), null);
  assert.equal(shortcutOf(press("ArrowUp", { altKey: false })), null);
  assert.equal(shortcutOf(press("Enter")), null);
});

test("each shortcut's keys are written as ARIA's aria-keyshortcuts writes them", () => {
  for (const { keys } of Object.values(SHORTCUTS)) assert.match(keys, /^Alt\+Shift\+(ArrowLeft|ArrowRight|ArrowUp|ArrowDown|N)$/);
});
