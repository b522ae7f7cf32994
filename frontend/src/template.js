// A figure drawn from its template (bertviz_lite/figures/template.py): the app's own figure, as Python built and
// styled it for a screen, with the leaves that depend on the sentence named as expressions, which recipe.js works
// out over the sentence's names. The same as figures/template.py `filled`, which the tests hold the app's figures
// to; nothing here knows what a figure is.
import { valueOf } from "./recipe.js";

/** @typedef {import("./recipe.js").Tree} Tree */
/** @typedef {import("./recipe.js").Value} Value */
/** @typedef {(string | number)[]} Path */
/**
 * A template as figures/template.py template_of writes it: the figure, the leaves to set, the items to leave out.
 * @typedef {{ figure: Record<string, unknown>, fills: [Path, Tree][], drops: [Path, Tree][] }} Template
 */

/**
 * The template's figure with its leaves set from `names` and its drops left out (a new figure).
 * @param {Template} template
 * @param {Record<string, Value>} names
 * @returns {any} Plotly's figure
 */
export function filled(template, names) {
  const figure = structuredClone(template.figure);
  for (const [path, tree] of template.fills) placed(figure, path, valueOf(tree, names));
  const dropped = template.drops.filter(([, tree]) => valueOf(tree, names)).map(([path]) => path);
  dropped.sort((a, b) => Number(b.at(-1)) - Number(a.at(-1)));  // the last first: an earlier item's index stays
  for (const path of dropped) {
    const items = /** @type {unknown[]} */ (at(figure, path.slice(0, -1)));
    items.splice(Number(path.at(-1)), 1);
    if (!items.length) delete at(figure, path.slice(0, -2))[String(path.at(-2))];  // as Plotly's JSON has none
  }
  return figure;
}

/**
 * The part of `figure` at `path`.
 * @param {any} figure
 * @param {Path} path
 * @returns {any}
 */
function at(figure, path) {
  return path.reduce((part, key) => part[key], figure);
}

/**
 * The leaf at `path` set, the objects on the way made where the figure has none (a default Plotly leaves out).
 * @param {any} figure
 * @param {Path} path
 * @param {unknown} value
 */
function placed(figure, path, value) {
  const parent = path.slice(0, -1).reduce((part, key) => (part[key] ??= {}), figure);
  parent[/** @type {string | number} */ (path.at(-1))] = value;
}
