// @ts-nocheck
// (not typed yet: the analyses' words, pages and the model's graphs are the site's untyped JSON; the "one source"
// work rewrites it)
// The Contributions and Lens pages of a sentence computed in this browser. Contributions (Kobayashi et al. 2020,
// 2021: analyses/contributions.py) from the run's attention, values and output, the model's own hidden states and
// W_O read from the model's files; the Lens of a checkpoint with no trained masked-LM head (the nearest pieces of its
// word table, read from the model's files). The figures are the stepper's (figures.js), drawn for each screen. A
// trained masked-LM head is not in a live site's files: its Lens says so. tests/test_export_live.py holds the
// numbers and the pages' words to the app's.
import { dot, fixed, scientific, within } from "./numbers.js";
import { stepName } from "./steps.js";
import { heatmap, labelled, escaped } from "./figures.js";
import { said } from "./page.js";
import { tokenizer } from "./tokenizing.js";
import { hiddenStates, titled as titledToWidth } from "./tour.js";
import { words, attention, item, picker, numbered, page, tokenOption, forScreens } from "./analysed_page.js";

const site = window.BVL_SITE;

// ---- Kobayashi et al. (2020, 2021): norm-based contributions (analyses/contributions.py), in float64 ----
function attentionBlock(model, layer) {  // contributions.attention_block: read from the layer's graph
  const block = model.blocks.find((b) => b.block === "layers" && b.layer === layer);
  const node = (key) => block.nodes.find((n) => n.key === key);
  const mixed = block.nodes.find((n) => n.op === "weighted_sum");
  const values = node(mixed.inputs[1]);
  const merged = block.nodes.find((n) => n.op === "merge_heads" && n.inputs.includes(mixed.key));
  const out = block.nodes.find((n) => n.op === "linear" && n.inputs.includes(merged.key));
  const residual = block.nodes.find((n) => n.op === "residual_add" && n.inputs.includes(out.key));
  const after = block.nodes.filter((n) => n.inputs.includes(residual.key));
  return { block, values, out, postNorm: after.length === 1 && after[0].op === "layer_norm" ? after[0] : null };
}

// Vectors as rows of one flat float64 array (loops over typed arrays: a 512-token layer in well under a second)
function rowsOf(array) {  // (T, d) → {rows, d, row(i)}
  const [T, d] = array.shape, rows = Float64Array.from(array.data);
  return { T, d, rows, row: (i) => rows.subarray(i * d, (i + 1) * d) };
}

function centred(z, gamma) {  // LayerNorm's linear part before 1 / s_i: γ ⊙ (z − mean(z)), in place
  let mean = 0;
  for (let o = 0; o < z.length; o += 1) mean += z[o];
  mean /= z.length;
  for (let o = 0; o < z.length; o += 1) z[o] = gamma[o] * (z[o] - mean);
  return z;
}

