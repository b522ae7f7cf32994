// A point of a figure in words, from the figure's own hover template, which Python wrote: what the mouse reads, the
// keyboard's walk says (cell_keys.js) and a head view's lines are listed in (token_lines.js, head_view.js).

import { unescaped } from "./figure_words.js";

/**
 * What a cell's hover template may name: its x and y labels, its value (null or NaN where masked), its text and its
 * custom data where the trace has them.
 * @typedef {{ x?: string | number, y?: string | number, z?: number | null, text?: unknown,
 *             customdata?: unknown, [field: string]: unknown }} CellFields
 */

/**
 * A cell in words from the figure's hover template ("query %{y}<br>key %{x}<br>%{z:.4f}<extra></extra>"): its
 * fields filled (a number's ".Nf" as Plotly writes it, with a minus sign), its line breaks made commas, its markup
 * dropped.
 * @param {string} template
 * @param {CellFields} cell
 * @returns {string}
 */
export function cellWords(template, cell) {
  return template.replace(/<extra>.*?<\/extra>/g, "")
    .replace(/%\{(\w+)(?:\[(\d+)\])?(?::\.(\d+)f)?\}/g, (whole, field, index, digits) => {
      const named = /** @type {Record<string, unknown>} */ (cell)[field];
      const value = index === undefined ? named : Array.isArray(named) ? named[Number(index)] : undefined;
      if (field === "z" && (value === null || (typeof value === "number" && Number.isNaN(value)))) return "masked";
      if (value === undefined || value === null) return "";
      if (typeof value === "number" && digits !== undefined) return value.toFixed(Number(digits)).replace("-", "−");
      return String(value);
    })
    .replace(/<br\s*\/?>/g, ", ").replace(/<[^>]+>/g, "")
    .replace(/&lt;|&gt;|&amp;/g, unescaped);  // a token as Plotly reads it (escaped: figure_words.js)
}

