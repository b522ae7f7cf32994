// The guided tour of a sentence computed in this browser, told as the app tells it: the model's chapters as
// tour/chapters.py gives them, what is said of each in the package's own templates (export/tour.py tour_words), and
// what each asks first (asked.js).
// tests/test_export_live.py holds every chapter's words to the app's on the exported sentences. A chapter's figure
// is the app's own (the stepper's matrix, the residual stream's, the sentence vector's: templates), for each screen. A step's chapter is told by its
// narrator's `telling` (ops/telling.py: its templates and the numbers they name), worked out by recipe.js as the app
// works it out.
// numbers.js: Python's f"{x:.Nf}", an array's row, ‖·‖, a matrix's rows, the mask's scores
import { at, matrix as matrixRows } from "./numbers.js";
import { toldOf, toldOver, valueOf } from "./recipe.js";
import { askedOf } from "./asked.js";
import { vector } from "./values.js";
import { stepName, keyHead, headName, findStep } from "./steps.js";
import { labelled } from "./labels.js";
import { analysed } from "./analysis_graphs.js";
import { hiddenStatesOf } from "./running.js";
import { eachScreen, said } from "./page.js";
import { asMatrix, formFigure, matrixFigure } from "./matrix_figure.js";
import { filled } from "./template.js";

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {import("./lecture.js").Lecture} Lecture */
/** @typedef {import("./steps.js").GraphBlock} GraphBlock */
/** @typedef {import("./steps.js").GraphNode} GraphNode */
/** @typedef {import("./figure_types.js").Figure} Figure */
/** @typedef {import("./recipe.js").StepContext} StepContext */
/**
 * A chapter as the tour's words give it (export/tour.py tour_words: tour/chapters.py Chapter, and a step's telling).
 * @typedef {{ kind: "step" | "tokens" | "stream" | "output", title: string, step: string | null,
 *             telling: import("./recipe.js").Telling | null, asking: import("./asked.js").Asking | null }} ChapterWords
 */
/** @typedef {(width: number, tallest: number | null) => Figure} Draw */
/**
 * The sentence vector of the model's first way of making one (export/tour.py tour_words `vector`), and its numbers.
 * @typedef {{ way: { name: string, how: string, trained: boolean, pooled: boolean, most_tokens: number },
 *             vector: number[] }} Found
 */

const site = window.BVL_SITE;

/**
 * A chapter's step as its narration reads it (tour/narration.py Step).
 * @param {Lecture} lecture
 * @param {GraphBlock} block
 * @param {GraphNode} node
 * @param {Unpacked} array
 * @param {number} head
 * @param {number} token
 * @param {string} where
 * @returns {StepContext}
 */
function stepContext(lecture, block, node, array, head, token, where) {
  const heads = lecture.model.num_heads;
  const own = node.headed ? keyHead(Math.min(head, heads - 1), heads, array.shape[0]) : null;
  return {
    array, head: own, mine: own === null ? array : at(array, own), chosen: token, where, heads,
    length: lecture.tokens.length, tok: (/** @type {number} */ i) => quoted(lecture.tokens[i]),
    input: (/** @type {number} */ k) => {
      const key = node.inputs[k];
      return lecture.array(block.nodes.some((n) => n.key === key) ? stepName(block, key) : key);
    },
  };
}

// ---- the package's templates (tour/narration.py STORIES, what narrators share: export/tour.py tour_words) ----
/** @returns {any} the tour's words, the site's untyped JSON */
const words = () => site.views.tour.words;
/** @param {string} token */
const quoted = (token) => said(words().telling.token, { token });

// ---- the chapters that are not a step (tour/narration.py) ----
/**
 * The tokens' chapter, told by its telling (tour/narration.py TOKENS_TELLING) on what it names of the sentence.
 * @param {Lecture} lecture
 * @param {SiteSentence} sentence
 * @returns {string[]}
 */
function tokensStory(lecture, sentence) {
  return toldOver(words().tokens_telling, {
    tokens: lecture.tokens, vocabulary: words().vocabulary,
    special: vector(lecture.tokens.map((_, i) => Number(sentence.sentences[i] === "special"))),
    pieces: vector(lecture.tokens.map((_, i) => Number(Boolean(sentence.continues?.[i])))) });
}

/**
 * The residual stream's numbers (analyses/residual_stream.py turns, as a graph that runs on the run's hidden
 * states): how much each layer turns each token's vector (L, T), and each vector's length (L + 1, T).
 * @typedef {{ cosines: Unpacked, lengths: Unpacked }} Stream
 */

