// A sentence of the reader's own beside the exported ones, on a live site's Similarity page: its cosine with each,
// made each way the app makes sentence vectors, and the cosine with one of them split exactly into token pairs,
// computed by the app's own functions as a graph (export/analysis_graphs.py Similarity: similarity.py way_vector and
// cosine_matrix, similarity_split.py split_tensors) that runs here on the run's last layer; the words are the app's
// templates (export/similarity.py `yours`). tests/test_export_live.py holds both to the app's own numbers.
import { fixed, matrix } from "./numbers.js";
import { analysed } from "./analysis_graphs.js";
import { plot } from "./plot.js";
import { labelled } from "./labels.js";
import { asMatrix, formFigure } from "./matrix_figure.js";
import { filled } from "./template.js";
import { element, link, paragraph, said, worded, capitalized, screen } from "./page.js";

/** @typedef {import("./analysed_page.js").Computed} Computed */
/**
 * What export/similarity.py `yours` hands over: the exported sentences' tokens and the positions of them the pooling
 * reads (the split's columns), each way's name and words, the most tokens the pipeline reads, whether the
 * checkpoint pools its own vectors, the caption's templates, what the figures call the reader's sentence, and the
 * figures (export/analysis_figures.py): the split's forms, the cosines' row for each screen.
 * @typedef {{ tokens: string[][], columns: number[][], ways: { name: string, how: string, trained: boolean }[], most_tokens: number,
 *             pooled: boolean, words: { caption: string, pair: string, not_pooled: string, strongest: number },
 *             row: string, split: import("./matrix_figure.js").Form[],
 *             cosines: Record<import("./page.js").Screen, import("./template.js").Template> }} Yours
 */
/**
 * A split with one exported sentence (similarity_split.SimilaritySplit, as the graph gives it): its cells (rows: the
 * positions of the reader's sentence the pooling reads), those positions, the columns' tokens, the cosine, the
 * cells' sum and their flat indices, largest in size first.
 * @typedef {{ cells: number[][], rows: number[], columns: string[], cosine: number, total: number,
 *             bySize: number[] }} Split
 */

/**
 * Python's f"{value:+.Nf}".
 * @param {number} value
 * @param {number} decimals
 */
function signed(value, decimals) {
  const text = fixed(value, decimals);
  return text.startsWith("-") ? text : `+${text}`;
}

/**
 * SimilaritySplit.caption, from the same templates: the strongest pairs are the graph's order.
 * @param {Split} split
 * @param {string[]} tokens the reader's sentence's
 * @param {Yours} yours
 */
function caption(split, tokens, yours) {
  const w = yours.words, width = split.cells[0].length;
  const strongest = split.bySize.slice(0, w.strongest).map((flat) => {
    const r = Math.floor(flat / width), c = flat % width;
    return said(w.pair, { a: tokens[split.rows[r]], b: split.columns[c], value: signed(split.cells[r][c], 3) });
  });
  return said(w.caption, { cells: split.cells.length * width, total: fixed(split.total, 4),
                           how: yours.pooled ? "" : w.not_pooled, cosine: fixed(split.cosine, 4),
                           strongest: strongest.join("; ") });
}

/**
 * The numbers the section shows: each way's cosine of the reader's sentence with each exported one, and the split
 * with sentence `k` (1-based) where asked, with its caption.
 * @param {Computed} sentence
 * @param {Yours} yours
 * @param {number} k
 * @returns {Promise<{ cosines: number[][], pair: Split | null, text: string | null }>}
 */
export async function compared(sentence, yours, k) {
  const got = await analysed("similarity", sentence), at = (/** @type {string} */ name) => got[`split.${k}.${name}`];
  const pair = k ? { cells: matrix(at("cells")), rows: Array.from(at("rows").data),
                     columns: yours.columns[k - 1].map((j) => yours.tokens[k - 1][j]),
                     bySize: Array.from(at("by_size").data), cosine: at("cosine").data[0],
                     total: at("total").data[0] } : null;
  return { cosines: matrix(got.cosines), pair, text: pair && caption(pair, sentence.tokens, yours) };
}

/**
 * The reader's sentence against the exported ones, and why it is similar to one of them (`with=K`).
 * @param {HTMLElement} view
 * @param {SiteSentence} s
 * @param {URLSearchParams} keys
 * @param {Computed} sentence its run, as the graphs read it
 * @returns {Promise<void>}
 */
export async function section(view, s, keys, sentence) {
  const data = window.BVL_SITE.similarity, /** @type {Yours} */ yours = data.yours;
  const texts = /** @type {string[]} */ (data.texts);
  if (s.tokens.length > yours.most_tokens) {
    view.append(element("p", worded("yours_too_long", { count: s.tokens.length, source: data.source,
                                                       most: yours.most_tokens }), { class: "note" }));
    return;
  }
  const asked = (keys.get("with") || "").trim();
  const k = /^\d{1,2}$/.test(asked) && Number(asked) >= 1 && Number(asked) <= texts.length ? Number(asked) : 0;
  const numbers = await compared(sentence, yours, k);
  const columns = element("div", undefined, { class: "beside" });
  const controls = element("section"), canvas = element("section", undefined, { class: "canvas" });
  columns.append(controls, canvas);
  view.append(columns);
  controls.append(element("p", s.text, { class: "yours-text" }));
  const asking = { "aria-label": worded("why_yours"), id: "with" };
  const pick = /** @type {HTMLSelectElement} */ (element("select", undefined, asking));
  pick.append(element("option", worded("each_cosine"), { value: "" }));
  texts.forEach((_, j) => pick.append(element("option", worded("sentence_k", { k: j + 1 }), { value: String(j + 1) })));
  pick.value = k ? String(k) : "";
  pick.addEventListener("change", () => {
    location.hash = link("similarity", { text: s.text, ...(pick.value ? { with: pick.value } : {}) });
  });
  const label = element("label", worded("why_yours"), { class: "picker" });
  label.append(pick);
  controls.append(label);
  if (asked && !k) {
    controls.append(element("p", worded("no_with", { asked, count: texts.length }), { class: "note" }));
  }
  if (numbers.pair && numbers.text) {
    const split = numbers.pair;
    canvas.append(paragraph(numbers.text));
    const div = element("div", undefined, { class: "figure", id: "yours-split", "data-point": "split" });
    canvas.append(div);
    plot(div, formFigure(yours.split, {
      z: asMatrix(split.cells), rows: labelled(split.rows.map((i) => s.tokens[i])), columns: labelled(split.columns),
      title: worded("split_title", { a: yours.row, b: k, cosine: split.cosine }) }, screen()));
  }
  yours.ways.forEach((way, w) => {
    const div = element("div", undefined, { class: "figure", id: `yours-cosines-${w}`,
                                            ...(!k && w === 0 ? { "data-point": "cosines" } : {}) });
    canvas.append(div);
    plot(div, filled(yours.cosines[screen()], { z: asMatrix([numbers.cosines[w]]),
                                                title: worded("cosines_title", { name: way.name }) }));
    if (!way.trained) canvas.append(element("p", worded("way_how", { name: capitalized(way.name), how: way.how }),
                                            { class: "explains" }));
  });
}
