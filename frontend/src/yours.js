// @ts-nocheck
// (not typed yet: a computed sentence's arrays and the live manifest are untyped here; the "one source" work
// rewrites it)
// A sentence of the reader's own, computed in this browser (a live site: `bertviz-lite export --live`,
// export/live.py): tokenized as the trace tokenizes (tokenizing.js), then run by the model with every sub-step an
// output in onnxruntime-web's WebAssembly (running.js), its files fetched once and kept (model_parts.js). The sentence
// then joins the site's sentences, and every view shows it as it shows an exported one: Tokens, the tour (tour.js),
// the stepper (each block checked against the model's own hidden states, computed in the same run), the head and
// model views (attention_views.js), the analyses (analysed.js) and Similarity (similar.js).
import { Lecture, keepLecture, forgetLecture } from "./lecture.js";
import { cachedAlready, stored, tableRows, forgotten } from "./model_parts.js";
import { element, link, route, lectureMode, cannot, listed, named as namedLine } from "./page.js";
import { attentionViews } from "./attention_views.js";
import { tourOf } from "./tour.js";
import { analysed } from "./analysed.js";
import { within } from "./numbers.js";
import { MB, begun, computed } from "./running.js";

const site = window.BVL_SITE;
const live = site.live;
// The views that show a sentence computed here: all of them, but the Lens of a trained masked-LM head (not in
// the live files)
const PAGES = ["tokens", "tour", "layers", "attention", "heads", "rollout", "contributions", "lens", "similarity"]
  .filter((page) => page !== "lens" || !live || site.views.analyses.lens.mode !== "lens");
const phone = () => window.innerWidth < 640;
// The computed sentences' numbers kept in memory, the newest always (an older one is computed again if asked):
// a 512-token sentence's sub-steps alone are over 200 MB
const KEPT_BYTES = () => (phone() ? 0 : 250e6);

let consented = false;  // the reader asked for the model (a phone or a slow connection is asked first)
const held = [];  // [index, bytes] of the computed sentences whose numbers are in memory, oldest first

function servedOverHttp() {
  return /^https?:$/.test(location.protocol);
}

export function find(text, pair) {
  const b = (pair || "").trim() || null;
  return site.sentences.find((s) => s.text === text.trim() && (s.pair || null) === b);
}

export function wanted(keys) {  // whether this address names a sentence the browser must compute first
  const text = keys.get("text");
  if (!live || text === null) return false;
  const found = find(text, keys.get("pair"));
  return !found || (found.live && !held.some(([index]) => index === site.sentences.indexOf(found)));
}

function shouldAsk() {  // a phone or a slow or metered connection is told the size first
  const connection = navigator.connection || {};
  return phone() || connection.saveData || /(^|-)(2g|3g)$/.test(connection.effectiveType || "");
}

class Computed extends Lecture {  // a sentence computed here: its sub-steps are the run's outputs
  constructor(index, data, arrays) {
    super(site, index, data);
    Object.assign(this.arrays, arrays);
  }
  async part(name) {  // the attention views (attention_views.js), the tour (tour.js) and the analyses
    // (analysed.js), built here
    const once = (make) => this.memo(name, () => forgotten(Promise.resolve().then(make),  // a failure is tried again
                                                           () => { delete this.decodedParameters[name]; }));
    if (name === "attention") {
      return once(() => attentionViews(this.tokens, this.model.num_layers,
                                           (layer) => this.array(`layers.${layer}.attn.probs`)));
    }
    if (name === "tour") return once(() => tourOf(this, site.sentences[this.index]));
    if (Object.hasOwn(analysed, name)) return once(() => analysed[name](this));  // the analyses
    const position = /^lens\.position\.(\d+)$/.exec(name);  // one position's lens, computed when it is shown
    if (position) return once(() => analysed.lensItem(this, Number(position[1])));
    throw new Error(`This view is not computed in the browser: ${PAGES.join(", ")} are.`);
  }
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
    const key = `rows:${module}`;
    const lookup = this.model.blocks.flatMap((b) => b.nodes).find((n) => n.op === "lookup" && n.module === module);
    return this.memo(key, () => forgotten(tableRows(module, this.ids[lookup.attrs.ids]),
                                          () => { delete this.decodedParameters[key]; }));
  }
  async weights(module) {
    const weight = await stored(module, "weight");
    if (!weight) return super.weights(module);
    return { weight, bias: await stored(module, "bias") };
  }
}

function checks(lecture) {  // each block's last sub-step against the model's own output, as the trace checks it
  return Object.fromEntries(Object.keys(live.checks).map((name) => {
    const ours = lecture.array(name).data, theirs = lecture.given(name).data;
    let worst = 0, holds = true;  // what the line says, and whether every element is within the bound
    for (let k = 0; k < ours.length; k += 1) {
      worst = Math.max(worst, Math.abs(ours[k] - theirs[k]));
      holds = holds && within(ours[k], theirs[k], window.BVL_SITE.tolerances.same_sum);
    }
    return [name, [worst, holds]];
  }));
}

