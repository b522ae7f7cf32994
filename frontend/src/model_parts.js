// @ts-nocheck
// (not typed yet: the live manifest's parts and the Cache API's use are untyped here; the "one source" work rewrites
// it)
// A live site's model files in the browser (export/live.py): each part fetched once, checked against the size and
// hash the site's data gives it, and kept by the browser (the Cache API, where the page is a secure context: https
// or localhost; elsewhere the browser's own HTTP cache); and the model's weights read back from its parts when an
// explanation asks for a module's W or a table's rows, so that the page itself keeps none of the 90 MB.

const live = window.BVL_SITE.live;
const CACHE = `bertviz-lite-live:${location.pathname}`;  // one per site: two sites on a host keep their own
const address = (part) => `${part.path}?${part.hash}`;  // a new export's part is a new address
const everyPart = () => (live ? [live.model.graph, ...live.model.data, ...live.runtime.wasm] : []);  // to start
const weightFiles = (at) => (at.in === "extra" ? live.extra : live.model.data);  // where a weight lies: the
// model's data, or the live folder's own file of the weights the exporter transformed

function cache() {
  return window.caches ? caches.open(CACHE).catch(() => null) : Promise.resolve(null);
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function checked(part, response) {  // a part as fetched, refused unless it is the one exported
  const bytes = new Uint8Array(await response.arrayBuffer());
  const hash = window.crypto && crypto.subtle ? hex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 16) : null;
  if (bytes.length !== part.bytes || (hash !== null && hash !== part.hash)) {
    throw new Error(`The site's ${part.path} is not the file it was exported with (${bytes.length} bytes where ` +
                    `${part.bytes} were written): the host may have changed it. Export the site again.`);
  }
  return bytes;
}

async function partBytes(part, kept) {
  const found = kept && await kept.match(address(part));
  if (found) return new Uint8Array(await found.arrayBuffer());
  const response = await fetch(address(part));
  if (!response.ok) throw new Error(`The site could not read ${part.path} (${response.status}).`);
  const bytes = await checked(part, response);
  if (kept) await kept.put(address(part), new Response(bytes)).catch(() => null);  // a full disk: not kept
  return bytes;
}

export async function fetched(parts, done) {  // the parts' bytes, one after the other; `done(n)` after each
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

export async function cachedAlready() {  // every part kept: nothing to fetch, nothing to ask first
  const kept = await cache();
  return Boolean(kept) && (await Promise.all(everyPart().map((p) => kept.match(address(p))))).every(Boolean);
}

export async function forgetOthers() {  // an earlier export's parts (this site's cache, other addresses) let go
  const kept = await cache();
  if (!kept) return;
  const current = new Set([...everyPart(), ...live.extra].map((p) => new URL(address(p), location.href).href));
  for (const request of await kept.keys()) if (!current.has(request.url)) await kept.delete(request);
}

// ---- the weights, read back ----
function partsOver(parts, start, length) {  // the parts holding bytes [start, start + length), where each begins
  let at = 0;
  return parts.map((part) => { const begins = at; at += part.bytes; return { part, begins }; })
    .filter(({ part, begins }) => begins < start + length && begins + part.bytes > start);
}

function reader() {  // a task's reads: each part read once however many slices of it the task takes
  const read = new Map();
  return async (part) => {
    if (!read.has(part.path)) read.set(part.path, cache().then((kept) => partBytes(part, kept)));
    return read.get(part.path);
  };
}

async function bytesAt(parts, start, length, read) {  // a copy of the parts' bytes [start, start + length)
  const out = new Uint8Array(length);
  for (const { part, begins } of partsOver(parts, start, length)) {
    const bytes = await read(part);
    const from = Math.max(start, begins), to = Math.min(start + length, begins + part.bytes);
    out.set(bytes.subarray(from - begins, to - begins), from - start);
  }
  return out;
}

export function forgotten(promise, drop) {  // a read that failed is not kept: asked again, it is tried again
  promise.catch(drop);
  return promise;
}

const WEIGHTS_KEPT = 8;  // the weights last read (an explanation of the next cell asks again)
const weightsRead = new Map();

export function stored(module, kind) {  // a module's weight or bias as the runtime read it; null where the model has none
  const at = (live.weights[module] || {})[kind];
  if (!at) return Promise.resolve(null);
  const key = `${module}/${kind}`;
  if (weightsRead.has(key)) {
    const kept = weightsRead.get(key);
    weightsRead.delete(key);
    weightsRead.set(key, kept);  // the most recently asked last
    return kept;
  }
  const count = at.shape.reduce((n, k) => n * k, 1);
  const read = bytesAt(weightFiles(at), at.offset, 4 * count, reader())
    .then((bytes) => ({ shape: at.shape, data: new Float32Array(bytes.buffer) }));
  weightsRead.set(key, forgotten(read, () => weightsRead.delete(key)));
  if (weightsRead.size > WEIGHTS_KEPT) weightsRead.delete(weightsRead.keys().next().value);
  return read;
}

export async function tableRows(module, ids) {  // a lookup table's rows for the ids read (its tokens', positions', types')
  const table = live.weights[module].weight, width = table.shape[1], read = reader();
  const wanted = [...new Set(ids)].sort((x, y) => x - y);
  const data = new Float32Array(wanted.length * width);
  for (const [k, id] of wanted.entries()) {
    const bytes = await bytesAt(weightFiles(table), table.offset + 4 * id * width, 4 * width, read);
    data.set(new Float32Array(bytes.buffer), k * width);
  }
  return { ids: wanted, rows: { shape: [wanted.length, width], data } };
}

