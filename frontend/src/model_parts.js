// A live site's model files in the browser (export/live.py): each part fetched once, checked against the size and
// hash the site's data gives it, and kept by the browser (the Cache API, where the page is a secure context: https
// or localhost; elsewhere the browser's own HTTP cache); and the model's weights read back from its parts when an
// explanation asks for a module's W or a table's rows, so that the page itself keeps none of the 90 MB.

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/**
 * A file of the live folder as export/live.py `described` gives it: its address, its size and a hash of its bytes.
 * @typedef {{ path: string, bytes: number, hash: string }} LivePart
 */
/**
 * Where a weight lies in the weights' bytes (export/live.py `indexed`): its offset and shape, in the model's data or
 * (`in: "extra"`) in the live folder's own file of the weights the exporter transformed.
 * @typedef {{ offset: number, shape: number[], in?: "extra" }} WeightAt
 */
/**
 * The manifest a live site's data carries (site.live, export/live.py write_live): the model's graph and its data in
 * parts, the runtime (its script, module and WebAssembly in parts), the tokenizer's files and names, the inputs' and
 * outputs' names, which of the model's own outputs checks each block ([output, index] or [output]), what each `input`
 * node reads, each explained module's weight and bias (where it has one), the analyses' graphs, the model's length,
 * its token types' rule and the words the app says of an input.
 * @typedef {{
 *   model: { graph: LivePart, data: LivePart[], data_name: string, bytes: number },
 *   runtime: { script: string, module: string, wasm: LivePart[], bytes: number },
 *   tokenizer: { module: string, json: string, config: Record<string, string>, unknown: string | null,
 *                readable: string | null },
 *   inputs: string[], outputs: string[], checks: Record<string, [string, number] | [string]>, positions: string,
 *   hidden_states: string, pooler_output: string, sources: Record<string, string>,
 *   weights: Record<string, { weight?: WeightAt, bias?: WeightAt }>, extra: LivePart[], max_tokens: number,
 *   token_types: { rows: number | null, zero_past_rows: boolean },
 *   analyses: Record<string, import("./analysis_graphs.js").AnalysisGraph>,
 *   words: { empty: string, dropped: string, unknown: string, types_refused: string },
 * }} LiveSite
 */

/** @type {LiveSite | null} */
const live = window.BVL_SITE.live;  // the site's JSON; null where it was written without --live
const NOT_LIVE = "This site was written without --live: it holds no model files.";
const CACHE = `bertviz-lite-live:${location.pathname}`;  // one per site: two sites on a host keep their own
/** @param {LivePart} part */
const address = (part) => `${part.path}?${part.hash}`;  // a new export's part is a new address
const everyPart = () => (live ? [live.model.graph, ...live.model.data, ...live.runtime.wasm] : []);  // to start
/**
 * Where a weight lies: the model's data, or the live folder's own file of the weights the exporter transformed.
 * @param {WeightAt} at
 * @returns {LivePart[]}
 */
const weightFiles = (at) => {
  if (!live) throw new Error(NOT_LIVE);
  return at.in === "extra" ? live.extra : live.model.data;
};

/**
 * This site's cache, where the browser gives one (a secure context's).
 * @returns {Promise<Cache | null>}
 */
function cache() {
  return window.caches ? caches.open(CACHE).catch(() => null) : Promise.resolve(null);
}

/** @param {ArrayBuffer} buffer */
function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A part as fetched, refused unless it is the one exported.
 * @param {LivePart} part
 * @param {Response} response
 * @returns {Promise<Uint8Array<ArrayBuffer>>}
 */
async function checked(part, response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const hash = window.crypto && crypto.subtle ? hex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 16) : null;
  if (bytes.length !== part.bytes || (hash !== null && hash !== part.hash)) {
    throw new Error(`The site's ${part.path} is not the file it was exported with (${bytes.length} bytes where ` +
                    `${part.bytes} were written): the host may have changed it. Export the site again.`);
  }
  return bytes;
}

/**
 * A part's bytes: kept by the browser, else fetched, checked and kept.
 * @param {LivePart} part
 * @param {Cache | null} kept
 * @returns {Promise<Uint8Array<ArrayBuffer>>}
 */
async function partBytes(part, kept) {
  const found = kept && await kept.match(address(part));
  if (found) return new Uint8Array(await found.arrayBuffer());
  const response = await fetch(address(part));
  if (!response.ok) throw new Error(`The site could not read ${part.path} (${response.status}).`);
  const bytes = await checked(part, response);
  if (kept) await kept.put(address(part), new Response(bytes)).catch(() => null);  // a full disk: not kept
  return bytes;
}

/**
 * The parts' bytes, one after the other; `done(n)` after each.
 * @param {LivePart[]} parts
 * @param {(bytes: number) => void} done
 * @returns {Promise<Uint8Array<ArrayBuffer>>}
 */
