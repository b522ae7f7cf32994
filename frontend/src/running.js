// A live site's model run in this browser (export/live.py): the tokenizer and onnxruntime-web's session started
// once, the model's files fetched once and kept (model_parts.js); a text tokenized as the trace tokenizes
// (tokenizing.js) and run with every sub-step an output; the sentence's entry in the site from that run. yours.js
// shows the sentence; tour.js runs a text alone for its sentence vector (hiddenStatesOf).
import { script } from "./lecture.js";
import { fetched, forgetOthers, forgotten } from "./model_parts.js";
import { said, worded } from "./page.js";
import { tokenizer as readTokenizer, encoded } from "./tokenizing.js";

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {import("./tokenizing.js").Tokenizer} Tokenizer */
/** @typedef {import("./tokenizing.js").Encoded} Encoded */
/**
 * onnxruntime-web's tensor, the parts read here (its types are not installed here): its numbers (float32, or int64
 * for whole numbers) and its shape.
 * @typedef {{ data: Float32Array | Int32Array | BigInt64Array, dims: readonly number[] }} OrtTensor
 */
/**
 * onnxruntime-web's InferenceSession, the part used here: a run, of every output or of those named.
 * @typedef {{ run: (feeds: Record<string, unknown>, only?: string[]) => Promise<Record<string, OrtTensor>> }} Session
 */
/** @typedef {{ tokenizer: Tokenizer, session: Session }} Started */
/** Says how far the reading and the run are, in words. */
/** @typedef {(words: string) => void} Progress */

/** @type {import("./model_parts.js").LiveSite | null} */
const live = window.BVL_SITE.live;  // the site's JSON; null where it was written without --live
const NOT_LIVE = "This site was written without --live: it runs no model in this browser.";
/** @param {number} bytes */
export const MB = (bytes) => (bytes / 1e6).toFixed(0);

/** @type {Promise<Started> | null} */
let starting = null;  // the tokenizer and the session, read once

/**
 * Whether the tokenizer and the model are read, or being read.
 * @returns {boolean}
 */
export function begun() {
  return starting !== null;
}

/** @type {Promise<any> | null} */
let runtimeRead = null;  // onnxruntime-web, its script and WebAssembly read once

/**
 * onnxruntime-web, ready to start a session (its WebAssembly compiled by the first).
 * @param {(bytes: number) => void} done  after each part read
 * @returns {Promise<any>} onnxruntime-web's `ort` (untyped: its own types are not installed here)
 */
function runtime(done) {
  runtimeRead = runtimeRead || forgotten((async () => {
    if (!live) throw new Error(NOT_LIVE);
    const [wasm] = await Promise.all([fetched(live.runtime.wasm, done), script(live.runtime.script)]);
    const ort = window.ort;
    ort.env.wasm.numThreads = 1;  // a static host is not cross-origin isolated: one thread
    ort.env.wasm.wasmPaths = { mjs: new URL(live.runtime.module, location.href).href };
    ort.env.wasm.wasmBinary = wasm;
    return ort;
  })(), () => { runtimeRead = null; });
  return runtimeRead;
}

/**
 * A session of a graph (the model's, an analysis's), on onnxruntime-web's WebAssembly.
 * @param {Uint8Array} graph
 * @param {{ path: string, data: Uint8Array }[]} [externalData]
 * @param {(bytes: number) => void} [done]  after each part of the runtime read
 * @returns {Promise<Session>}
 */
export async function newSession(graph, externalData = [], done = () => null) {
  const ort = await runtime(done);
  /** @type {Session} */
  const session = await ort.InferenceSession.create(graph, { executionProviders: ["wasm"], externalData });
  ort.env.wasm.wasmBinary = undefined;  // compiled: the bytes can go
  return session;
}

/**
 * The tokenizer and the model, read once (a second sentence meanwhile waits for them).
 * @param {Progress} progress
 * @returns {Promise<Started>}
 */
