// The site's Layers page: the app's stepper with no server. A block (the embeddings, the positions, a layer, the
// pooler), its sub-step and head are picked with the app's URL keys (layer, step, head, cell), ◀ ▶ walk the
// sub-steps, the step's numbers are drawn from the sentence's data, and a clicked cell is explained from the
// numbers it comes from (explain.js), the value recomputed in the browser beside the stored one.
import { row, matrix, MASKED_BELOW, difference, fixed, within } from "./numbers.js";
import { stepName, keyHead, headName } from "./steps.js";
import { explain } from "./explain.js";
import { lecture as lectureOf, partOf } from "./lecture.js";
import { plot } from "./plot.js";
import { labelled } from "./labels.js";
import { explanationFigure } from "./explanation_figure.js";
import { asMatrix, matrixFigure } from "./matrix_figure.js";
import { element, said, sentenceKeys, worded, screen } from "./page.js";
import { titled } from "./yours.js";
import { announce } from "./announce.js";
import { answers } from "./shortcuts.js";

/** @typedef {import("./steps.js").GraphNode} GraphNode */
/** @typedef {import("./steps.js").GraphBlock} GraphBlock */
/** @typedef {import("./steps.js").SiteModel} SiteModel */
/** @typedef {import("./lecture.js").Lecture} Lecture */
/**
 * Go to a step: its block, node key, layer and head, and the cell to explain where one is chosen.
 * @typedef {(block: GraphBlock, key: string, layer: number, head: number, cell?: number[]) => void} Go
 */
/**
 * A step as the figure shows it (`shown`): its rows (a window of WINDOW dimensions; null where masked), their
 * names (tokens, distances or numbers, as the app names them before it labels them) and the columns', the window's
 * first dimension and the dimensions in all, whether it is token by token, the step's own head (a key or value step's under grouped-query attention) and its heads in all (null: no heads).
 * @typedef {{ rows: (number | null)[][], rowNames: string[], columns: string[], start: number, count: number,
 *             tokenByToken: boolean, own: number | null, heads: number | null }} Shown
 */
/**
 * A clicked point of a Plotly heatmap: its trace's type and its [row, column].
 * @typedef {{ data: { type: string }, pointNumber: [number, number] }} Point
 */
/** @typedef {HTMLElement & { on: (event: string, listener: (event: { points: Point[] }) => void) => void }} Plotted */

const WINDOW = /** @type {number} */ (window.BVL_SITE.views.window);  // dimensions shown at a time, as the app's
// (figures/charts.py)
/** @type {Record<string, string>} */
const STAGES = { embed: "Embeddings", positions: "Positions", layers: "Layer", pooler: "Pooler" };
const EXPLAINS = "step-explains";  // the step's line on what it computes: its figure's description (figure_name.js)


/**
 * The app's keys → the block, its step's node (none where the model has no such step) and the head shown (notes
 * for a layer or head that is not there).
 * @param {SiteModel} model
 * @param {URLSearchParams} keys
 */
function where(model, keys) {
  const step = keys.get("step") || "attn.probs";
  /** @type {string[]} */
  const notes = [];
  const within = (/** @type {string} */ name, /** @type {number} */ count) => {  // a link's layer or head, or
    // the nearest there is, said
    const asked = keys.get(name) || "0";
    const value = /^\d{1,4}$/.test(asked) ? Math.min(Number(asked), count - 1) : 0;
    if (String(value) !== asked) {
      notes.push(worded("no_index", { name, asked, last: count - 1, value }));
    }
    return value;
  };
  const layer = within("layer", model.num_layers), head = within("head", model.num_heads);
  const global = /^(embed|positions|pooler)\./.test(step);
  const block = model.blocks.find((b) => (global ? step.startsWith(b.block + ".") : b.block === "layers" && b.layer === layer));
  const key = global ? step.slice(block ? block.block.length + 1 : 0) : step;
  const node = block && block.nodes.find((n) => n.key === key);
  return { block, node, layer, head, step, notes };
}

/**
 * The app's keys of a step, as its links write them.
 * @param {GraphBlock} block
 * @param {string} key
 * @param {number} layer
 * @param {number} head
 * @param {number[]} [cell]
 * @returns {Record<string, string>}
 */
