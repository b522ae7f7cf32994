// @ts-nocheck
// (not typed yet: a lecture's arrays, the graphs and the tour's words are the site's untyped data; the "one source"
// work rewrites it)
// The guided tour of a sentence computed in this browser, told as the app tells it: the model's chapters as
// tour/chapters.py gives them, and what is said of each in the package's own templates (export/tour.py tour_words:
// each narrator's in ops/*.py, by the name the site's data gives it, and tour/narration.py's), filled with the
// numbers this sentence's narrators find (ported, for now: docs/frontend.md). tests/test_export_live.py holds every
// chapter's words to the app's on the exported sentences. A chapter's figure is the stepper's own (figures.js), drawn
// for the screen, its title tour/views.py's.
// numbers.js: Python's f"{x:.Nf}", an array's row, Σ and ‖·‖, a matrix's rows, the mask's scores
import { fixed, at, dot, norm as length, matrix as matrixRows, MASKED_BELOW } from "./numbers.js";
import { stepName, keyHead, headName, findStep } from "./steps.js";
import { heatmap, labelled } from "./figures.js";
import { wrappedTitle } from "./styled.js";
import { analysed } from "./analysis_graphs.js";
import { hiddenStatesOf } from "./running.js";
import { said } from "./page.js";

const site = window.BVL_SITE;

// ---- arrays as the narrators read them: {shape, data}, a leading index taken off ----
const values = (array) => Array.from(array.data);  // float64, exactly the stored numbers
const argmax = (list) => list.reduce((best, v, k) => (v > list[best] ? k : best), 0);  // the first, as numpy's
const argmin = (list) => list.reduce((best, v, k) => (v < list[best] ? k : best), 0);
const sum = (list) => list.reduce((a, b) => a + b, 0);

class Step {  // tour/narration.py Step: what a narrator reads
  constructor(lecture, block, node, array, head, token, where) {
    const numHeads = lecture.model.num_heads;
    Object.assign(this, { lecture, block, node, array, token, where });
    this.head = node.headed ? keyHead(Math.min(head, numHeads - 1), numHeads, array.shape[0]) : null;
    this.mine = this.head === null ? array : at(array, this.head);  // (T, ...) for this head
  }
  input(i) {
    const key = this.node.inputs[i];
    const inside = this.block.nodes.some((n) => n.key === key);
    return this.lecture.array(inside ? stepName(this.block, key) : key);
  }
  tok(i) { return quoted(this.lecture.tokens[i]); }
  get me() { return this.tok(this.token); }
}

// ---- the package's templates (ops/telling.py, each narrator's `said`, tour/narration.py STORIES: export/tour.py
// tour_words), filled here with this sentence's numbers as the app fills them ----
const words = () => site.views.tour.words;
const quoted = (token) => said(words().telling.token, { token });
const narrator = (name) => (template, values) => said(words().narrators[name][template], values);

function relation(i, j) {  // ops/telling.py relation: which of its words say where key j lies from query i
  const t = words().telling.relation;
  if (j === i) return t.itself;
  if (j === i - 1) return t.before;
  if (j === i + 1) return t.after;
  return said(t[j < i ? "far_before" : "far_after"], { distance: Math.abs(i - j) });
}

function byDistance(s) {  // rows that are relative distances (DeBERTa's position queries and keys), not tokens
  return s.mine.shape.length === 2 && s.mine.shape[0] !== s.lecture.tokens.length;
}

function rowStory(s, what, unit = "") {
  const t = words().telling.row_story, distance = byDistance(s);
  const row = values(at(s.mine, distance ? Math.floor(s.mine.shape[0] / 2) + 1 : s.token));
  const top = argmax(row);
  return [said(t.row, { where: s.where, what, whose: distance ? t.distance : s.me, size: row.length,
                        low: Math.min(...row), high: Math.max(...row), top, largest: row[top], unit })];
}

function plain(s) {
  if (s.mine.shape.length === 2) return rowStory(s, s.node.title);
  const shape = s.array.shape;  // as Python writes a tuple
  return [said(words().telling.shape, { shape: `(${shape.join(", ")}${shape.length === 1 ? "," : ""})` })];
}

// ---- each operation's narrator (ops/sums.py, attention.py, activations.py, norms.py, positions.py; a family's
// own operation's, families/mpnet.py), by its Python name: the numbers its words name ----
function scoresStory(s) {
  const say = narrator("narrate_scores"), row = values(at(s.mine, s.token));
  const seen = row.map((v) => Number.isFinite(v) && v > MASKED_BELOW);
  const best = argmax(row.map((v, j) => (seen[j] ? v : -Infinity)));
  const worst = argmin(row.map((v, j) => (seen[j] ? v : Infinity)));
  return [say("highest", { where: s.where, me: s.me, best: s.tok(best), high: row[best], worst: s.tok(worst),
                           low: row[worst] }), say("next")];
}