function start(progress) {
  starting = starting || forgotten((async () => {
    if (!live) throw new Error(NOT_LIVE);
    const total = live.model.bytes + live.runtime.bytes;
    let got = 0;
    /** @param {number} n */
    const done = (n) => { got += n; progress(worded("fetching", { got: MB(got), total: MB(total) })); };
    forgetOthers().catch(() => null);  // an earlier export's parts
    const [tokenizer, graph, weights] = await Promise.all([
      readTokenizer(), fetched([live.model.graph], done), fetched(live.model.data, done), runtime(done)]);
    progress(worded("starting"));
    const session = await newSession(graph, [{ path: live.model.data_name, data: weights }]);
    return { tokenizer, session };
  })(), () => { starting = null; });
  return starting;
}

/**
 * The trace's rule (stepthrough/trace.py _token_types).
 * @param {number[]} types
 * @returns {number[]}
 */
function tokenTypes(types) {
  if (!live) throw new Error(NOT_LIVE);
  const rows = live.token_types.rows, most = Math.max(...types);
  if (rows === null || most < rows) return types;
  if (live.token_types.zero_past_rows) return types.map(() => 0);
  throw new Error(said(live.words.types_refused, { type: most, rows }));
}

/**
 * An output as the site's arrays are: {shape, data}, whole numbers as int32.
 * @param {OrtTensor} tensor
 * @returns {Unpacked}
 */
function asArray(tensor) {
  const data = tensor.data instanceof BigInt64Array ? Int32Array.from(tensor.data, Number) : tensor.data;
  return { shape: tensor.dims.slice(), data };
}

/**
 * The text's tokens and the model's run: every output, or those named (`only`).
 * @param {string} text
 * @param {string | null} pair
 * @param {Progress} progress
 * @param {number} [most]  tokens at most (else the model's length)
 * @param {string[]} [only]
 * @returns {Promise<{ e: Encoded, types: number[], arrays: Record<string, Unpacked> }>}
 */
async function run(text, pair, progress, most, only) {
  const { tokenizer, session } = await start(progress);
  progress(worded("computing"));
  const e = encoded(tokenizer, text, pair, most);
  const types = tokenTypes(e.types);
  /** @param {number[]} values */
  const tensor = (values) => new window.ort.Tensor("int64", BigInt64Array.from(values, BigInt), [values.length]);
  const feeds = { input_ids: tensor(e.ids), token_type_ids: tensor(types), attention_mask: tensor(e.ids.map(() => 1)) };
  const outputs = await (only ? session.run(feeds, only) : session.run(feeds));
  return { e, types, arrays: Object.fromEntries(Object.entries(outputs).map(([name, t]) => [name, asArray(t)])) };
}

/**
 * A text's hidden states (L + 1, T, d), the model's own, cut to `most` tokens, run alone.
 * @param {string} text
 * @param {number} most
 * @returns {Promise<Unpacked>}
 */
export async function hiddenStatesOf(text, most) {
  if (!live) throw new Error(NOT_LIVE);
  return (await run(text, null, () => null, most, [live.hidden_states])).arrays[live.hidden_states];
}

/**
 * The sentence's entry in the site and its numbers.
 * @param {string} text
 * @param {string | null} pair
 * @param {Progress} progress
 * @returns {Promise<{ sentence: SiteSentence, data: import("./lecture.js").SentenceData,
 *                     arrays: Record<string, Unpacked> }>}
 */
export async function computed(text, pair, progress) {
  if (!live) throw new Error(NOT_LIVE);
  const { e, types, arrays } = await run(text, pair, progress);
  const unknown = e.tokens.filter((t) => t === live.tokenizer.unknown).length;
  const total = e.tokens.length + e.dropped;
  const sentence = {
    text, pair, tokens: e.tokens, ids: e.ids, sentences: e.sentences, continues: e.continues, dropped: e.dropped,
    live: true,
    notice: e.dropped ? said(live.words.dropped, { total: total.toLocaleString("en"),
      most: live.max_tokens.toLocaleString("en"), dropped: e.dropped.toLocaleString("en") }) : null,
    unknown: unknown ? said(live.words.unknown, { count: unknown, unknown: live.tokenizer.unknown }) : null,
  };
  const ids = { input_ids: e.ids, token_type_ids: types, position_ids: Array.from(arrays[live.positions].data) };
  return { sentence, data: { ids, mask: e.ids.map(() => 1), checks: {}, given: {}, rows: {} }, arrays };
}
