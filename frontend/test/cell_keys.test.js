/// <reference types="node" />
// cell_keys.js's rules without a browser: where each key moves the focused cell (clamped at the matrix's edges),
// a cell in words from the figure's own hover template, the window of rows the grid holds around the focus, and a
// head view's lines read from its traces and said in the words its marks carry.
// The browser's side (Tab, Enter, Escape, the accessibility tree) is tests/test_keyboard.py's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { moved, windowStart, PAGE_ROWS, WINDOW } from "../src/cell_keys.js";
import { cellWords } from "../src/hover_words.js";
import { drawnLines, lineWords, sidesOf, tokenSides } from "../src/token_lines.js";
import { focusOf } from "../src/head_view.js";

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

test("a token is said as Plotly draws it: its markup's escapes undone", () => {
  assert.equal(cellWords("query %{customdata[1]} %{text}<br>click", { text: "&lt;s&gt; &amp;", customdata: ["q", 0] }),
               "query 0 <s> &, click");
});

test("a head view's lines are read from its traces, strongest first, with the ends along its sides", () => {
  const upright = [  // a legend entry, two heads' tenths (x: the sides, y: the tokens), the two sides' marks
    { mode: "lines", x: [null], y: [null], name: "head 0" },
    { mode: "lines", x: [0, 1, NaN, 0, 1, NaN], y: [0, 2, NaN, 1, 1, NaN], opacity: 0.3, name: "head 0" },
    { mode: "lines", x: [0, 1, NaN], y: [2, 0, NaN], opacity: 0.9, name: "head 1" },
    { mode: "lines", x: [0, 1, NaN], y: [1, 0, NaN], opacity: 0.9, name: "head 5", visible: "legendonly" },
    { type: "scatter", mode: "markers+text", x: [0, 0, 0], y: [0, 1, 2], customdata: [["q", 0], ["q", 1], ["q", 2]] },
    { type: "scatter", mode: "markers+text", x: [1, 1, 1], y: [0, 1, 2], customdata: [["k", 0], ["k", 1], ["k", 2]] },
  ];
  assert.deepEqual(drawnLines(upright, false), [
    { name: "head 1", weight: 0.9, query: 2, key: 0 }, { name: "head 0", weight: 0.3, query: 0, key: 2 },
    { name: "head 0", weight: 0.3, query: 1, key: 1 }]);  // a head hidden in the legend: not drawn
  const found = sidesOf(upright);
  assert.deepEqual(found && [found.at, found.across], [[4, 5], false]);
  const across = upright.map((t) => ({ ...t, x: t.y, y: t.x }));  // queries a row above the keys'
  assert.deepEqual(drawnLines(across, true), drawnLines(upright, false));
  assert.equal(sidesOf(across)?.across, true);
  assert.equal(sidesOf(upright.slice(0, 5)), null);  // one side alone: not a head view
  const say = { line: "%{name} to key %{index} %{token}: %{weight:.1f}" };
  assert.equal(lineWords(say, { name: "head 1", weight: 0.9, query: 2, key: 0 }, "q", (j) => ["[CLS]", "a"][j]),
               "head 1 to key 0 [CLS]: 0.9");
});

test("a link's focus names a token of the view, or none", () => {
  assert.deepEqual(focusOf("q3", 12), ["q", 3]);
  assert.deepEqual(focusOf("k11", 12), ["k", 11]);
  assert.equal(focusOf("k12", 12), null);
  assert.equal(focusOf("x1", 12), null);
  assert.equal(focusOf("q-1", 12), null);
  assert.equal(focusOf(null, 12), null);
});

test("a head view's tokens are a grid of tokens by side, upright or across, each said with its lines", () => {
  const say = (/** @type {string} */ side, /** @type {string} */ to) => ({ side, most: 1,
    line: `%{name} ${to} %{index} %{token}: %{weight:.1f}`, count: "%{count} lines drawn", one: "1 line drawn",
    none: "no line drawn",
    more: "and %{count} more" });
  const marks = (/** @type {string} */ side, /** @type {number} */ at) => ({ type: "scatter", text: ["&lt;s&gt;", "a"],
    x: [at, at], y: [0, 1], customdata: [[side, 0], [side, 1]],
    hovertemplate: `${side === "q" ? "query" : "key"} %{customdata[1]} %{text}<extra></extra>` });
  const upright = [
    { mode: "lines", x: [0, 1, NaN, 0, 1, NaN], y: [0, 1, NaN, 1, 1, NaN], opacity: 0.5, name: "head 0" },
    { mode: "lines", x: [0, 1, NaN], y: [1, 0, NaN], opacity: 0.9, name: "head 1" }, marks("q", 0), marks("k", 1)];
  const figure = (/** @type {any[]} */ traces) => /** @type {any} */ ({
    _fullData: traces, data: traces.map((t, k) => (k === traces.length - 2 ? { meta: say("query", "to key") }
      : k === traces.length - 1 ? { meta: say("key", "from query") } : {})) });
  const walked = tokenSides(figure(upright));
  assert.ok(walked);
  assert.deepEqual([walked.rows, walked.columns, walked.x, walked.y], [2, 2, ["query", "key"], ["0 <s>", "1 a"]]);
  assert.equal(walked.words(1, 0), "query 1 a: 2 lines drawn; head 1 to key 0 <s>: 0.9; head 0 to key 1 a: 0.5");
  assert.equal(walked.said && walked.said(1, 0), "query 1 a: 2 lines drawn; head 1 to key 0 <s>: 0.9; and 1 more");
  assert.equal(walked.words(0, 1), "key 0 <s>: 1 line drawn; head 1 from query 1 a: 0.9");
  assert.deepEqual(walked.target && walked.target(0, 1), ["k", 0]);
  const across = tokenSides(figure(upright.map((t) => ({ ...t, x: t.y, y: t.x }))));  // queries a row above keys'
  assert.ok(across);
  assert.deepEqual([across.rows, across.columns, across.y], [2, 2, ["query", "key"]]);
  assert.equal(across.words(0, 1), walked.words(1, 0));  // the queries' row, token 1
  assert.deepEqual(across.target && across.target(1, 0), ["k", 0]);
});