function keep(index, arrays) {  // this sentence's numbers in memory; the oldest let go past KEPT_BYTES
  const bytes = Object.values(arrays).reduce((n, a) => n + a.data.byteLength, 0);
  const at = held.findIndex(([i]) => i === index);
  if (at >= 0) held.splice(at, 1);
  held.push([index, bytes]);
  while (held.length > 1 && held.reduce((n, [, b]) => n + b, 0) > KEPT_BYTES()) forgetLecture(held.shift()[0]);
}

// Before a page draws: compute the sentence its address names. True once it is in the site's sentences; false
// where the page says why not, or asks before fetching the model (the view keeps the site's links).
export async function ready(view, keys, alive) {
  const text = keys.get("text").trim(), pair = (keys.get("pair") || "").trim() || null;  // as the export reads them
  const show = (...nodes) => { if (alive()) view.replaceChildren(...nodes); };
  const note = (words, error) => element("p", words, { class: "note", ...(error ? { "data-error": "" } : {}) });
  if (!text) {
    show(element("h1", "Your sentence"), note(live.words.empty, true));
    return false;
  }
  if (!servedOverHttp()) {
    cannot(view, "This sentence is not in the site, and a page opened from disk cannot read the model's " +
               "files to compute it: serve this folder (a static Space, or `python -m http.server` in it) and " +
               "open it there. The site's own sentences:");
    return false;
  }
  if (!begun() && !consented && shouldAsk() && !(await cachedAlready())) {
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
    keepLecture(index, lecture);
    keep(index, arrays);
    return alive();
  } catch (error) {
    show(element("h1", "Your sentence"), note(error.message, true));
    return false;
  }
}

function listedPages() {  // "Tokens, Tour, …, Contributions and Similarity"
  const names = PAGES.map((p) => `${p[0].toUpperCase()}${p.slice(1)}`);
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// A view that shows the exported sentences only, asked for a sentence the site does not hold (computed here, or
// not yet): it says so (with no fetch), links the views that show it, and lists the site's own
export function elsewhere(view, page, keys) {
  const text = keys.get("text").trim(), pair = (keys.get("pair") || "").trim();
  const named = namedLine({ text, pair: pair || null }), said = { text, ...(pair ? { pair } : {}) };
  const computed = (find(text, pair) || {}).live;
  view.append(element("h1", "Not in this site"),
              element("p", `“${named}” ${computed ? "was computed in this browser" : "is not one of the site's " +
                      "sentences"}: ${listedPages()} ${computed ? "show" : "compute"} it here; the ` +
                      `${page} view ` +
                      "shows the sentences the site was exported with.", { class: "note" }));
  const links = element("div", undefined, { class: "sentences" });
  PAGES.forEach((p) => links.append(element("a", `${p[0].toUpperCase()}${p.slice(1)}: “${named}”`,
                                            { href: link(p, said), class: "yours-link" })));
  view.append(links);
  listed(view, "The site's own sentences:");
}

// "Your sentence": Enter opens one of PAGES on it (the one shown, else Tokens). A projector's lecture shows
// the box where a lecturer takes a sentence from the hall (the overview and Tokens), and keeps the other views'
// height
export function placeBox(page) {
  const form = document.querySelector("form.yours");
  if (form) form.hidden = lectureMode() && !["", "overview", "tokens"].includes(page);
}

export function box() {
  if (!live) return;
  const form = element("form", undefined, { class: "yours", role: "search" });
  const input = element("input", undefined, { type: "text", name: "text", "aria-label": "Your sentence",
                                              placeholder: "Your sentence: type it, then Enter", maxlength: "100000" });
  form.append(element("label", "Your sentence", { for: "your-sentence" }), input);
  input.id = "your-sentence";
  const { keys } = route();
  if (wanted(keys)) input.value = keys.get("text");  // a shared link's sentence, there to change
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const { page, keys } = route();
    const target = PAGES.includes(page) ? page : "tokens";
    const dropped = ["text", "pair", "cell", "lecture"];  // the sentence's own; link() adds lecture mode
    const kept = target === page ? Object.fromEntries([...keys].filter(([k]) => !dropped.includes(k))) : {};
    location.hash = link(target, { ...kept, text: input.value });
  });
  document.querySelector("header").append(form);
}

export function titled(title, s) {  // a page's title; for a sentence computed here, it says so beside it (no more height)
  if (!(s && s.live)) return element("h1", title);
  const h1 = element("h1");
  h1.append(element("span", title, { class: "title-words" }),  // lecture mode hides these, not the badge
            element("span", "computed in this browser", {
              class: "computed-here", title: "Not exported: tokenized and run by the site's model in this " +
                "browser (onnxruntime-web), each block checked against the model's own output of the same run." }));
  return h1;
}

export { PAGES as pages };
