// @ts-nocheck
// (not typed yet: a lecture's arrays, the graphs and the tour's words are the site's untyped data; the "one source"
// work rewrites it)
// The guided tour of a sentence computed in this browser, told as the app tells it: the chapters read from the
// model's graphs (tour/chapters.py), and what is said of each with this sentence's own numbers (tour/narration.py,
// and each operation's narrator in ops/*.py, by the name the site's data gives it), with the words no sentence
// changes handed over by export/tour.py tour_words. tests/test_export_live.py holds every chapter's words to the
// app's on the exported sentences. A chapter's figure is the stepper's own (figures.js), drawn for the screen.
// numbers.js: Python's f"{x:.Nf}", an array's row, Σ and ‖·‖, a matrix's rows, the mask's scores
import { fixed, at, dot, norm as length, matrix as matrixRows, MASKED_BELOW } from "./numbers.js";
import { stepName, keyHead, headName, findStep } from "./steps.js";
import { heatmap, labelled } from "./figures.js";
import { wrappedTitle } from "./styled.js";
import { vector as pooledVector } from "./similar.js";
import { lastLayer } from "./running.js";

const site = window.BVL_SITE;

function chapters(model, layer) {  // tour/chapters.py chapters
  const block = (name, at) => model.blocks.find((b) => b.block === name && (at === undefined || b.layer === at));
  const step = (b, n, title) => ({ kind: "step", title, step: stepName(b, n.key) });
  const embed = block("embed"), output = embed.nodes[embed.nodes.length - 1];
  const out = [{ kind: "tokens", title: "The text becomes tokens", step: null },
               step(embed, output, `Embeddings: ${output.title}`)];
  const positions = block("positions");
  if (positions) out.push(...positions.nodes.map((n) => step(positions, n, `Positions: ${n.title}`)));
  const own = block("layers", layer);
  out.push(...own.nodes.filter((n) => n.op !== "input").map((n) => step(own, n, `Layer ${layer}: ${n.title}`)));
  return [...out, { kind: "stream", title: "The residual stream through every layer", step: null },
          { kind: "output", title: "What the model gives", step: null }];
}

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
  tok(i) { return `'${this.lecture.tokens[i]}'`; }
  get me() { return this.tok(this.token); }
}

// ---- how the narrators tell of a step's numbers (ops/telling.py) ----
function relation(i, j) {
  if (j === i) return ", itself";
  if (j === i - 1) return ", the token before it";
  if (j === i + 1) return ", the token after it";
  return `, ${Math.abs(i - j)} tokens ${j < i ? "before" : "after"} it`;
}

function byDistance(s) {  // rows that are relative distances (DeBERTa's position queries and keys), not tokens
  return s.mine.shape.length === 2 && s.mine.shape[0] !== s.lecture.tokens.length;
}

function rowStory(s, what, unit = "") {
  const distance = byDistance(s);
  const row = values(at(s.mine, distance ? Math.floor(s.mine.shape[0] / 2) + 1 : s.token));
  const whose = distance ? "distance δ = 1 (a key one token before its query)" : s.me;
  const top = argmax(row);
  return [`${s.where}, ${what} of ${whose}: ${row.length} numbers, from ${fixed(Math.min(...row), 2)} to ` +
          `${fixed(Math.max(...row), 2)}; the largest is number ${top} (${fixed(row[top], 2)}${unit}).`];
}

function plain(s) {
  if (s.mine.shape.length === 2) return rowStory(s, s.node.title);
  const shape = s.array.shape;
  return [`Its shape: (${shape.join(", ")}${shape.length === 1 ? "," : ""}).`];  // Python's tuple
}

// ---- each operation's narrator (ops/sums.py, attention.py, activations.py, norms.py, positions.py; a family's
// own operation's, families/mpnet.py), by its Python name ----
function scoresStory(s) {
  const row = values(at(s.mine, s.token));
  const seen = row.map((v) => Number.isFinite(v) && v > MASKED_BELOW);
  const best = argmax(row.map((v, j) => (seen[j] ? v : -Infinity)));
  const worst = argmin(row.map((v, j) => (seen[j] ? v : Infinity)));
  return [`${s.where}, query ${s.me} scores key ${s.tok(best)} highest (${fixed(row[best], 2)}) and ` +
          `${s.tok(worst)} lowest (${fixed(row[worst], 2)}).`, "The softmax that follows turns these scores into weights."];
}

