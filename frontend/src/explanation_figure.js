// The figure that explains a clicked cell: the app's own (bertviz_lite/figures/explanation.py), as the site's
// template for each screen (export/explanations.py: the kind's skeleton styled by Python, its leaves named),
// filled with what the cell's recipe worked out (explain.js), named as the app names them (explanation_names).
import { valueOf } from "./recipe.js";
import { filled } from "./template.js";
import { vector } from "./values.js";

/** @typedef {import("./explain.js").Explained} Explained */
/** @typedef {import("./page.js").Screen} Screen */
/** @typedef {import("./template.js").Template} Template */
/** @typedef {import("./recipe.js").Tree} Tree */
/** @typedef {import("./values.js").Value} Value */
/**
 * A kind of explanation figure, as the site's data holds it: what it needs drawn, and its template by screen.
 * @typedef {Record<Screen, Template> & { needs: string[], drawn: Tree }} Kind
 */

/**
 * A number, or an array of numbers as one (numbers.js Unpacked), or a value as it is.
 * @param {unknown} value
 * @returns {Value}
 */
const named = (value) => (Array.isArray(value) && value.every((x) => typeof x === "number")
  ? vector(value) : /** @type {Value} */ (value));

/**
 * What the figure reads of an explanation, by name (figures/explanation.py explanation_names).
 * @param {Explained} e
 * @param {string[]} tokens
 * @returns {Record<string, Value>}
 */
function namesOf(e, tokens) {
  const given = Object.entries({ ...e.inputs, ...e.figure }).map(([k, v]) => [k, named(v)]);
  return { ...Object.fromEntries(given), labels: e.terms.map(([label]) => label),
           values: vector(e.terms.map(([, v]) => v)), value: e.value, cell: vector(e.at), tokens };
}

/**
 * The cell's figure for `screen`, or null where its operation draws none or the explanation holds nothing to draw.
 * @param {Explained} e
 * @param {string[]} tokens
 * @param {Screen} screen
 * @returns {any} Plotly's figure
 */
export function explanationFigure(e, tokens, screen) {
  const kind = /** @type {Record<string, Kind>} */ (window.BVL_SITE.views.explanations)[e.drawn_as ?? ""];
  if (!kind) return null;
  const names = namesOf(e, tokens);
  if (kind.needs.some((name) => names[name] === undefined || names[name] === null)) return null;
  return valueOf(kind.drawn, names) ? filled(kind[screen], names) : null;
}
