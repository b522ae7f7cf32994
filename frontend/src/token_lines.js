// A head view's tokens and their lines, read from the drawn figure (figures/attention_views.py head_view: each side's
// tokens a scatter of click targets, customdata [side, index]; its lines a trace per head and tenth of opacity, each
// line three points: the query's side, the key's, a break): for the keyboard's walk (cell_keys.js), a grid of the
// tokens by side, each said with its lines as drawn, in the words the token's marks carry (attention_views.py
// LINES_SAID: how many lines are said at once too); and for a site's head view, the lines a token keeps alone
// (head_view.js). A token is as Plotly reads it (escaped: `&lt;s&gt;`), filled into words as it is and decoded once
// there (hover_words.js), so that `<s>` is not taken for markup.

import { cellWords } from "./hover_words.js";

/** @typedef {import("./cell_keys.js").Walked} Walked */
/** @typedef {HTMLElement & { data: any[], _fullData: any[], layout: any }} Drawn */

/**
 * A drawn line's ends and look, read from the figure (the head view's: a trace per head and tenth of opacity, each
 * line three points: the query's side, the key's, a break).
 * @typedef {{ name: string, weight: number, query: number, key: number }} Line
 */

/**
 * The lines the figure draws (every trace of mode "lines" with points), strongest first, each with the places of its
 * two ends along the sides (`across`: the sides are rows, the places x).
 * @param {any[]} traces  Plotly's full data
 * @param {boolean} across
 * @returns {Line[]}
 */
export function drawnLines(traces, across) {
  /** @type {Line[]} */
  const found = [];
  for (const trace of traces) {
    if (trace.mode !== "lines" || !trace.x || trace.x.length < 2 || trace.visible === "legendonly") continue;
    const places = across ? trace.x : trace.y;
    for (let k = 0; k + 1 < places.length; k += 3) {
      found.push({ name: String(trace.name), weight: Number(trace.opacity ?? 1), query: Number(places[k]),
                   key: Number(places[k + 1]) });
    }
  }
  return found.sort((a, b) => b.weight - a.weight);  // stable: a head's order kept among equals
}

/**
 * A token's line in the words its marks name (figures/attention_views.py LINES_SAID): "head 2 to key 3 sat: 0.6".
 * @param {Record<string, string>} say
 * @param {Line} line
 * @param {"q" | "k"} side  the token's
 * @param {(index: number) => string} other  a token of the other side
 */
export function lineWords(say, line, side, other) {
  const index = side === "q" ? line.key : line.query;
  return cellWords(say.line, { name: line.name, index, token: other(index), weight: line.weight });
}

/**
 * How many lines, in words ("1 line drawn", "3 lines drawn").
 * @param {Record<string, string>} say
 * @param {number} count
 */
export function countWords(say, count) {
  return count === 1 ? say.one : cellWords(say.count, { count });
}

/**
 * A token's lines in words: how many, then the strongest `most` and how many more.
 * @param {Record<string, string>} say
 * @param {Line[]} lines  the token's, strongest first
 * @param {"q" | "k"} side  the token's
 * @param {(index: number) => string} other  a token of the other side
 * @param {number} most
 */
function linesWords(say, lines, side, other, most) {
  if (!lines.length) return say.none;
  const each = lines.slice(0, most).map((line) => lineWords(say, line, side, other));
  const more = lines.length > most ? [cellWords(say.more, { count: lines.length - most })] : [];
  return [countWords(say, lines.length), ...each, ...more].join("; ");
}

/**
 * A head view's two sides of tokens (each a scatter of click targets, customdata [side, index], side "q" or "k"):
 * their traces' places in the figure's data, the traces, and whether they are rows (`across`: the tokens along x);
 * or null where the figure has none.
 * @param {any[]} traces  Plotly's full data
 * @returns {{ at: number[], queries: any, keys: any, across: boolean } | null}
 */
export function sidesOf(traces) {
  const side = (/** @type {any} */ trace) => trace.type === "scatter" && Array.isArray(trace.customdata) &&
    Array.isArray(trace.customdata[0]) && ["q", "k"].includes(trace.customdata[0][0]);
  const at = traces.map((trace, k) => (side(trace) ? k : -1)).filter((k) => k >= 0);
  if (at.length !== 2) return null;
  const [queries, keys] = at.map((k) => traces[k]);
  return { at, queries, keys, across: Number(queries.y[0]) !== Number(keys.y[0]) };
}

/**
 * The figure's tokens where it joins two sides of tokens by lines (the head view: each side a scatter of click
 * targets, customdata [side, index], side "q" or "k"; across, the queries a row above the keys'): a grid of the
 * tokens, a side a column (across, a row), each token said in its hover's words and with its lines as drawn, the
 * strongest first; or null.
 * @param {Drawn} figure
 * @returns {Walked | null}
 */
export function tokenSides(figure) {
  const found = sidesOf(figure._fullData);
  if (!found) return null;
  const { at, queries, keys, across } = found;
  const n = queries.customdata.length;
  const lines = drawnLines(figure._fullData, across);
  const token = (/** @type {number} */ s, /** @type {number} */ i) => String((s ? keys : queries).text[i]);  // escaped
  /** @type {(s: number, i: number) => Line[]} */
  const own = (s, i) => lines.filter((line) => (s ? line.key : line.query) === i);
  const sideOf = (/** @type {number} */ r, /** @type {number} */ c) => (across ? r : c);
  const indexOf = (/** @type {number} */ r, /** @type {number} */ c) => (across ? c : r);
  const marks = (/** @type {number} */ s) => (s ? keys : queries);
  const said = at.map((k) => (figure.data[k] && figure.data[k].meta) || {});  // each side's words
  const words = (/** @type {number} */ r, /** @type {number} */ c, /** @type {number} */ most) => {
    const s = sideOf(r, c), i = indexOf(r, c), trace = marks(s);
    const say = said[s];
    const hover = cellWords(String(trace.hovertemplate), { text: trace.text[i], customdata: trace.customdata[i] });
    return say.line ? `${hover}: ${linesWords(say, own(s, i), s ? "k" : "q", (j) => token(1 - s, j), most)}` : hover;
  };
  const names = Array.from({ length: n }, (_, i) => cellWords("%{index} %{token}", { index: i, token: token(0, i) }));
  const sideNames = said.map((say) => String(say.side || ""));
  return { rows: across ? 2 : n, columns: across ? n : 2, x: across ? names : sideNames, y: across ? sideNames : names,
           words: (r, c) => words(r, c, Infinity), said: (r, c) => words(r, c, Number(said[sideOf(r, c)].most) || 0),
           place: (r, c) => [[{ curveNumber: at[sideOf(r, c)], pointNumber: indexOf(r, c) }],
                             `${queries.xaxis || "x"}${queries.yaxis || "y"}`],
           target: (r, c) => marks(sideOf(r, c)).customdata[indexOf(r, c)] };
}