const NARRATORS = {
  plain,
  narrate_linear(s) {
    const biased = site.views.tour.words.biased[s.node.module];
    const each = byDistance(s) ? "Each relative distance's" : "Each token's";
    const x = s.input(0);
    return [`${each} ${x.shape[x.shape.length - 1]} numbers times a learnt matrix` +
            `${biased ? ", plus a bias" : " (no bias)"}.`, ...rowStory(s, s.node.title)];
  },
  narrate_merge(s) {
    const heads = s.lecture.model.num_heads, width = s.array.shape[s.array.shape.length - 1];
    return [`${heads} heads × ${Math.floor(width / heads)} numbers = ${width} numbers per token.`];
  },
  narrate_residual(s) {
    const [carried, added] = [0, 1].map((i) => length(values(at(s.input(i), s.token))));
    const total = length(values(at(s.array, s.token)));
    return [`For ${s.me}: the vector carried past has length ${fixed(carried, 1)}, the sub-layer adds one of length ` +
            `${fixed(added, 1)}, and their sum has length ${fixed(total, 1)}.`];
  },
  narrate_activation(s) {
    const pre = values(at(s.input(0), s.token)), after = values(at(s.array, s.token));
    const share = (list, test) => (100 * list.filter(test).length) / list.length;
    return [`Of ${s.me}'s ${pre.length} numbers, ${fixed(share(pre, (v) => v < 0), 0)}% were negative; after the ` +
            `activation ${fixed(share(after, (v) => Math.abs(v) < 0.05), 0)}% are within 0.05 of zero.`];
  },
  narrate_scores: scoresStory,
  narrate_mask(s) {
    const all = values(s.mine), masked = all.filter((v) => v <= MASKED_BELOW).length;
    return [masked === 0 ? `Nothing is masked here: every one of the ${all.length} query–key pairs may be seen.`
      : `${masked} of the ${all.length} query–key pairs are masked (blank in the figure): those keys are out of the ` +
        "query's sight.", scoresStory(s)[0]];
  },
  narrate_softmax(s) {
    const row = values(at(s.mine, s.token)), best = argmax(row);
    const all = values(s.mine), strongest = argmax(all), T = s.mine.shape[1];
    const [i, j] = [Math.floor(strongest / T), strongest % T];
    return [`${s.where}, ${s.me} puts ${fixed(row[best], 2)} of its attention on ${s.tok(best)}` +
            `${relation(s.token, best)}; its row adds up to ${fixed(sum(row), 2)}.`,
            `The strongest weight of this head: ${s.tok(i)} → ${s.tok(j)}, ${fixed(all[strongest], 2)}.`];
  },
  narrate_context(s) {
    const probs = s.input(0), row = values(at(at(probs, s.head), s.token));
    const top = row.map((_, j) => j).sort((a, b) => row[b] - row[a] || a - b).slice(0, 3);
    const terms = top.map((j) => `${fixed(row[j], 2)} × v(${s.tok(j)})`).join(" + ");
    return [`${s.where}, the context of ${s.me} is Σ p v over every key: ${terms} + … (${row.length} keys).`];
  },
  narrate_norm(s) {
    const x = values(at(s.input(0), s.token)), after = values(at(s.array, s.token));
    const mean = sum(x) / x.length, std = Math.sqrt(sum(x.map((v) => (v - mean) ** 2)) / x.length);
    return [`${s.me} came in with mean ${fixed(mean, 2)} and standard deviation ${fixed(std, 2)} over its ` +
            `${x.length} numbers (length ${fixed(length(x), 1)}); after the norm its length is ` +
            `${fixed(length(after), 1)}.`];
  },
  narrate_rotation(s) {
    return [`Each pair of dimensions is turned by an angle that grows with the position: ${s.me} is at position ` +
            `${s.token}.`, ...rowStory(s, s.node.title)];
  },
  _narrate_buckets(s) {  // families/mpnet.py: the bucket of each key's distance from the query
    const row = values(at(s.array, s.token)), top = argmax(row);
    return [`For query ${s.me}, the highest bucket of its row is ${row[top]}, first reached by ${s.tok(top)}, ` +
            `${Math.abs(top - s.token)} tokens ${top > s.token ? "after" : "before"} it; keys within 7 tokens each ` +
            "have a bucket of their own, farther ones share buckets on a log scale."];
  },
  narrate_relative(s) {
    const row = values(at(s.mine, s.token)), best = argmax(row);
    return [`${s.where}, for query ${s.me} the largest term is with key ${s.tok(best)}${relation(s.token, best)} ` +
            `(${fixed(row[best], 2)}); it depends on how far apart they are, not on what they say.`];
  },
};

// ---- the chapters that are not a step (tour/narration.py) ----
function tokensStory(lecture, sentence) {
  const words = site.views.tour.words;
  const special = lecture.tokens.filter((_, i) => sentence.sentences[i] === "special");
  const pieces = lecture.tokens.filter((_, i) => sentence.continues[i]);
  return [`The tokenizer cuts the text into ${lecture.tokens.length} tokens, ${special.length} of them special ` +
          `(${[...new Set(special)].join(", ")}), and gives each the id of its row in ${words.vocabulary}.`,
          pieces.length ? `${pieces.length} tokens continue a word cut into pieces (such as '${pieces[0]}').`
            : "Every word here is a single token of the vocabulary."];
}