// One layer's contributions: the run's attention, values and output, the model's own input x (its hidden state)
// and W_O; ‖c_ij‖² = α_ijᵀ G_j α_ij, G_j the Gram matrix of token j's head vectors f^h(x_j) (never (T, T, d))
async function layerContributions(lecture, layer, x) {
  const { block, values, out, postNorm } = attentionBlock(lecture.model, layer);
  const name = (n) => stepName(block, n.key);
  const probs = attention(lecture, layer), v = lecture.array(name(values));  // (H, T, T), (H_kv, T, d_h)
  const [H, T] = probs.shape, [kv, , dh] = v.shape, d = H * dh, group = H / kv;
  const { weight, bias } = await lecture.weights(out.module);  // W_O (d, d) as nn.Linear holds it, b_O
  const W = weight.data, bO = bias ? Float64Array.from(bias.data) : new Float64Array(d);
  const alpha = probs.data;  // α^h_ij at (h·T + i)·T + j
  const f = new Float64Array(H * T * d);  // f^h(x_j) = v^h_j W_O^h at (h·T + j)·d
  for (let h = 0; h < H; h += 1) {
    for (let j = 0; j < T; j += 1) {
      const vj = (Math.floor(h / group) * T + j) * dh, at = (h * T + j) * d;
      for (let o = 0; o < d; o += 1) {
        let total = 0;
        for (let k = 0; k < dh; k += 1) total += v.data[vj + k] * W[o * d + h * dh + k];
        f[at + o] = total;
      }
    }
  }
  const squaredNorms = (vectors) => {  // (T, T): ‖Σ_h α^h_ij vectors^h_j‖², by each token j's Gram matrix
    const out2 = Array.from({ length: T }, () => new Float64Array(T)), gram = new Float64Array(H * H);
    for (let j = 0; j < T; j += 1) {
      for (let h = 0; h < H; h += 1) {
        for (let k = h; k < H; k += 1) {
          gram[h * H + k] = gram[k * H + h] = dot(vectors.subarray((h * T + j) * d, (h * T + j + 1) * d),
                                                  vectors.subarray((k * T + j) * d, (k * T + j + 1) * d));
        }
      }
      for (let i = 0; i < T; i += 1) {
        let total = 0;
        for (let h = 0; h < H; h += 1) {
          const a = alpha[(h * T + i) * T + j];
          for (let k = 0; k < H; k += 1) total += a * alpha[(k * T + i) * T + j] * gram[h * H + k];
        }
        out2[i][j] = total;
      }
    }
    return out2;
  };
  const headsOf = (i, j) => {  // c_ij = Σ_h α^h_ij f^h(x_j)
    const c = new Float64Array(d);
    for (let h = 0; h < H; h += 1) {
      const a = alpha[(h * T + i) * T + j], at = (h * T + j) * d;
      for (let o = 0; o < d; o += 1) c[o] += a * f[at + o];
    }
    return c;
  };
  const sumC = Array.from({ length: T }, (_, i) => {  // Σ_j c_ij = (the heads' merged context) W_Oᵀ
    const context = new Float64Array(d);
    for (let h = 0; h < H; h += 1) {
      const own = Math.floor(h / group);
      for (let j = 0; j < T; j += 1) {
        const a = alpha[(h * T + i) * T + j], at = (own * T + j) * dh;
        for (let k = 0; k < dh; k += 1) context[h * dh + k] += a * v.data[at + k];
      }
    }
    const c = new Float64Array(d);
    for (let o = 0; o < d; o += 1) c[o] = dot(context, W.subarray(o * d, (o + 1) * d));
    return c;
  });
  const cii = Array.from({ length: T }, (_, i) => headsOf(i, i));
  const attnOut = rowsOf(lecture.array(name(out)));  // (T, d): the model's attention output
  const worst = (rebuilt, reference) => {  // [the largest difference, whether every one is within the bound]
    let most = 0, holds = true;
    rebuilt.forEach((row, i) => row.forEach((value, o) => {
      most = Math.max(most, Math.abs(value - reference(i, o)));
      holds = holds && within(value, reference(i, o), words().contributions.tolerance);
    }));
    return [most, holds];
  };
  const root = (matrix) => matrix.map((row) => Array.from(row, (value) => Math.sqrt(Math.max(value, 0))));
  const raw = squaredNorms(f);
  const residual = raw.map((row, i) => {  // ‖c_ii + x_i‖² = ‖c_ii‖² + 2⟨c_ii, x_i⟩ + ‖x_i‖²
    const copy = Float64Array.from(row), xi = x.row(i);
    copy[i] += 2 * dot(cii[i], xi) + dot(xi, xi);
    return copy;
  });
  const meanAttention = Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => {
    let total = 0;
    for (let h = 0; h < H; h += 1) total += alpha[(h * T + i) * T + j];
    return total / H;
  }));
  const result = { attention: meanAttention, norm: root(raw), norm_residual: root(residual), norm_residual_ln: null,
                   out_diff: worst(sumC.map((row) => row.map((value, o) => value + bO[o])), (i, o) => attnOut.row(i)[o]) };
  if (!postNorm) {  // pre-norm: nothing normalises the sum; check 2 is the block's output x + attn.out
    return { ...result, norm_diff: worst(sumC.map((row, i) => row.map((value, o) => value + x.row(i)[o] + bO[o])),
                                         (i, o) => x.row(i)[o] + attnOut.row(i)[o]) };
  }
  const norm = lecture.parameter(postNorm.module);  // γ, β, ε of the LayerNorm after the residual sum
  const gamma = norm.weight ? Float64Array.from(norm.weight.data) : new Float64Array(d).fill(1);
  const beta = norm.bias ? Float64Array.from(norm.bias.data) : new Float64Array(d);
  const s = Array.from({ length: T }, (_, i) => {  // s_i = √(Var(x_i + attn.out_i) + ε), the biased variance
    const y = x.row(i).map((value, o) => value + attnOut.row(i)[o]), mean = y.reduce((a, b) => a + b, 0) / d;
    return Math.sqrt(y.reduce((t, value) => t + (value - mean) ** 2, 0) / d + norm.eps);
  });
  const linF = new Float64Array(f);
  for (let at = 0; at < H * T; at += 1) centred(linF.subarray(at * d, (at + 1) * d), gamma);
  const withLn = squaredNorms(linF);
  const linB = centred(Float64Array.from(bO), gamma);
  withLn.forEach((row, i) => {
    const linX = centred(Float64Array.from(x.row(i)), gamma), linC = centred(Float64Array.from(cii[i]), gamma);
    row[i] += 2 * dot(linC, linX) + dot(linX, linX);
  });
  const normed = rowsOf(lecture.array(name(postNorm)));  // the model's LayerNorm output
  const rebuilt = sumC.map((row, i) => centred(row.map((value, o) => value + x.row(i)[o]), gamma)
    .map((value, o) => value / s[i] + linB[o] / s[i] + beta[o]));
  return { ...result, norm_residual_ln: root(withLn).map((row, i) => row.map((value) => value / s[i])),
           norm_diff: worst(rebuilt, (i, o) => normed.row(i)[o]) };
}

