// BertViz's head view and model view of a sentence computed in this browser: the app's own figures, as templates
// (export/attention.py attention_templates: each screen's figure, styled by Python, with the leaves that depend on
// the sentence named), filled (template.js) with the lines and thumbnails that the `views` graph computes by the
// app's rules (export/analysis_graphs.py Views: attention_lines.py, analyses/ and figures/attention_views.py).
// tests/test_export_live.py holds these figures to the ones export/attention.py draws, screen by screen.
import { analysed } from "./analysis_graphs.js";
import { escaped } from "./figure_words.js";
import { valueOf } from "./recipe.js";
import { eachScreen } from "./page.js";
import { filled } from "./template.js";

/** @typedef {import("./page.js").Screen} Screen */
/** @typedef {import("./template.js").Template} Template */
/** @typedef {import("./analysis_graphs.js").Sentence} Sentence */
/** @typedef {import("./recipe.js").Value} Value */
/**
 * The views' templates (site.views.attention): the head view's and the model view's for each screen, and whether a
 * head view's rows scroll.
 * @typedef {{ head: Record<Screen, Template>, model: Record<Screen, Template>, scrolls: import("./recipe.js").Tree }}
 *   Templates
 */

/** @returns {Templates} */
function templates() {
  const given = window.BVL_SITE.views.attention;  // the site's JSON
  if (!given) throw new Error("This site was written without --live: it builds no attention view in the browser.");
  return given;
}

/**
 * A view for each screen, filled when first drawn.
 * @param {Record<Screen, Template>} screens
 * @param {Record<string, Value>} names
 */
const filledForScreens = (screens, names) => eachScreen((screen) => filled(screens[screen], names));

/**
 * A sentence's views, as export/attention.py attention_views gives an exported one's: each layer's head view and
 * the model view, from the `views` graph run on its attention.
 * @param {Sentence & { tokens: string[] }} sentence
 */
export async function attentionViews(sentence) {
  const found = await analysed("views", sentence), t = templates();
  const names = { n: sentence.tokens.length, labels: sentence.tokens.map(escaped) };
  const layers = Object.keys(found).filter((name) => name.startsWith("points.")).length;
  const head = Array.from({ length: layers }, (_, layer) => Object.assign(filledForScreens(t.head, {
    ...names, layer, x: found[`x.${layer}`], y: found[`y.${layer}`], points: found[`points.${layer}`] }),
  { scrolls: Boolean(valueOf(t.scrolls, names)) }));
  const model = filledForScreens(t.model, { ...names, canvas: found.canvas, placing: found.placing,
                                      side: found.side.data[0] });
  return { head, model };
}
