// A figure the browser built (attention_views.js) styled for the screen that draws it, as the app's Python styles
// each figure it exports (figures/screens.py styled, figures/fit.py fit): on a projector larger type, on every
// screen a title that wraps to the width, a colour bar's numbers as many as its length holds, and on a phone the
// legend under the plot. Only the parts of `fit` that these figures meet: their axes are numbered or hidden, never
// a category's labels, so no label is thinned or cut here. Changed in place and returned.
import { pyRound } from "./numbers.js";
import { escaped } from "./figures.js";

/**
 * Plotly's figures, the fields these scripts set or read (Plotly's JSON, its types not installed here: any other
 * field is kept as it is).
 * @typedef {{ size?: number, [field: string]: unknown }} Font
 * @typedef {{ text?: string, font?: Font, pad?: Record<string, number>, [field: string]: unknown }} Title
 * @typedef {{ tickfont?: Font, title?: Title, tickangle?: number, [field: string]: unknown }} Axis
 * @typedef {{ t?: number, b?: number, l?: number, r?: number }} Margin
 * @typedef {{ nticks?: number, thickness?: number, title?: Title, [field: string]: unknown }} ColourBar
 * @typedef {{ type?: string, showscale?: boolean, coloraxis?: string, colorbar?: ColourBar, textfont?: Font,
 *             showlegend?: boolean, name?: string, [field: string]: unknown }} Trace
 * @typedef {{ height?: number, font?: Font, meta?: { keeps_height?: boolean }, title?: Title, margin?: Margin,
 *             xaxis?: Axis, showlegend?: boolean, legend?: { font?: Font, [field: string]: unknown },
 *             [field: string]: unknown }} Layout
 * @typedef {{ data: Trace[], layout: Layout, [field: string]: unknown }} Figure
 */
/**
 * The parts of the app's styling these views meet (export/attention.py attention_settings' `screens`): a browser's
 * and a phone's width, the type's sizes (a projector's, the smallest), the width below which a screen is narrow, and
 * the measures of figures/fit.py and room.py.
 * @typedef {{ browse: number, phone: number, font: number, lecture_font: number, smallest: number, narrow: number,
 *             char_em: number, line_em: number, tick_gap: number, title_line_em: number,
 *             bar_thickness: number }} Screens
 */

/** @returns {Screens} */
const screens = () => window.BVL_SITE.views.attention.screens;  // the site's JSON (a live site's: only it styles here)

/**
 * `figure` styled for `screen`, changed in place; on a projector at most `tallest` high unless it keeps its height.
 * @param {Figure} figure
 * @param {import("./page.js").Screen} screen
 * @param {number} tallest
 * @returns {Figure}
 */
export function styled(figure, screen, tallest) {
  const s = screens(), layout = figure.layout;
  if (screen === "lecture") {  // figures/screens.py styled(lecture=True)
    const height = layout.height || tallest;
    layout.font = { ...layout.font, size: s.lecture_font };
    layout.height = layout.meta && layout.meta.keeps_height ? height : Math.min(height, tallest);
    for (const name of axes(layout)) {
      const axis = /** @type {Axis} */ (layout[name]);  // (JSON: an axis by its name, xaxis2 as xaxis)
      axis.tickfont = { ...axis.tickfont, size: s.lecture_font - 2 };
      axis.title = { ...axis.title, font: { ...(axis.title || {}).font, size: s.lecture_font } };
    }
    for (const trace of figure.data.filter((t) => t.type === "heatmap")) {
      trace.textfont = { ...trace.textfont, size: s.lecture_font - 2 };
    }
  }
  const width = screen === "phone" ? s.phone : s.browse;
  const base = (layout.font && layout.font.size) || 12;
  fitColourBars(figure, base);
  fitTitle(layout, width, base);
  fitLegend(figure, width, base);
  return figure;
}

/**
 * The names of a layout's axes.
 * @param {Layout} layout
 * @returns {string[]}
 */
function axes(layout) {
  return Object.keys(layout).filter((name) => /^[xy]axis\d*$/.test(name));
}

