// The words a figure's template fills its leaves with (bertviz_lite/ops/figure_words.py, which says each, word for
// word): lists cut, joined and picked, and text laid out as the app's figures/fit.py lays it out (a label cut with
// "…", a title wrapped). A text is as Plotly reads it (`&`, `<`, `>` escaped); its length is counted as drawn, in
// characters (code points, as Python counts them).
import { fixed, pyRound } from "./numbers.js";
import { isArray, vector, numbersOf, listOf } from "./values.js";

/** @typedef {import("./values.js").Value} Value */
/** @typedef {import("./values.js").Unpacked} Unpacked */

/** @param {unknown} text */
export const escaped = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** @param {unknown} text */
export const unescaped = (text) => String(text).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** @param {string} text */
const chars = (text) => Array.from(text);

/**
 * figure_words.py cut: a label of more than `longest` characters (as drawn) cut with "…".
 * @param {string} label
 * @param {number} longest
 */
function cut(label, longest) {
  const shown = chars(unescaped(label));
  return shown.length <= longest ? label : `${escaped(shown.slice(0, longest - 1).join(""))}…`;
}

/**
 * figure_words.py wrapped: lines of at most `width` characters, broken between words; a list of texts each so.
 * @param {unknown} text
 * @param {number} width
 * @returns {string[]}
 */
function wrapped(text, width) {
  if (Array.isArray(text)) return text.flatMap((part) => wrapped(part, width));
  /** @type {string[]} */
  const lines = [];
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && chars(lines[last]).length + 1 + chars(word).length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [""];
}

const NUMBER = /^[−-]?\d*\.?\d+$/u;  // figure_words.py NUMBER: a number written as a text

/**
 * figure_words.py thousandths: ".037", "−.004".
 * @param {number} value
 */
const thousandths = (value) => fixed(value, 3).replace(/^(-?)0\./, "$1.").replace("-", "−");

/**
 * figure_words.py each_number: `word` on a number, or on each of an array's (nested lists out, in its shape).
 * @param {(x: number) => string} word
 * @returns {(c: unknown, values: Value) => Value}
 */
const eachNumber = (word) => (c, values) => {
  if (typeof values === "number") return word(values);
  const array = /** @type {Unpacked} */ (values), last = array.shape[array.shape.length - 1] ?? 0;
  const texts = Array.from(array.data, word);
  if (array.shape.length < 2) return texts;
  return Array.from({ length: texts.length / last }, (_, r) => texts.slice(r * last, (r + 1) * last));
};

/**
 * figure_words.py one_line: a text's lines joined by spaces, or each of a (nested) list's.
 * @param {unknown} texts
 * @returns {any}
 */
const oneLine = (texts) => (Array.isArray(texts) ? texts.map(oneLine) : String(texts).replaceAll("<br>", " "));

/**
 * numpy's interp at one point (its compiled loop: the segment's slope times the distance from its start).
 * @param {number} x
 * @param {number[]} xs increasing
 * @param {number[]} ys
 */
function interp(x, xs, ys) {
  const last = xs.length - 1;
  if (x < xs[0]) return ys[0];
  if (x >= xs[last]) return ys[last];
  let j = 0;
  while (j + 1 < last && xs[j + 1] <= x) j++;
  if (xs[j] === x) return ys[j];
  const slope = (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j]);
  return slope * (x - xs[j]) + ys[j];
}

/**
 * A list's or an array's items from `start` to `stop` (Python's slice).
 * @param {Value} v
 * @param {number} start
 * @param {number} stop
 */
const sliced = (v, start, stop) => (isArray(v) ? vector(v.data.subarray(start, Math.max(start, stop)))
  : /** @type {unknown[]} */ (v).slice(start, stop));

/**
 * Items one after another: all numbers, an array; else a list.
 * @param {unknown[]} items
 * @returns {Value}
 */
export const asValue = (items) => (items.every((x) => typeof x === "number") ? vector(/** @type {number[]} */ (items))
  : items);

/** @param {Value} part */
const itemsOf = (part) => (isArray(part) ? Array.from(part.data) : Array.isArray(part) ? part : [part]);

/**
 * figure_words.py pooled: a matrix averaged over blocks of `step` × `step` cells, NaN left out (a block all NaN
 * stays NaN), in float32 (each block's mean in float64, then rounded: numpy's float32 mean of at most a few numbers
 * can differ in its last bit).
 * @param {Unpacked} matrix
 * @param {number} step
 * @returns {Unpacked}
 */
