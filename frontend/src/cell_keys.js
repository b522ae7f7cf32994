// A heatmap that a keyboard walks and a screen reader reads (issue 56: WCAG 2.1.1 Keyboard, 1.3.1 Info and
// Relationships, 4.1.2 Name, Role, Value). Plotly's figures take no keys (plotly.js #562), so the figure's own box
// becomes an ARIA grid: Tab stops on it, the arrow keys move a focused cell (Home and End: the row's first and last;
// Page Up and Page Down: ten rows), Enter picks it as a click does, Escape leaves what a pick opened. The focused cell
// is shown by Plotly's own hover label (Plotly.Fx.hover) and said in words made from the figure's hover template,
// which Python wrote (one source: what the mouse reads, the ear hears). The grid's rows in the accessibility tree
// are a window around the focused cell, so a 512-token matrix is not 262,144 nodes; aria-rowcount and aria-colcount
// give the whole.

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
 * What a cell's hover template may name: its x and y labels, its value (null or NaN where masked), its text and its
 * custom data where the trace has them.
 * @typedef {{ x?: string | number, y?: string | number, z?: number | null, text?: unknown,
 *             customdata?: unknown, [field: string]: unknown }} CellFields
 */

/**
 * A cell in words from the figure's hover template ("query %{y}<br>key %{x}<br>%{z:.4f}<extra></extra>"): its
 * fields filled (a number's ".Nf" as Plotly writes it, with a minus sign), its line breaks made commas, its markup
 * dropped.
 * @param {string} template
 * @param {CellFields} cell
 * @returns {string}
 */