const NARRATORS = {
  plain,
  narrate_linear(s) {
    const say = narrator("narrate_linear"), x = s.input(0);
    return [say("map", { each: say(byDistance(s) ? "distance" : "token"), size: x.shape[x.shape.length - 1],
                         bias: say(words().biased[s.node.module] ? "biased" : "unbiased") }),
            ...rowStory(s, s.node.title)];
  },
  narrate_merge(s) {
    const heads = s.lecture.model.num_heads, width = s.array.shape[s.array.shape.length - 1];
    return [narrator("narrate_merge")("merged", { heads, each: Math.floor(width / heads), width })];
  },
  narrate_residual(s) {
    const [carried, added] = [0, 1].map((i) => length(values(at(s.input(i), s.token))));
    const total = length(values(at(s.array, s.token)));
    return [narrator("narrate_residual")("lengths", { me: s.me, carried, added, total })];
  },
  narrate_activation(s) {
    const pre = values(at(s.input(0), s.token)), after = values(at(s.array, s.token));
    const share = (list, test) => (100 * list.filter(test).length) / list.length;
    return [narrator("narrate_activation")("shares", { me: s.me, size: pre.length, negative: share(pre, (v) => v < 0),
                                                       near_zero: share(after, (v) => Math.abs(v) < 0.05) })];
  },
  narrate_scores: scoresStory,
  narrate_mask(s) {
    const say = narrator("narrate_mask"), all = values(s.mine), masked = all.filter((v) => v <= MASKED_BELOW).length;
    return [masked === 0 ? say("none", { total: all.length }) : say("some", { masked, total: all.length }),
            scoresStory(s)[0]];
  },
  narrate_softmax(s) {
    const say = narrator("narrate_softmax"), row = values(at(s.mine, s.token)), best = argmax(row);
    const all = values(s.mine), strongest = argmax(all), T = s.mine.shape[1];
    return [say("row", { where: s.where, me: s.me, weight: row[best], best: s.tok(best),
                         relation: relation(s.token, best), total: sum(row) }),
            say("strongest", { query: s.tok(Math.floor(strongest / T)), key: s.tok(strongest % T),
                               weight: all[strongest] })];
  },
  narrate_context(s) {
    const say = narrator("narrate_context"), probs = s.input(0), row = values(at(at(probs, s.head), s.token));
    const top = row.map((_, j) => j).sort((a, b) => row[b] - row[a] || a - b).slice(0, 3);
    const terms = top.map((j) => say("term", { weight: row[j], key: s.tok(j) })).join(say("between"));
    return [say("context", { where: s.where, me: s.me, terms, keys: row.length })];
  },
  narrate_norm(s) {
    const x = values(at(s.input(0), s.token)), after = values(at(s.array, s.token));
    const mean = sum(x) / x.length, std = Math.sqrt(sum(x.map((v) => (v - mean) ** 2)) / x.length);
    return [narrator("narrate_norm")("norm", { me: s.me, mean, std, size: x.length, before: length(x),
                                               after: length(after) })];
  },
  narrate_rotation(s) {
    return [narrator("narrate_rotation")("turned", { me: s.me, position: s.token }), ...rowStory(s, s.node.title)];
  },
  _narrate_buckets(s) {  // families/mpnet.py: the bucket of each key's distance from the query
    const say = narrator("_narrate_buckets"), row = values(at(s.array, s.token)), top = argmax(row);
    return [say("highest", { me: s.me, bucket: row[top], key: s.tok(top), distance: Math.abs(top - s.token),
                             side: say(top > s.token ? "after" : "before") })];
  },
  narrate_relative(s) {
    const row = values(at(s.mine, s.token)), best = argmax(row);
    return [narrator("narrate_relative")("largest", { where: s.where, me: s.me, best: s.tok(best),
                                                      relation: relation(s.token, best), term: row[best] })];
  },
};

// ---- the chapters that are not a step (tour/narration.py) ----
function tokensStory(lecture, sentence) {
  const t = words().stories.tokens;
  const special = lecture.tokens.filter((_, i) => sentence.sentences[i] === "special");
  const pieces = lecture.tokens.filter((_, i) => sentence.continues[i]);
  return [said(t.cut, { tokens: lecture.tokens.length, special: special.length, names: [...new Set(special)].join(t.between),
                        vocabulary: words().vocabulary }),
          pieces.length ? said(t.pieces, { pieces: pieces.length, first: pieces[0] }) : t.whole];
}