/**
 * fit.py _fit_title: a title too long for the width on as many lines as it needs, each taking room above the plot
 * @param {Layout} layout
 * @param {number} width
 * @param {number} base  the figure's type size
 */
function fitTitle(layout, width, base) {
  const wrap = wrappedTitle(layout, width, base);
  if (wrap && layout.title) {  // (a title to wrap is there)
    Object.assign(layout.title, { text: wrap.text, yref: "container", y: 1, yanchor: "top",
                                  pad: { ...layout.title.pad, t: 8 } });
    layout.margin = { ...layout.margin, t: ((layout.margin || {}).t || 0) + wrap.added };
  }
}

/**
 * The title on as many lines as `width` needs, and the height they add; null where it fits
 * @param {Layout} layout
 * @param {number} width
 * @param {number} base  the figure's type size
 * @returns {{ text: string, added: number } | null}
 */
export function wrappedTitle(layout, width, base) {
  const title = layout.title && layout.title.text;
  if (!title || !layout.title) return null;  // (a text: layout.title is there)
  const { char_em: em, line_em: line } = screens();
  const size = (layout.title.font && layout.title.font.size) || base * 1.1;
  const perLine = Math.max(12, Math.trunc((width - 20) / (size * em)));
  const given = title.split("<br>");
  const lines = given.flatMap((text) => wrapped(unescaped(text), perLine));
  return lines.length > given.length ? { text: lines.map(escaped).join("<br>"),
                                         added: pyRound(line * size) * (lines.length - given.length) } : null;
}

/**
 * Python's textwrap.wrap on words (these titles hold no hyphen, no long word)
 * @param {string} text
 * @param {number} width
 * @returns {string[]}
 */
function wrapped(text, width) {
  /** @type {string[]} */
  const lines = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [""];
}

/** @param {string} text */
function unescaped(text) {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * colour_bars.py fit_colour_bars, for a bar beside the plot: as many numbers as its height holds, a line and a
 * half each, its title along it
 * @param {Figure} figure
 * @param {number} base  the figure's type size
 */
function fitColourBars(figure, base) {
  const s = screens(), layout = figure.layout;
  const bars = figure.data.filter((t) => t.type === "heatmap" && t.showscale !== false && !t.coloraxis);
  if (!bars.length) return;
  const xaxis = layout.xaxis || {}, size = (xaxis.tickfont && xaxis.tickfont.size) || base;
  const angle = Math.abs(xaxis.tickangle || 0) * Math.PI / 180;
  if (angle) throw new Error("styled.js: a colour bar beside rotated column labels is not fitted here");
  const titleLines = xaxis.title && xaxis.title.text ? xaxis.title.text.split("<br>").length : 0;
  const labels = size * s.line_em + s.tick_gap + s.title_line_em * base * titleLines;  // room.py label_room, flat
  const margin = layout.margin || {};
  const length = Math.max(1, (layout.height || 450) - (margin.t || 0) - (margin.b || 0) - labels);
  const upright = Math.max(2, Math.trunc(length / (s.line_em * 1.5 * base)));
  for (const trace of bars) {
    const bar = trace.colorbar || {};
    trace.colorbar = { ...bar, nticks: Math.min(bar.nticks || upright, upright),
                       thickness: Math.min(bar.thickness || s.bar_thickness, s.bar_thickness),
                       title: { ...bar.title, side: "right" } };
  }
}

/**
 * fit.py _fit_legend: on a narrow screen the legend under the plot, an entry a line, the figure taller by them
 * @param {Figure} figure
 * @param {number} width
 * @param {number} base  the figure's type size
 */
function fitLegend(figure, width, base) {
  const s = screens(), layout = figure.layout;
  if (width >= s.narrow || layout.showlegend === false) return;
  const entries = figure.data.filter((t) => t.showlegend !== false && t.name).length;
  if (entries < 2) return;
  layout.legend = { ...layout.legend, orientation: "h", x: 0, xanchor: "left", y: -0.15, yanchor: "top" };
  layout.height = (layout.height || 450) + pyRound(s.line_em * base * entries) + 40;
}

