// @ts-nocheck
// (not typed yet: Plotly's figures are untyped JSON here; the "one source" work rewrites it)
// The stepper's matrix in the browser, in the app's visual language (bertviz_lite/figures/style.py, exported
// with the site as `site.style`: the type size, the colour scales, the marks), as figures/charts.py draws it; and
// `plot`, which draws any figure as the app's page does. (A clicked cell's figure is the app's own:
// explanation_figure.js.)
const FONT_FAMILY = '"Source Sans", sans-serif';  // the app's (fonts.css, from the installed Streamlit)

function style() { return window.BVL_SITE.style; }

function layout(height, title, extra) {
  return { height, title: title ? { text: title, font: { size: style().font } } : undefined,
           font: { size: style().font }, margin: { l: 10, r: 10, t: title ? 60 : 10, b: 10 },
           showlegend: false, paper_bgcolor: "white", plot_bgcolor: "white", ...(extra || {}) };
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

export { matrix as heatmap };