export function cellWords(template, cell) {
  return template.replace(/<extra>.*?<\/extra>/g, "")
    .replace(/%\{(\w+)(?:\[(\d+)\])?(?::\.(\d+)f)?\}/g, (whole, field, index, digits) => {
      const named = /** @type {Record<string, unknown>} */ (cell)[field];
      const value = index === undefined ? named : Array.isArray(named) ? named[Number(index)] : undefined;
      if (field === "z" && (value === null || (typeof value === "number" && Number.isNaN(value)))) return "masked";
      if (value === undefined || value === null) return "";
      if (typeof value === "number" && digits !== undefined) return value.toFixed(Number(digits)).replace("-", "−");
      return String(value);
    })
    .replace(/<br\s*\/?>/g, ", ").replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");  // a token as Plotly reads it (escaped)
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
 * focus now (after Enter redrew the page).
 * @typedef {{ pick?: (row: number, column: number, target?: unknown) => void, close?: () => void,
 *             start?: [number, number] | null, focus?: boolean }} Walk
 */

/** @typedef {HTMLElement & { data: any[], _fullData: any[], layout: any }} Drawn */

let announcer = /** @type {HTMLElement | null} */ (null);
/** @type {WeakMap<HTMLElement, () => void>} */
const unwalk = new WeakMap();  // a figure drawn again in the same box: its last walk undone first

/**
 * Say `words` to a screen reader, politely (one live region for the page).
 * @param {string} words
 */
export function announce(words) {
  if (!announcer || !announcer.isConnected) {
    announcer = document.createElement("div");
    announcer.className = "visually-hidden";
    announcer.setAttribute("aria-live", "polite");
    document.body.append(announcer);
  }
  announcer.textContent = words;
}

/**
 * What a walk reads of a figure: its rows and columns, their headers, a cell's words and where Plotly's hover label
 * goes for it.
 * @typedef {{ rows: number, columns: number, x: ArrayLike<string | number>, y: ArrayLike<string | number>,
 *             subplot: string, words: (r: number, c: number) => string, said?: (r: number, c: number) => string,
 *             place: (r: number, c: number) => unknown, target?: (r: number, c: number) => unknown }} Walked
 * `place`: where Plotly's hover label goes for a cell (Plotly.Fx.hover's argument: a place on the axes, or a
 * trace's point); `said`: what is said aloud of a cell, where it is shorter than its words in the grid; `target`:
 * what a pick hands on (a click target's customdata).
 */

/**
 * The figure's first heatmap whose hover names a cell's value (its z, or its text: the lens's piece and number),
 * with its values decoded, or null.
 * @param {Drawn} figure
 * @returns {Walked | null}
 */
function heatmap(figure) {
  const valued = (/** @type {any} */ trace) => /%\{(z|text)\b/.test(trace.hovertemplate || "");
  const index = figure.data.findIndex((trace) => trace.type === "heatmap" && valued(trace));
  if (index < 0) return null;
  const full = figure._fullData[index];  // Plotly's own decoding of the typed arrays the template holds
  /** @type {(grid: unknown, r: number, c: number) => unknown} */
  const at = (grid, r, c) => (Array.isArray(grid) && Array.isArray(grid[r]) ? grid[r][c] : undefined);
  const rows = full.z.length;
  /** @type {(values: ArrayLike<unknown>, k: number) => unknown} a category axis's place is its index */
  const placed = (values, k) => (typeof values[k] === "number" ? values[k] : k);
  return { rows, columns: rows ? full.z[0].length : 0, x: full.x, y: full.y,
           subplot: `${full.xaxis || "x"}${full.yaxis || "y"}`,
           words: (r, c) => cellWords(String(full.hovertemplate), {
             x: full.x[c], y: full.y[r], z: full.z[r][c], text: at(full.text, r, c),
             customdata: at(full.customdata, r, c) }),
           place: (r, c) => ({ xval: placed(full.x, c), yval: placed(full.y, r) }) };
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
           subplot: `${full.xaxis || "x"}${full.yaxis || "y"}`,
           words: (r, c) => cellWords(String(full.hovertemplate), { x: full.x[point(r, c)], y: full.y[point(r, c)],
                                                                    z: null, customdata: [r, c] }),
           place: (r, c) => ({ xval: full.x[point(r, c)], yval: full.y[point(r, c)] }) };
}

const LINES_SAID = 3;  // a token's strongest lines said aloud when it is focused (the grid's cell holds them all)

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
  return [cellWords(say.count, { count: lines.length }), ...each, ...more].join("; ");
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
function sides(figure) {
  const found = sidesOf(figure._fullData);
  if (!found) return null;
  const { at, queries, keys, across } = found;
  const n = queries.customdata.length;
  const lines = drawnLines(figure._fullData, across);
  const token = (/** @type {number} */ s, /** @type {number} */ i) => cellWords("%{text}", {
    text: (s ? keys : queries).text[i] });
  /** @type {(s: number, i: number) => Line[]} */
  const own = (s, i) => lines.filter((line) => (s ? line.key : line.query) === i);
  const sideOf = (/** @type {number} */ r, /** @type {number} */ c) => (across ? r : c);
  const indexOf = (/** @type {number} */ r, /** @type {number} */ c) => (across ? c : r);
  const marks = (/** @type {number} */ s) => (s ? keys : queries);
  const words = (/** @type {number} */ r, /** @type {number} */ c, /** @type {number} */ most) => {
    const s = sideOf(r, c), i = indexOf(r, c), trace = marks(s);
    const say = (figure.data[at[s]] && figure.data[at[s]].meta) || {};
    const hover = cellWords(String(trace.hovertemplate), { text: trace.text[i], customdata: trace.customdata[i] });
    return say.line ? `${hover}: ${linesWords(say, own(s, i), s ? "k" : "q", (j) => token(1 - s, j), most)}` : hover;
  };
  const names = Array.from({ length: n }, (_, i) => `${i} ${token(0, i)}`);
  const sideNames = [queries, keys].map((trace) => cellWords(String(trace.hovertemplate).split(" ")[0], {}));
  return { rows: across ? 2 : n, columns: across ? n : 2, x: across ? names : sideNames, y: across ? sideNames : names,
           subplot: `${queries.xaxis || "x"}${queries.yaxis || "y"}`,
           words: (r, c) => words(r, c, Infinity), said: (r, c) => words(r, c, LINES_SAID),
           place: (r, c) => [{ curveNumber: at[sideOf(r, c)], pointNumber: indexOf(r, c) }],
           target: (r, c) => marks(sideOf(r, c)).customdata[indexOf(r, c)] };
}

/**
 * The figure's title as text (its markup dropped).
 * @param {Drawn} figure
 */
function titleOf(figure) {
  const title = figure.layout && figure.layout.title;
  const text = typeof title === "string" ? title : (title && title.text) || "";
  return text.replace(/<br\s*\/?>/g, " ").replace(/<[^>]+>/g, "").trim();
}

/**
 * Make a drawn heatmap walkable by keyboard and readable as a grid; returns a function that moves the focused cell
 * (for a test, or a page that picks one).
 * @param {HTMLElement} figure  the box Plotly drew the figure in
 * @param {Walk} walk
 * @returns {((row: number, column: number) => void) | null}
 */
export function walkable(figure, walk) {
  const undo = unwalk.get(figure);
  if (undo) undo();
  const map = heatmap(/** @type {Drawn} */ (figure)) || sides(/** @type {Drawn} */ (figure)) ||
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
  figure.setAttribute("aria-label", titleOf(/** @type {Drawn} */ (figure)) || "Matrix");
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
    Plotly.Fx.hover(figure, map.place(row, column), map.subplot);  // Plotly's own label on the cell
    announce((map.said || words)(row, column));
  };

  /** @param {KeyboardEvent} event */
  const keyed = (event) => {
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
    for (const name of ["tabindex", "role", "aria-label", "aria-rowcount", "aria-colcount", "aria-activedescendant"]) {
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
