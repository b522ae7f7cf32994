// @ts-nocheck
// (not typed yet: the analyses' words and pages are the site's untyped JSON; the "one source" work rewrites it)
// The Heads and Rollout pages of a sentence computed in this browser, from the run's attention: each head's
// fingerprint (Clark et al. 2019, analyses/head_fingerprints.py) and the attention rollout (Abnar & Zuidema 2020,
// analyses/rollout.py), computed by the app's own functions as a graph (analysis_graphs.js), worded as the app's
// Python words them (export/analyses.py heads_page, rollout_page). tests/test_export_live.py holds the numbers and the
// pages' words to the app's.
import { fixed, matrix } from "./numbers.js";
import { analysed } from "./analysis_graphs.js";
import { heatmap, labelled, escaped } from "./figures.js";
import { said } from "./page.js";
import { words, item, picker, numbered, page, tokenOption, forScreens } from "./analysed_page.js";

// The numbers: the fingerprints (7, L, H) and the rollout (L, T, T), by the package's own functions as a graph
// (export/analysis_graphs.py AttentionAnalyses) that runs here on the run's attention
async function attentionAnalyses(lecture) {
  const { fingerprints, rollout } = await analysed("attention", lecture);
  return { stats: Object.fromEntries(words().stats.map((stat, k) => [stat, matrix(fingerprints, k)])),
           R: Array.from({ length: rollout.shape[0] }, (_, l) => matrix(rollout, l)) };
}

function strikingHeads(stats) {  // head_fingerprints.striking_heads: [layer, head, stat, value], strongest first
  const { least, most } = words().striking, found = new Map();
  for (const stat of words().stats.slice(1)) {
    stats[stat].forEach((row, layer) => row.forEach((value, head) => {
      const key = `${layer},${head}`;
      if (value >= least && value > (found.get(key) || [0, 0, "", 0])[3]) {
        found.set(key, [...(found.get(key) || [layer, head]).slice(0, 2), stat, value]);
      }
    }));
  }
  return [...found.values()].sort((a, b) => b[3] - a[3]).slice(0, most);
}

export async function headsPage(lecture) {  // export/analyses.py heads_page
  const w = words(), { stats } = await attentionAnalyses(lecture), found = strikingHeads(stats);
  const layers = stats.cls.map((_, l) => String(l)), heads = stats.cls[0].map((_, h) => String(h));
  const grids = Object.fromEntries(w.stats.map((stat) => [stat, item(forScreens((width, tallest) => heatmap({
    z: stats[stat], rows: layers, columns: heads, title: w.stat_titles[stat], colorbar: w.stat_units[stat],
    axes: ["layer", "head"], scale: "share", width, tallest, rowPx: 36,
    text: stats[stat].map((row) => row.map((v) => fixed(v, 2))) })), [w.captions[stat]])]));
  const named = w.striking.said + (found.length ? found.map(([layer, head, stat, value]) =>
    `- layer ${layer}, head ${head} ${w.stat_words[stat]}: ${fixed(value, 2)}`).join("\n") : w.striking.none);
  const links = found.map(([layer, head]) => ({ text: said(w.striking.open, { layer, head }), page: "layers",
                                                keys: { layer: String(layer), head: String(head), step: "attn.probs" } }));
  return Object.assign(page("heads", [picker("stat", w.stats.map((s) => [s, w.stat_buttons[s]]), w.defaults.stat)],
                            [{ by: ["stat"], items: grids }, { by: [], items: { "": item(null, [named], links) } }]),
                       { numbers: stats });
}

export async function rolloutPage(lecture) {  // export/analyses.py rollout_page (each token's mixture in the page
  // itself)
  const w = words().rollout, { R } = await attentionAnalyses(lecture), tokens = lecture.tokens, labels = labelled(tokens);
  const layers = Object.fromEntries(R.map((matrix, l) => [String(l), item(forScreens((width, tallest) => heatmap({
    z: matrix, rows: labels, columns: labels, title: said(w.title, { layer: l }), colorbar: w.scale,
    axes: w.axes, scale: "share", width, tallest, rotate: true }), true))]));
  const mixtures = Object.fromEntries(tokens.map((token, i) => [String(i), item(forScreens((width, tallest) =>
    heatmap({ z: R.map((matrix) => matrix[i]), rows: R.map((_, l) => `after layer ${l}`), columns: labels,
                  title: said(w.mixture, { token: escaped(token) }), colorbar: "share", axes: ["", "from"],
                  scale: "share", width, tallest, rotate: true, rowPx: 30 }), true))]));
  return Object.assign(page("rollout", [numbered("layer", R.map((_, l) => String(l)), words().labels.rollout_layer),
                                        numbered("token", tokenOption(tokens))],
                            [{ by: ["layer"], items: layers }, { by: ["token"], items: mixtures }], [w.caption], true),
                       { numbers: R });
}

