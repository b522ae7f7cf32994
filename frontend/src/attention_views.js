// BertViz's head view and model view of a sentence computed in this browser, built by the rules of the app's Python
// (attention_lines.py: which weights make a line; analyses/attention_views.py: the thumbnails; figures/
// attention_views.py: the figures) and styled for each screen as an exported sentence's are (export/attention.py,
// figures/screens.py styled), with the numbers export/attention.py attention_settings hands over
// (site.views.attention). tests/test_export_live.py holds these figures to Python's own, screen by screen.
import { pyRound } from "./numbers.js";
import { escaped } from "./figures.js";
import { said } from "./page.js";
import { styled } from "./styled.js";

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {import("./styled.js").Figure} Figure */
/** @typedef {import("./styled.js").Axis} Axis */
/** @typedef {import("./page.js").Screen} Screen */
/**
 * What the browser builds a computed sentence's views with (export/attention.py attention_settings,
 * site.views.attention): which weights make a line, the head view's and the model view's words and measures (a
 * colour per head, the model view's colour scale), the template, the marks' colours and the screens' measures.
 * @typedef {{
 *   lines: { min_weight: number, full_length: number, most_per_query: number },
 *   head: { title: string, nothing: string, colours: string[], row_px: number, least_row_px: number,
 *           short_px: number, most_px: number },
 *   model: { title: string, pooled: string, thumbnail_cells: number, least_tile_px: number,
 *            scale: [number, string][] },
 *   template: string,
 *   marks: { canvas: string, canvas_text: string, lit: string, invisible: string },
 *   screens: import("./styled.js").Screens,
 * }} AttentionSettings
 */
/**
 * attention_lines.py's Lines: a line's head, query, key and weight, one line at each index.
 * @typedef {{ head: number[], query: number[], key: number[], weight: number[] }} Lines
 */

/**
 * The views' settings.
 * @returns {AttentionSettings}
 */
function settings() {
  const given = window.BVL_SITE.views.attention;  // the site's JSON
  if (!given) throw new Error("This site was written without --live: it builds no attention view in the browser.");
  return given;
}

/**
 * attention_lines.py attention_lines: every weight of at least min_weight, in (head, query, key) order; past
 * full_length tokens, only each query's most_per_query strongest
 * @param {Unpacked} probs  {shape: [h, T, T], data}
 * @param {number[]} heads
 * @returns {Lines}
 */
function attentionLines(probs, heads) {
  const { min_weight: least, full_length: full, most_per_query: most } = settings().lines;
  const n = probs.shape[2], capped = n > full;
  const head = [], query = [], key = [], weight = [];
  for (const h of heads) {
    for (let i = 0; i < n; i += 1) {
      const row = probs.data.subarray((h * n + i) * n, (h * n + i + 1) * n);
      let kept = null;
      if (capped) {  // the row's strongest, the earlier key first among equals
        kept = new Set(Array.from(row.keys()).sort((a, b) => row[b] - row[a] || a - b).slice(0, most));
      }
      for (let j = 0; j < n; j += 1) {
        if (row[j] >= least && (!kept || kept.has(j))) {
          head.push(h); query.push(i); key.push(j); weight.push(row[j]);
        }
      }
    }
  }
  return { head, query, key, weight };
}

/**
 * figures/attention_views.py head_view, top to bottom: a Plotly figure
 * @param {Lines} lines
 * @param {string[]} labels  the tokens
 * @param {number} numHeads
 * @param {string} title
 * @param {number | null} mostPx  the tallest it may be (a projector's), or null
 */
function headView(lines, labels, numHeads, title, mostPx) {
  const { head: s, marks } = settings(), font = settings().screens.font;
  const colours = s.colours, tokens = labels.map(escaped);  // `<s>` would vanish
  const traces = [];
  for (const h of [...new Set(lines.head)].sort((a, b) => a - b)) {
    traces.push(legendEntry(h, colours[h]), ...headLines(lines, h, colours[h]));
  }
  const n = tokens.length;
  const pitch = mostPx === null ? s.row_px : Math.max(s.least_row_px, Math.min(s.row_px, (mostPx - 120) / n));
  const size = Math.min(font, Math.floor(pitch / 1.25));
  traces.push(tokenMarks(tokens, "q", size), tokenMarks(tokens, "k", size));
  const annotations = lines.weight.length ? [] : [{  // said in the canvas: an empty dark canvas looks broken
    x: 0.5, y: (n - 1) / 2, showarrow: false, font: { color: marks.lit, size: font },
    text: said(s.nothing, { weight: String(settings().lines.min_weight) }).replace(" reaches", "<br>reaches")
      .replace(": ", ":<br>") }];
  const axis = { visible: false, fixedrange: true };
  return { data: traces, layout: {
    ...(annotations.length ? { annotations } : {}),
    xaxis: { ...axis, range: [-0.9, 1.9] }, yaxis: { ...axis, range: [n - 0.5, -0.8] },
    plot_bgcolor: marks.canvas, paper_bgcolor: marks.canvas, font: { color: marks.canvas_text, size: font },
    hovermode: "closest", clickmode: "event+select", dragmode: false,
    legend: { title: { text: "heads", font: { color: marks.canvas_text } }, itemclick: "toggle",
              itemdoubleclick: "toggleothers", font: { color: marks.canvas_text } },
    ...frame(Math.max(s.short_px, pyRound(120 + pitch * n)), title),
    title: { text: title, font: { color: marks.canvas_text } }, meta: { keeps_height: true } } };
}