function mixingRatio(m) {  // contributions.mixing_ratio: mean over i of Σ_{j≠i} m_ij / Σ_j m_ij
  return m.reduce((t, row, i) => { const total = row.reduce((a, b) => a + b, 0); return t + (total - row[i]) / total; }, 0)
    / m.length;
}

const percent = (value) => `${fixed(100 * value, 0)}%`;  // Python's f"{value:.0%}"
// A half panel's height on a projector: the app's 410 px (CONTRIBUTION_PANEL_PX) leaves these figures' cells too
// short for a lecture's 14-px numbers (their colour bar lies across the top, to leave the cells the width); the
// panels still end above a 720-px screen's fold (the readability check says so). Its width is the half of the
// page's 1,200 px that it is drawn in, not the app's 560 (HALF_PX), which its layout reckons more tightly
const PANEL_PX = 470;

export async function contributionsPage(lecture) {  // export/analyses.py contributions_page
  const w = words().contributions, tokens = lecture.tokens, labels = labelled(tokens), s = words().screens;
  const states = hiddenStates(lecture);  // the model's own input to each layer
  const results = [];
  for (let layer = 0; layer < lecture.model.num_layers; layer += 1) {
    results.push(await layerContributions(lecture, layer, rowsOf(states[layer])));
    await new Promise((resolve) => { setTimeout(resolve, 0); });  // the page stays alive between layers
  }
  const norms = ["norm", "norm_residual", "norm_residual_ln"].filter((name) => results[0][name] !== null);
  const fullest = norms[norms.length - 1];
  const panel = (name, matrix) => forScreens((width, tallest) => heatmap({
    z: matrix, rows: labels, columns: labels, title: w.views[name], colorbar: name === "attention" ? "weight" : "‖vector‖",
    axes: ["receives", "gives"], scale: "share", width: Math.min(width, s.wide / 2), across: true,
    rotate: tokens.length > site.style.max_written,  // a short sentence's numbers take the height rotated labels would
    tallest: tallest && PANEL_PX, least: tallest && s.numbers,
    rowPx: tallest && tokens.length <= site.style.max_written ? Math.ceil(s.numbers / 0.6) : undefined }));  // rows
    // as tall as a lecture's numbers
  const attentionItems = {}, beside = {};
  results.forEach((result, layer) => {
    const ratios = Object.fromEntries(["attention", ...norms].map((name) => [name, mixingRatio(result[name])]));
    const check = (what, [diff, holds]) => [said(w.checks.said, { what: said(what, { layer }),
                                                                      diff: scientific(diff, 1) }), holds];
    attentionItems[String(layer)] = { ...item(panel("attention", result.attention)),
      said: [said(w.said, { layer, attention: percent(ratios.attention), fullest: percent(ratios[fullest]),
                                ln: fullest === "norm_residual_ln" ? " and LayerNorm" : "" })],
      checks: [check(w.checks.out, result.out_diff),
               check(w.checks[result.norm_residual_ln === null ? "pre_norm" : "post_norm"], result.norm_diff)] };
    for (const name of norms) beside[`${layer},${name}`] = item(panel(name, result[name]));
  });
  const ratios = Object.fromEntries(["attention", ...["norm", "norm_residual", "norm_residual_ln"]]
    .map((name) => [name, results[0][name] === null ? null : results.map((r) => mixingRatio(r[name]))]));
  const mixing = item(forScreens((width) => titledToWidth(mixingLines(ratios, w.views, w.mixing, width), width), true));
  return Object.assign(page("contributions", [
    numbered("layer", results.map((_, l) => String(l))),
    picker("norm", norms.map((name) => [name, w.views[name]]), fullest)],
  [{ by: ["layer"], half: true, items: attentionItems }, { by: ["layer", "norm"], half: true, items: beside },
   { by: [], items: { "": mixing } }], [w.caption], true), { notes: w.notes, numbers: { results, ratios } });
}

