// A token's label on a figure's axis ("3 bank", unique per position, escaped as Plotly reads text): the app's rule,
// figures/style.py AXIS_LABELS, handed over in the site's style as an expression and worked out by recipe.js.
import { valueOf } from "./recipe.js";

/**
 * figures/style.py labelled ("3 bank", unique per position): its rule, AXIS_LABELS, in the site's style.
 * @param {string[]} tokens
 * @returns {string[]}
 */
export function labelled(tokens) {
  return /** @type {string[]} */ (valueOf(window.BVL_SITE.style.token_labels, { tokens }));
}