/**
 * figures/charts.py layout_of: a figure's height and margins
 * @param {number} height
 * @param {string} title
 */
function frame(height, title) {
  const lines = title ? title.split("<br>").length - 1 : 0;
  return { height, margin: { l: 10, r: 10, t: title ? 50 + 26 * lines : 10, b: 10 } };
}

/**
 * A head's entry in the legend, at full opacity, whatever its lines' weights.
 * @param {number} head
 * @param {string} colour
 */
function legendEntry(head, colour) {
  return { x: [null], y: [null], mode: "lines", line: { color: colour, width: 3 }, hoverinfo: "skip",
           name: `head ${head}`, legendgroup: `head ${head}`, type: "scatter" };
}

/**
 * A head's lines: a trace per tenth of opacity, its segments split by NaN.
 * @param {Lines} lines
 * @param {number} head
 * @param {string} colour
 */
function headLines(lines, head, colour) {
  /** @type {Map<number, [number, number][]>} */
  const tenths = new Map();  // tenth → [query, key] of its lines
  lines.head.forEach((h, k) => {
    if (h !== head) return;
    const w = Math.fround(Math.fround(Math.fround(lines.weight[k]) * 10) + 0.5);  // numpy's float32 steps
    const tenth = Math.min(10, Math.max(1, Math.floor(w)));
    let ends = tenths.get(tenth);
    if (!ends) {
      ends = [];
      tenths.set(tenth, ends);
    }
    ends.push([lines.query[k], lines.key[k]]);
  });
  return [...tenths.entries()].sort(([a], [b]) => b - a).map(([tenth, ends]) => {
    const x = new Float32Array(3 * ends.length), y = new Float32Array(3 * ends.length);
    ends.forEach(([q, k], e) => { x.set([0, 1, NaN], 3 * e); y.set([q, k, NaN], 3 * e); });
    return { x, y, mode: "lines", line: { color: colour, width: 3 }, opacity: tenth / 10, hoverinfo: "skip",
             name: `head ${head}`, legendgroup: `head ${head}`, showlegend: false, type: "scatter" };
  });
}

/**
 * A side's tokens as click targets, their labels beside them.
 * @param {string[]} tokens
 * @param {"q" | "k"} side  the queries' or the keys'
 * @param {number} size  the labels' type size
 */
function tokenMarks(tokens, side, size) {
  const colours = tokens.map(() => settings().marks.canvas_text), where = side === "q" ? 0 : 1;
  return { x: tokens.map(() => where), y: tokens.map((_, i) => i), mode: "markers+text", text: tokens,
           textposition: side === "q" ? "middle left" : "middle right", textfont: { color: colours, size },
           marker: { size: Math.min(12, size), color: colours, symbol: "circle" },
           customdata: tokens.map((_, i) => [side, i]), showlegend: false, type: "scatter",
           hovertemplate: `${side === "q" ? "query" : "key"} %{customdata[1]} %{text}<br>click to keep only its ` +
                          "lines<extra></extra>" };
}

// analyses/attention_views.py thumbnail_side and pooled_shares: each thumbnail at most `side` cells a side,
// queries averaged and keys summed in blocks, so that every row still sums to 1
/**
 * @param {number} tokens  how many
 * @param {number} layers
 * @param {number} heads
 * @returns {number}
 */
function thumbnailSide(tokens, layers, heads) {
  return Math.max(4, Math.min(tokens, Math.trunc(Math.sqrt(settings().model.thumbnail_cells / (layers * heads)) * 5 / 6)));
}

/**
 * One head's (T, T) → rows of (n, n).
 * @param {Unpacked} probs  {shape: [h, T, T], data}
 * @param {number} head
 * @param {number} side
 * @returns {Float32Array[]}
 */
function pooledShares(probs, head, side) {
  const T = probs.shape[2], step = Math.ceil(T / side), blocks = Math.ceil(T / step);
  const rows = Array.from({ length: blocks }, () => new Float64Array(blocks));
  for (let i = 0; i < T; i += 1) {
    const row = probs.data.subarray((head * T + i) * T, (head * T + i + 1) * T);
    for (let j = 0; j < T; j += 1) rows[Math.floor(i / step)][Math.floor(j / step)] += row[j];
  }
  return rows.map((row, b) => Float32Array.from(row, (v) => v / Math.min(step, T - step * b)));
}

/**
 * figures/attention_views.py model_view: shares[layer][head] = rows
 * @param {Float32Array[][][]} shares
 * @param {string} title
 * @param {number | null} mostPx  the tallest it may be (a projector's; 0: a phone's, as short as it goes), or null
 * @returns {Figure & { layout: { xaxis: Axis } }}
 */
