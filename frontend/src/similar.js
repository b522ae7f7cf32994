// @ts-nocheck
// (not typed yet: the `yours` data and the hidden states are the site's untyped JSON; the "one source" work rewrites
// it)
// A sentence of the reader's own beside the exported ones, on a live site's Similarity page: its cosine with each,
// made the way the app makes sentence vectors (analyses/similarity.py: the checkpoint's own pooling, or for a plain
// model the mean of the token vectors and the pooler's output), and the cosine with one of them split exactly into
// token pairs (analyses/similarity_split.py), from the last layer's token vectors the browser computed and those the
// export wrote (export/similarity.py `yours`). tests/test_export_live.py holds both to the app's own numbers.
import { dot, norm, fixed, unpack } from "./numbers.js";
import { heatmap, labelled, plot } from "./figures.js";
import { element, link, paragraph, said } from "./page.js";

const site = window.BVL_SITE;

const MODE_WEIGHTS = {  // loading/sentence_config.py POOLING_MODES: how much a mode reads each of T tokens
  cls: (T) => Array.from({ length: T }, (_, i) => (i === 0 ? 1 : 0)),
  mean: (T) => new Array(T).fill(1 / T),
  mean_sqrt_len_tokens: (T) => new Array(T).fill(T ** -0.5),
  weightedmean: (T) => Array.from({ length: T }, (_, i) => (i + 1) / ((T * (T + 1)) / 2)),
  lasttoken: (T) => Array.from({ length: T }, (_, i) => (i === T - 1 ? 1 : 0)),
  max: null,  // each dimension from the token that holds its largest value
};

export function tokenParts(h, modes) {  // sentence_pooling.token_parts: (T, d) → each mode's (T, d) parts, float64
  const [T, d] = h.shape;
  return modes.map((mode) => {
    const parts = new Float64Array(T * d), weights = MODE_WEIGHTS[mode];
    if (weights) {
      const w = weights(T);
      for (let i = 0; i < T; i += 1) for (let k = 0; k < d; k += 1) parts[i * d + k] = w[i] * h.data[i * d + k];
    } else {
      for (let k = 0; k < d; k += 1) {
        let won = 0;
        for (let i = 1; i < T; i += 1) if (h.data[i * d + k] > h.data[won * d + k]) won = i;
        parts[won * d + k] = h.data[won * d + k];
      }
    }
    return parts;
  });
}

export function readRows(modes, T) {  // sentence_pooling.read_weights > 0: the tokens the pooled vector reads
  const read = new Array(T).fill(false);
  for (const mode of modes) {
    const w = MODE_WEIGHTS[mode] ? MODE_WEIGHTS[mode](T) : new Array(T).fill(1);
    w.forEach((v, i) => { if (v !== 0) read[i] = true; });
  }
  return read.map((r, i) => (r ? i : -1)).filter((i) => i >= 0);
}

function summed(parts, T, d) {  // each mode's vector (Σ over tokens), concatenated
  const u = new Float64Array(parts.length * d);
  parts.forEach((p, m) => { for (let i = 0; i < T; i += 1) for (let k = 0; k < d; k += 1) u[m * d + k] += p[i * d + k]; });
  return u;
}

function cosine(u, v) {  // sentence_pooling.cosine, with its guard against a zero vector
  return dot(u, v) / Math.max(norm(u) * norm(v), 1e-12);
}

export function vector(way, h, pooler, modes) {  // a sentence's vector the way `way` makes it (similarity.py vectors_of)
  if (way.from === "pooler") return Float64Array.from(pooler.data);
  const [T, d] = h.shape;
  return summed(tokenParts(h, way.from === "pooling" ? modes : ["mean"]), T, d);
}

function split(a, b, modes) {  // similarity_split.split_vectors: the cells (rows of a's read tokens) and cosine
  const [n, d] = a.shape, [m] = b.shape;
  const pa = tokenParts(a, modes), pb = tokenParts(b, modes);
  const u = summed(pa, n, d), v = summed(pb, m, d);
  const scale = Math.max(norm(u), 1e-12) * Math.max(norm(v), 1e-12);
  const rows = readRows(modes, n), columns = readRows(modes, m);
  const pairs = rows.map((i) => columns.map((j) => {
    let total = 0;
    pa.forEach((p, mode) => { for (let k = 0; k < d; k += 1) total += p[i * d + k] * pb[mode][j * d + k]; });
    return total / scale;
  }));
  return { cosine: dot(u, v) / scale, pairs, rows, columns };
}

function signed(value, decimals) {  // Python's f"{value:+.Nf}"
  const text = fixed(value, decimals);
  return text.startsWith("-") ? text : `+${text}`;
}

function caption(s, tokensA, tokensB, words, pooled) {  // SimilaritySplit.caption, from the same templates
  const cells = s.pairs.flatMap((row, r) => row.map((value, c) => [value, r, c]));
  const total = cells.reduce((t, [value]) => t + value, 0);
  const strongest = [...cells].sort((x, y) => Math.abs(y[0]) - Math.abs(x[0])).slice(0, 3)
    .map(([value, r, c]) => said(words.pair, { a: tokensA[s.rows[r]], b: tokensB[s.columns[c]], value: signed(value, 3) }));
  return said(words.caption, { cells: cells.length, total: fixed(total, 4), how: pooled ? "" : words.not_pooled,
                               cosine: fixed(s.cosine, 4), strongest: strongest.join("; ") });
}

