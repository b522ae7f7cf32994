// Draw a figure as the app's page draws it: the title a little larger than the figure's type (as Streamlit's theme
// sets it, and as figures/fit.py makes room for it), no tool bar, the width of its box; a figure the app's Python
// drew in the template it names (export/screens.py drawn: held once in the site's data). Every figure a site draws is
// the app's own (styled in Python, or a template filled with a typed sentence's numbers): nothing here sizes one.

import { walkable } from "./cell_keys.js";

/** @typedef {import("./figure_types.js").Figure} Figure */

const FONT_FAMILY = '"Source Sans", sans-serif';  // the app's (fonts.css, from the installed Streamlit)

/**
 * A layout's title as Plotly takes it (the parts read here).
 * @typedef {{ text?: string, font?: { size?: number }, yanchor?: string, yref?: string,
 *             pad?: { t?: number }, [part: string]: unknown }} Title
 */

/**
 * Draw `figure` in `div`; it is then named and described for a screen reader, and a heatmap's cells walked by the
 * keyboard and read as a grid (cell_keys.js), and
 * `walk` says what its keys do beyond reading (the stepper's Enter explains a cell).
 * @param {HTMLElement} div
 * @param {any} figure  Plotly's figure: data, layout, and the name of the template it was drawn in
 * @param {import("./cell_keys.js").Walk} [walk]
 * @returns {Promise<unknown>}
 */
export function plot(div, figure, walk = {}) {
  const site = window.BVL_SITE, given = figure.layout;
  const size = (given.font && given.font.size) || site.style.font;
  const title = /** @type {Title | undefined} */ (given.title);
  const titleSize = (title && title.font && title.font.size) || Math.round(size * 1.1);
  /** @type {Record<string, any>} */
  const layout = { ...given, font: { family: FONT_FAMILY, ...(given.font || {}) },
                   title: title && { ...title, font: { size: titleSize, ...(title.font || {}) } } };
  for (const name of Object.keys(layout).filter((k) => /^[xy]axis\d*$/.test(k))) {  // labels inside the figure
    layout[name] = { automargin: true, ...layout[name] };
  }
  if (title && title.yanchor === "top" && title.yref === "container") {  // lines set from the top: Plotly sets the
    // first line's middle there, so its upper half would be cut by the figure's edge
    layout.title.pad = { ...(title.pad || {}), t: ((title.pad && title.pad.t) || 0) + Math.round(titleSize / 2) };
  }
  if (figure.template) layout.template = site.templates[figure.template];  // a figure Python drew
  return Plotly.newPlot(div, figure.data, layout, { displaylogo: false, displayModeBar: false, responsive: true })
    .then((/** @type {unknown} */ drawn) => { walkable(div, walk); return drawn; });
}