function modelView(shares, title, mostPx) {
  const layers = shares.length, heads = shares[0].length, side = shares[0][0].length;
  const gap = Math.max(1, Math.floor(side / 5)), step = side + gap, centre = (side - 1) / 2;
  const z = Array.from({ length: layers * step - gap }, () => new Float32Array(heads * step - gap).fill(NaN));
  shares.forEach((byHead, layer) => byHead.forEach((rows, head) => rows.forEach((row, r) => {
    z[layer * step + r].set(row, head * step);
  })));
  const tiles = shares.flatMap((byHead, layer) => byHead.map((_, head) => [layer, head]));
  /** @param {number} count */
  const ticks = (count) => Array.from({ length: count }, (_, k) => k * step + centre);
  const model = settings().model, font = settings().screens.font;
  const tall = Math.min(1400, 160 + Math.floor(640 * layers / heads));
  const height = mostPx === null ? tall : Math.max(Math.min(tall, mostPx), 160 + model.least_tile_px * layers);
  return { data: [
    { type: "heatmap", z, colorscale: model.scale, zmin: 0, zmax: 1, hoverinfo: "skip",
      colorbar: { title: { text: "attention" }, thickness: 14 } },
    { type: "scatter", x: tiles.map(([, h]) => h * step + centre), y: tiles.map(([l]) => l * step + centre),
      mode: "markers", marker: { symbol: "square", size: 26, opacity: 0.01, color: settings().marks.invisible },
      customdata: tiles, showlegend: false,
      hovertemplate: "layer %{customdata[0]}, head %{customdata[1]}<br>click to open it<extra></extra>" }],
  layout: {
    xaxis: { tickvals: ticks(heads), ticktext: ticks(heads).map((_, h) => String(h)), side: "top", tickangle: 0,
             constrain: "domain", showgrid: false, zeroline: false, fixedrange: true },
    yaxis: { tickvals: ticks(layers), ticktext: ticks(layers).map((_, l) => String(l)), title: { text: "layer" },
             autorange: "reversed", scaleanchor: "x", constrain: "domain", showgrid: false, zeroline: false,
             fixedrange: true },
    clickmode: "event+select", dragmode: false, hovermode: "closest", font: { size: font }, height,
    margin: { l: 10, r: 10, t: 60 + 30 * title.split("<br>").length, b: 10 },  // the title, then the heads' numbers
    title: { text: title }, meta: { keeps_height: true } } };
}

/**
 * A figure for each screen (export/screens.py for_screens), each built and styled when first drawn
 * @param {(lecture: boolean) => Figure} build
 * @param {() => Figure} [phone]  a phone's own, where it is not built as a browser's
 * @returns {Record<Screen, Figure>}
 */
function forScreens(build, phone) {
  /** @type {Partial<Record<Screen, Figure>>} */
  const made = {};
  /** @param {Screen} screen */
  const get = (screen) => made[screen] || (made[screen] = {  // in the template Python's figures are drawn in
    ...styled(screen === "phone" && phone ? phone() : build(screen === "lecture"), screen,
                  settings().head.most_px), template: settings().template });
  return { get browse() { return get("browse"); }, get lecture() { return get("lecture"); },
           get phone() { return get("phone"); } };
}

/**
 * A sentence's views, as export/attention.py attention_views gives an exported one's: each layer's head view and
 * the model view, built from the layers' attention (`attention(layer)`: {shape: [h, T, T], data})
 * @param {string[]} tokens
 * @param {number} layers  how many
 * @param {(layer: number) => Unpacked} attention
 */
export function attentionViews(tokens, layers, attention) {
  const s = settings(), font = s.screens.font, most = s.head.most_px;
  const numHeads = attention(0).shape[0], heads = Array.from({ length: numHeads }, (_, h) => h);
  const head = Array.from({ length: layers }, (_, layer) => {
    const title = said(s.head.title, { layer, heads: numHeads });
    /** @type {Lines | null} */
    let lines = null;
    /** @param {boolean} lecture */
    const build = (lecture) => {
      lines = lines || attentionLines(attention(layer), heads);
      const figure = headView(lines, tokens, numHeads, title, lecture ? most : null);
      if (lecture) Object.assign(figure.layout.legend, { font: { ...figure.layout.legend.font, size: font }, tracegroupgap: 2 });
      return figure;
    };
    return Object.assign(forScreens(build), { scrolls: 120 + s.head.least_row_px * tokens.length > most });
  });
  const side = thumbnailSide(tokens.length, layers, numHeads);
  const title = s.model.title + (tokens.length > side ? said(s.model.pooled, { side }) : "");
  /** @type {Float32Array[][][] | null} */
  let shares = null;
  const thumbnails = () => (shares = shares || Array.from({ length: layers }, (_, layer) =>
    heads.map((h) => pooledShares(attention(layer), h, side))));
  const model = forScreens((lecture) => modelView(thumbnails(), title, lecture ? most : null), () => {
    const figure = modelView(thumbnails(), title, 0);
    figure.layout.xaxis.tickfont = { size: s.screens.smallest };
    return figure;
  });
  return { head, model };
}