function keysFor(block, key, layer, head, cell) {
  /** @type {Record<string, string>} */
  const keys = { step: block.block === "layers" ? key : `${block.block}.${key}`, layer: String(layer),
                 head: String(head) };
  if (cell) keys.cell = cell.join(",");
  return keys;
}

/**
 * explaining.parse_cell: whole numbers from 0, separated by commas; null for none, undefined for one that is not.
 * @param {string | null} text
 * @returns {number[] | null | undefined}
 */
function parseCell(text) {
  if (!text) return null;
  const parts = text.split(",").map((p) => p.trim());
  return parts.every((p) => /^\d{1,9}$/.test(p)) ? parts.map(Number) : undefined;
}

/**
 * One sub-step's numbers as a figure: rows × columns, the head chosen, a window of WINDOW dimensions from `first`.
 * @param {Lecture} lecture
 * @param {GraphBlock} block
 * @param {GraphNode} node
 * @param {number} head
 * @param {number} first
 * @returns {Shown}
 */
function shown(lecture, block, node, head, first) {
  const array = lecture.array(stepName(block, node.key));
  const heads = node.headed ? array.shape[0] : null;
  const own = heads === null ? null : keyHead(head, lecture.model.num_heads, heads);
  const lead = own === null ? [] : [own];
  let rows = array.shape.length - lead.length === 1 ? [row(array, ...lead)] : matrix(array, ...lead);
  const tokenByToken = node.axes.slice(-2).join() === "T,T";
  const count = rows[0].length;
  const start = tokenByToken ? 0 : Math.min(first, Math.max(0, count - WINDOW));
  const columns = tokenByToken ? labelled(lecture.tokens)
    : Array.from({ length: Math.min(WINDOW, count - start) }, (_, k) => String(start + k));
  if (!tokenByToken) rows = rows.map((r) => r.slice(start, start + WINDOW));
  const rowNames = node.axes.includes("2k") ? rows.map((_, i) => `δ = ${i - Math.floor(rows.length / 2)}`)
    : rows.length === lecture.tokens.length ? lecture.tokens : rows.map((_, i) => String(i));
  const masked = rows.map((r) => r.map((v) => (v <= MASKED_BELOW ? null : v)));
  return { rows: masked, rowNames, columns, start, count, tokenByToken, own, heads };
}

/**
 * The figure's title: where the step is, its head, its name.
 * @param {Lecture} lecture
 * @param {GraphBlock} block
 * @param {GraphNode} node
 * @param {number} head
 * @param {Shown} s
 */
function stepTitle(lecture, block, node, head, s) {
  const what = s.heads === null ? "" : s.heads === lecture.model.num_heads ? ` head ${head}`
    : ` key/value head ${s.own}`;
  const where = block.block === "layers" ? `layer ${block.layer}` : STAGES[block.block].toLowerCase();
  return `${where}${what}: ${node.title}`;
}

/**
 * The stages, the layer, head and sub-step pickers.
 * @param {HTMLElement} host
 * @param {SiteModel} model
 * @param {GraphBlock} block
 * @param {GraphNode} node
 * @param {number} layer
 * @param {number} head
 * @param {Go} go
 */
function controls(host, model, block, node, layer, head, go) {
  const row = element("div", undefined, { class: "controls" });
  const stages = element("div", undefined, { class: "stages" });
  for (const name of ["embed", "positions", "layers", "pooler"]) {
    const first = model.blocks.find((b) => b.block === name);
    if (!first) continue;
    const target = name === "layers" ? model.blocks.find((b) => b.block === "layers" && b.layer === layer) || first
      : first;
    const key = name === "layers" ? (target.nodes.some((n) => n.key === "attn.probs") ? "attn.probs" : target.nodes[0].key)
      : target.nodes[target.nodes.length - 1].key;
    stages.append(button(STAGES[name], block.block === name, () => go(target, key, layer, head)));
  }
  row.append(stages);
  if (block.block === "layers") {
    const layers = model.blocks.filter((b) => b.block === "layers");
    row.append(stepper("Layer", layers.map((b) => `Layer ${b.layer}`), layer, (i) => {
      const next = layers[i];
      go(next, next.nodes.some((n) => n.key === node.key) ? node.key : next.nodes[0].key, i, head);
    }, "layer", "layers"));
    const heads = Array.from({ length: model.num_heads }, (_, h) => `Head ${h}`);
    const perHead = node.headed || node.op === "merge_heads";  // as the app: a step on whole token vectors has none
    const picker = stepper("Head", heads, head, (h) => go(block, node.key, layer, h));
    if (!perHead) {
      picker.querySelectorAll("select, button").forEach((control) => {
        /** @type {HTMLSelectElement | HTMLButtonElement} */ (control).disabled = true;
      });
      picker.title = worded("no_heads");
    }
    row.append(picker);
  }
  const keys = block.nodes.map((n) => n.key);
  row.append(stepper("Sub-step", block.nodes.map((n, i) => `${i + 1}/${keys.length} ${n.title}`), keys.indexOf(node.key),
                     (i) => go(block, keys[i], layer, head), "step", true));
  host.append(row);
}

