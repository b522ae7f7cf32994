// A sentence of the reader's own, computed in this browser (a live site: `bertviz-lite export --live`,
// export/live.py): the model's own tokenizer.json read by Hugging Face's tokenizers for the web, then the model with
// every sub-step an output run by onnxruntime-web's WebAssembly, its parts fetched once and kept by the browser.
// The sentence then joins the site's sentences: the Tokens page and the stepper show it as they show an exported
// one, each block checked against the model's own hidden states, computed in the same run.
"use strict";
(function () {
  const BVL = (window.BVL = window.BVL || {});
  const { element } = BVL;  // page.js
  const site = window.BVL_SITE;
  const live = site.live;
  const PAGES = ["tokens", "layers"];  // the views that show a sentence computed here
  const KEPT = 3;  // the computed sentences whose numbers stay in memory (an older one is computed again if asked)
  const CACHE = "bertviz-lite-live";  // the browser's cache of the model's parts (where the page may use one)
  const MB = (bytes) => (bytes / 1e6).toFixed(0);

  let engine = null;  // {tokenizer, session}, once read
  let consented = false;  // the reader asked for the model (a phone or a slow connection is asked first)
  const held = [];  // the indices of computed sentences whose numbers are in memory, oldest first

  function servedOverHttp() {
    return /^https?:$/.test(location.protocol);
  }

  function wanted(keys) {  // whether this address names a sentence the browser must compute first
    const text = keys.get("text");
    if (!live || text === null) return false;
    const found = find(text, keys.get("pair"));
    return !found || (found.live && !held.includes(site.sentences.indexOf(found)));
  }

  function find(text, pair) {
    const b = (pair || "").trim() || null;
    return site.sentences.find((s) => s.text === text.trim() && (s.pair || null) === b);
  }

  async function fetched(parts, done) {  // parts' bytes, in order, from the browser's cache where it has them
    const store = window.caches ? await caches.open(CACHE).catch(() => null) : null;
    const read = await Promise.all(parts.map(async (part) => {
      const address = `${part.path}?${part.hash}`;  // a new export's part is a new address
      let response = store && await store.match(address);
      if (!response) {
        response = await fetch(address);
        if (!response.ok) throw new Error(`The site could not read ${part.path} (${response.status}).`);
        if (store) await store.put(address, response.clone()).catch(() => null);  // a full disk: not kept
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      done(bytes.length);
      return bytes;
    }));
    const whole = new Uint8Array(read.reduce((n, b) => n + b.length, 0));
    read.reduce((at, b) => { whole.set(b, at); return at + b.length; }, 0);
    return whole;
  }

  async function cachedAlready() {  // every part in the browser's cache: nothing to fetch, nothing to ask
    if (!window.caches) return false;
    const store = await caches.open(CACHE).catch(() => null);
    if (!store) return false;
    const parts = [...live.model.data, ...live.runtime.wasm, live.model.graph];
    return (await Promise.all(parts.map((p) => store.match(`${p.path}?${p.hash}`)))).every(Boolean);
  }

  function shouldAsk() {  // a phone or a slow or metered connection is told the size first
    const connection = navigator.connection || {};
    return window.innerWidth < 640 || connection.saveData || /(^|-)(2g|3g)$/.test(connection.effectiveType || "");
  }

  async function start(progress) {  // the tokenizer and the model, read once
    if (engine) return engine;
    const total = live.model.bytes + live.runtime.bytes;
    let got = 0;
    const done = (n) => { got += n; progress(`Fetching the model: ${MB(got)} of ${MB(total)} MB…`); };
    const [tokenizer, graph, weights, wasm] = await Promise.all([
      tokenizerOf(), fetched([live.model.graph], done), fetched(live.model.data, done),
      fetched(live.runtime.wasm, done), BVL.script(live.runtime.script)]);
    progress("Starting the model…");
    const ort = window.ort;
    ort.env.wasm.numThreads = 1;  // a static host is not cross-origin isolated: one thread
    ort.env.wasm.wasmPaths = { mjs: new URL(live.runtime.module, location.href).href };
    ort.env.wasm.wasmBinary = wasm;
    const session = await ort.InferenceSession.create(graph, {
      executionProviders: ["wasm"], externalData: [{ path: live.model.data_name, data: weights }] });
    ort.env.wasm.wasmBinary = undefined;  // compiled: the bytes can go
    engine = { tokenizer, session };
    return engine;
  }

  let reading = null;  // the tokenizer, read once
  function tokenizerOf() {
    reading = reading || Promise.all([import(new URL(live.tokenizer.module, location.href).href),
                                      fetch(live.tokenizer.json).then((r) => r.json())])
      .then(([{ Tokenizer }, json]) => new Tokenizer(json, live.tokenizer.config))
      .catch((error) => { reading = null; throw error; });
    return reading;
  }

  async function tokenized(text, pair) {  // what the site computes for a text (and pair): the trace's tokenization
    return encoded(await tokenizerOf(), text, pair || null);
  }

  function longestFirst(a, b, room) {  // transformers' truncation (tokenizers' LongestFirst): the lengths kept
    if (b === null) return [Math.min(a, room), null];
    if (a + b <= room) return [a, b];
    const swap = a > b;
    let [short, long] = swap ? [b, a] : [a, b];
    long = short > room ? short : Math.max(short, room - short);
    if (short + long > room) { short = Math.floor(room / 2); long = short + (room % 2); }
    return swap ? [long, short] : [short, long];
  }

  function encoded(tokenizer, text, pair) {  // the trace's tokenization: pieces, ids, sentences, types, what was cut
    const a = tokenizer.encode_text(text), b = pair ? tokenizer.encode_text(pair) : null;
    const processor = tokenizer.post_processor;
    const specials = processor ? processor([], b ? [] : null).tokens.length : 0;
    const [n1, n2] = longestFirst(a.length, b ? b.length : null, live.max_tokens - specials);
    const marks = (n, letter) => Array.from({ length: n }, (_, i) => `\u0000${letter}${i}`);  // where each piece went
    const placed = processor ? processor(marks(n1, "A"), b ? marks(n2, "B") : null)
      : { tokens: [...marks(n1, "A"), ...(b ? marks(n2, "B") : [])] };
    const own = { A: a, B: b };
    const sentences = placed.tokens.map((t) => (t[0] === "\u0000" ? t[1] : "special"));
    const tokens = placed.tokens.map((t) => (t[0] === "\u0000" ? own[t[1]][Number(t.slice(2))] : t));
    const ids = tokens.map((t) => tokenizer.added_tokens_map.get(t)?.id ?? tokenizer.model.tokens_to_ids.get(t)
      ?? tokenizer.model.unk_token_id);
    const types = placed.token_type_ids || tokens.map(() => 0);
    return { tokens, ids, sentences, types, dropped: a.length + (b ? b.length : 0) + specials - tokens.length };
  }

  function say(template, values) {  // a Python template (export/live.py "words") filled as Python fills it
    return template.replace(/\{(\w+)\}/g, (_, key) => values[key]);
  }

  function tokenTypes(types) {  // the trace's rule (stepthrough/trace.py _token_types)
    const rows = live.token_types.rows, most = Math.max(...types);
    if (rows === null || most < rows) return types;
    if (live.token_types.zero_past_rows) return types.map(() => 0);
    throw new Error(say(live.words.types_refused, { type: most, rows }));
  }

  function asArray(tensor) {  // an output as the site's arrays are: {shape, data}, whole numbers as int32
    const data = tensor.data instanceof BigInt64Array ? Int32Array.from(tensor.data, Number) : tensor.data;
    return { shape: tensor.dims.slice(), data };
  }

  class Computed extends BVL.Lecture {  // a sentence computed here: its sub-steps are the run's outputs
    constructor(index, data, arrays) {
      super(site, index, data);
      Object.assign(this.arrays, arrays);
    }
    async part() { throw new Error("This view is not computed in the browser: Tokens and Layers are."); }
    async block() { return null; }
    array(name) {  // a sub-step; a layer's input is the block before's last, as the run read it
      if (name in live.sources) return this.array(live.sources[name]);
      if (!(name in this.arrays)) throw new Error(`The model computed no ${name}.`);
      return this.arrays[name];
    }
    given(name) {  // a block's output as the model itself computed it (its hidden state), in the same run
      const check = live.checks[name];
      if (!check) return null;
      return this.memo(`given:${name}`, () => {
        const [own, index] = check, whole = this.arrays[own], size = this.arrays[name].data.length;
        const start = index === undefined ? 0 : index * size;
        return { shape: this.arrays[name].shape, data: whole.data.subarray(start, start + size) };
      });
    }
    tableRows(module) {  // the rows the embeddings looked up, read from the model's own table when first asked
      return this.memo(`rows:${module}`, () => tableRows(module, this.ids));
    }
    async weights(module) {
      const weight = await stored(module, "weight");
      if (!weight) return super.weights(module);
      return { weight, bias: await stored(module, "bias") };
    }
  }

  // The model's weights as the runtime read them, from its parts in the browser's cache when an explanation asks
  // (the page keeps none of the 90 MB itself): a module's W, or a few rows of a table
  function partsOver(start, length) {  // the data parts that hold bytes [start, start + length), and where each begins
    let at = 0;
    return live.model.data.map((part) => { const begins = at; at += part.bytes; return { part, begins }; })
      .filter(({ part, begins }) => begins < start + length && begins + part.bytes > start);
  }

  async function bytesAt(start, length, read) {  // a copy of the model's data bytes [start, start + length)
    const out = new Uint8Array(length);
    for (const { part, begins } of partsOver(start, length)) {
      const bytes = await read(part);
      const from = Math.max(start, begins), to = Math.min(start + length, begins + part.bytes);
      out.set(bytes.subarray(from - begins, to - begins), from - start);
    }
    return out;
  }

  function reader() {  // one part read once for a task that reads several slices of it
    const read = new Map();
    return (part) => {
      if (!read.has(part.path)) read.set(part.path, fetched([part], () => null));
      return read.get(part.path);
    };
  }

  const weightsRead = new Map();  // module/kind → its weight, the last few asked (an explanation asks again)
  async function stored(module, kind) {
    const at = (live.weights[module] || {})[kind];
    if (!at) return null;
    const key = `${module}/${kind}`;
    if (!weightsRead.has(key)) {
      const count = at.shape.reduce((n, k) => n * k, 1);
      weightsRead.set(key, bytesAt(at.offset, 4 * count, reader())
        .then((bytes) => ({ shape: at.shape, data: new Float32Array(bytes.buffer) })));
      if (weightsRead.size > 8) weightsRead.delete(weightsRead.keys().next().value);
    }
    return weightsRead.get(key);
  }

  async function tableRows(module, ids) {  // a lookup table's rows for the ids the sentence read, as the site holds them
    const node = site.model.blocks.flatMap((b) => b.nodes).find((n) => n.op === "lookup" && n.module === module);
    const table = live.weights[module].weight, width = table.shape[1], read = reader();
    const wanted = [...new Set(ids[node.attrs.ids])].sort((x, y) => x - y);  // the tokens', positions' or types'
    const data = new Float32Array(wanted.length * width);
    for (const [k, id] of wanted.entries()) {
      const bytes = await bytesAt(table.offset + 4 * id * width, 4 * width, read);
      data.set(new Float32Array(bytes.buffer), k * width);
    }
    return { ids: wanted, rows: { shape: [wanted.length, width], data } };
  }

  function checks(lecture) {  // each block's last sub-step against the model's own output, as the trace checks it
    return Object.fromEntries(Object.keys(live.checks).map((name) => {
      const ours = lecture.array(name).data, theirs = lecture.given(name).data;
      let worst = 0;
      for (let k = 0; k < ours.length; k += 1) worst = Math.max(worst, Math.abs(ours[k] - theirs[k]));
      return [name, worst];
    }));
  }

  async function computed(text, pair, progress) {  // the sentence's entry in the site and its numbers
    const { tokenizer, session } = await start(progress);
    progress("Computing in this browser…");
    const e = encoded(tokenizer, text, pair);
    const types = tokenTypes(e.types);
    const tensor = (values) => new window.ort.Tensor("int64", BigInt64Array.from(values, BigInt), [values.length]);
    const outputs = await session.run({ input_ids: tensor(e.ids), token_type_ids: tensor(types),
                                        attention_mask: tensor(e.ids.map(() => 1)) });
    const arrays = Object.fromEntries(Object.entries(outputs).map(([name, t]) => [name, asArray(t)]));
    const unknown = e.tokens.filter((t) => t === live.tokenizer.unknown).length;
    const total = e.tokens.length + e.dropped;
    const sentence = {
      text, pair, tokens: e.tokens, ids: e.ids, sentences: e.sentences, live: true,
      notice: e.dropped ? say(live.words.dropped, { total: total.toLocaleString("en"),
        most: live.max_tokens.toLocaleString("en"), dropped: e.dropped.toLocaleString("en") }) : null,
      unknown: unknown ? say(live.words.unknown, { count: unknown, unknown: live.tokenizer.unknown }) : null,
    };
    const ids = { input_ids: e.ids, token_type_ids: types, position_ids: Array.from(arrays[live.positions].data) };
    return { sentence, data: { ids, mask: e.ids.map(() => 1), checks: {}, given: {}, rows: {} }, arrays };
  }

  function keep(index) {  // this sentence's numbers in memory; the oldest beyond KEPT let go
    if (held.includes(index)) held.splice(held.indexOf(index), 1);
    held.push(index);
    while (held.length > KEPT) BVL.forgetLecture(held.shift());
  }

  // Before a page draws: compute the sentence its address names. True once it is in the site's sentences; false
  // where the page says why not, or asks before fetching the model (the view keeps the site's links).
  async function ready(view, keys, alive) {
    const text = keys.get("text").trim(), pair = (keys.get("pair") || "").trim() || null;  // as the export reads them
    const show = (...nodes) => { if (alive()) view.replaceChildren(...nodes); };
    const note = (words, error) => element("p", words, { class: "note", ...(error ? { "data-error": "" } : {}) });
    if (!text) {
      show(element("h1", "Your sentence"), note(live.words.empty, true));
      return false;
    }
    if (!servedOverHttp()) {
      BVL.cannot(view, "This sentence is not in the site, and a page opened from disk cannot read the model's " +
                 "files to compute it: serve this folder (a static Space, or `python -m http.server` in it) and " +
                 "open it there. The site's own sentences:");
      return false;
    }
    if (!engine && !consented && shouldAsk() && !(await cachedAlready())) {
      const go = element("button", `Fetch the model (${MB(live.model.bytes + live.runtime.bytes)} MB) and compute`,
                         { type: "button", class: "fetch-model" });
      go.addEventListener("click", () => { consented = true; window.dispatchEvent(new HashChangeEvent("hashchange")); });
      show(element("h1", "Your sentence"), element("p", text, { class: "sentence" }),
           element("p", "This sentence is computed in your browser: it fetches the model once " +
                   `(${MB(live.model.bytes + live.runtime.bytes)} MB), then any sentence needs nothing more. The ` +
                   "site's own sentences need no fetch.", { class: "note" }), go);
      return false;
    }
    const status = note("Reading the tokenizer…");
    show(element("h1", "Your sentence"), status);
    try {
      const { sentence, data, arrays } = await computed(text, pair, (words) => { status.textContent = words; });
      const found = find(text, pair);
      const index = found ? site.sentences.indexOf(found) : site.sentences.push(sentence) - 1;
      site.sentences[index] = sentence;
      const lecture = new Computed(index, data, arrays);
      lecture.checks = checks(lecture);
      BVL.keepLecture(index, lecture);
      keep(index);
      return alive();
    } catch (error) {
      show(element("h1", "Your sentence"), note(error.message, true));
      return false;
    }
  }

  function onlyHere(view, page, s) {  // `page`: the view's name  // a view that shows exported sentences only, on a sentence computed here
    BVL.cannot(view, `“${BVL.named(s)}” was computed in this browser: Tokens and Layers show it; the ${page} view ` +
               "shows the sentences the site was exported with:");
  }

  // "Your sentence": Enter opens the current view (Tokens from the overview) on it. A projector's lecture shows it
  // where a lecturer takes a sentence from the hall (the overview and Tokens), and keeps the other views' height
  function placeBox(page) {
    const form = document.querySelector("form.yours");
    if (form) form.hidden = BVL.lectureMode() && !["", "overview", "tokens"].includes(page);
  }

  function box() {
    if (!live) return;
    const form = element("form", undefined, { class: "yours", role: "search" });
    const input = element("input", undefined, { type: "text", name: "text", "aria-label": "Your sentence",
                                                placeholder: "Your sentence: type it, then Enter", maxlength: "100000" });
    form.append(element("label", "Your sentence", { for: "your-sentence" }), input);
    input.id = "your-sentence";
    const { keys } = BVL.route();
    if (wanted(keys)) input.value = keys.get("text");  // a shared link's sentence, there to change
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const { page, keys } = BVL.route();
      const target = PAGES.includes(page) ? page : "tokens";
      const kept = target === page ? Object.fromEntries([...keys].filter(([k]) => !["text", "pair", "cell", "lecture"].includes(k))) : {};
      location.hash = BVL.link(target, { ...kept, text: input.value });
    });
    document.querySelector("header").append(form);
  }

  function titled(title, s) {  // a page's title; for a sentence computed here, it says so beside it (no more height)
    const h1 = element("h1", title);
    if (s && s.live) {
      h1.append(element("span", "computed in this browser", {
        class: "computed-here", title: "Not exported: tokenized and run by the site's model in this browser " +
          "(onnxruntime-web), each block checked against the model's own output of the same run." }));
    }
    return h1;
  }

  BVL.yours = { wanted, find, ready, onlyHere, titled, pages: PAGES, box, placeBox, tokenized };
})();
