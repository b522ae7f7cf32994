// The Contributions and Lens pages of a sentence computed in this browser: Contributions (Kobayashi et al. 2020,
// 2021: analyses/contributions.py) and the Lens of a checkpoint with no trained masked-LM head (the nearest pieces of
// its word table), computed by the app's own functions as graphs (analysis_graphs.js) from the run and the model's
// files. The figures are the app's own (export/analysis_figures.py), filled. A
// trained masked-LM head is not in a live site's files: its Lens says so. tests/test_export_live.py holds the
// numbers and the pages' words to the app's.
import { difference, fixed, get, matrix, row, within } from "./numbers.js";
import { analysed, analysisGraphs } from "./analysis_graphs.js";
import { labelled } from "./labels.js";
import { escaped } from "./figure_words.js";
import { eachScreen, said } from "./page.js";
import { tokenizer } from "./tokenizing.js";
import { filled } from "./template.js";
import { asMatrix, formFigure } from "./matrix_figure.js";
import { words, item, picker, numbered, page, tokenOption } from "./analysed_page.js";

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {import("./numbers.js").Tolerance} Tolerance */
/** @typedef {import("./figure_types.js").Figure} Figure */
/** @typedef {import("./analysis_graphs.js").AnalysisGraph} AnalysisGraph */
/** @typedef {import("./analysed_page.js").Computed} Computed */
/** @typedef {import("./analysed_page.js").Page} Page */
/** @typedef {import("./analysed_page.js").Item} Item */
/** @typedef {import("./analysed_page.js").ForScreens} ForScreens */
/** @typedef {import("./analysed_page.js").NearestWords} NearestWords */
/**
 * The contributions' graph's manifest (export/analysis_graphs.py): its checks and its matrices' names (MIXING's, less
 * norm_residual_ln in a pre-norm model) are always there.
 * @typedef {AnalysisGraph & { checks: [string, string][][], matrices: string[] }} ContributionsGraph
 */
/** A norm-based view of the contributions (analyses/contributions.py MIXING, after the raw attention). */
/** @typedef {"norm" | "norm_residual" | "norm_residual_ln"} Norm */
/** @typedef {"attention" | Norm} View */
/**
 * A layer's contributions as the graph gives them (analyses/contributions.py LayerContributions): the raw attention
 * and each norm-based view, (T, T) (norm_residual_ln null in a pre-norm model), and the two checks, each [the largest
 * difference, whether every one is within the bound].
 * @typedef {{ attention: number[][], norm: number[][], norm_residual: number[][], norm_residual_ln: number[][] | null,
 *             out_diff: [number, boolean], norm_diff: [number, boolean] }} LayerContributions
 */
/** Each view's mixing ratio layer by layer (null where the model has no such view: analyses/contributions.py). */
/** @typedef {Record<View, number[] | null>} Ratios */
/** A hidden state's nearest pieces (analyses/nearest_pieces.py NearestPieces): [piece, cosine], nearest first. */
/** @typedef {[string, number][]} Nearest */
/**
 * The library's Tokenizer (tokenizing.js) with the parts read here: its added tokens, and its model's vocabulary (a
 * piece by its id; a hole where no piece has the id).
 * @typedef {import("./tokenizing.js").Tokenizer & { added_tokens: { id: number, content: string }[],
 *                                                   model: { vocab: (string | undefined)[] } }} PieceTable
 */

// ---- Kobayashi et al. (2020, 2021): norm-based contributions (analyses/contributions.py), by the package's own
// functions as a graph (export/analysis_graphs.py Contributions) that runs here on the run's layers ----
/**
 * [the largest difference, whether every one is within the bound]
 * @param {Unpacked} rebuilt
 * @param {Unpacked} own
 * @param {Tolerance} tolerance
 * @returns {[number, boolean]}
 */
function worst(rebuilt, own, tolerance) {
  let most = 0, holds = true;
  for (let k = 0; k < own.data.length; k += 1) {
    most = Math.max(most, Math.abs(rebuilt.data[k] - own.data[k]));
    holds = holds && within(rebuilt.data[k], own.data[k], tolerance);
  }
  return [most, holds];
}

/**
 * Each layer's matrices and checks, and the mixing ratios (M, L).
 * @param {Computed} lecture
 * @returns {Promise<{ results: LayerContributions[], ratios: Ratios }>}
 */
async function contributions(lecture) {
  const spec = /** @type {ContributionsGraph} */ (analysisGraphs().contributions);
  const out = await analysed("contributions", lecture);
  const tolerance = words().contributions.tolerance;
  const layers = spec.checks.map(([[rebuiltOut, attnOut], [rebuiltNorm, normed]], layer) => ({
    ...Object.fromEntries(spec.matrices.map((name) => [name, matrix(out[`contributions.${layer}.${name}`])])),
    norm_residual_ln: spec.matrices.includes("norm_residual_ln")
      ? matrix(out[`contributions.${layer}.norm_residual_ln`]) : null,
    out_diff: worst(out[rebuiltOut], lecture.array(attnOut), tolerance),
    norm_diff: worst(out[rebuiltNorm], lecture.array(normed), tolerance) }));
  const results = /** @type {LayerContributions[]} */ (layers);  // its matrices by their names in spec.matrices
  const mixing = matrix(out.mixing);
  const ratios = /** @type {Ratios} */ (Object.fromEntries(["attention", "norm", "norm_residual", "norm_residual_ln"]
    .map((name) => [name, spec.matrices.includes(name) ? mixing[spec.matrices.indexOf(name)] : null])));
  return { results, ratios };
}