function hiddenStates(lecture) {  // the model's own vectors: the embeddings' output, then each layer's
  const outputs = lecture.model.blocks.filter((b) => b.block === "embed" || b.block === "layers")
    .map((b) => stepName(b, b.nodes[b.nodes.length - 1].key));
  return outputs.map((name) => lecture.given(name));
}

function layerChanges(lecture) {  // analyses/residual_stream.py layer_changes: (L, T) cosines before/after
  const h = hiddenStates(lecture), T = lecture.tokens.length;
  return h.slice(1).map((after, l) => Array.from({ length: T }, (_, t) => {
    const u = values(at(h[l], t)), v = values(at(after, t));
    return Math.fround(dot(u, v) / Math.max(length(u) * length(v), 1e-12));  // float32
  }));
}

function streamStory(lecture, token) {
  const t = words().stories.stream;
  const cos = layerChanges(lecture).map((row) => row[token]);
  const norms = hiddenStates(lecture).map((h) => length(values(at(h, token))));
  const most = argmin(cos), least = argmax(cos);
  return [t.adds, said(t.turns, { token: quoted(lecture.tokens[token]), most, lowest: cos[most], least,
                                  highest: cos[least], first: norms[0], last: norms[norms.length - 1] })];
}

// The sentence vector the model's pipeline makes (the Similarity page's first way, as analyses/similarity.py
// vectors_of_trace), by the app's own function as a graph (export/analysis_graphs.py SentenceVector): from this run,
// or where the pipeline reads the text otherwise (a pair's first sentence alone, a text past its length cut there),
// from a run of its own, as the app runs it again
async function sentenceVector(lecture, sentence) {
  const way = words().vector;
  const own = !sentence.pair && (!way.pooled || sentence.tokens.length + (sentence.dropped || 0) <= way.most_tokens);
  const states = own ? null : await hiddenStatesOf(sentence.text, way.most_tokens);
  const run = own ? lecture : { array: () => states, ids: {}, weights: async () => ({}) };
  const { vector } = await analysed("vector", run);
  return { way, vector: Array.from(vector.data) };
}

function outputStory(found) {  // tour/narration.py output_sentences, for the sentence vector
  const { way, vector } = found, t = words().stories.output;
  return [said(t.vector, { size: vector.length, how: way.how }), said(t.length, { length: length(vector) }),
          ...(way.trained ? [] : [t.untrained])];
}

// tour/narration.py narrate: the chapter's sentences about `head` and `token`
function narrate(lecture, sentence, chapter, head, token, outputs) {
  const w = words(), told = w.stories.step;
  token = Math.min(Math.max(token, 0), lecture.tokens.length - 1);
  let lines = w.random ? [w.random] : [];
  if (chapter.kind === "tokens") return [...lines, ...tokensStory(lecture, sentence)];
  if (chapter.kind === "stream") return [...lines, ...streamStory(lecture, token)];
  if (chapter.kind === "output") return [...lines, ...outputs];
  const [block, node] = findStep(lecture.model, chapter.step);
  const op = lecture.model.ops[node.op];
  if (!op.reads_weights) lines = [w.no_weights];
  const array = lecture.array(chapter.step);
  const numHeads = lecture.model.num_heads, queryHead = Math.min(head, numHeads - 1);
  const place = block.block === "layers" ? said(told.layer, { layer: block.layer }) : told.here;
  const where = node.headed ? said(told.head, { place, head: headName(queryHead, numHeads, array.shape[0]) }) : place;
  const what = node.explains[0].toUpperCase() + node.explains.slice(1);
  const step = new Step(lecture, block, node, array, head, token, where);
  return [...lines, said(told.explains, { what }), ...(NARRATORS[op.narrates] || plain)(step)];  // (every family's
  // are ported)
}

