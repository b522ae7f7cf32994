// @ts-nocheck
// (not typed yet: Plotly's figures are untyped JSON here; the "one source" work rewrites it)
// The stepper's figures in the browser, in the app's visual language (bertviz_lite/figures/style.py, exported
// with the site as `site.style`: the type size, the colour scales, the marks): a step's matrix, and the figure
// that explains one cell (a sum's terms as a waterfall, a softmax row, a norm's histograms, an activation's curve,
// a rotation's arrows), as figures/charts.py and figures/explanation.py draw them.
import { MASKED_BELOW, fixed } from "./numbers.js";
const FONT_FAMILY = '"Source Sans", sans-serif';  // the app's (fonts.css, from the installed Streamlit)

function style() { return window.BVL_SITE.style; }

function layout(height, title, extra) {
  return { height, title: title ? { text: title, font: { size: style().font } } : undefined,
           font: { size: style().font }, margin: { l: 10, r: 10, t: title ? 60 : 10, b: 10 },
           showlegend: false, paper_bgcolor: "white", plot_bgcolor: "white", ...(extra || {}) };
}

export function escaped(text) {  // figures/style.py plotly_text: Plotly reads text as HTML
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function labelled(tokens) {  // figures/charts.py labelled: "3 bank", unique per position
  return tokens.map((token, i) => `${i} ${escaped(token)}`);
}

// figures/style.py colour_scale for `scale`, a name in its SCALES (handed over with the style): its colours, and its
// fixed ends, else from the numbers (symmetric about 0 for a diverging scale; 0 to 1, or to the largest, for shares)
function colourScale(rows, scale) {
  const named = style().scales[scale];
  if (!named) throw new Error(`No colour scale ${scale}: the figure names one of figures/style.py SCALES.`);
  if (named.ends) return { colorscale: named.colours, zmin: named.ends[0], zmax: named.ends[1] };
  const values = rows.flat().filter((v) => Number.isFinite(v));
  const largest = (list) => list.reduce((a, b) => Math.max(a, b), 0);  // not Math.max(...): 512² numbers would
  // pass the engine's limit on a call's arguments
  if (named.signed) {
    const bound = largest(values.map(Math.abs)) || 1;
    return { colorscale: named.colours, zmin: -bound, zmax: bound };
  }
  const top = largest(values);
  return { colorscale: named.colours, zmin: 0, zmax: top <= 1 ? 1 : top };
}

function spaced(labels, cellWidth, size) {  // upright labels (a window's dimensions): every k-th, k the fewest
  // that keeps them apart
  const room = 0.6 * size * Math.max(...labels.map((l) => l.length)) + 8;
  return { tick0: 0, dtick: Math.max(1, Math.ceil(room / cellWidth)) };
}

// A (rows × columns) matrix: rows and columns named, the chosen cell outlined, its numbers written where a cell
// holds them; `scale`: its colours, a name in figures/style.py SCALES (an op's own: `scale` in the model's ops). Sized to
// `width` (and `tallest`, a lecture's room above the fold): square cells for a token-by-token matrix, a row of
// 22 px per token for a window of dimensions; on a phone the colour bar lies across above the plot.
// `text`: what each cell says where its numbers are written (else two decimals); `rowPx`: a row's height, where a
// few rows of many columns would otherwise be as thin as a column is narrow; `across`: the colour bar across the
// top whatever the width; `least`: the smallest numbers (px) worth writing, a decimal fewer where that allows it
function matrix({ z, rows, columns, title, colorbar, axes, scale, chosen, width, tallest, rotate, text, rowPx,
                  across, least }) {
  const s = style(), narrow = across || width < 560 || rows.length === 1;  // a colour bar across: a phone's, one
  // row's, or a half panel's (`across`), whose cells need the width
  const longest = Math.min(14, Math.max(...rows.map((r) => r.length)));
  const rowRoom = 30 + 0.55 * (s.font - 2) * longest;
  const plotWidth = width - rowRoom - (narrow ? 16 : 100);
  const cellWidth = plotWidth / columns.length;
  const columnRoom = rotate ? 30 + 0.5 * (s.font - 2) * Math.min(14, Math.max(...columns.map((c) => c.length))) : 50;
  const top = (title ? 56 : 10) + (narrow ? 46 : 0);
  let cellHeight = rowPx || (rows.length === 1 ? 60 : rotate ? Math.min(Math.max(cellWidth, 16), 44) : 22);
  if (tallest && rows.length > 1) {  // a projector: the whole matrix above the fold, its rows thinner if need be
    cellHeight = Math.max(4, Math.min(cellHeight, (tallest - top - columnRoom) / rows.length));
  }
  const few = Math.max(rows.length, columns.length) <= s.max_written;
  const sizeFor = (chars) => Math.floor(Math.min(s.font - 2, cellHeight * 0.6, (cellWidth - 6) / (0.55 * chars)));
  // a decimal fewer where `least` px (a lecture's back row) needs it, as figures/fit.py writes them
  const shorter = Boolean(least && !text && few && cellHeight >= 18 && sizeFor(5) < least && sizeFor(4) >= least);
  const written = shorter || (few && cellWidth >= 34 && cellHeight >= 18);
  const heatmap = { type: "heatmap", z, x: columns, y: rows, ...colourScale(z, scale), xgap: 0, ygap: 0,
                    colorbar: narrow ? { title: { text: colorbar, side: "top" }, orientation: "h", thickness: 10,
                                         x: 0.5, xanchor: "center", y: 1.0, yanchor: "bottom", len: 0.9 }
                      : { title: { text: colorbar }, thickness: 14 },
                    hovertemplate: `${axes[0]} %{y}<br>${axes[1]} %{x}<br>%{z:.4f}<extra></extra>` };
  if (written) {
    const size = sizeFor(shorter ? 4 : 5);
    Object.assign(heatmap, text ? { text, texttemplate: "%{text}", textfont: { size } }
      : { texttemplate: shorter ? "%{z:.1f}" : "%{z:.2f}", textfont: { size } });
  }
  const traces = [heatmap];
  if (chosen) {
    traces.push({ type: "scatter", x: [columns[chosen[1]]], y: [rows[chosen[0]]], mode: "markers", hoverinfo: "skip",
                  marker: { symbol: "square-open", size: Math.max(10, Math.min(cellWidth, cellHeight) - 2),
                            color: s.chosen, line: { width: 3 } } });
  }
  const height = Math.round(top + rows.length * cellHeight + columnRoom);
  // labels as large as a row (a column) allows, from 12 px; where even that does not fit, every k-th labelled
  const labelSize = (cell) => Math.max(12, Math.min(s.font - 2, Math.floor(cell - 4)));
  const rowTick = labelSize(cellHeight), columnTick = rotate ? labelSize(cellWidth) : s.font - 2;
  const thinned = { rows: Math.ceil((rowTick + 4) / cellHeight), columns: rotate ? Math.ceil((columnTick + 4) / cellWidth) : 1 };
  const figure = layout(height, title, {
    xaxis: { title: { text: axes[1] }, type: "category", tickangle: rotate ? -60 : 0,
             ...(rotate ? { tick0: 0, dtick: thinned.columns } : spaced(columns, cellWidth, columnTick)),
             range: [-0.5, columns.length - 0.5], autorange: false, fixedrange: true, automargin: true,
             tickfont: { size: columnTick } },
    yaxis: { title: { text: axes[0] }, type: "category", tick0: 0, dtick: thinned.rows, automargin: true,
             tickfont: { size: rowTick }, range: [rows.length - 0.5, -0.5], autorange: false, fixedrange: true },
  });
  figure.margin = { l: 10, r: 10, t: top, b: 10 };
  return { data: traces, layout: figure, thinned };
}

function waterfall(terms, value, top) {  // figures/explanation.py terms_waterfall
  const named = terms.filter(([label]) => !(label.includes("[") && label.includes("]")));
  const many = terms.filter((t) => !named.includes(t)).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  let shown = many.slice(0, top);
  if (many.length > top) {
    shown.push([`the other ${many.length - top} terms`, many.slice(top).reduce((a, [, v]) => a + v, 0)]);
  }
  const masked = named.filter(([, v]) => v <= MASKED_BELOW);
  shown = shown.concat(named.filter((t) => !masked.includes(t)));
  const labels = shown.map(([label]) => escaped(label)), values = shown.map(([, v]) => v);  // markup as text
  const total = masked.length ? value : values.reduce((a, b) => a + b, 0);
  const sign = (v) => (v < 0 ? "-" : "+") + fixed(Math.abs(v), 4);
  const written = labels.map((label, k) => `${label}  ${sign(values[k])}`)
    .concat(masked.length ? "= value  −∞ (masked)" : `= value  ${fixed(value, 4)}`);
  const s = style();
  return {
    data: [{ type: "waterfall", orientation: "h", y: [...labels, "= value"], x: [...values, total],
             measure: [...values.map(() => "relative"), "total"], connector: { line: { color: s.faint, width: 1 } },
             increasing: { marker: { color: s.rise } }, decreasing: { marker: { color: s.fall } },
             totals: { marker: { color: s.ink } }, hovertemplate: "%{y}: %{x:.6f}<extra></extra>" }],
    layout: layout(120 + 26 * (labels.length + 1), masked.length
      ? "the mask adds the most negative number: softmax gives this key 0" : null, {
      yaxis: { autorange: "reversed", type: "category", tickfont: { size: s.font - 3 }, tickmode: "array",
               tickvals: [...labels, "= value"], ticktext: written, automargin: true },
      xaxis: { zeroline: true, automargin: true } }),
  };
}

function softmaxRow(scores, probs, chosen, tokens) {  // figures/explanation.py softmax_row
  const keys = labelled(tokens), s = style();
  const colours = keys.map((_, j) => (j === chosen ? s.chosen : s.ink));
  const seen = scores.map((v) => v > MASKED_BELOW);
  const pick = (list) => list.filter((_, j) => seen[j]);
  return {
    data: [{ type: "bar", orientation: "h", y: pick(keys), x: pick(scores), marker: { color: pick(colours) },
             hovertemplate: "%{y}: %{x:.4f}<extra></extra>", xaxis: "x", yaxis: "y" },
           { type: "bar", orientation: "h", y: keys, x: probs, marker: { color: colours },
             hovertemplate: "%{y}: %{x:.4f}<extra></extra>", xaxis: "x2", yaxis: "y" }],
    layout: layout(Math.min(560, 110 + 24 * keys.length), null, {
      grid: { rows: 1, columns: 2, pattern: "independent" },
      xaxis: { domain: [0, 0.48], title: { text: "score s_ij" } }, xaxis2: { domain: [0.52, 1], title: { text: "softmax p_ij" } },
      yaxis: { autorange: "reversed", type: "category", tickfont: { size: s.font - 3 }, automargin: true } }),
  };
}

function histograms(before, after, dim) {  // figures/explanation.py norm_histograms
  const s = style(), stats = (v) => {
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    return [mean, Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length)];
  };
  const [mb, sb] = stats(before), [ma, sa] = stats(after);
  const bar = (x, axis) => ({ type: "histogram", x, nbinsx: 40, marker: { color: s.pale }, xaxis: `x${axis}`,
                              yaxis: `y${axis}`, hovertemplate: "%{x}: %{y} numbers<extra></extra>" });
  const line = (x, axis) => ({ type: "line", x0: x, x1: x, y0: 0, y1: 1, xref: `x${axis}`, yref: `y${axis} domain`,
                               line: { color: s.chosen, width: 3 } });
  return {
    data: [bar(before, ""), bar(after, "2")],
    layout: layout(380, `${before.length} numbers; dimension ${dim} in orange`, {
      grid: { rows: 2, columns: 1, pattern: "independent" },
      yaxis: { domain: [0.6, 1] }, yaxis2: { domain: [0, 0.4] },
      shapes: [line(before[dim], ""), line(after[dim], "2")],
      annotations: [[`before: mean ${fixed(mb, 3)}, std ${fixed(sb, 3)}`, 1.0],
                    [`after: mean ${fixed(ma, 3)}, std ${fixed(sa, 3)}`, 0.44]].map(([text, y]) => (
        { text, x: 0.5, y, xref: "paper", yref: "paper", showarrow: false, yanchor: "bottom" })) }),
  };
}

