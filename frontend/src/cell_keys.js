// A heatmap that a keyboard walks and a screen reader reads (issue 56: WCAG 2.1.1 Keyboard, 1.3.1 Info and
// Relationships, 4.1.2 Name, Role, Value). Plotly's figures take no keys (plotly.js #562), so the figure's own box
// becomes an ARIA grid: Tab stops on it, the arrow keys move a focused cell (Home and End: the row's first and last;
// Page Up and Page Down: ten rows), Enter picks it as a click does, Escape leaves what a pick opened. The focused cell
// is shown by Plotly's own hover label (Plotly.Fx.hover) and said in words made from the figure's hover template,
// which Python wrote (one source: what the mouse reads, the ear hears). The grid's rows in the accessibility tree
// are a window around the focused cell, so a 512-token matrix is not 262,144 nodes; aria-rowcount and aria-colcount
// give the whole. Matrices side by side are one grid, walked across them; the model view's thumbnails are a grid of
// layers by heads; a head view's tokens, a grid of tokens by side (token_lines.js).

import { announce } from "./announce.js";
import { nameFigure } from "./figure_name.js";
import { cellWords } from "./hover_words.js";
import { tokenSides } from "./token_lines.js";

export const PAGE_ROWS = 10;  // Page Up and Page Down move this many rows
export const WINDOW = 12;  // rows and columns of the grid held in the accessibility tree, around the focused cell

/**
 * The cell a key moves to from (row, column) in a matrix of `rows` × `columns`, or null where the key is not one
 * of the grid's.
 * @param {string} key  KeyboardEvent.key
 * @param {number} row
 * @param {number} column
 * @param {number} rows
 * @param {number} columns
 * @returns {[number, number] | null}
 */
export function moved(key, row, column, rows, columns) {
  const within = (/** @type {number} */ r, /** @type {number} */ c) =>
    /** @type {[number, number]} */ ([Math.max(0, Math.min(rows - 1, r)), Math.max(0, Math.min(columns - 1, c))]);
  switch (key) {
    case "ArrowUp": return within(row - 1, column);
    case "ArrowDown": return within(row + 1, column);
    case "ArrowLeft": return within(row, column - 1);
    case "ArrowRight": return within(row, column + 1);
    case "Home": return within(row, 0);
    case "End": return within(row, columns - 1);
    case "PageUp": return within(row - PAGE_ROWS, column);
    case "PageDown": return within(row + PAGE_ROWS, column);
    default: return null;
  }
}

/**
 * The first of `count` indices held in the grid's window so that `at` lies in it.
 * @param {number} at
 * @param {number} count
 * @returns {number}
 */
export function windowStart(at, count) {
  return Math.max(0, Math.min(at - Math.floor(WINDOW / 2), count - WINDOW));
}

/**
 * What a walkable figure does with a cell: `pick` (Enter, as a click, given the cell's click target where it has
 * one: a head view's token's [side, index]; a figure whose cells open nothing has none),
 * `close` (Escape: the explanation a pick opened), the cell to start on (the chosen one), and whether to take the
 * focus now (after Enter redrew the page); `said`: the id of the page's element that says the figure's point,
 * where the page says it (else the figure's own point describes it: figure_name.js).
 * @typedef {{ pick?: (row: number, column: number, target?: unknown) => void, close?: () => void,
 *             start?: [number, number] | null, focus?: boolean, said?: string }} Walk
 */

/** @typedef {HTMLElement & { data: any[], _fullData: any[], layout: any }} Drawn */

/** @type {WeakMap<HTMLElement, () => void>} */
const unwalk = new WeakMap();  // a figure drawn again in the same box: its last walk undone first

/**
 * What a walk reads of a figure: its rows and columns, their headers, a cell's words and where Plotly's hover label
 * goes for it.
 * @typedef {{ rows: number, columns: number, x: ArrayLike<string | number>, y: ArrayLike<string | number>,
 *             words: (r: number, c: number) => string, said?: (r: number, c: number) => string,
 *             place: (r: number, c: number) => [unknown, string], target?: (r: number, c: number) => unknown }} Walked
 * `place`: where Plotly's hover label goes for a cell (Plotly.Fx.hover's arguments: a place on the axes, or a
 * trace's point, and the subplot); `said`: what is said aloud of a cell, where it is shorter than its words in the
 * grid; `target`: what a pick hands on (a click target's customdata).
 */

/**
 * The figure's heatmaps whose hover names a cell's value (its z, or its text: the lens's piece and number), with
 * their values decoded, as one grid: a figure of matrices side by side (figures/charts.py matrices_side_by_side:
 * the same tokens down each) is walked across them, its panels' columns one after another, and each cell's words
 * name its panel (its hover's do). Null where it has none.
 * @param {Drawn} figure
 * @returns {Walked | null}
 */
