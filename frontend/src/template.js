// A figure drawn from its template (bertviz_lite/figures/template.py): the app's own figure, as Python built and
// styled it for a screen, with the leaves that depend on the sentence named as expressions, which recipe.js works
// out over the sentence's names. The same as figures/template.py `filled`, which the tests hold the app's figures
// to; nothing here knows what a figure is.
import { valueOf, valueIn } from "./recipe.js";

/** @typedef {import("./recipe.js").Tree} Tree */
/** @typedef {import("./recipe.js").Value} Value */
/** @typedef {(string | number)[]} Path */
/**
 * A template as figures/template.py writes it: the figure, the names bound first (optional), the leaves to set, the
 * items and keys to leave out.
 * @typedef {{ figure: Record<string, unknown>, lets?: [string, Tree][], fills: [Path, Tree][],
 *             drops: [Path, Tree][] }} Template
 */

/**
 * The template's figure with its leaves set from `names` and its drops left out (a new figure).
 * @param {Template} template
 * @param {Record<string, Value>} names
 * @returns {any} Plotly's figure
 */
export function filled(template, names) {
  const figure = structuredClone(template.figure);
  const bound = { ...names };
  for (const [name, tree] of template.lets ?? []) bound[name] = valueIn(tree, bound);
  for (const [path, tree] of template.fills) placed(figure, path, valueOf(tree, bound));
  const dropped = template.drops.filter(([, tree]) => valueOf(tree, bound)).map(([path]) => path);
  dropped.sort((a, b) => later(b, a));  // the last first: an earlier item's index stays true
  for (const path of dropped) {
    const part = at(figure, path.slice(0, -1)), key = path.at(-1);
    if (Array.isArray(part)) part.splice(Number(key), 1);
    else delete part[String(key)];
    if (!Object.keys(part).length) delete at(figure, path.slice(0, -2))[String(path.at(-2))];  // as Plotly leaves
    // out an emptied part
  }
  return figure;
}

/**
 * How two paths compare as Python compares them (tuples: key by key, numbers by size, names by their text).
 * @param {Path} a
 * @param {Path} b
 * @returns {number}
 */
function later(a, b) {
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    if (a[k] !== b[k]) return typeof a[k] === "number" ? Number(a[k]) - Number(b[k]) : String(a[k]) < String(b[k]) ? -1 : 1;
  }
  return a.length - b.length;
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
