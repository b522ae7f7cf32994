/// <reference types="node" />
// cell_keys.js's rules without a browser: where each key moves the focused cell (clamped at the matrix's edges),
// a cell in words from the figure's own hover template, and the window of rows the grid holds around the focus.
// The browser's side (Tab, Enter, Escape, the accessibility tree) is tests/test_keyboard.py's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { moved, cellWords, windowStart, PAGE_ROWS, WINDOW } from "../src/cell_keys.js";

test("each key moves the focused cell, and stops at the matrix's edges", () => {
  assert.deepEqual(moved("ArrowDown", 0, 0, 5, 7), [1, 0]);
  assert.deepEqual(moved("ArrowRight", 0, 0, 5, 7), [0, 1]);
  assert.deepEqual(moved("ArrowUp", 0, 3, 5, 7), [0, 3]);
  assert.deepEqual(moved("ArrowLeft", 2, 0, 5, 7), [2, 0]);
  assert.deepEqual(moved("End", 2, 1, 5, 7), [2, 6]);
  assert.deepEqual(moved("Home", 2, 5, 5, 7), [2, 0]);
  assert.deepEqual(moved("PageDown", 0, 2, 40, 40), [PAGE_ROWS, 2]);
  assert.deepEqual(moved("PageDown", 38, 2, 40, 40), [39, 2]);
  assert.deepEqual(moved("PageUp", 3, 2, 40, 40), [0, 2]);
  assert.equal(moved("Enter", 0, 0, 5, 7), null);
  assert.equal(moved("a", 0, 0, 5, 7), null);
});

test("a cell is said in the figure's hover template's words", () => {
  const template = "query %{y}<br>key %{x}<br>%{z:.4f}<extra></extra>";
  assert.equal(cellWords(template, { x: "3 sat", y: "2 cat", z: 0.034754 }), "query 2 cat, key 3 sat, 0.0348");
  assert.equal(cellWords(template, { x: "3 sat", y: "2 cat", z: -1.5 }), "query 2 cat, key 3 sat, −1.5000");
  assert.equal(cellWords(template, { x: "3 sat", y: "2 cat", z: NaN }), "query 2 cat, key 3 sat, masked");
  assert.equal(cellWords("layer %{y}, head %{x}<br>%{z:.4f}<extra></extra>", { x: "2", y: "0", z: 1 }),
               "layer 0, head 2, 1.0000");
  assert.equal(cellWords("<b>%{y}</b> %{x}: %{z}", { x: "a", y: "b", z: 0.5 }), "b a: 0.5");
  assert.equal(cellWords("%{y}, %{x}: %{text}<extra></extra>", { x: "#1", y: "layer 2", z: 0.8, text: "the 0.84" }),
               "layer 2, #1: the 0.84");
  assert.equal(cellWords("%{customdata[0]}<br>%{customdata[1]}<br>cosine %{z:.6f}",
                         { x: "1", y: "2", z: 0.25, customdata: ["1. the cat", "2. a kitten"] }),
               "1. the cat, 2. a kitten, cosine 0.250000");
});

test("the grid holds a window of rows around the focused one, within the matrix", () => {
  assert.equal(windowStart(0, 500), 0);
  assert.equal(windowStart(250, 500), 250 - WINDOW / 2);
  assert.equal(windowStart(499, 500), 500 - WINDOW);
  assert.equal(windowStart(3, 5), 0);  // a matrix smaller than the window: all of it
});