function thousandths(value) {  // figures/outputs.py in_thousandths: ".037", "−.004"
  return fixed(value, 3).replace(/^(-?)0\./, "$1.").replace("-", "−");
}

// The numbers the section shows: each way's cosine of the reader's sentence with each exported one, and the split
// with sentence `k` (1-based) where asked
export function compared(lecture, data, k) {
  const yours = data.yours, all = lecture.array(site.live.hidden_states);
  const [layers, T, d] = all.shape;
  const own = { shape: [T, d], data: all.data.subarray((layers - 1) * T * d, layers * T * d) };
  const pooler = lecture.arrays[site.live.pooler_output];
  const theirs = yours.hidden.map((packed) => unpack(packed));
  const cosines = yours.ways.map((way) => theirs.map((h, j) => cosine(
    vector(way, own, pooler, yours.modes),
    vector(way, h, yours.pooler[j] && unpack(yours.pooler[j]), yours.modes))));
  const modes = yours.pooled ? yours.modes : ["mean"];
  const pair = k ? split(own, theirs[k - 1], modes) : null;
  return { cosines, pair, text: pair && caption(pair, lecture.tokens, yours.tokens[k - 1], yours.words, yours.pooled) };
}

export function section(view, s, keys, lecture) {  // the reader's sentence against the exported ones, and why with one
  const data = site.similarity, yours = data.yours;
  if (s.tokens.length > yours.most_tokens) {
    view.append(element("p", `Your sentence is ${s.tokens.length} tokens; ${data.source}'s sentence pipeline reads ` +
                        `the first ${yours.most_tokens}: the app compares it.`, { class: "note" }));
    return;
  }
  const asked = (keys.get("with") || "").trim();
  const k = /^\d{1,2}$/.test(asked) && Number(asked) >= 1 && Number(asked) <= data.texts.length ? Number(asked) : 0;
  const numbers = compared(lecture, data, k);
  const columns = element("div", undefined, { class: "beside" });
  const controls = element("section"), canvas = element("section", undefined, { class: "canvas" });
  columns.append(controls, canvas);
  view.append(columns);
  controls.append(element("p", s.text, { class: "yours-text" }));
  const pick = element("select", undefined, { "aria-label": "Why is it similar to one of them?", id: "with" });
  pick.append(element("option", "none: its cosine with each", { value: "" }));
  data.texts.forEach((text, j) => pick.append(element("option", `sentence ${j + 1}`, { value: String(j + 1) })));
  pick.value = k ? String(k) : "";
  pick.addEventListener("change", () => {
    location.hash = link("similarity", { text: s.text, ...(pick.value ? { with: pick.value } : {}) });
  });
  const label = element("label", "Why is it similar to one of them?", { class: "picker" });
  label.append(pick);
  controls.append(label);
  if (asked && !k) {
    controls.append(element("p", `with=${asked} does not name one of the ${data.texts.length} sentences (write ` +
                            "with=1).", { class: "note" }));
  }
  const width = canvas.clientWidth || 600;
  const lectureMode = document.body.classList.contains("lecture");
  if (k) {
    canvas.append(paragraph(numbers.text));
    const cells = numbers.pair.pairs;
    const div = element("div", undefined, { class: "figure", id: "yours-split", "data-point": "split" });
    canvas.append(div);
    const room = window.innerHeight - div.getBoundingClientRect().top - 6;  // a projector: above the fold
    plot(div, heatmap({
      z: cells, rows: labelled(numbers.pair.rows.map((i) => s.tokens[i])),
      columns: labelled(numbers.pair.columns.map((j) => yours.tokens[k - 1][j])),
      title: `Each pair's share of cosine(yours, ${k}) = ${fixed(numbers.pair.cosine, 3)}`, colorbar: "share",
      axes: ["your sentence", `sentence ${k}`], scale: "signed", width, rotate: true,
      tallest: lectureMode ? Math.max(320, room) : null,
      text: cells.map((row) => row.map(thousandths)) }));
  }
  yours.ways.forEach((way, w) => {
    const div = element("div", undefined, { class: "figure", id: `yours-cosines-${w}`,
                                            ...(!k && w === 0 ? { "data-point": "cosines" } : {}) });
    canvas.append(div);
    plot(div, heatmap({
      z: [numbers.cosines[w]], rows: ["yours"], columns: data.texts.map((_, j) => String(j + 1)),
      title: `cosine of ${way.name}`, colorbar: "cosine", axes: ["", "sentence"], scale: "cosine", width,
      text: [numbers.cosines[w].map((c) => fixed(c, 3))] }));
    if (!way.trained) canvas.append(element("p", `${way.name[0].toUpperCase()}${way.name.slice(1)}: ${way.how}.`,
                                            { class: "explains" }));
  });
}

