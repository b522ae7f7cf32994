// A head view's heads by keyboard, and a token's lines alone, on a site (issue 56). Plotly's legend takes no keys
// (plotly.js #562), so each of its heads is also a button beside the figure that hides and shows it, as the app's
// pills do. A click on a token, or Enter on it walked by the keyboard
// (cell_keys.js), keeps the lines that start at it (a query) or end at it (a key), as the app's click does, and says
// them beside the figure; the button under them, or Escape, shows every line again. The app draws that view again
// in Python; a site holds one figure per layer, so the lines kept here are the figure's own, as drawn: past 64 tokens,
// where each query keeps its six strongest lines a head (attention_lines.py), a key's lines are those that survived
// (the app, asked for a key's lines, draws every query's line to it). The words are Python's (figures/
// attention_views.py LINES_SAID, carried by the token's marks).

import { walkable } from "./cell_keys.js";
import { cellWords } from "./hover_words.js";
import { countWords, drawnLines, lineWords, sidesOf } from "./token_lines.js";
import { element, worded } from "./page.js";

/** @typedef {["q" | "k", number]} Token  a side ("q": the queries', "k": the keys') and the token's index */
/** @typedef {HTMLElement & { data: any[], _fullData: any[], _fullLayout?: any }} Drawn */

/**
 * The token a link's `focus` names ("q3": query 3, "k5": key 5), or null where it names none of `count` tokens.
 * @param {string | null} text
 * @param {number} count
 * @returns {Token | null}
 */
export function focusOf(text, count) {
  const found = /^([qk])(\d{1,4})$/.exec(text || "");
  return found && Number(found[2]) < count ? [/** @type {"q" | "k"} */ (found[1]), Number(found[2])] : null;
}

/**
 * Hide every line of the drawn head view but the token's, then walk the figure again (its words say the lines
 * drawn).
 * @param {HTMLElement} figure
 * @param {Token} token
 * @param {import("./cell_keys.js").Walk} walk
 */
export async function keepLines(figure, token, walk) {
  const traces = /** @type {Drawn} */ (figure)._fullData, found = sidesOf(traces);
  if (!found) return;
  const [side, index] = token, end = side === "q" ? 0 : 1;  // a line's points: the query's side, the key's, a break
  /** @type {number[]} */
  const kept = [];
  /** @type {number[][]} */
  const xs = [];
  /** @type {number[][]} */
  const ys = [];
  traces.forEach((trace, k) => {
    if (trace.mode !== "lines" || !trace.x || trace.x.length < 2) return;
    const places = found.across ? trace.x : trace.y;
    /** @type {number[]} */
    const x = [], y = [];
    for (let p = 0; p + 1 < places.length; p += 3) {
      if (Number(places[p + end]) !== index) continue;
      x.push(trace.x[p], trace.x[p + 1], NaN);
      y.push(trace.y[p], trace.y[p + 1], NaN);
    }
    kept.push(k); xs.push(x); ys.push(y);
  });
  await Plotly.restyle(figure, { x: xs, y: ys }, kept);
  walkable(figure, walk);
}

/**
 * The token's lines in words, as the figure now draws them, and a button that shows every line again.
 * @param {HTMLElement} figure
 * @param {Token} token
 * @param {() => void} every
 */
export function linesPanel(figure, token, every) {
  const drawn = /** @type {Drawn} */ (figure), found = sidesOf(drawn._fullData);
  if (!found) return element("div");
  const [side, index] = token, s = side === "q" ? 0 : 1;
  const say = drawn.data[found.at[s]].meta;
  if (!say || !say.line) return element("div");
  const name = (/** @type {any} */ marks, /** @type {number} */ i) => String(marks.text[i]);  // as Plotly reads it:
  // escaped, decoded once in the words (hover_words.js)
  const words = { index, token: name(s ? found.keys : found.queries, index) };
  const lines = drawnLines(drawn._fullData, found.across).filter((line) => (s ? line.key : line.query) === index);
  const other = (/** @type {number} */ j) => name(s ? found.queries : found.keys, j);
  const button = element("button", cellWords(say.every, words), { type: "button", class: "every-line" });
  button.addEventListener("click", every);
  const list = element("ul", undefined, { class: "lines-list" });
  list.append(...lines.map((line) => element("li", lineWords(say, line, side, other))));
  const panel = element("div", undefined, { class: "lines-panel" });
  panel.append(element("h3", cellWords(say.alone, words)), button,  // the way back first: a phone's list is long
               element("p", lines.length ? countWords(say, lines.length) : say.none), list,
               element("p", worded("lines_as_drawn"), { class: "note" }));
  return panel;
}

/**
 * The legend's heads as buttons (pressed: shown), a group named as the legend is; a press hides or shows the head's
 * lines as a click on its legend entry does, and the walk then reads the lines drawn. Kept in step with the legend.
 * @param {HTMLElement} figure
 * @param {import("./cell_keys.js").Walk} walk
 * @param {() => void} changed  after a head is hidden or shown (a token's lines listed again)
 */
export function headButtons(figure, walk, changed) {
  const drawn = /** @type {Drawn & { on: (event: string, listener: () => void) => void }} */ (figure);
  const groups = drawn._fullData.filter((trace) => trace.showlegend !== false && trace.legendgroup)
    .map((trace) => /** @type {string} */ (trace.legendgroup));
  const legend = drawn._fullLayout && drawn._fullLayout.legend;
  const row = element("div", undefined, { class: "stages head-buttons", role: "group",
                                          "aria-label": (legend && legend.title && legend.title.text) || "" });
  const members = (/** @type {string} */ group) => drawn._fullData.map((trace, k) => (trace.legendgroup === group ? k : -1))
    .filter((k) => k >= 0);
  const shown = (/** @type {string} */ group) => drawn._fullData.some((trace) => trace.legendgroup === group &&
                                                                     trace.visible === true);
  const buttons = groups.map((group) => {
    const button = element("button", group, { type: "button" });
    button.addEventListener("click", () => {
      Plotly.restyle(figure, { visible: shown(group) ? "legendonly" : true }, members(group));
    });
    return button;
  });
  const mark = () => {
    buttons.forEach((button, k) => button.setAttribute("aria-pressed", String(shown(groups[k]))));
    walkable(figure, { ...walk, focus: figure === document.activeElement });  // its words: the lines drawn now
    changed();
  };
  drawn.on("plotly_restyle", mark);  // a press here, or a click on the legend
  buttons.forEach((button, k) => button.setAttribute("aria-pressed", String(shown(groups[k]))));
  row.append(...buttons);
  return row;
}