/**
 * The residual stream's chapter, told by its telling (tour/narration.py stream_telling) on the graph's numbers.
 * @param {Lecture} lecture
 * @param {ChapterWords} chapter
 * @param {Stream} stream
 * @param {number} token
 * @returns {string[]}
 */
function streamStory(lecture, chapter, stream, token) {
  return toldOf(/** @type {import("./recipe.js").Telling} */ (chapter.telling), streamContext(lecture, stream, token));
}

/**
 * What the residual stream's chapter reads (tour/narration.py Stream): its numbers, the chosen token, its words.
 * @param {Lecture} lecture
 * @param {Stream} stream
 * @param {number} token
 * @returns {any}
 */
function streamContext(lecture, stream, token) {
  return { ...stream, chosen: token, tok: (/** @type {number} */ i) => quoted(lecture.tokens[i]) };
}

// The sentence vector the model's pipeline makes (the Similarity page's first way, as analyses/similarity.py
// vectors_of_trace), by the app's own function as a graph (export/analysis_graphs.py SentenceVector): from this run,
// or where the pipeline reads the text otherwise (a pair's first sentence alone, a text past its length cut there),
// from a run of its own, as the app runs it again
/**
 * @param {Lecture} lecture
 * @param {SiteSentence} sentence
 * @returns {Promise<Found>}
 */
async function sentenceVector(lecture, sentence) {
  const way = words().vector;
  const own = !sentence.pair && (!way.pooled || sentence.tokens.length + (sentence.dropped || 0) <= way.most_tokens);
  const states = own ? null : await hiddenStatesOf(sentence.text, way.most_tokens);
  const run = own ? lecture : { array: () => /** @type {Unpacked} */ (states), ids: {}, weights: async () => ({}) };
  const { vector } = await analysed("vector", run);
  return { way, vector: Array.from(vector.data) };
}

/**
 * The sentence vector's chapter, told by its telling (tour/narration.py VECTOR_TELLING).
 * @param {Found} found
 * @returns {string[]}
 */
function outputStory(found) {
  return toldOver(words().vector_telling, { vector: vector(found.vector), how: found.way.how,
                                            trained: found.way.trained });
}

/**
 * tour/narration.py narrate: the chapter's sentences about `head` and `token`.
 * @param {Lecture} lecture
 * @param {SiteSentence} sentence
 * @param {ChapterWords} chapter
 * @param {number} head
 * @param {number} token
 * @param {string[]} outputs
 * @param {Stream} stream
 * @returns {string[]}
 */
function narrate(lecture, sentence, chapter, head, token, outputs, stream) {
  const w = words(), told = w.stories.step;
  token = Math.min(Math.max(token, 0), lecture.tokens.length - 1);
  let lines = w.random ? [w.random] : [];
  if (chapter.kind === "tokens") return [...lines, ...tokensStory(lecture, sentence)];
  if (chapter.kind === "stream") return [...lines, ...streamStory(lecture, chapter, stream, token)];
  if (chapter.kind === "output") return [...lines, ...outputs];
  const { node, step } = chapterStep(lecture, chapter, head, token);
  if (!lecture.model.ops[node.op].reads_weights) lines = [w.no_weights];
  const what = node.explains[0].toUpperCase() + node.explains.slice(1);
  const telling = /** @type {import("./recipe.js").Telling} */ (chapter.telling);
  return [...lines, said(told.explains, { what }), ...toldOf(telling, step)];  // the narrator's own words
}

/**
 * What a step's chapter reads (its narrator and its question: tour/narration.py chapter_step): its node, and the
 * step's numbers for the chosen head and token, with where it is ("In layer 0, head 2").
 * @param {Lecture} lecture
 * @param {ChapterWords} chapter
 * @param {number} head
 * @param {number} token
 * @returns {{ node: GraphNode, step: StepContext }}
 */
function chapterStep(lecture, chapter, head, token) {
  const told = words().stories.step;
  const [block, node] = /** @type {[GraphBlock, GraphNode]} */ (findStep(lecture.model, String(chapter.step)));
  const array = lecture.array(String(chapter.step));
  const numHeads = lecture.model.num_heads, queryHead = Math.min(head, numHeads - 1);
  const place = block.block === "layers" ? said(told.layer, { layer: block.layer }) : told.here;
  const where = node.headed ? said(told.head, { place, head: headName(queryHead, numHeads, array.shape[0]) }) : place;
  return { node, step: stepContext(lecture, block, node, array, head, token, where) };
}

