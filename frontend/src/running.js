// @ts-nocheck
// (not typed yet: onnxruntime-web's session and tensors and the live manifest are untyped here; the "one source" work
// rewrites it)
// A live site's model run in this browser (export/live.py): the tokenizer and onnxruntime-web's session started
// once, the model's files fetched once and kept (model_parts.js); a text tokenized as the trace tokenizes
// (tokenizing.js) and run with every sub-step an output; the sentence's entry in the site from that run. yours.js
// shows the sentence; tour.js runs a text alone for its sentence vector (lastLayer).
import { script } from "./lecture.js";
import { fetched, forgetOthers, forgotten } from "./model_parts.js";
import { said } from "./page.js";
import { tokenizer as readTokenizer, encoded } from "./tokenizing.js";

const live = window.BVL_SITE.live;
export const MB = (bytes) => (bytes / 1e6).toFixed(0);

let starting = null;  // the tokenizer and the session, read once

export function begun() {  // whether the tokenizer and the model are read, or being read
  return starting !== null;
}

function start(progress) {  // the tokenizer and the model, read once (a second sentence meanwhile waits for them)
  starting = starting || forgotten((async () => {
    const total = live.model.bytes + live.runtime.bytes;
    let got = 0;
    const done = (n) => { got += n; progress(`Fetching the model: ${MB(got)} of ${MB(total)} MB…`); };
    forgetOthers().catch(() => null);  // an earlier export's parts
    const [tokenizer, graph, weights, wasm] = await Promise.all([
      readTokenizer(), fetched([live.model.graph], done), fetched(live.model.data, done),
      fetched(live.runtime.wasm, done), script(live.runtime.script)]);
    progress("Starting the model…");
    const ort = window.ort;
    ort.env.wasm.numThreads = 1;  // a static host is not cross-origin isolated: one thread
    ort.env.wasm.wasmPaths = { mjs: new URL(live.runtime.module, location.href).href };
    ort.env.wasm.wasmBinary = wasm;
    const session = await ort.InferenceSession.create(graph, {
      executionProviders: ["wasm"], externalData: [{ path: live.model.data_name, data: weights }] });
    ort.env.wasm.wasmBinary = undefined;  // compiled: the bytes can go
    return { tokenizer, session };
  })(), () => { starting = null; });
  return starting;
}

function tokenTypes(types) {  // the trace's rule (stepthrough/trace.py _token_types)
  const rows = live.token_types.rows, most = Math.max(...types);
  if (rows === null || most < rows) return types;
  if (live.token_types.zero_past_rows) return types.map(() => 0);
  throw new Error(said(live.words.types_refused, { type: most, rows }));
}

function asArray(tensor) {  // an output as the site's arrays are: {shape, data}, whole numbers as int32
  const data = tensor.data instanceof BigInt64Array ? Int32Array.from(tensor.data, Number) : tensor.data;
  return { shape: tensor.dims.slice(), data };
}

// The text's tokens and the model's run: every output, or those named (`only`)
async function run(text, pair, progress, most, only) {
  const { tokenizer, session } = await start(progress);
  progress("Computing in this browser…");
  const e = encoded(tokenizer, text, pair, most);
  const types = tokenTypes(e.types);
  const tensor = (values) => new window.ort.Tensor("int64", BigInt64Array.from(values, BigInt), [values.length]);
  const feeds = { input_ids: tensor(e.ids), token_type_ids: tensor(types), attention_mask: tensor(e.ids.map(() => 1)) };
  const outputs = await (only ? session.run(feeds, only) : session.run(feeds));
  return { e, types, arrays: Object.fromEntries(Object.entries(outputs).map(([name, t]) => [name, asArray(t)])) };
}

export async function lastLayer(text, most) {  // a text's last-layer vectors (T, d), cut to `most` tokens, run alone
  const all = (await run(text, null, () => null, most, [live.hidden_states])).arrays[live.hidden_states];
  const [layers, T, d] = all.shape;
  return { shape: [T, d], data: all.data.slice((layers - 1) * T * d) };
}

export async function computed(text, pair, progress) {  // the sentence's entry in the site and its numbers
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