/**
 * A button; `pressed`: the one of its group that is shown.
 * @param {string} text
 * @param {boolean} pressed
 * @param {() => void} onClick
 * @param {Record<string, string>} [attributes]
 * @returns {HTMLButtonElement}
 */
function button(text, pressed, onClick, attributes) {
  const b = /** @type {HTMLButtonElement} */ (element("button", text, { type: "button", ...(attributes || {}) }));
  if (pressed) b.setAttribute("aria-pressed", "true");
  b.addEventListener("click", onClick);
  return b;
}

const WIDE_OPTION = 20;  // characters of an option past which its select needs a wider box (site.css .wide): a line
// of its own on a phone ("19/20 · The residual stream through every layer")

/**
 * ◀ a select ▶: `options` named, `current` chosen, `choose(i)` on a change; `name`: the buttons' class; `walk`:
 * the view's walk, whose ◀ ▶ answer Alt+Shift+← → (shortcuts.js), or "layers": Layers' layer, Alt+Shift+↑ ↓.
 * @param {string} label
 * @param {string[]} options
 * @param {number} current
 * @param {(index: number) => void} choose
 * @param {string} [name]
 * @param {boolean | "layers"} [walk]
 */
function stepper(label, options, current, choose, name, walk = false) {
  const wide = Math.max(...options.map((text) => text.length)) > WIDE_OPTION;
  const box = element("label", undefined, { class: wide ? "stepper wide" : "stepper" });
  box.append(element("span", label));
  const back = button("◀", false, () => choose(current - 1), { title: `previous ${label.toLowerCase()}`,
                                                               class: `back ${name || ""}` });
  back.disabled = current <= 0;
  const select = /** @type {HTMLSelectElement} */ (element("select", undefined, { "aria-label": label }));
  options.forEach((text, i) => select.append(element("option", text, { value: String(i) })));
  select.value = String(current);
  select.addEventListener("change", () => choose(Number(select.value)));
  const forward = button("▶", false, () => choose(current + 1), { title: `next ${label.toLowerCase()}`,
                                                                  class: `next ${name || ""}` });
  forward.disabled = current >= options.length - 1;
  if (walk) {
    answers(back, walk === "layers" ? "shallower" : "back", `${label}: ${options[current - 1] ?? ""}`);
    answers(forward, walk === "layers" ? "deeper" : "forward", `${label}: ${options[current + 1] ?? ""}`);
  }
  box.append(back, select, forward);
  return box;
}

/**
 * The block's check against the model's own output, in the app's words (stepthrough/words.py, in the model's data).
 * @param {Lecture} lecture
 * @param {GraphBlock & { against?: string }} block
 */
function checkLine(lecture, block) {
  const check = lecture.checks[block.name];  // [its largest difference, if it holds]
  const words = /** @type {SiteModel & { words: Record<string, string> }} */ (lecture.model).words;
  if (check === undefined || check === null) return element("p", words.shared, { class: "note" });
  const [diff, ok] = check;
  return element("p", `${ok ? "✔" : "✘"} ${said(words.check, { against: block.against, diff: difference(diff) })}`,
                 { class: ok ? "ok" : "bad" });
}

let tapped = false;  // whether the page is drawn for a cell the reader has just clicked or tapped
let keyed = false;  // whether it is drawn for a key pressed on the figure (Enter, Escape): the focus goes back to it

