// The Heads and Rollout pages of a sentence computed in this browser, from the run's attention: each head's
// fingerprint (Clark et al. 2019, analyses/head_fingerprints.py) and the attention rollout (Abnar & Zuidema 2020,
// analyses/rollout.py), computed by the app's own functions as a graph (analysis_graphs.js), worded as the app's
// Python words them (export/analyses.py heads_page, rollout_page); the Heads page's grids are the app's own figures
// (export/analyses.py heads_templates), filled; so are the Rollout page's (export/analysis_figures.py). tests/test_export_live.py holds the numbers and the pages' words to the
// app's.
import { askedOf } from "./asked.js";
import { at, fixed, matrix } from "./numbers.js";
import { analysed } from "./analysis_graphs.js";
import { labelled } from "./labels.js";
import { escaped } from "./figure_words.js";
import { eachScreen, said } from "./page.js";
import { filled } from "./template.js";
import { asMatrix, formFigure } from "./matrix_figure.js";
import { words, item, picker, numbered, page, tokenOption } from "./analysed_page.js";

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {import("./analysed_page.js").Computed} Computed */
/** @typedef {import("./analysed_page.js").Page} Page */
/**
 * Each head's fingerprint by statistic (export/analyses.py analyses_words `stats`): a (layer, head) grid of its mean
 * over query tokens (head_fingerprints.py HeadFingerprints).
 * @typedef {Record<string, number[][]>} Fingerprints
 */
/** A striking head (head_fingerprints.py striking_heads): [layer, head, the statistic, its value]. */
/** @typedef {[number, number, string, number]} Striking */

/**
 * The numbers: the fingerprints (7, L, H), the rollout (L, T, T) and the striking heads, by the package's own
 * functions as a graph (export/analysis_graphs.py AttentionAnalyses) that runs here on the run's attention: the
 * heads come in order of their strongest statistic (head_fingerprints.py strongest_first), the striking ones first.
 * @param {Computed} lecture
 * @returns {Promise<{ fingerprints: Unpacked, stats: Fingerprints, R: number[][][], found: Striking[] }>}
 */
async function attentionAnalyses(lecture) {
  const found = await analysed("attention", lecture), { least, most } = words().striking;
  const { fingerprints, rollout } = found, heads = fingerprints.shape[2];
  const [order, stat, value] = ["striking_order", "striking_stat", "striking_value"].map((k) => Array.from(found[k].data));
  /** @type {Striking[]} */
  const striking = order.map((index, k) => [Math.floor(index / heads), index % heads, words().stats[stat[k]], value[k]]);
  return { fingerprints, stats: Object.fromEntries(words().stats.map((name, k) => [name, matrix(fingerprints, k)])),
           R: Array.from({ length: rollout.shape[0] }, (_, l) => matrix(rollout, l)),
           found: striking.filter(([, , , v]) => v >= least).slice(0, most) };  // as striking_heads takes them
}

/**
 * export/analyses.py heads_page, with its numbers (each statistic's grid).
 * @param {Computed} lecture
 * @returns {Promise<Page & { numbers: Fingerprints }>}
 */
export async function headsPage(lecture) {
  const w = words(), { fingerprints, stats, found } = await attentionAnalyses(lecture);
  const grids = Object.fromEntries(w.stats.map((stat, k) => [stat, item(eachScreen((screen) =>  // the app's figure
    filled(w.figures.heads[stat][screen], { z: at(fingerprints, k) })), [w.captions[stat]])]));
  const named = w.striking.said + (found.length ? found.map(([layer, head, stat, value]) =>
    `- layer ${layer}, head ${head} ${w.stat_words[stat]}: ${fixed(value, 2)}`).join("\n") : w.striking.none);
  const links = found.map(([layer, head]) => ({ text: said(w.striking.open, { layer, head }), page: "layers",
                                                keys: { layer: String(layer), head: String(head),
                                                        step: "attn.probs" } }));
  const layers = fingerprints.shape[1];
  const asked = Object.fromEntries(w.stats.flatMap((stat, k) => Array.from({ length: layers }, (_, layer) =>
    [`${stat},${layer}`, askedOf(w.head_asking, null, { grid: at(fingerprints, k), layer, does: w.stat_does[stat] })])));
  return Object.assign(page("heads", [picker("stat", w.stats.map((s) => [s, w.stat_buttons[s]]), w.defaults.stat)],
                            [{ by: ["stat"], items: grids }, { by: [], items: { "": item(null, [named], links) } }]),
                       { numbers: stats, questions: { by: ["stat", "layer"], items: asked } });  // which head
  // of the link's layer does it most (analyses/questions.py), as the app asks
}

/**
 * export/analyses.py rollout_page (each token's mixture in the page itself), with its numbers (the rollout after
 * each layer, (T, T)).
 * @param {Computed} lecture
 * @returns {Promise<Page & { numbers: number[][][] }>}
 */
export async function rolloutPage(lecture) {
  const w = words().rollout, figures = words().figures, { R } = await attentionAnalyses(lecture);
  const tokens = lecture.tokens, labels = labelled(tokens);
  const layers = Object.fromEntries(R.map((matrix, l) => [String(l), item(eachScreen((screen) => formFigure(
    figures.rollout, { z: asMatrix(matrix), labels, title: said(w.title, { layer: l }), colorbar: w.scale,
                       scale: "share", chosen: null }, screen)))]));
  const mixtures = Object.fromEntries(tokens.map((token, i) => [String(i), item(eachScreen((screen) => formFigure(
    figures.mixture, { z: asMatrix(R.map((matrix) => matrix[i])), labels,
                       title: said(w.mixture, { token: escaped(token) }) }, screen)))]));
  return Object.assign(page("rollout", [numbered("layer", R.map((_, l) => String(l)), words().labels.rollout_layer),
                                        numbered("token", tokenOption(tokens))],
                            [{ by: ["layer"], items: layers }, { by: ["token"], items: mixtures }], [w.caption], true),
                       { numbers: R });
}

