// A figure's accessible name and description (issue 56: WCAG 1.1.1 Non-text Content, 4.1.2 Name, Role, Value): the
// box Plotly drew it in is a figure named by its title, and described by its point in one line, the words Python
// carried in the figure (layout.meta's "point": bertviz_lite/figures/described.py) or, where the page says the
// figure's point itself (the stepper's line on what the step computes), that line. A walked heatmap is then a grid
// (cell_keys.js), keeping the name and the description.

/** @typedef {HTMLElement & { layout?: any }} Drawn */

/**
 * Text as a screen reader should hear it: a figure's markup dropped (line breaks, bold, the chosen panel's ▸ ◂).
 * @param {unknown} text
 */
function plain(text) {
  return String(text || "").replace(/<br\s*\/?>/g, " ").replace(/<[^>]+>/g, "").replace(/[▸◂]/g, "")
    .replace(/\s+/g, " ").trim();
}

/**
 * The figure's name: its title as text, or where it has none the name Python gave it (layout.meta's "name"), or its
 * panels' titles (the annotations placed on the paper above them: matrices side by side), or "Figure".
 * @param {Drawn} figure
 */
function titleOf(figure) {
  const layout = figure.layout || {};
  const title = plain(typeof layout.title === "string" ? layout.title : layout.title && layout.title.text);
  const meta = layout.meta && typeof layout.meta === "object" ? layout.meta : {};
  const panels = (layout.annotations || [])
    .filter((/** @type {any} */ note) => note.xref === "paper" && note.yref === "paper" && note.yanchor === "bottom")
    .map((/** @type {any} */ note) => plain(note.text)).filter(Boolean);
  return title || plain(meta.name) || panels.join(" · ") || "Figure";
}

/**
 * The figure's point in one line, as Python wrote it ("" where it gave none).
 * @param {Drawn} figure
 */
function pointOf(figure) {
  const meta = figure.layout && figure.layout.meta;
  return meta && typeof meta === "object" ? plain(meta.point) : "";
}

/**
 * Name the drawn figure and describe it: by its own point (a hidden line in its box: a description is read from a
 * hidden element, and the line is not read again as the figure's content), or by the page's element `said` (an id)
 * where the page says the figure's point.
 * @param {HTMLElement} figure  the box Plotly drew the figure in
 * @param {string} [said]
 */
export function nameFigure(figure, said) {
  const id = figure.id || (figure.id = `plot-${Math.random().toString(36).slice(2)}`);  // not "figure-…": a site's
  // analyses' boxes
  const point = said ? "" : pointOf(/** @type {Drawn} */ (figure));
  let line = figure.querySelector(":scope > .figure-point");
  if (point) {
    if (!line) {
      line = Object.assign(document.createElement("p"), { className: "figure-point", hidden: true,
                                                           id: `point-of-${id}` });  // not "${id}…": a selector of
      figure.append(line);  // the figures by their ids' start finds the figures only
    }
    line.textContent = point;
  } else if (line) {
    line.remove();
  }
  figure.setAttribute("role", "figure");
  figure.setAttribute("aria-label", titleOf(/** @type {Drawn} */ (figure)));
  const by = said || (line && point ? line.id : "");
  if (by) figure.setAttribute("aria-describedby", by);
  else figure.removeAttribute("aria-describedby");
}
