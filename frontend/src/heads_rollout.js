// @ts-nocheck
// (not typed yet: the analyses' words and pages are the site's untyped JSON; the "one source" work rewrites it)
// The Heads and Rollout pages of a sentence computed in this browser, from the run's attention: each head's
// fingerprint (Clark et al. 2019, analyses/head_fingerprints.py) and the attention rollout (Abnar & Zuidema 2020,
// analyses/rollout.py), ported by their papers' definitions as the app computes them, worded as the app's Python
// words them (export/analyses.py heads_page, rollout_page). tests/test_export_live.py holds the numbers and the
// pages' words to the app's.
import { at, fixed } from "./numbers.js";
import { heatmap, labelled, escaped } from "./figures.js";
import { said } from "./page.js";
import { words, attention, item, picker, numbered, page, tokenOption, forScreens } from "./analysed_page.js";

const rowOf = (probs, h, i) => at(at(probs, h), i).data;  // probs[h, i, :]

// ---- Clark et al. (2019): what each head looks at (analyses/head_fingerprints.py) ----
function isPunctuation(token) {  // its piece marker off, non-empty and every character Unicode punctuation
  for (const marker of words().piece_markers) if (token.startsWith(marker)) token = token.slice(marker.length);
  return token.length > 0 && /^\p{P}+$/u.test(token);
}

function headStatistics(probs, isSep, isPunct) {  // each statistic's value for each head: a mean over queries
  const [heads, T] = probs.shape;
  const mean = (f, from = 0, to = T) => Array.from({ length: heads }, (_, h) => {
    let total = 0;
    for (let i = from; i < to; i += 1) total += f(rowOf(probs, h, i), i);
    return to > from ? total / (to - from) : NaN;
  });
  const over = (kept) => (row) => row.reduce((t, p, j) => (kept[j] ? t + p : t), 0);
  return {
    entropy: mean((row) => row.reduce((t, p) => (p > 0 ? t - p * Math.log(p) : t), 0)),  // 0 · ln 0 = 0
    cls: mean((row) => row[0]), sep: mean(over(isSep)), punct: mean(over(isPunct)),
    self: mean((row, i) => row[i]), prev: mean((row, i) => row[i - 1], 1), next: mean((row, i) => row[i + 1], 0, T - 1),
  };
}

function fingerprints(lecture) {  // statistic → (L) rows of (H)
  const w = words(), isSep = lecture.tokens.map((t) => t === w.separator), isPunct = lecture.tokens.map(isPunctuation);
  const layers = Array.from({ length: lecture.model.num_layers }, (_, l) => headStatistics(attention(lecture, l), isSep,
                                                                                          isPunct));
  return Object.fromEntries(w.stats.map((stat) => [stat, layers.map((layer) => layer[stat])]));
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

// ---- Abnar & Zuidema (2020): attention rollout (analyses/rollout.py), in float64 ----
function rollout(lecture) {  // (L) of (T) rows of (T): after each layer, each token's input mixture
  const T = lecture.tokens.length, out = [];
  let product = new Float64Array(T * T);  // R so far, row-major: the identity before layer 0
  for (let i = 0; i < T; i += 1) product[i * T + i] = 1;
  for (let l = 0; l < lecture.model.num_layers; l += 1) {
    const probs = attention(lecture, l), heads = probs.shape[0];
    const mixed = new Float64Array(T * T);  // Ã: rows of ½ · mean over heads + ½ · I, each summing to 1
    for (let i = 0; i < T; i += 1) {
      const row = mixed.subarray(i * T, (i + 1) * T);
      for (let h = 0; h < heads; h += 1) {
        const p = rowOf(probs, h, i);
        for (let j = 0; j < T; j += 1) row[j] += p[j];
      }
      let total = 0;
      for (let j = 0; j < T; j += 1) {
        row[j] = 0.5 * Math.fround(row[j] / heads) + (i === j ? 0.5 : 0);  // the mean rounded to float32, as
        // numpy's is (numpy sums in float32 too: within a float32 step of it)
        total += row[j];
      }
      for (let j = 0; j < T; j += 1) row[j] /= total;
    }
    const next = new Float64Array(T * T);  // Ã_l · (Ã_{l−1} ··· Ã_0), row by row
    for (let i = 0; i < T; i += 1) {
      const into = next.subarray(i * T, (i + 1) * T);
      for (let k = 0; k < T; k += 1) {
        const a = mixed[i * T + k];
        if (a === 0) continue;
        const from = product.subarray(k * T, (k + 1) * T);
        for (let j = 0; j < T; j += 1) into[j] += a * from[j];
      }
    }
    product = next;
    out.push(Array.from({ length: T }, (_, i) => Array.from(product.subarray(i * T, (i + 1) * T), Math.fround)));
  }
  return out;
}

export function headsPage(lecture) {  // export/analyses.py heads_page
  const w = words(), stats = fingerprints(lecture), found = strikingHeads(stats);
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

export function rolloutPage(lecture) {  // export/analyses.py rollout_page (each token's mixture in the page itself)
  const w = words().rollout, R = rollout(lecture), tokens = lecture.tokens, labels = labelled(tokens);
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