function pooled(matrix, step) {
  const [rows, cols] = matrix.shape, out = [Math.ceil(rows / step), Math.ceil(cols / step)];
  const data = new Float64Array(out[0] * out[1]);
  for (let i = 0; i < out[0]; i++) {
    for (let j = 0; j < out[1]; j++) {
      let sum = 0, count = 0;
      for (let r = i * step; r < Math.min(rows, (i + 1) * step); r++) {
        for (let c = j * step; c < Math.min(cols, (j + 1) * step); c++) {
          const v = matrix.data[r * cols + c];
          if (!Number.isNaN(v)) { sum += v; count += 1; }
        }
      }
      data[i * out[1] + j] = count ? Math.fround(sum / count) : NaN;
    }
  }
  return { shape: out, data };
}

/**
 * figure_words.py each_text: `word` on a text, or on each of a list's texts.
 * @param {(text: string, ...args: any[]) => Value} word
 * @returns {(c: unknown, texts: unknown, ...args: any[]) => Value}
 */
const eachText = (word) => (c, texts, ...args) => (Array.isArray(texts) ? texts.map((t) => word(String(t), ...args))
  : word(String(texts), ...args));

/**
 * figure_words.py lines: each text's lines, one list.
 * @param {Value} texts
 */
const linesOf = (texts) => listOf(texts).flatMap((t) => String(t).split("<br>"));

/** @type {Record<string, (c: unknown, ...args: any[]) => Value>} */
export const FIGURE_WORDS = {
  round: (c, x) => pyRound(x),
  range: (c, n) => vector(Array.from({ length: n }, (_, k) => k)),
  repeat: (c, value, n) => Array(n).fill(value), pick: (c, k, ...options) => options[Number(k)],
  zip: (c, a, b) => { const second = listOf(b); return listOf(a).map((x, k) => [x, second[k]]); },
  part: (c, flat, counts, k) => {
    const runs = numbersOf(counts), start = runs.slice(0, k).reduce((s, n) => s + n, 0);
    return { shape: [runs[k]], data: /** @type {Unpacked} */ (flat).data.subarray(start, start + runs[k]) };
  },
  cat: (c, ...parts) => asValue(parts.flatMap(itemsOf)),
  slice: (c, v, start, stop) => sliced(v, start, stop),
  taken: (c, v, indices) => {
    const at = numbersOf(indices);
    return isArray(v) ? vector(at.map((i) => v.data[i])) : at.map((i) => /** @type {unknown[]} */ (v)[i]);
  },
  which: (c, mask) => vector(numbersOf(mask).flatMap((x, k) => (x ? [k] : []))),
  cells: (c, items) => (isArray(items) ? vector(items.data) : /** @type {unknown[][]} */ (items).flat()),
  rows_of: (c, items, width) => {
    const all = listOf(items);
    return Array.from({ length: Math.ceil(all.length / width) }, (_, r) => all.slice(r * width, (r + 1) * width));
  },
  line_counts: (c, texts) => vector(listOf(texts).map((t) => String(t).split("<br>").length)),
  one_line: (c, texts) => oneLine(texts),
  numeric: (c, texts) => vector(listOf(texts).map((t) => Number(NUMBER.test(String(t))))),
  thousandths: eachNumber(thousandths),
  index: (c, values, items) => { const all = listOf(values); return vector(listOf(items).map((v) => all.indexOf(v))); },
  has: (c, texts, part) => (typeof texts === "string" ? Number(texts.includes(part))
    : vector(listOf(texts).map((t) => Number(String(t).includes(part))))),
  chars: (c, texts) => (Array.isArray(texts) ? vector(texts.map((t) => chars(unescaped(t)).length))
    : chars(unescaped(texts)).length),
  escaped: eachText(escaped), unescaped: eachText(unescaped), cut: eachText(cut),
  lines: (c, texts) => linesOf(texts),
  wrapped: (c, text, width) => wrapped(text, width),
  merged: (c, part, more) => ({ ...part, ...more }),
  unique: (c, items) => [...new Set(listOf(items))],
  interp: (c, x, xs, ys) => interp(x, numbersOf(xs), numbersOf(ys)),
  pooled: (c, matrix, step) => pooled(/** @type {Unpacked} */ (matrix), step),
};