// ---- each chapter's figure, drawn by the stepper's figures for the width it is drawn at ----
function stepFigure(lecture, chapter, head, token) {
  const [, node] = findStep(lecture.model, chapter.step);
  const array = lecture.array(chapter.step), numHeads = lecture.model.num_heads;
  const own = node.headed ? keyHead(Math.min(head, numHeads - 1), numHeads, array.shape[0]) : null;
  const matrix = own === null ? array : at(array, own);
  if (matrix.shape.length !== 2) return null;
  const tokenByToken = node.axes.slice(-2).join() === "T,T";
  const rows = matrixRows(matrix).map((r) => (tokenByToken ? r : r.slice(0, site.views.window)));
  const byToken = rows.length === lecture.tokens.length;
  const row = byToken ? values(at(matrix, Math.min(token, rows.length - 1))) : null;  // the number the words name
  const best = row && argmax(row.map((v) => (Number.isFinite(v) && v > MASKED_BELOW ? v : -Infinity)));
  const queryHead = Math.min(head, numHeads - 1);  // tour/views.py chapter_figure's title
  const titles = words().figure_titles;
  const title = own === null ? node.title
    : said(titles[array.shape[0] === numHeads ? "head" : "shared_head"], { title: node.title, head: queryHead, shared: own });
  return (width, tallest) => heatmap({
    z: rows.map((r) => r.map((v) => (v <= MASKED_BELOW ? null : v))),
    rows: node.axes.includes("2k") ? rows.map((_, i) => `δ = ${i - Math.floor(rows.length / 2)}`)
      : byToken ? labelled(lecture.tokens) : rows.map((_, i) => String(i)),
    columns: tokenByToken ? labelled(lecture.tokens) : rows[0].map((_, k) => String(k)),
    title, colorbar: op(lecture, node).gives_probabilities ? "attention" : "value",
    axes: tokenByToken ? ["query", "key"] : ["token", "dimension"], width, tallest, rotate: tokenByToken,
    scale: op(lecture, node).scale,
    chosen: best !== null && (tokenByToken || best < site.views.window) ? [token, best] : null });
}

const op = (lecture, node) => lecture.model.ops[node.op];

function streamFigure(lecture) {  // figures/charts.py stream_changes: darker where a layer turned a vector more
  const cos = layerChanges(lecture);
  const low = Math.min(0.9, Math.floor(Math.min(...cos.flat()) * 10) / 10);
  return (width, tallest) => {
    const figure = heatmap({ z: cos, rows: cos.map((_, l) => `layer ${l}`), columns: labelled(lecture.tokens),
                                 title: words().figure_titles.stream,
                                 colorbar: "cosine", axes: ["", "token"], width, tallest, rotate: true, scale: "share",
                                 rowPx: 30,  // as the app's: 30 px a layer
                                 text: cos.map((r) => r.map((v) => fixed(v, 2))) });
    Object.assign(figure.data[0], { reversescale: true, zmin: low, zmax: 1 });
    return figure;
  };
}

function vectorFigure(found) {  // figures/charts.py vector_bars
  return () => ({ data: [{ type: "bar", x: found.vector.map((_, k) => k), y: found.vector,
                           marker: { color: site.style.blue },
                           hovertemplate: "dimension %{x}<br>%{y:.4f}<extra></extra>" }],
                  layout: { height: 420, title: { text: said(words().figure_titles.vector, { name: found.way.name }) },
                            font: { size: site.style.font }, margin: { l: 10, r: 10, t: 50, b: 10 },
                            xaxis: { title: { text: "dimension" }, automargin: true },
                            yaxis: { title: { text: "value" }, automargin: true } } });
}

export function titled(figure, width) {  // its title on as many lines as the width needs (a phone's), as fit.py wraps
  // it, where Plotly sets a title (in the middle of the room above the plot, which grows by the lines added)
  const layout = figure.layout, wrap = wrappedTitle(layout, width, (layout.font && layout.font.size) || 16);
  if (wrap) Object.assign(layout, { title: { ...layout.title, text: wrap.text },
                                    margin: { ...layout.margin, t: (layout.margin.t || 0) + wrap.added } });
  return figure;
}

// The tour of a computed sentence, as export/tour.py tour_chapters gives an exported one's, each chapter's figure
// a function of the width and height it is drawn in (`draw`)
export async function tourOf(lecture, sentence) {
  const about = site.views.tour;
  const token = Math.min(about.token, lecture.tokens.length - 1);
  const found = await sentenceVector(lecture, sentence);
  return words().chapters.map((chapter) => {  // the model's chapters, as tour/chapters.py gives them
    const lines = narrate(lecture, sentence, chapter, about.head, token, outputStory(found));
    const draw = chapter.kind === "step" ? stepFigure(lecture, chapter, about.head, token)
      : chapter.kind === "stream" ? streamFigure(lecture) : chapter.kind === "output" ? vectorFigure(found) : null;
    return { ...chapter, lines, figure: null, draw: draw && ((width, tallest) => titled(draw(width, tallest), width)) };
  });
}