function heatmaps(figure) {
  const valued = (/** @type {any} */ trace) => trace.type === "heatmap" && /%\{(z|text)\b/.test(trace.hovertemplate || "");
  const maps = figure.data.map((trace, k) => (valued(trace) ? matrix(figure._fullData[k]) : null))
    .filter((map) => map !== null && map.rows > 0 && map.columns > 0);
  return maps.length ? sideBySide(/** @type {Walked[]} */ (maps)) : null;
}

/**
 * A heatmap's cells.
 * @param {any} full  the trace as Plotly decoded it (the typed arrays a template holds)
 * @returns {Walked}
 */
function matrix(full) {
  /** @type {(grid: unknown, r: number, c: number) => unknown} */
  const at = (grid, r, c) => (Array.isArray(grid) && Array.isArray(grid[r]) ? grid[r][c] : undefined);
  const rows = full.z.length;
  /** @type {(values: ArrayLike<unknown>, k: number) => unknown} a category axis's place is its index */
  const placed = (values, k) => (typeof values[k] === "number" ? values[k] : k);
  const subplot = `${full.xaxis || "x"}${full.yaxis || "y"}`;
  return { rows, columns: rows ? full.z[0].length : 0, x: full.x, y: full.y,
           words: (r, c) => cellWords(String(full.hovertemplate), {
             x: full.x[c], y: full.y[r], z: full.z[r][c], text: at(full.text, r, c),
             customdata: at(full.customdata, r, c) }),
           place: (r, c) => [{ xval: placed(full.x, c), yval: placed(full.y, r) }, subplot] };
}

/**
 * Grids side by side as one: the first's rows, the columns of each in turn (a row past a shorter grid's last is
 * its last).
 * @param {Walked[]} maps
 * @returns {Walked}
 */
function sideBySide(maps) {
  if (maps.length === 1) return maps[0];
  const starts = maps.map((_, k) => maps.slice(0, k).reduce((sum, map) => sum + map.columns, 0));
  /** @type {(r: number, c: number) => [Walked, number, number]} */
  const which = (r, c) => {
    let k = starts.length - 1;
    while (k > 0 && starts[k] > c) k -= 1;
    return [maps[k], Math.min(r, maps[k].rows - 1), c - starts[k]];
  };
  return { rows: maps[0].rows, columns: starts[starts.length - 1] + maps[maps.length - 1].columns, y: maps[0].y,
           x: maps.flatMap((map) => Array.from(map.x)),
           words: (r, c) => { const [map, rr, cc] = which(r, c); return map.words(rr, cc); },
           place: (r, c) => { const [map, rr, cc] = which(r, c); return map.place(rr, cc); } };
}

/**
 * The figure's tiles, where it has no matrix of numbers but a click target on each of a grid of pictures (the model
 * view's thumbnails: a scatter whose customdata is each tile's [row, column], [layer, head]): each tile said in its
 * hover's words; or null.
 * @param {Drawn} figure
 * @returns {Walked | null}
 */
function tiles(figure) {
  const paired = (/** @type {any} */ trace) => trace.type === "scatter" && Array.isArray(trace.customdata) &&
    Array.isArray(trace.customdata[0]) && trace.customdata[0].length === 2;
  const index = figure.data.findIndex(paired);
  if (index < 0) return null;
  const full = figure._fullData[index];
  const places = /** @type {[number, number][]} */ (Array.from(full.customdata));
  const rows = 1 + Math.max(...places.map(([r]) => r)), columns = 1 + Math.max(...places.map(([, c]) => c));
  const which = new Map(places.map(([r, c], k) => [`${r},${c}`, k]));
  const point = (/** @type {number} */ r, /** @type {number} */ c) => which.get(`${r},${c}`) ?? 0;
  return { rows, columns, x: Array.from({ length: columns }, (_, c) => c), y: Array.from({ length: rows }, (_, r) => r),
           words: (r, c) => cellWords(String(full.hovertemplate), { x: full.x[point(r, c)], y: full.y[point(r, c)],
                                                                    z: null, customdata: [r, c] }),
           place: (r, c) => [{ xval: full.x[point(r, c)], yval: full.y[point(r, c)] },
                             `${full.xaxis || "x"}${full.yaxis || "y"}`] };
}

/**
 * Name and describe any drawn figure (figure_name.js: the one call the app and a site make for every figure), and
 * make a heatmap walkable by keyboard and readable as a grid; returns a function that moves the focused cell (for a
 * test, or a page that picks one), or null for a figure that is not walked.
 * @param {HTMLElement} figure  the box Plotly drew the figure in
 * @param {Walk} walk
 * @returns {((row: number, column: number) => void) | null}
 */
export function walkable(figure, walk) {
  const undo = unwalk.get(figure);
  if (undo) undo();
  nameFigure(figure, walk.said);  // every figure: its name and point, a grid's too
  const map = heatmaps(/** @type {Drawn} */ (figure)) || tokenSides(/** @type {Drawn} */ (figure)) ||
    tiles(/** @type {Drawn} */ (figure));
  if (!map) return null;
  const { rows, columns } = map;
  if (!rows || !columns) return null;
  let [row, column] = walk.start || [0, 0];
  const id = figure.id || (figure.id = `grid-${Math.random().toString(36).slice(2)}`);
  const grid = document.createElement("div");  // the rows read in the accessibility tree (hidden from sight: the
  grid.className = "visually-hidden";  // figure shows them)
  figure.append(grid);
  const drawing = figure.querySelector(".plot-container");  // the picture: the grid says what it shows
  if (drawing) drawing.setAttribute("aria-hidden", "true");
  figure.tabIndex = 0;
  figure.setAttribute("role", "grid");
  figure.setAttribute("aria-rowcount", String(rows + 1));  // the header row and the matrix's rows
  figure.setAttribute("aria-colcount", String(columns + 1));
  const words = map.words;
  const cellId = (/** @type {number} */ r, /** @type {number} */ c) => `cell-${r}-${c}-of-${id}`;  // not "${id}…":
  // a selector of the figures by their ids' start finds the figures only

  const rebuild = () => {  // the window of rows and columns around the focused cell, with their headers
    const top = windowStart(row, rows), left = windowStart(column, columns);
    const shownColumns = Array.from({ length: Math.min(WINDOW, columns) }, (_, k) => left + k);
    const header = line(1, [cell("columnheader", 1, ""), ...shownColumns.map((c) =>
      cell("columnheader", c + 2, String(map.x[c])))]);
    const body = Array.from({ length: Math.min(WINDOW, rows) }, (_, k) => top + k).map((r) => line(r + 2, [
      cell("rowheader", 1, String(map.y[r])),
      ...shownColumns.map((c) => Object.assign(cell("gridcell", c + 2, words(r, c)), { id: cellId(r, c) }))]));
    grid.replaceChildren(header, ...body);
    figure.setAttribute("aria-activedescendant", cellId(row, column));
  };

  const show = () => {
    rebuild();
    Plotly.Fx.hover(figure, ...map.place(row, column));  // Plotly's own label on the cell
    announce((map.said || words)(row, column));
  };

  /** @param {KeyboardEvent} event */
  const keyed = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;  // a shortcut's (shortcuts.js), or the browser's
    const to = moved(event.key, row, column, rows, columns);
    if (to) {
      event.preventDefault();
      [row, column] = to;
      show();
    } else if ((event.key === "Enter" || event.key === " ") && walk.pick) {
      event.preventDefault();
      walk.pick(row, column, map.target ? map.target(row, column) : undefined);
    } else if (event.key === "Escape" && walk.close) {
      event.preventDefault();
      walk.close();
    }
  };
  const left = () => Plotly.Fx.unhover(figure);
  const focused = () => { if (figure.matches(":focus-visible")) show(); };  // by the keyboard: a click that
  // focuses the figure keeps the mouse's own hover
  figure.addEventListener("keydown", keyed);
  figure.addEventListener("focus", focused);
  figure.addEventListener("blur", left);
  unwalk.set(figure, () => {
    figure.removeEventListener("keydown", keyed);
    figure.removeEventListener("focus", focused);
    figure.removeEventListener("blur", left);
    grid.remove();
    if (drawing) drawing.removeAttribute("aria-hidden");
    for (const name of ["tabindex", "aria-rowcount", "aria-colcount", "aria-activedescendant"]) {  // its name and
      // role: the next walk's (nameFigure)
      figure.removeAttribute(name);
    }
    unwalk.delete(figure);
  });
  rebuild();
  if (walk.focus) figure.focus();
  return (r, c) => { [row, column] = [r, c]; show(); };
}

/**
 * A row of the grid.
 * @param {number} index  its aria-rowindex (1: the header row)
 * @param {HTMLElement[]} cells
 */
function line(index, cells) {
  const row = document.createElement("div");
  row.setAttribute("role", "row");
  row.setAttribute("aria-rowindex", String(index));
  row.append(...cells);
  return row;
}

/**
 * A cell of the grid.
 * @param {string} role
 * @param {number} index  its aria-colindex (1: the row headers)
 * @param {string} text
 */
function cell(role, index, text) {
  const node = document.createElement("div");
  node.setAttribute("role", role);
  node.setAttribute("aria-colindex", String(index));
  node.textContent = text;
  return node;
}