function mixingLines(ratios, labels, title, width) {  // figures/charts.py mixing_lines; on a narrow screen the
  // legend under the plot, an entry a line (fit.py _fit_legend), clear of the axis's title
  const s = site.style, lines = Object.entries(ratios).filter(([, values]) => values !== null);
  const narrow = width < 560, under = 40 + 26 * lines.length;
  return { data: lines.map(([name, values]) => ({
    type: "scatter", x: values.map((_, l) => l), y: values, mode: "lines+markers", name: labels[name],
    hovertemplate: `${labels[name]}<br>layer %{x}: %{y:.3f}<extra></extra>` })),
  layout: { height: 420 + (narrow ? under : 0), title: { text: title, font: { size: s.font } }, font: { size: s.font },
            margin: { l: 10, r: 10, t: 50, b: 10 + (narrow ? under : 0) }, showlegend: true,
            legend: narrow ? { orientation: "h", x: 0, xanchor: "left", y: 0, yref: "container", yanchor: "bottom" }
              : undefined,
            xaxis: { title: { text: "layer" }, dtick: 1, automargin: true },
            yaxis: { title: { text: "mixing ratio" }, range: [0, 1], automargin: true } } };
}

// ---- the Lens: with no trained masked-LM head, the nearest vocabulary pieces (analyses/nearest_pieces.py) ----
async function pieceNames() {  // analyses/pieces.py piece_names: an id's piece as the app shows it, or "[id N]"
  const t = await tokenizer();
  const added = new Map(t.added_tokens.map((token) => [token.id, token.content]));
  return (id) => {
    const piece = added.get(id) ?? t.model.vocab[id];
    if (piece === undefined) return `[id ${id}]`;
    return Object.hasOwn(t.readable, piece) ? t.readable[piece] : piece;
  };
}