export function hiddenStates(lecture) {  // the model's own vectors: the embeddings' output, then each layer's
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
  const cos = layerChanges(lecture).map((row) => row[token]);
  const norms = hiddenStates(lecture).map((h) => length(values(at(h, token))));
  const most = argmin(cos), least = argmax(cos);
  return ["Every layer adds to the residual stream rather than replacing it, so a token's vector keeps much of its " +
          "direction from layer to layer.",
          `'${lecture.tokens[token]}' changes most in layer ${most} (cosine ${fixed(cos[most], 2)} between its vector ` +
          `before and after) and least in layer ${least} (${fixed(cos[least], 2)}); its length goes from ` +
          `${fixed(norms[0], 1)} to ${fixed(norms[norms.length - 1], 1)}.`];
}

// The sentence vector the model's pipeline makes (the Similarity page's first way, as analyses/similarity.py
// vectors_of_trace): from this run's last layer, or where the pipeline reads the text otherwise (a pair's first
// sentence alone, a text past its length cut there), from a run of its own, as the app runs it again
async function sentenceVector(lecture, sentence) {
  const way = site.views.tour.words.vector, states = hiddenStates(lecture);
  const own = !sentence.pair && (!way.pooled || sentence.tokens.length + (sentence.dropped || 0) <= way.most_tokens);
  const last = own ? states[states.length - 1] : await lastLayer(sentence.text, way.most_tokens);
  const u = pooledVector(way, last, null, way.modes);  // never the pooler's
  const scale = way.normalize && way.from === "pooling" ? Math.max(length(Array.from(u)), 1e-12) : 1;
  return { way, vector: Array.from(u, (v) => v / scale) };
}

function outputStory(found) {  // tour/narration.py output_sentences, for the sentence vector
  const { way, vector } = found;
  return [`The whole sentence becomes one vector of ${vector.length} numbers: ${way.how}.`,
          `Its length is ${fixed(length(vector), 2)}; a sentence with a similar meaning gets a vector pointing the ` +
          "same way (the Similarity page compares them).",
          ...(way.trained ? [] : ["This model was not trained for sentence similarity."])];
}

// tour/narration.py narrate: the chapter's sentences about `head` and `token`
function narrate(lecture, sentence, chapter, head, token, outputs) {
  const words = site.views.tour.words;
  token = Math.min(Math.max(token, 0), lecture.tokens.length - 1);
  let lines = words.random ? [words.random] : [];
  if (chapter.kind === "tokens") return [...lines, ...tokensStory(lecture, sentence)];
  if (chapter.kind === "stream") return [...lines, ...streamStory(lecture, token)];
  if (chapter.kind === "output") return [...lines, ...outputs];
  const [block, node] = findStep(lecture.model, chapter.step);
  const op = lecture.model.ops[node.op];
  if (!op.reads_weights) lines = [words.no_weights];
  const array = lecture.array(chapter.step);
  const numHeads = lecture.model.num_heads, queryHead = Math.min(head, numHeads - 1);
  const place = block.block === "layers" ? `In layer ${block.layer}` : "Here";
  const where = place + (node.headed ? `, ${headName(queryHead, numHeads, array.shape[0])}` : "");
  const what = node.explains[0].toUpperCase() + node.explains.slice(1);
  const step = new Step(lecture, block, node, array, head, token, where);
  return [...lines, `${what}.`, ...(NARRATORS[op.narrates] || plain)(step)];  // (every family's are ported)
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
  const headWords = own === null ? "" : array.shape[0] === numHeads ? `, head ${queryHead}`
    : `, key/value head ${own} (read by query head ${queryHead})`;
  return (width, tallest) => heatmap({
    z: rows.map((r) => r.map((v) => (v <= MASKED_BELOW ? null : v))),
    rows: node.axes.includes("2k") ? rows.map((_, i) => `δ = ${i - Math.floor(rows.length / 2)}`)
      : byToken ? labelled(lecture.tokens) : rows.map((_, i) => String(i)),
    columns: tokenByToken ? labelled(lecture.tokens) : rows[0].map((_, k) => String(k)),
    title: `${node.title}${headWords}`, colorbar: op(lecture, node).gives_probabilities ? "attention" : "value",
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
                                 title: "How much each layer turns each token's vector (cosine before/after)",
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
                  layout: { height: 420, title: { text: `The sentence vector (${found.way.name})` },
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
  return chapters(lecture.model, about.layer).map((chapter) => {
    const lines = narrate(lecture, sentence, chapter, about.head, token, outputStory(found));
    const draw = chapter.kind === "step" ? stepFigure(lecture, chapter, about.head, token)
      : chapter.kind === "stream" ? streamFigure(lecture) : chapter.kind === "output" ? vectorFigure(found) : null;
    return { ...chapter, lines, figure: null, draw: draw && ((width, tallest) => titled(draw(width, tallest), width)) };
  });
}