/** @param {number} value */
const percent = (value) => `${fixed(100 * value, 0)}%`;  // Python's f"{value:.0%}"
/**
 * export/analyses.py contributions_page, with its numbers (each layer's contributions, the mixing ratios): each
 * figure the app's own (export/analysis_figures.py), filled.
 * @param {Computed} lecture
 * @returns {Promise<Page & { numbers: { results: LayerContributions[], ratios: Ratios } }>}
 */
export async function contributionsPage(lecture) {
  const w = words().contributions, figures = words().figures, labels = labelled(lecture.tokens);
  const { results, ratios } = await contributions(lecture);
  const norms = /** @type {Norm[]} */ (["norm", "norm_residual", "norm_residual_ln"])
    .filter((name) => results[0][name] !== null);
  const fullest = norms[norms.length - 1];
  /**
   * @param {View} view
   * @param {number[][]} matrix
   */
  const panel = (view, matrix) => eachScreen((screen) => formFigure(figures.panel,
                                                                     { z: asMatrix(matrix), labels, view }, screen));
  /** @type {Record<string, Item>} */
  const attentionItems = {};
  /** @type {Record<string, Item>} */
  const beside = {};
  results.forEach((result, layer) => {
    const shown = /** @type {View[]} */ (["attention", ...norms]);  // the model's views: each has its ratios
    const mixed = Object.fromEntries(shown.map((name) => [name, /** @type {number[]} */ (ratios[name])[layer]]));
    /**
     * @param {string} what
     * @param {[number, boolean]} checked  [the largest difference, whether every one is within the bound]
     * @returns {[string, boolean]}
     */
    const check = (what, [diff, holds]) => [said(w.checks.said, { what: said(what, { layer }),
                                                                      diff: difference(diff) }), holds];
    attentionItems[String(layer)] = { ...item(panel("attention", result.attention)),
      said: [said(w.said, { layer, attention: percent(mixed.attention), fullest: percent(mixed[fullest]),
                                ln: fullest === "norm_residual_ln" ? " and LayerNorm" : "" })],
      checks: [check(w.checks.out, result.out_diff),
               check(w.checks[result.norm_residual_ln === null ? "pre_norm" : "post_norm"], result.norm_diff)] };
    for (const name of norms) {  // (a view of `norms`: not null)
      beside[`${layer},${name}`] = item(panel(name, /** @type {number[][]} */ (result[name])));
    }
  });
  const mixing = item(eachScreen((screen) => filled(figures.mixing[screen], ratios)));
  return Object.assign(page("contributions", [
    numbered("layer", results.map((_, l) => String(l))),
    picker("norm", norms.map((name) => [name, w.views[name]]), fullest)],
  [{ by: ["layer"], half: true, items: attentionItems }, { by: ["layer", "norm"], half: true, items: beside },
   { by: [], items: { "": mixing } }], [w.caption], true), { notes: w.notes, numbers: { results, ratios } });
}

// ---- the Lens: with no trained masked-LM head, the nearest vocabulary pieces (analyses/nearest_pieces.py) ----
/**
 * analyses/pieces.py piece_names: an id's piece as the app shows it, or "[id N]".
 * @returns {Promise<(id: number) => string>}
 */
async function pieceNames() {
  const t = /** @type {PieceTable} */ (await tokenizer());
  const added = new Map(t.added_tokens.map((token) => [token.id, token.content]));
  return (id) => {
    const piece = added.get(id) ?? t.model.vocab[id];
    if (piece === undefined) return `[id ${id}]`;
    return Object.hasOwn(t.readable, piece) ? t.readable[piece] : piece;
  };
}

/**
 * For hidden state 0..L: the top pieces and their cosines, by the package's own function as a graph
 * (export/analysis_graphs.py NearestPieces).
 * @param {Computed} lecture
 * @param {number} position
 * @returns {Promise<Nearest[]>}
 */
async function nearestAt(lecture, position) {
  const [{ ids, cosines }, name] = await Promise.all([analysed("nearest", lecture, { position }), pieceNames()]);
  return Array.from({ length: ids.shape[0] }, (_, l) => row(ids, l).map((id, k) => [name(id), get(cosines, l, k)]));
}

/**
 * page_views.nearest_figure, the app's own (export/analysis_figures.py lens_templates), filled: a phone's holds the
 * nearest `phone_top` pieces of each hidden state.
 * @param {Nearest[]} layers  each hidden state's
 * @param {number} position
 * @param {string} token
 * @returns {ForScreens}
 */
function lensFigure(layers, position, token) {
  const w = /** @type {NearestWords} */ (words().lens);  // a position's lens is asked for only where it is "nearest"
  const title = said(w.title, { position, token: escaped(token) });
  return eachScreen((screen) => {
    const shown = layers.map((top) => top.slice(0, screen === "phone" ? w.phone_top : w.top));
    return filled(w.figure[screen], { pieces: shown.map((top) => top.map(([piece]) => piece)),
                                      z: asMatrix(shown.map((top) => top.map(([, c]) => c))), title });
  });
}

/**
 * One position's nearest pieces, as an item of the page.
 * @param {Computed} lecture
 * @param {number} position
 * @returns {Promise<Item & { numbers: Nearest[] }>}
 */
export async function lensItem(lecture, position) {
  const layers = await nearestAt(lecture, position);
  return Object.assign(item(lensFigure(layers, position, lecture.tokens[position])), { numbers: layers });
}

/**
 * export/analyses.py lens_page, for what a live site can show.
 * @param {Computed} lecture
 * @returns {Promise<Page>}
 */
export async function lensPage(lecture) {
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