async function nearestAt(lecture, position) {  // for hidden state 0..L: the top pieces by cosine with its row
  const top = words().lens.top;
  const lookup = lecture.model.blocks.find((b) => b.block === "embed").nodes
    .find((n) => n.op === "lookup" && n.attrs.ids === "input_ids");
  const table = (await lecture.weights(lookup.module)).weight, [V, d] = table.shape;  // the word table, (V, d)
  const name = await pieceNames();
  const lengths = lecture.memo(`lengths:${lookup.module}`, () => Float64Array.from({ length: V }, (_, v) =>
    Math.max(Math.sqrt(dot(table.data.subarray(v * d, (v + 1) * d), table.data.subarray(v * d, (v + 1) * d))), 1e-12)));
  return hiddenStates(lecture).map((state) => {
    const x = state.data.subarray(position * d, (position + 1) * d), size = Math.max(Math.sqrt(dot(x, x)), 1e-12);
    const best = [];  // [cosine, id], the largest first
    for (let v = 0; v < V; v += 1) {
      const cosine = dot(x, table.data.subarray(v * d, (v + 1) * d)) / (size * lengths[v]);
      if (best.length < top || cosine > best[best.length - 1][0]) {
        best.splice(best.findIndex(([c]) => cosine > c) === -1 ? best.length : best.findIndex(([c]) => cosine > c), 0,
                    [cosine, v]);
        if (best.length > top) best.pop();
      }
    }
    return best.map(([cosine, v]) => [name(v), cosine]);
  });
}

function lensFigure(layers, position, token) {  // page_views.nearest_figure: figures/charts.py lens_grid
  const w = words().lens;
  return forScreens((width, tallest) => {
    const shown = width < 560 ? layers.map((top) => top.slice(0, w.phone_top)) : layers;  // a word in a phone's cell
    return heatmap({
      z: shown.map((top) => top.map(([, c]) => c)), rows: shown.map((_, l) => (l ? `layer ${l - 1}` : "embeddings")),
      columns: shown[0].map((_, k) => `#${k + 1}`), colorbar: "cosine", axes: ["", "rank"], scale: "signed", width,
      title: said(w.title, { position, token: escaped(token) }), tallest, rowPx: 44,
      text: shown.map((top) => top.map(([piece, c]) => `${escaped(piece)}<br>${fixed(c, 2)}`)) });
  });
}

export async function lensItem(lecture, position) {  // one position's nearest pieces, as an item of the page
  const layers = await nearestAt(lecture, position);
  return Object.assign(item(lensFigure(layers, position, lecture.tokens[position])), { numbers: layers });
}

export async function lensPage(lecture) {  // export/analyses.py lens_page, for what a live site can show
  const w = words().lens;
  if (w.mode === "lens") throw new Error("This checkpoint's Lens needs its masked-LM head, which the site's live " +
                                         "files do not hold: the app shows it.");
  if (w.mode === "notes") return Object.assign(page("lens", [], []), { notes: w.notes });
  const masks = lecture.ids.input_ids.flatMap((id, i) => (id === w.mask_id ? [i] : []));
  if (masks.length) {  // the lens looks at the mask, as the app's: no picker
    return Object.assign(page("lens", [], [{ by: [], items: { "": await lensItem(lecture, masks[0]) } }]),
                         { notes: w.notes });
  }
  const items = Object.fromEntries(lecture.tokens.map((_, i) => [String(i), { part: `lens.position.${i}` }]));
  return Object.assign(page("lens", [numbered("position", tokenOption(lecture.tokens))],
                            [{ by: ["position"], items }], [w.position_note]), { notes: w.notes });
}