export async function fetched(parts, done) {
  const kept = await cache();
  const read = await Promise.all(parts.map(async (part) => {
    const bytes = await partBytes(part, kept);
    done(bytes.length);
    return bytes;
  }));
  if (read.length === 1) return read[0];
  const whole = new Uint8Array(read.reduce((n, b) => n + b.length, 0));
  read.reduce((at, b) => { whole.set(b, at); return at + b.length; }, 0);
  return whole;
}

/**
 * Every part kept: nothing to fetch, nothing to ask first.
 * @returns {Promise<boolean>}
 */
export async function cachedAlready() {
  const kept = await cache();
  return kept !== null && (await Promise.all(everyPart().map((p) => kept.match(address(p))))).every(Boolean);
}

/** An earlier export's parts (this site's cache, other addresses) let go. */
export async function forgetOthers() {
  const kept = await cache();
  if (!kept) return;
  if (!live) throw new Error(NOT_LIVE);
  const current = new Set([...everyPart(), ...live.extra].map((p) => new URL(address(p), location.href).href));
  for (const request of await kept.keys()) if (!current.has(request.url)) await kept.delete(request);
}

// ---- the weights, read back ----
/**
 * The parts holding bytes [start, start + length), where each begins.
 * @param {LivePart[]} parts
 * @param {number} start
 * @param {number} length
 * @returns {{ part: LivePart, begins: number }[]}
 */
function partsOver(parts, start, length) {
  let at = 0;
  return parts.map((part) => { const begins = at; at += part.bytes; return { part, begins }; })
    .filter(({ part, begins }) => begins < start + length && begins + part.bytes > start);
}

/** @typedef {(part: LivePart) => Promise<Uint8Array>} Reader */

/**
 * A task's reads: each part read once however many slices of it the task takes.
 * @returns {Reader}
 */
function reader() {
  /** @type {Map<string, Promise<Uint8Array>>} */
  const read = new Map();
  return async (part) => {
    let bytes = read.get(part.path);
    if (!bytes) {
      bytes = cache().then((kept) => partBytes(part, kept));
      read.set(part.path, bytes);
    }
    return bytes;
  };
}

/**
 * A copy of the parts' bytes [start, start + length).
 * @param {LivePart[]} parts
 * @param {number} start
 * @param {number} length
 * @param {Reader} read
 * @returns {Promise<Uint8Array<ArrayBuffer>>}
 */
async function bytesAt(parts, start, length, read) {
  const out = new Uint8Array(length);
  for (const { part, begins } of partsOver(parts, start, length)) {
    const bytes = await read(part);
    const from = Math.max(start, begins), to = Math.min(start + length, begins + part.bytes);
    out.set(bytes.subarray(from - begins, to - begins), from - start);
  }
  return out;
}

/**
 * A read that failed is not kept: asked again, it is tried again.
 * @template T
 * @param {Promise<T>} promise
 * @param {() => void} drop  forgets the read
 * @returns {Promise<T>}
 */
export function forgotten(promise, drop) {
  promise.catch(drop);
  return promise;
}

const WEIGHTS_KEPT = 8;  // the weights last read (an explanation of the next cell asks again)
/** @type {Map<string, Promise<Unpacked>>} */
const weightsRead = new Map();

/**
 * A module's weight or bias as the runtime read it; null where the model has none.
 * @param {string} module
 * @param {"weight" | "bias"} kind
 * @returns {Promise<Unpacked | null>}
 */
export function stored(module, kind) {
  if (!live) throw new Error(NOT_LIVE);
  const at = (live.weights[module] || {})[kind];
  if (!at) return Promise.resolve(null);
  const key = `${module}/${kind}`;
  const kept = weightsRead.get(key);
  if (kept) {
    weightsRead.delete(key);
    weightsRead.set(key, kept);  // the most recently asked last
    return kept;
  }
  const count = at.shape.reduce((n, k) => n * k, 1);
  const read = bytesAt(weightFiles(at), at.offset, 4 * count, reader())
    .then((bytes) => ({ shape: at.shape, data: new Float32Array(bytes.buffer) }));
  weightsRead.set(key, forgotten(read, () => weightsRead.delete(key)));
  const oldest = weightsRead.keys().next().value;
  if (weightsRead.size > WEIGHTS_KEPT && oldest !== undefined) weightsRead.delete(oldest);
  return read;
}

/**
 * A lookup table's rows for the ids read (its tokens', positions', types').
 * @param {string} module
 * @param {number[]} ids
 * @returns {Promise<{ ids: number[], rows: Unpacked }>}
 */
export async function tableRows(module, ids) {
  if (!live) throw new Error(NOT_LIVE);
  const table = live.weights[module].weight;
  if (!table) throw new Error(`The site's live folder holds no weight of ${module}.`);
  const width = table.shape[1], read = reader();
  const wanted = [...new Set(ids)].sort((x, y) => x - y);
  const data = new Float32Array(wanted.length * width);
  for (const [k, id] of wanted.entries()) {
    const bytes = await bytesAt(weightFiles(table), table.offset + 4 * id * width, 4 * width, read);
    data.set(new Float32Array(bytes.buffer), k * width);
  }
  return { ids: wanted, rows: { shape: [wanted.length, width], data } };
}

