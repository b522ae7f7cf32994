// GENERATED FILE: do not edit by hand. Built from frontend/src (entry src/app_keys.js) by `npm run build` in
// frontend/ (esbuild, see frontend/build.mjs); edit the modules there and build again. tests/test_frontend.py
// checks that this file is what the modules build to.

// src/announce.js
var announcer = (
  /** @type {HTMLElement | null} */
  null
);
function announce(words) {
  if (!announcer || !announcer.isConnected) {
    announcer = document.createElement("div");
    announcer.className = "visually-hidden";
    announcer.setAttribute("aria-live", "polite");
    document.body.append(announcer);
  }
  announcer.textContent = words;
}

// src/figure_name.js
function plain(text) {
  return String(text || "").replace(/<br\s*\/?>/g, " ").replace(/<[^>]+>/g, "").replace(/[▸◂]/g, "").replace(/\s+/g, " ").trim();
}
function titleOf(figure) {
  const layout = figure.layout || {};
  const title = plain(typeof layout.title === "string" ? layout.title : layout.title && layout.title.text);
  const meta = layout.meta && typeof layout.meta === "object" ? layout.meta : {};
  const panels = (layout.annotations || []).filter((note) => note.xref === "paper" && note.yref === "paper" && note.yanchor === "bottom").map((note) => plain(note.text)).filter(Boolean);
  return title || plain(meta.name) || panels.join(" · ") || "Figure";
}
function pointOf(figure) {
  const meta = figure.layout && figure.layout.meta;
  return meta && typeof meta === "object" ? plain(meta.point) : "";
}
function nameFigure(figure, said) {
  const id = figure.id || (figure.id = `plot-${Math.random().toString(36).slice(2)}`);
  const point = said ? "" : pointOf(
    /** @type {Drawn} */
    figure
  );
  let line2 = figure.querySelector(":scope > .figure-point");
  if (point) {
    if (!line2) {
      line2 = Object.assign(document.createElement("p"), {
        className: "figure-point",
        hidden: true,
        id: `point-of-${id}`
      });
      figure.append(line2);
    }
    line2.textContent = point;
  } else if (line2) {
    line2.remove();
  }
  figure.setAttribute("role", "figure");
  figure.setAttribute("aria-label", titleOf(
    /** @type {Drawn} */
    figure
  ));
  const by = said || (line2 && point ? line2.id : "");
  if (by) figure.setAttribute("aria-describedby", by);
  else figure.removeAttribute("aria-describedby");
}

