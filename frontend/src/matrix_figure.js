// A step's matrix as the app draws it (bertviz_lite/export/matrices.py: figures/charts.py's attention_heatmap and
// matrix_window, styled by Python for each screen as the app's Layers page styles them): the template of the form
// that the matrix's length takes, filled with its numbers, labels, title, scale and chosen cell. Nothing here knows
// how a matrix is sized.
import { valueOf } from "./recipe.js";
import { filled } from "./template.js";

/** @typedef {import("./page.js").Screen} Screen */
/** @typedef {import("./template.js").Template} Template */
/** @typedef {import("./recipe.js").Tree} Tree */
/** @typedef {import("./values.js").Value} Value */
/**
 * Where a matrix is drawn: a screen, or a projector under the tour's controls (export/matrices.py TALLEST).
 * @typedef {Screen | "tour_lecture"} Place
 */
/**
 * One form of a kind of matrix: the condition on its names that picks it, and its template for each place.
 * @typedef {Record<Place, Template> & { when: Tree }} Form
 */

/**
 * Rows of numbers (null where masked) as one array of numbers (NaN where masked), as the templates name `z`.
 * @param {(number | null)[][]} rows
 * @returns {import("./numbers.js").Unpacked}
 */
export function asMatrix(rows) {
  const columns = rows.length ? rows[0].length : 0;
  const data = new Float64Array(rows.length * columns);
  rows.forEach((r, i) => r.forEach((v, j) => { data[i * columns + j] = v === null ? NaN : v; }));
  return { shape: [rows.length, columns], data };
}

/**
 * The matrix of `kind` ("token": a head's token-by-token matrix; "window": a window of dimensions) for `place`:
 * the first form whose condition holds (the last holds for any length).
 * @param {"token" | "window"} kind
 * @param {Record<string, Value>} names
 * @param {Place} place
 * @returns {any} Plotly's figure
 */
export function matrixFigure(kind, names, place) {
  return formFigure(/** @type {Record<string, Form[]>} */ (window.BVL_SITE.views.matrices)[kind], names, place);
}

/**
 * The figure of `forms` for `names` at `place`: the first form whose condition holds (the last holds for any
 * length), filled.
 * @param {Form[]} forms
 * @param {Record<string, Value>} names
 * @param {Place} place
 * @returns {any} Plotly's figure
 */
export function formFigure(forms, names, place) {
  const form = /** @type {Form} */ (forms.find((f) => valueOf(f.when, names)));
  return filled(form[place], names);
}