/**
 * A cell explained beside the figure: its value, formula, the recomputed value's check and its figure.
 * @param {HTMLElement} host
 * @param {Lecture} lecture
 * @param {string} step
 * @param {number | null} head the step's own head (a key or value step's under grouped-query attention)
 * @param {number} queryHead the one picked
 * @param {number[]} cell
 * @param {string[]} tokens
 * @param {boolean} lectureMode
 * @param {() => boolean} alive
 */
async function explained(host, lecture, step, head, queryHead, cell, tokens, lectureMode, alive) {
  let e;
  host.append(element("p", worded("reading_numbers"), { class: "note" }));
  try {
    e = await explain(lecture, step, head, cell);
    if (!alive()) return;
  } catch (error) {
    host.replaceChildren(element("p", error instanceof Error ? error.message : String(error), { class: "note" }));
    return;
  }
  host.replaceChildren();
  const labels = Object.entries(/** @type {Record<string, string>} */ (e.labels)).map(([k, v]) => `${k} ${v}`).join(", ") || e.at.join(",");
  const heads = e.head === null ? 0 : lecture.array(e.step).shape[0];
  const which = e.head === null ? "" : `, ${headName(queryHead, lecture.model.num_heads, heads)}`;
  host.append(element("h3", `${e.title}${which}, ${labels} = ${fixed(e.value, 4)}`, { class: "explained" }),
              element("p", `${e.op}: ${e.formula}`, { class: "formula" }));
  if (e.recomputed === null) {
    host.append(element("p", worded("not_recomputed"), { class: "note" }));
  } else {
    const diff = Math.abs(e.recomputed - e.value);
    const ok = within(e.recomputed, e.value, window.BVL_SITE.tolerances.same_sum);
    const words = /** @type {SiteModel & { words: Record<string, string> }} */ (lecture.model).words;
    const result = said(words.result, { recomputed: e.recomputed, value: e.value, diff: difference(diff, 0) });
    host.append(element("p", `${ok ? "✔" : "✘"} ${result}`,
                        { class: `result ${ok ? "ok" : "bad"}`, ...(lectureMode ? { "data-point": "result" } : {}) }));
  }
  const figure = explanationFigure(e, tokens, screen());
  if (figure) {
    const div = element("div", undefined, { class: "figure explanation" });
    host.append(div);
    plot(div, figure);
  }
}

/**
 * The Layers page of sentence `index`; `alive()`: whether this render is still the page's (the address may change
 * while a part is read).
 * @param {HTMLElement} view
 * @param {URLSearchParams} keys
 * @param {number} index
 * @param {(page: string, keys: Record<string, string>) => string} link
 * @param {() => boolean} alive
 */
