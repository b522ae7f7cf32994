// The analyses of a sentence computed in this browser, as the package's own functions compute them: each is an ONNX
// graph that export/analysis_graphs.py writes from the torch code the app calls (the fingerprints and the rollout,
// the norm-based contributions, the nearest pieces), run by onnxruntime-web as the model is. A graph is fed from the
// sentence's run (a sub-step by its name, the ids) and the model's own weights (model_parts.js), as its manifest
// says; nothing here computes what it gives.
import { fetched, forgotten } from "./model_parts.js";
import { newSession } from "./running.js";

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {import("./model_parts.js").LivePart} LivePart */
/** @typedef {import("./running.js").Session} Session */
/**
 * Where a graph's input comes from (export/analysis_graphs.py): a sub-step of the run by name, an input id list by
 * name, a module's weight or bias, or a number the page gives.
 * @typedef {["step", string] | ["ids", string] | ["weight", string, "weight" | "bias"] | ["given", string]} Feed
 */
/**
 * An analysis graph's manifest: its file, its inputs' feeds, its outputs' names; the contributions' also the
 * checks ([the rebuilt sum's output, the run's step it should equal], two a layer) and its matrices' names.
 * @typedef {{ graph: LivePart, inputs: Record<string, Feed>, outputs: string[], checks?: [string, string][][],
 *             matrices?: string[] }} AnalysisGraph
 */
/**
 * What a graph reads of the sentence: its run's arrays (a sub-step by its name), its ids, and the model's weights
 * (a module's weight and bias, as the sentence reads them: yours.js from the model's files).
 * @typedef {{ array: (name: string) => Unpacked, ids: Record<string, number[]>,
 *             weights: (module: string) => Promise<{ weight?: Unpacked | null, bias?: Unpacked | null }> }} Sentence
 */

/** @type {Map<string, Promise<Session>>} */
const sessions = new Map();  // a graph's session, started once

/**
 * The graphs a live site holds.
 * @returns {Record<string, AnalysisGraph>}
 */
export function analysisGraphs() {
  const live = window.BVL_SITE.live;
  if (!live) throw new Error("This site was written without --live: it runs no model in this browser.");
  return live.analyses;
}

/**
 * A graph's session, started once.
 * @param {string} name
 * @returns {Promise<Session>}
 */
function session(name) {
  const started = sessions.get(name);
  if (started) return started;
  const starting = forgotten((async () => newSession(await fetched([analysisGraphs()[name].graph], () => null)))(),
                             () => sessions.delete(name));
  sessions.set(name, starting);
  return starting;
}

/**
 * An input's value as its feed says.
 * @param {Feed} feed
 * @param {Sentence} sentence
 * @param {Record<string, number>} given
 * @returns {Promise<unknown>} onnxruntime-web's tensor
 */
async function fed(feed, sentence, given) {
  const ort = window.ort;
  /** @param {number[]} values @param {number[]} dims */
  const whole = (values, dims) => new ort.Tensor("int64", BigInt64Array.from(values, BigInt), dims);
  if (feed[0] === "ids") return whole(sentence.ids[feed[1]], [sentence.ids[feed[1]].length]);
  if (feed[0] === "given") return whole([given[feed[1]]], []);
  const array = feed[0] === "step" ? sentence.array(feed[1]) : (await sentence.weights(feed[1]))[feed[2]];
  if (!array) throw new Error(`The site's live folder holds no ${feed[2]} of ${feed[1]}.`);
  return new ort.Tensor("float32", array.data, array.shape);
}

/**
 * A graph run on the sentence: each output by name, as the site's arrays are ({shape, data}; ids as int32).
 * @param {string} name
 * @param {Sentence} sentence
 * @param {Record<string, number>} [given]
 * @returns {Promise<Record<string, Unpacked>>}
 */
export async function analysed(name, sentence, given = {}) {
  const spec = analysisGraphs()[name], started = await session(name);  // onnxruntime-web read first: its tensors
  const feeds = Object.fromEntries(await Promise.all(Object.entries(spec.inputs).map(
    async ([input, feed]) => [input, await fed(feed, sentence, given)])));
  const outputs = await started.run(feeds);
  return Object.fromEntries(Object.entries(outputs).map(([output, tensor]) => [output, {
    shape: tensor.dims.slice(),
    data: tensor.data instanceof BigInt64Array ? Int32Array.from(tensor.data, Number) : tensor.data }]));
}