function curve(xs, ys, point, name) {  // figures/explanation.py activation_curve
  const s = style();
  const data = [{ type: "scatter", x: xs, y: ys, mode: "lines", line: { color: s.ink, width: 3 },
                  hovertemplate: `${name}(%{x:.3f}) = %{y:.3f}<extra></extra>` }];
  if (xs[0] <= point && point <= xs[xs.length - 1]) {
    const k = Math.min(xs.length - 2, Math.floor(((point - xs[0]) / (xs[xs.length - 1] - xs[0])) * (xs.length - 1)));
    const at = ys[k] + ((ys[k + 1] - ys[k]) * (point - xs[k])) / (xs[k + 1] - xs[k]);
    data.push({ type: "scatter", x: [point], y: [at], mode: "markers", marker: { size: 16, color: s.chosen } });
  }
  return { data, layout: layout(340, `${name}, at this number's input`, {
    xaxis: { title: { text: "pre-activation" }, zeroline: true }, yaxis: { title: { text: name }, zeroline: true } }) };
}

function arrows(before, after, angle) {  // figures/explanation.py rotation_arrows
  const s = style(), reach = 1.2 * Math.max(Math.hypot(...before), 1e-6);
  const pairs = [[before, s.pale, "before"], [after, s.ink, "after"]];
  return {
    data: pairs.map(([[x, y], colour, name]) => ({ type: "scatter", x: [x], y: [y], mode: "markers+text", text: [name],
                                                   textposition: "top center", marker: { color: colour, size: 8 } })),
    layout: layout(380, `turned by θ = ${fixed(angle, 3)} rad (${fixed(((angle * 180) / Math.PI) % 360, 1)}°)`, {
      annotations: pairs.map(([[x, y], colour]) => ({ x, y, ax: 0, ay: 0, xref: "x", yref: "y", axref: "x", ayref: "y",
                                                      showarrow: true, arrowhead: 2, arrowwidth: 3, arrowcolor: colour, text: "" })),
      xaxis: { range: [-reach, reach], zeroline: true, title: { text: "first of the pair" } },
      yaxis: { range: [-reach, reach], zeroline: true, scaleanchor: "x", title: { text: "second of the pair" } } }),
  };
}