// src/numbers.js
var FLOAT32_MIN = -34028234663852886e22;
var MASKED_BELOW = FLOAT32_MIN / 2;
function fixed(value, decimals) {
  if (!isFinite(value)) return isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  const size = Math.abs(value);
  let text = size < 1e21 ? size.toFixed(decimals) : BigInt(size).toString() + (decimals ? "." + "0".repeat(decimals) : "");
  const exact = size < 1e21 ? size.toFixed(100) : "";
  if (new RegExp(`\\.\\d{${decimals}}50*$`).test(exact)) {
    const cut2 = exact.slice(0, exact.indexOf(".") + (decimals ? 1 + decimals : 0));
    if (Number(cut2[cut2.length - 1]) % 2 === 0) text = cut2;
  }
  const negative = value < 0 || Object.is(value, -0);
  return (negative ? "-" : "") + text;
}
function pyRound(x) {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// src/values.js
var isArray = (value) => typeof value === "object" && value !== null && "shape" in value;
function number(value) {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return Number(value);
  throw new Error(`A recipe gave ${String(value)} where it needs a number.`);
}
var vector = (values) => ({ shape: [values.length], data: Float64Array.from(values) });
var numbersOf = (value) => isArray(value) ? Array.from(value.data) : Array.isArray(value) ? value.map((x) => number(
  /** @type {Value} */
  x
)) : [number(value)];
var listOf = (value) => isArray(value) ? Array.from(value.data) : (
  /** @type {unknown[]} */
  value
);

// src/figure_words.js
var escaped = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
var unescaped = (text) => String(text).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
var chars = (text) => Array.from(text);
function cut(label, longest) {
  const shown2 = chars(unescaped(label));
  return shown2.length <= longest ? label : `${escaped(shown2.slice(0, longest - 1).join(""))}…`;
}
function wrapped(text, width) {
  if (Array.isArray(text)) return text.flatMap((part) => wrapped(part, width));
  const lines = [];
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && chars(lines[last]).length + 1 + chars(word).length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [""];
}
var NUMBER = /^[−-]?\d*\.?\d+$/u;
var thousandths = (value) => fixed(value, 3).replace(/^(-?)0\./, "$1.").replace("-", "−");
var eachNumber = (word) => (c, values) => {
  if (typeof values === "number") return word(values);
  const array = (
    /** @type {Unpacked} */
    values
  ), last = array.shape[array.shape.length - 1] ?? 0;
  const texts = Array.from(array.data, word);
  if (array.shape.length < 2) return texts;
  return Array.from({ length: texts.length / last }, (_, r) => texts.slice(r * last, (r + 1) * last));
};
var oneLine = (texts) => Array.isArray(texts) ? texts.map(oneLine) : String(texts).replaceAll("<br>", " ");
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
var sliced = (v, start, stop) => isArray(v) ? vector(v.data.subarray(start, Math.max(start, stop))) : (
  /** @type {unknown[]} */
  v.slice(start, stop)
);
var asValue = (items) => items.every((x) => typeof x === "number") ? vector(
  /** @type {number[]} */
  items
) : items;
var itemsOf = (part) => isArray(part) ? Array.from(part.data) : Array.isArray(part) ? part : [part];
function pooled(matrix2, step) {
  const [rows, cols] = matrix2.shape, out = [Math.ceil(rows / step), Math.ceil(cols / step)];
  const data = new Float64Array(out[0] * out[1]);
  for (let i = 0; i < out[0]; i++) {
    for (let j = 0; j < out[1]; j++) {
      let sum = 0, count = 0;
      for (let r = i * step; r < Math.min(rows, (i + 1) * step); r++) {
        for (let c = j * step; c < Math.min(cols, (j + 1) * step); c++) {
          const v = matrix2.data[r * cols + c];
          if (!Number.isNaN(v)) {
            sum += v;
            count += 1;
          }
        }
      }
      data[i * out[1] + j] = count ? Math.fround(sum / count) : NaN;
    }
  }
  return { shape: out, data };
}
var eachText = (word) => (c, texts, ...args) => Array.isArray(texts) ? texts.map((t) => word(String(t), ...args)) : word(String(texts), ...args);
var linesOf = (texts) => listOf(texts).flatMap((t) => String(t).split("<br>"));
var FIGURE_WORDS = {
  round: (c, x) => pyRound(x),
  range: (c, n) => vector(Array.from({ length: n }, (_, k) => k)),
  repeat: (c, value, n) => Array(n).fill(value),
  pick: (c, k, ...options) => options[Number(k)],
  zip: (c, a, b) => {
    const second = listOf(b);
    return listOf(a).map((x, k) => [x, second[k]]);
  },
  part: (c, flat, counts, k) => {
    const runs = numbersOf(counts), start = runs.slice(0, k).reduce((s, n) => s + n, 0);
    return { shape: [runs[k]], data: (
      /** @type {Unpacked} */
      flat.data.subarray(start, start + runs[k])
    ) };
  },
  cat: (c, ...parts) => asValue(parts.flatMap(itemsOf)),
  slice: (c, v, start, stop) => sliced(v, start, stop),
  taken: (c, v, indices) => {
    const at = numbersOf(indices);
    return isArray(v) ? vector(at.map((i) => v.data[i])) : at.map((i) => (
      /** @type {unknown[]} */
      v[i]
    ));
  },
  which: (c, mask) => vector(numbersOf(mask).flatMap((x, k) => x ? [k] : [])),
  cells: (c, items) => isArray(items) ? vector(items.data) : (
    /** @type {unknown[][]} */
    items.flat()
  ),
  rows_of: (c, items, width) => {
    const all = listOf(items);
    return Array.from({ length: Math.ceil(all.length / width) }, (_, r) => all.slice(r * width, (r + 1) * width));
  },
  line_counts: (c, texts) => vector(listOf(texts).map((t) => String(t).split("<br>").length)),
  one_line: (c, texts) => oneLine(texts),
  numeric: (c, texts) => vector(listOf(texts).map((t) => Number(NUMBER.test(String(t))))),
  thousandths: eachNumber(thousandths),
  index: (c, values, items) => {
    const all = listOf(values);
    return vector(listOf(items).map((v) => all.indexOf(v)));
  },
  has: (c, texts, part) => typeof texts === "string" ? Number(texts.includes(part)) : vector(listOf(texts).map((t) => Number(String(t).includes(part)))),
  chars: (c, texts) => Array.isArray(texts) ? vector(texts.map((t) => chars(unescaped(t)).length)) : chars(unescaped(texts)).length,
  escaped: eachText(escaped),
  unescaped: eachText(unescaped),
  cut: eachText(cut),
  lines: (c, texts) => linesOf(texts),
  wrapped: (c, text, width) => wrapped(text, width),
  merged: (c, part, more) => ({ ...part, ...more }),
  unique: (c, items) => [...new Set(listOf(items))],
  interp: (c, x, xs, ys) => interp(x, numbersOf(xs), numbersOf(ys)),
  pooled: (c, matrix2, step) => pooled(
    /** @type {Unpacked} */
    matrix2,
    step
  )
};

// src/hover_words.js
function cellWords(template, cell2) {
  return template.replace(/<extra>.*?<\/extra>/g, "").replace(/%\{(\w+)(?:\[(\d+)\])?(?::\.(\d+)f)?\}/g, (whole, field, index, digits) => {
    const named = (
      /** @type {Record<string, unknown>} */
      cell2[field]
    );
    const value = index === void 0 ? named : Array.isArray(named) ? named[Number(index)] : void 0;
    if (field === "z" && (value === null || typeof value === "number" && Number.isNaN(value))) return "masked";
    if (value === void 0 || value === null) return "";
    if (typeof value === "number" && digits !== void 0) return value.toFixed(Number(digits)).replace("-", "−");
    return String(value);
  }).replace(/<br\s*\/?>/g, ", ").replace(/<[^>]+>/g, "").replace(/&lt;|&gt;|&amp;/g, unescaped);
}

// src/token_lines.js
function drawnLines(traces, across) {
  const found = [];
  for (const trace of traces) {
    if (trace.mode !== "lines" || !trace.x || trace.x.length < 2 || trace.visible === "legendonly") continue;
    const places = across ? trace.x : trace.y;
    for (let k = 0; k + 1 < places.length; k += 3) {
      found.push({
        name: String(trace.name),
        weight: Number(trace.opacity ?? 1),
        query: Number(places[k]),
        key: Number(places[k + 1])
      });
    }
  }
  return found.sort((a, b) => b.weight - a.weight);
}
function lineWords(say, line2, side, other) {
  const index = side === "q" ? line2.key : line2.query;
  return cellWords(say.line, { name: line2.name, index, token: other(index), weight: line2.weight });
}
function countWords(say, count) {
  return count === 1 ? say.one : cellWords(say.count, { count });
}
function linesWords(say, lines, side, other, most) {
  if (!lines.length) return say.none;
  const each = lines.slice(0, most).map((line2) => lineWords(say, line2, side, other));
  const more = lines.length > most ? [cellWords(say.more, { count: lines.length - most })] : [];
  return [countWords(say, lines.length), ...each, ...more].join("; ");
}
function sidesOf(traces) {
  const side = (trace) => trace.type === "scatter" && Array.isArray(trace.customdata) && Array.isArray(trace.customdata[0]) && ["q", "k"].includes(trace.customdata[0][0]);
  const at = traces.map((trace, k) => side(trace) ? k : -1).filter((k) => k >= 0);
  if (at.length !== 2) return null;
  const [queries, keys] = at.map((k) => traces[k]);
  return { at, queries, keys, across: Number(queries.y[0]) !== Number(keys.y[0]) };
}
function tokenSides(figure) {
  const found = sidesOf(figure._fullData);
  if (!found) return null;
  const { at, queries, keys, across } = found;
  const n = queries.customdata.length;
  const lines = drawnLines(figure._fullData, across);
  const token = (s, i) => String((s ? keys : queries).text[i]);
  const own = (s, i) => lines.filter((line2) => (s ? line2.key : line2.query) === i);
  const sideOf = (r, c) => across ? r : c;
  const indexOf = (r, c) => across ? c : r;
  const marks = (s) => s ? keys : queries;
  const said = at.map((k) => figure.data[k] && figure.data[k].meta || {});
  const words = (r, c, most) => {
    const s = sideOf(r, c), i = indexOf(r, c), trace = marks(s);
    const say = said[s];
    const hover = cellWords(String(trace.hovertemplate), { text: trace.text[i], customdata: trace.customdata[i] });
    return say.line ? `${hover}: ${linesWords(say, own(s, i), s ? "k" : "q", (j) => token(1 - s, j), most)}` : hover;
  };
  const names = Array.from({ length: n }, (_, i) => cellWords("%{index} %{token}", { index: i, token: token(0, i) }));
  const sideNames = said.map((say) => String(say.side || ""));
  return {
    rows: across ? 2 : n,
    columns: across ? n : 2,
    x: across ? names : sideNames,
    y: across ? sideNames : names,
    words: (r, c) => words(r, c, Infinity),
    said: (r, c) => words(r, c, Number(said[sideOf(r, c)].most) || 0),
    place: (r, c) => [
      [{ curveNumber: at[sideOf(r, c)], pointNumber: indexOf(r, c) }],
      `${queries.xaxis || "x"}${queries.yaxis || "y"}`
    ],
    target: (r, c) => marks(sideOf(r, c)).customdata[indexOf(r, c)]
  };
}

// src/cell_keys.js
var PAGE_ROWS = 10;
var WINDOW = 12;
function moved(key, row, column, rows, columns) {
  const within = (r, c) => (
    /** @type {[number, number]} */
    [Math.max(0, Math.min(rows - 1, r)), Math.max(0, Math.min(columns - 1, c))]
  );
  switch (key) {
    case "ArrowUp":
      return within(row - 1, column);
    case "ArrowDown":
      return within(row + 1, column);
    case "ArrowLeft":
      return within(row, column - 1);
    case "ArrowRight":
      return within(row, column + 1);
    case "Home":
      return within(row, 0);
    case "End":
      return within(row, columns - 1);
    case "PageUp":
      return within(row - PAGE_ROWS, column);
    case "PageDown":
      return within(row + PAGE_ROWS, column);
    default:
      return null;
  }
}
function windowStart(at, count) {
  return Math.max(0, Math.min(at - Math.floor(WINDOW / 2), count - WINDOW));
}
var unwalk = /* @__PURE__ */ new WeakMap();
function heatmaps(figure) {
  const valued = (trace) => trace.type === "heatmap" && /%\{(z|text)\b/.test(trace.hovertemplate || "");
  const maps = figure.data.map((trace, k) => valued(trace) ? matrix(figure._fullData[k]) : null).filter((map) => map !== null && map.rows > 0 && map.columns > 0);
  return maps.length ? sideBySide(
    /** @type {Walked[]} */
    maps
  ) : null;
}
function matrix(full) {
  const at = (grid, r, c) => Array.isArray(grid) && Array.isArray(grid[r]) ? grid[r][c] : void 0;
  const rows = full.z.length;
  const placed = (values, k) => typeof values[k] === "number" ? values[k] : k;
  const subplot = `${full.xaxis || "x"}${full.yaxis || "y"}`;
  return {
    rows,
    columns: rows ? full.z[0].length : 0,
    x: full.x,
    y: full.y,
    words: (r, c) => cellWords(String(full.hovertemplate), {
      x: full.x[c],
      y: full.y[r],
      z: full.z[r][c],
      text: at(full.text, r, c),
      customdata: at(full.customdata, r, c)
    }),
    place: (r, c) => [{ xval: placed(full.x, c), yval: placed(full.y, r) }, subplot]
  };
}
function sideBySide(maps) {
  if (maps.length === 1) return maps[0];
  const starts = maps.map((_, k) => maps.slice(0, k).reduce((sum, map) => sum + map.columns, 0));
  const which = (r, c) => {
    let k = starts.length - 1;
    while (k > 0 && starts[k] > c) k -= 1;
    return [maps[k], Math.min(r, maps[k].rows - 1), c - starts[k]];
  };
  return {
    rows: maps[0].rows,
    columns: starts[starts.length - 1] + maps[maps.length - 1].columns,
    y: maps[0].y,
    x: maps.flatMap((map) => Array.from(map.x)),
    words: (r, c) => {
      const [map, rr, cc] = which(r, c);
      return map.words(rr, cc);
    },
    place: (r, c) => {
      const [map, rr, cc] = which(r, c);
      return map.place(rr, cc);
    }
  };
}
function tiles(figure) {
  const paired = (trace) => trace.type === "scatter" && Array.isArray(trace.customdata) && Array.isArray(trace.customdata[0]) && trace.customdata[0].length === 2;
  const index = figure.data.findIndex(paired);
  if (index < 0) return null;
  const full = figure._fullData[index];
  const places = (
    /** @type {[number, number][]} */
    Array.from(full.customdata)
  );
  const rows = 1 + Math.max(...places.map(([r]) => r)), columns = 1 + Math.max(...places.map(([, c]) => c));
  const which = new Map(places.map(([r, c], k) => [`${r},${c}`, k]));
  const point = (r, c) => which.get(`${r},${c}`) ?? 0;
  return {
    rows,
    columns,
    x: Array.from({ length: columns }, (_, c) => c),
    y: Array.from({ length: rows }, (_, r) => r),
    words: (r, c) => cellWords(String(full.hovertemplate), {
      x: full.x[point(r, c)],
      y: full.y[point(r, c)],
      z: null,
      customdata: [r, c]
    }),
    place: (r, c) => [
      { xval: full.x[point(r, c)], yval: full.y[point(r, c)] },
      `${full.xaxis || "x"}${full.yaxis || "y"}`
    ]
  };
}
function walkable(figure, walk) {
  const undo = unwalk.get(figure);
  if (undo) undo();
  nameFigure(figure, walk.said);
  const map = heatmaps(
    /** @type {Drawn} */
    figure
  ) || tokenSides(
    /** @type {Drawn} */
    figure
  ) || tiles(
    /** @type {Drawn} */
    figure
  );
  if (!map) return null;
  const { rows, columns } = map;
  if (!rows || !columns) return null;
  let [row, column] = walk.start || [0, 0];
  const id = figure.id || (figure.id = `grid-${Math.random().toString(36).slice(2)}`);
  const grid = document.createElement("div");
  grid.className = "visually-hidden";
  figure.append(grid);
  const drawing = figure.querySelector(".plot-container");
  if (drawing) drawing.setAttribute("aria-hidden", "true");
  figure.tabIndex = 0;
  figure.setAttribute("role", "grid");
  figure.setAttribute("aria-rowcount", String(rows + 1));
  figure.setAttribute("aria-colcount", String(columns + 1));
  const words = map.words;
  const cellId = (r, c) => `cell-${r}-${c}-of-${id}`;
  const rebuild = () => {
    const top = windowStart(row, rows), left2 = windowStart(column, columns);
    const shownColumns = Array.from({ length: Math.min(WINDOW, columns) }, (_, k) => left2 + k);
    const header = line(1, [cell("columnheader", 1, ""), ...shownColumns.map((c) => cell("columnheader", c + 2, String(map.x[c])))]);
    const body = Array.from({ length: Math.min(WINDOW, rows) }, (_, k) => top + k).map((r) => line(r + 2, [
      cell("rowheader", 1, String(map.y[r])),
      ...shownColumns.map((c) => Object.assign(cell("gridcell", c + 2, words(r, c)), { id: cellId(r, c) }))
    ]));
    grid.replaceChildren(header, ...body);
    figure.setAttribute("aria-activedescendant", cellId(row, column));
  };
  const show = () => {
    rebuild();
    Plotly.Fx.hover(figure, ...map.place(row, column));
    announce((map.said || words)(row, column));
  };
  const keyed = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const to = moved(event.key, row, column, rows, columns);
    if (to) {
      event.preventDefault();
      [row, column] = to;
      show();
    } else if ((event.key === "Enter" || event.key === " ") && walk.pick) {
      event.preventDefault();
      walk.pick(row, column, map.target ? map.target(row, column) : void 0);
    } else if (event.key === "Escape" && walk.close) {
      event.preventDefault();
      walk.close();
    }
  };
  const left = () => Plotly.Fx.unhover(figure);
  const focused = () => {
    if (figure.matches(":focus-visible")) show();
  };
  figure.addEventListener("keydown", keyed);
  figure.addEventListener("focus", focused);
  figure.addEventListener("blur", left);
  unwalk.set(figure, () => {
    figure.removeEventListener("keydown", keyed);
    figure.removeEventListener("focus", focused);
    figure.removeEventListener("blur", left);
    grid.remove();
    if (drawing) drawing.removeAttribute("aria-hidden");
    for (const name of ["tabindex", "aria-rowcount", "aria-colcount", "aria-activedescendant"]) {
      figure.removeAttribute(name);
    }
    unwalk.delete(figure);
  });
  rebuild();
  if (walk.focus) figure.focus();
  return (r, c) => {
    [row, column] = [r, c];
    show();
  };
}
function line(index, cells) {
  const row = document.createElement("div");
  row.setAttribute("role", "row");
  row.setAttribute("aria-rowindex", String(index));
  row.append(...cells);
  return row;
}
function cell(role, index, text) {
  const node = document.createElement("div");
  node.setAttribute("role", role);
  node.setAttribute("aria-colindex", String(index));
  node.textContent = text;
  return node;
}

// src/shortcuts.js
var SHORTCUTS = {
  back: { keys: "Alt+Shift+ArrowLeft", shown: "Alt+Shift+←" },
  forward: { keys: "Alt+Shift+ArrowRight", shown: "Alt+Shift+→" },
  shallower: { keys: "Alt+Shift+ArrowUp", shown: "Alt+Shift+↑" },
  // a layer back (Layers' ◀ beside the layer)
  deeper: { keys: "Alt+Shift+ArrowDown", shown: "Alt+Shift+↓" },
  // a layer on
  next: { keys: "Alt+Shift+N", shown: "Alt+Shift+N" }
};
function shortcutOf(press2) {
  if (!press2.altKey || !press2.shiftKey || press2.ctrlKey || press2.metaKey) return null;
  if (press2.key === "ArrowLeft") return "back";
  if (press2.key === "ArrowRight") return "forward";
  if (press2.key === "ArrowUp") return "shallower";
  if (press2.key === "ArrowDown") return "deeper";
  if (press2.code === "KeyN" || press2.key === "N" || press2.key === "n") return "next";
  return null;
}
function ownKeys(target) {
  return target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

// src/skip_link.js
function skipLink(words) {
  let skip = (
    /** @type {HTMLButtonElement | null} */
    document.querySelector("button.skip-link")
  );
  if (!skip) {
    skip = document.createElement("button");
    skip.type = "button";
    skip.className = "skip-link";
    skip.addEventListener("click", toTheFigure);
    document.body.prepend(skip);
  }
  skip.textContent = words;
}
function toTheFigure() {
  const first = (selector) => (
    /** @type {HTMLElement | null} */
    document.querySelector(`main ${selector}`) || document.querySelector(selector)
  );
  const figure = first('[role="grid"]'), heading = first("h1");
  const target = figure || heading;
  if (!target) return;
  if (target === heading) target.tabIndex = -1;
  target.scrollIntoView({ block: "start" });
  target.focus();
}

// src/app_keys.js
var SETTLE_MS = 150;
function chartOf(figure) {
  const box = figure.closest('[class*="st-key-"]');
  const found = box && Array.from(box.classList).find((name) => name.startsWith("st-key-"));
  return found || "";
}
function shown(selector) {
  return (
    /** @type {HTMLButtonElement | undefined} */
    Array.from(document.querySelectorAll(selector)).find((control) => control.getClientRects().length > 0)
  );
}
var SAID_WITHIN_MS = 8e3;
var POLL_MS = 200;
function choiceIn(row) {
  const there = row && row.isConnected ? row : null;
  const slid = (
    /** @type {HTMLInputElement | null} */
    there && there.querySelector('input[type="range"]')
  );
  if (slid) return `${slid.getAttribute("aria-label") || ""} ${slid.getAttribute("aria-valuetext") || slid.value}`.trim();
  const picked = (
    /** @type {HTMLInputElement | null} */
    there && there.querySelector('input[role="combobox"]')
  );
  const title = document.querySelector("h1");
  return (picked ? picked.value : title && title.textContent || document.title).trim();
}
function press(control) {
  const row = control.closest('[data-testid="stHorizontalBlock"]');
  const before = choiceIn(row);
  control.click();
  const started = Date.now();
  const look = () => {
    const shown2 = choiceIn(row);
    if (shown2 && shown2 !== before) announce(shown2);
    else if (Date.now() - started < SAID_WITHIN_MS) setTimeout(look, POLL_MS);
  };
  setTimeout(look, POLL_MS);
}
function mount({ data } = {}) {
  const shortcuts = data && data.shortcuts || {};
  if (data && data.skip) skipLink(data.skip);
  const walked = /* @__PURE__ */ new WeakMap();
  let pressed = null;
  const hand = (figure, name, cell2, target) => {
    pressed = { chart: chartOf(figure), cell: cell2 };
    figure.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: { row: cell2[0], column: cell2[1], target } }));
  };
  const walk = () => {
    for (const [name, selector] of Object.entries(shortcuts)) {
      const { keys } = SHORTCUTS[
        /** @type {import("./shortcuts.js").Shortcut} */
        name
      ];
      document.querySelectorAll(selector).forEach((control) => control.setAttribute("aria-keyshortcuts", keys));
    }
    for (const figure of Array.from(
      /** @type {NodeListOf<Figure>} */
      document.querySelectorAll(".js-plotly-plot")
    )) {
      const drawing = figure._fullData;
      if (!drawing || walked.get(figure) === drawing) continue;
      walked.set(figure, drawing);
      const again = pressed !== null && pressed.chart === chartOf(figure);
      const start = again && pressed ? pressed.cell : null;
      if (again) pressed = null;
      let at = (
        /** @type {[number, number]} */
        start || [0, 0]
      );
      walkable(figure, {
        pick: (row, column, target) => {
          at = [row, column];
          hand(figure, "bvl-pick", at, target);
        },
        close: () => hand(figure, "bvl-close", at),
        start,
        focus: again
      });
    }
  };
  const shortcut = (event) => {
    const name = shortcutOf(event);
    if (!name || event.defaultPrevented || ownKeys(event.target)) return;
    const selector = shortcuts[name];
    const control = selector ? shown(selector) : void 0;
    if (!control || control.disabled) return;
    event.preventDefault();
    press(control);
  };
  let timer = 0;
  const soon = () => {
    clearTimeout(timer);
    timer = window.setTimeout(walk, SETTLE_MS);
  };
  const watching = new MutationObserver(soon);
  watching.observe(document.body, { childList: true, subtree: true });
  document.addEventListener("keydown", shortcut);
  walk();
  return () => {
    clearTimeout(timer);
    watching.disconnect();
    document.removeEventListener("keydown", shortcut);
  };
}
export {
  mount as default
};