/**
 * The chapter's question (tour/questions.py chapter_question), asked of this sentence: a step's chapter's, the
 * residual stream's; null where it asks none or the numbers decide none.
 * @param {Lecture} lecture
 * @param {ChapterWords} chapter
 * @param {number} head
 * @param {number} token
 * @param {Stream} stream
 * @returns {import("./asked.js").Question | null}
 */
function questionOf(lecture, chapter, head, token, stream) {
  if (!chapter.asking) return null;
  if (chapter.kind === "stream") return askedOf(chapter.asking, streamContext(lecture, stream, token));
  return askedOf(chapter.asking, chapterStep(lecture, chapter, head, token).step);
}

// ---- each chapter's figure ----
/**
 * A step's chapter's figure, as tour/views.py chapter_figure draws it: the stepper's matrix (matrix_figure.js: the
 * app's, for each screen; on a projector, as short as the tour's controls leave room for), the chosen head's,
 * the cell the narration names outlined (tour/views.py LARGEST, worked out as the app works it out).
 * @param {Lecture} lecture
 * @param {ChapterWords} chapter
 * @param {number} head
 * @param {number} token
 * @returns {import("./views.js").ForScreens | null}
 */
function stepFigure(lecture, chapter, head, token) {
  const [, node] = /** @type {[GraphBlock, GraphNode]} */ (findStep(lecture.model, String(chapter.step)));
  const array = lecture.array(String(chapter.step)), numHeads = lecture.model.num_heads;
  const own = node.headed ? keyHead(Math.min(head, numHeads - 1), numHeads, array.shape[0]) : null;
  const matrix = own === null ? array : at(array, own);
  if (matrix.shape.length !== 2) return null;
  const tokenByToken = node.axes.slice(-2).join() === "T,T";
  const byToken = matrix.shape[0] === lecture.tokens.length;
  const largest = /** @type {import("./values.js").Value} */ (valueOf(words().largest,
                                                                     { z: matrix, token: byToken ? token : null }));
  const queryHead = Math.min(head, numHeads - 1);  // tour/views.py chapter_figure's title
  const titles = words().figure_titles;
  const title = own === null ? node.title
    : said(titles[array.shape[0] === numHeads ? "head" : "shared_head"], { title: node.title, head: queryHead, shared: own });
  const span = Math.floor(matrix.shape[0] / 2);
  const rows = byToken ? lecture.tokens : matrixRows(matrix).map((_, i) => `δ = ${i - span}`);
  const shown = tokenByToken ? matrix : asMatrix(matrixRows(matrix).map((r) => r.slice(0, site.views.window)));
  const names = { z: shown, labels: labelled(rows), title, scale: op(lecture, node).scale ?? null,
                  colorbar: node.headed ? (op(lecture, node).gives_probabilities ? "attention" : "score") : node.short,
                  chosen: largest, first: 0, count: matrix.shape[1] };
  const kind = tokenByToken ? "token" : "window";
  return eachScreen((screen) => matrixFigure(kind, names, screen === "lecture" ? "tour_lecture" : screen));
}

/**
 * @param {Lecture} lecture
 * @param {GraphNode} node
 */
const op = (lecture, node) => lecture.model.ops[node.op];

/**
 * The tour of a computed sentence, as export/tour.py tour_chapters gives an exported one's, each chapter's figure the
 * app's own for each screen (templates filled).
 * @param {Lecture} lecture
 * @param {SiteSentence} sentence
 * @returns {Promise<import("./views.js").Chapter[]>}
 */
export async function tourOf(lecture, sentence) {
  const about = site.views.tour;
  const token = Math.min(about.token, lecture.tokens.length - 1);
  const found = await sentenceVector(lecture, sentence);
  const { cosines, lengths } = await analysed("stream", lecture);
  return words().chapters.map((/** @type {ChapterWords} */ chapter) => {  // the model's chapters (tour/chapters.py)
    const lines = narrate(lecture, sentence, chapter, about.head, token, outputStory(found), { cosines, lengths });
    const question = questionOf(lecture, chapter, about.head, token, { cosines, lengths });
    const stream = { z: cosines, labels: labelled(lecture.tokens) };  // export/tour.py _stream_forms' names
    const figure = chapter.kind === "output"  // the app's figure (export/tour.py _vector_template), filled
      ? eachScreen((screen) => filled(words().vector_figure[screen], { vector: found.vector }))
      : chapter.kind === "stream" ? eachScreen((screen) => formFigure(words().stream_figure, stream, screen))
        : chapter.kind === "step" ? stepFigure(lecture, chapter, about.head, token) : null;
    return { ...chapter, lines, figure, question };
  });
}