function explanation(e, tokens, top) {  // figures/explanation.py explanation_figure, by the op's drawn_as
  switch (e.drawn_as) {
    case "terms": return e.terms.length ? waterfall(e.terms, e.value, top) : null;
    case "softmax row": return softmaxRow(e.inputs.scores_row, e.inputs.exp_row.map((v) => v / e.inputs.sum_exp),
                                          e.at[1], tokens);
    case "histograms": return e.figure.before ? histograms(e.figure.before, e.figure.after, e.at[e.at.length - 1]) : null;
    case "curve": return e.figure.curve_x ? curve(e.figure.curve_x, e.figure.curve_y, e.figure.point,
                                                  e.inputs.function) : null;
    case "arrows": return arrows(e.figure.before, e.figure.after, e.figure.angle);
    default: return null;
  }
}

// Draw a figure as the app's page draws it: the title a little larger than the figure's type (as Streamlit's
// theme sets it, and as figures/fit.py makes room for it), no tool bar, the width of its box; a figure the app's
// Python drew in the template it names (export/screens.py drawn: held once in the site's data).
export function plot(div, figure) {
  const size = (figure.layout.font && figure.layout.font.size) || style().font;
  const title = figure.layout.title;
  const titleSize = (title && title.font && title.font.size) || Math.round(size * 1.1);
  const layout = { ...figure.layout, font: { family: FONT_FAMILY, ...(figure.layout.font || {}) },
                   title: title && { ...title, font: { size: titleSize, ...(title.font || {}) } } };
  for (const name of Object.keys(layout).filter((k) => /^[xy]axis\d*$/.test(k))) {  // labels inside the figure
    layout[name] = { automargin: true, ...layout[name] };
  }
  if (title && title.yanchor === "top" && title.yref === "container") {  // lines set from the top: Plotly sets the
    // first line's middle there, so its upper half would be cut by the figure's edge
    layout.title.pad = { ...(title.pad || {}), t: ((title.pad && title.pad.t) || 0) + Math.round(titleSize / 2) };
  }
  if (figure.template) layout.template = window.BVL_SITE.templates[figure.template];  // a figure Python drew
  return Plotly.newPlot(div, figure.data, layout, { displaylogo: false, displayModeBar: false, responsive: true });
}

export { matrix as heatmap, explanation as explanationFigure };