export async function layers(view, keys, index, link, alive) {
  const site = window.BVL_SITE;
  const lecture = await lectureOf(site, index);
  if (!alive()) return;
  const { block, node, layer, head, step, notes } = where(site.model, keys);
  const cut = site.sentences[index].notice;  // a text past the model's length: what was dropped, said here too
  view.replaceChildren(titled("Layers", site.sentences[index]),
                       ...[cut, ...notes].filter(Boolean).map((note) => element("p", note, { class: "note" })));
  if (!block || !node) {
    const steps = (site.model.blocks.find((/** @type {GraphBlock} */ b) => b.block === "layers") || { nodes: [] })
      .nodes.map((/** @type {GraphNode} */ n) => n.key).join(", ");
    view.append(element("p", worded("no_step", { step, steps }), { class: "note" }));
    return;
  }
  await lecture.block(partOf(block.name));
  if (!alive()) return;
  const sentence = site.sentences[index];
  /** @type {Go} */
  const go = (b, key, l, h, cell) => { location.hash = link("layers", { ...sentenceKeys(sentence), ...keysFor(b, key, l, h, cell) }); };
  controls(view, site.model, block, node, layer, head, go);
  const columns = element("div", undefined, { class: "stepper-columns" });
  const words = element("section", undefined, { class: "words" });
  const canvas = element("section", undefined, { class: "canvas" });
  columns.append(canvas, words);
  view.append(columns);
  const position = block.nodes.indexOf(node) + 1;
  words.append(element("h2", `${block.block === "layers" ? `Layer ${layer} · ` : ""}step ${position} of ` +
                       `${block.nodes.length}: ${node.title}`),
               element("p", `${node.explains} ${node.shape}`, { class: "explains", id: EXPLAINS }), checkLine(lecture, block));
  const cellText = keys.get("cell");
  const cell = parseCell(cellText);
  const first = cell && !(node.axes.slice(-2).join() === "T,T") ? Math.floor(cell[cell.length - 1] / WINDOW) * WINDOW
    : Math.max(0, parseInt(keys.get("dims") || "0", 10) || 0);
  const s = shown(lecture, block, node, head, first);
  const chosen = cell && cell.length === 2 ? cell : null;  // outlined where the figure shows it
  const figure = /** @type {Plotted} */ (element("div", undefined,
                                                 { class: "figure step", id: "step-figure", "data-point": "step" }));
  canvas.append(figure);
  const lectureMode = document.body.classList.contains("lecture");
  const drawn = matrixFigure(s.tokenByToken ? "token" : "window", {
    z: asMatrix(s.rows), labels: s.tokenByToken ? s.columns : labelled(s.rowNames),
    title: stepTitle(lecture, block, node, head, s), colorbar: node.op === "softmax" ? "attention" : "score",
    scale: lecture.model.ops[node.op].scale ?? null, chosen, first: s.start, count: s.count,
  }, screen());
  const offset = s.tokenByToken ? 0 : s.start;  // the figure's first column's index in the matrix
  const pickAt = (/** @type {number} */ r, /** @type {number} */ c) => {  // the figure's cell (r, c) explained
    tapped = true;  // the explanation asked for is scrolled into view once drawn
    go(block, node.key, layer, head, s.rows.length === 1 && node.axes.length - (node.headed ? 1 : 0) === 1
      ? [s.start + c] : [r, offset + c]);
  };
  const wasKeyed = keyed;
  keyed = false;
  const start = cell && cell.length === 2 && cell[1] >= offset && cell[1] - offset < (s.rows[0] || []).length
    ? /** @type {[number, number]} */ ([cell[0], cell[1] - offset]) : null;
  await plot(figure, drawn, { pick: (r, c) => { keyed = true; pickAt(r, c); }, start, focus: wasKeyed, said: EXPLAINS,
                              close: cell ? () => { keyed = true; go(block, node.key, layer, head); } : undefined });
  figure.on("plotly_click", (event) => {
    const point = event.points.find((p) => p.data.type === "heatmap");
    if (point) pickAt(point.pointNumber[0], point.pointNumber[1]);
  });
  if (!s.tokenByToken && s.count > WINDOW) {
    canvas.append(stepper("Dimensions", Array.from({ length: Math.ceil(s.count / WINDOW) }, (_, k) =>
      `${k * WINDOW}–${Math.min(s.count, (k + 1) * WINDOW) - 1} of ${s.count}`), Math.floor(s.start / WINDOW), (k) => {
      location.hash = link("layers", { ...sentenceKeys(sentence), ...keysFor(block, node.key, layer, head), dims: String(k * WINDOW) });
    }, "dims"));
  }
  const explanation = element("div", undefined, { class: "explanation-panel" });
  words.append(explanation);
  if (cell === undefined) {
    explanation.append(element("p", worded("not_a_cell", { cell: cellText }),
                               { class: "note" }));
  } else if (cell === null) {
    explanation.append(element("p", worded("click_a_cell"), { class: "note" }));
  } else {
    const wasTapped = tapped;
    tapped = false;
    await explained(explanation, lecture, stepName(block, node.key), node.headed ? s.own : null, head, cell,
                    lecture.tokens, lectureMode, alive);
    const result = explanation.querySelector(".result");
    if (wasKeyed && result) announce(result.textContent || "");  // the explanation's point, said
    const line = (result || explanation).getBoundingClientRect();
    if (wasTapped && alive() && (line.top < 0 || line.bottom > window.innerHeight)) {  // on a phone the explanation
      // lies under the figure, below the screen: it is brought to the top, its value and result line in view
      // (issue 55: "tapping does nothing"); beside the figure, where it is seen, nothing moves
      explanation.scrollIntoView({ block: "start" });
    }
  }
}

export { stepper as stepperControl };
