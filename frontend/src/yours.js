// A sentence of the reader's own, computed in this browser (a live site: `bertviz-lite export --live`,
// export/live.py): tokenized as the trace tokenizes (tokenizing.js), then run by the model with every sub-step an
// output in onnxruntime-web's WebAssembly (running.js), its files fetched once and kept (model_parts.js). The sentence
// then joins the site's sentences, and every view shows it as it shows an exported one: Tokens, the tour (tour.js),
// the stepper (each block checked against the model's own hidden states, computed in the same run), the head and
// model views (attention_views.js: the app's figures filled), the analyses (analysed.js) and Similarity (similar.js).
import { Lecture, keepLecture, forgetLecture, lecture as exportedLecture } from "./lecture.js";
import { cachedAlready, stored, tableRows, forgotten } from "./model_parts.js";
import { element, link, route, lectureMode, cannot, listed, named as namedLine, worded } from "./page.js";
import { attentionViews } from "./attention_views.js";
import { tourOf } from "./tour.js";
import { analysed } from "./analysed.js";
import { within } from "./numbers.js";
import { MB, begun, computed } from "./running.js";

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {import("./lecture.js").SentenceData} SentenceData */
/** @typedef {import("./router.js").Page} Page */

const site = window.BVL_SITE;
const live = site.live;
// The views that show a sentence computed here: all but the Lens of a trained masked-LM head (not in the live files)
// and those that run the model again (Interventions, Attributions: computed for the site's own sentences only);
// Contexts is the same for every sentence (export/content.py), read from the site's first
const PAGES = ["tokens", "tour", "layers", "attention", "heads", "rollout", "contributions", "lens", "contexts",
               "similarity"]
  .filter((page) => page !== "lens" || !live || site.views.analyses.lens.mode !== "lens");
const phone = () => window.innerWidth < 640;
// The computed sentences' numbers kept in memory, the newest always (an older one is computed again if asked):
// a 512-token sentence's sub-steps alone are over 200 MB
const KEPT_BYTES = () => (phone() ? 0 : 250e6);

let consented = false;  // the reader asked for the model (a phone or a slow connection is asked first)
/** @type {[number, number][]} */
const held = [];  // [index, bytes] of the computed sentences whose numbers are in memory, oldest first

function servedOverHttp() {
  return /^https?:$/.test(location.protocol);
}

/**
 * The site's sentence of this text and pair (an exported one, or one computed here), if it holds it.
 * @param {string} text
 * @param {string | null} pair
 * @returns {SiteSentence | undefined}
 */
export function find(text, pair) {
  const b = (pair || "").trim() || null;
  return site.sentences.find((s) => s.text === text.trim() && (s.pair || null) === b);
}

/**
 * The sentence the address names, where the site holds it (null where it names none).
 * @param {URLSearchParams} keys
 * @returns {SiteSentence | null}
 */
export function addressed(keys) {
  const text = keys.get("text");
  return text === null ? null : find(text, keys.get("pair")) || null;
}

/**
 * Whether this address names a sentence of the reader's own (computed here, or to be), on a live site.
 * @param {URLSearchParams} keys
 */
export function typed(keys) {
  const text = keys.get("text");
  if (!live || text === null) return false;
  const found = find(text, keys.get("pair"));
  return !found || Boolean(found.live);
}

/**
 * Whether this address names a sentence the browser must compute first.
 * @param {URLSearchParams} keys
 */
export function wanted(keys) {
  const text = keys.get("text");
  if (!live || text === null) return false;
  const found = find(text, keys.get("pair"));
  return !found || (found.live && !held.some(([index]) => index === site.sentences.indexOf(found)));
}

function shouldAsk() {  // a phone or a slow or metered connection is told the size first
  /** @type {{ saveData?: boolean, effectiveType?: string }} the Network Information API, where the browser has it */
  const connection = /** @type {Navigator & { connection?: object }} */ (navigator).connection || {};
  return phone() || connection.saveData || /(^|-)(2g|3g)$/.test(connection.effectiveType || "");
}

class Computed extends Lecture {  // a sentence computed here: its sub-steps are the run's outputs
  /**
   * @param {number} index
   * @param {SentenceData} data
   * @param {Record<string, Unpacked>} arrays
   */
  constructor(index, data, arrays) {
    super(site, index, data);
    Object.assign(this.arrays, arrays);
  }
  /**
   * The attention views (attention_views.js), the tour (tour.js) and the analyses (analysed.js), built here.
   * @param {string} name
   * @returns {Promise<any>} as an exported sentence's part (Lecture.part)
   */
  async part(name) {
    const once = (/** @type {() => unknown} */ make) => this.memo(name, () => forgotten(Promise.resolve().then(make),  // a failure is tried again
                                                           () => { delete this.decodedParameters[name]; }));
    if (name === "attention") {
      return once(() => attentionViews(this));
    }
    if (name === "tour") return once(() => tourOf(this, site.sentences[this.index]));
    if (name === "heads" || name === "rollout" || name === "contributions" || name === "lens") {
      return once(() => analysed[name](this));  // the analyses
    }
    if (name === "contexts") return once(async () => (await exportedLecture(site, 0)).part(name));
    const position = /^lens\.position\.(\d+)$/.exec(name);  // one position's lens, computed when it is shown
    if (position) return once(() => analysed.lensItem(this, Number(position[1])));
    throw new Error(`This view is not computed in the browser: ${PAGES.join(", ")} are.`);
  }
  /** Nothing to read: every sub-step is the run's. */
  async block() {}
  /**
   * A sub-step; a layer's input is the block before's last, as the run read it.
   * @param {string} name
   * @returns {Unpacked}
   */
  array(name) {
    if (name in live.sources) return this.array(live.sources[name]);
    if (!(name in this.arrays)) throw new Error(`The model computed no ${name}.`);
    return this.arrays[name];
  }
  /**
   * A block's output as the model itself computed it (its hidden state), in the same run.
   * @param {string} name
   * @returns {Unpacked | null}
   */
  given(name) {
    const check = live.checks[name];
    if (!check) return null;
    return this.memo(`given:${name}`, () => {
      const [own, index] = /** @type {[string, number | undefined]} */ (check), whole = this.arrays[own], size = this.arrays[name].data.length;
      const start = index === undefined ? 0 : index * size;
      return { shape: this.arrays[name].shape, data: whole.data.subarray(start, start + size) };
    });
  }
  /**
   * The rows the embeddings looked up, read from the model's own table when first asked.
   * @param {string} module
   */
  tableRows(module) {
    const key = `rows:${module}`;
    const lookup = this.model.blocks.flatMap((b) => b.nodes).find((n) => n.op === "lookup" && n.module === module);
    if (!lookup) throw new Error(`The model looks up nothing in ${module}.`);
    const ids = this.ids[/** @type {string} */ ((lookup.attrs || {}).ids)];
    return this.memo(key, () => forgotten(tableRows(module, ids),
                                          () => { delete this.decodedParameters[key]; }));
  }
  /**
   * A module's W and b from the model's own files (else the site's weights script, as an exported sentence's).
   * @param {string} module
   */
  async weights(module) {
    const weight = await stored(module, "weight");
    if (!weight) return super.weights(module);
    return { weight, bias: await stored(module, "bias") };
  }
}

/**
 * Each block's last sub-step against the model's own output, as the trace checks it: [the worst difference, whether
 * every element is within the bound].
 * @param {Computed} lecture
 * @returns {Record<string, [number, boolean]>}
 */
function checks(lecture) {
  return Object.fromEntries(Object.keys(live.checks).map((name) => {
    const ours = lecture.array(name).data, given = lecture.given(name);
    if (!given) throw new Error(`The model's own output for ${name} is missing from the run.`);
    const theirs = given.data;
    let worst = 0, holds = true;  // what the line says, and whether every element is within the bound
    for (let k = 0; k < ours.length; k += 1) {
      worst = Math.max(worst, Math.abs(ours[k] - theirs[k]));
      holds = holds && within(ours[k], theirs[k], window.BVL_SITE.tolerances.same_sum);
    }
    return [name, /** @type {[number, boolean]} */ ([worst, holds])];
  }));
}

/**
 * This sentence's numbers in memory; the oldest let go past KEPT_BYTES.
 * @param {number} index
 * @param {Record<string, Unpacked>} arrays
 */
function keep(index, arrays) {
  const bytes = Object.values(arrays).reduce((n, a) => n + a.data.byteLength, 0);
  const at = held.findIndex(([i]) => i === index);
  if (at >= 0) held.splice(at, 1);
  held.push([index, bytes]);
  while (held.length > 1 && held.reduce((n, [, b]) => n + b, 0) > KEPT_BYTES()) {
    forgetLecture(/** @type {[number, number]} */ (held.shift())[0]);
  }
}

/**
 * Before a page draws: compute the sentence its address names. True once it is in the site's sentences; false
 * where the page says why not, or asks before fetching the model (the view keeps the site's links).
 * @param {HTMLElement} view
 * @param {URLSearchParams} keys
 * @param {() => boolean} alive
 * @returns {Promise<boolean>}
 */
export async function ready(view, keys, alive) {
  const text = (keys.get("text") || "").trim(), pair = (keys.get("pair") || "").trim() || null;  // as the export reads them
  const show = (/** @type {Node[]} */ ...nodes) => { if (alive()) view.replaceChildren(...nodes); };
  const note = (/** @type {string} */ words, /** @type {boolean} */ error = false) => element("p", words, { class: "note", ...(error ? { "data-error": "" } : {}) });
  if (!text) {
    show(element("h1", worded("your_sentence")), note(live.words.empty, true));
    return false;
  }
  if (!servedOverHttp()) {
    cannot(view, worded("from_disk"));
    return false;
  }
  if (!begun() && !consented && shouldAsk() && !(await cachedAlready())) {
    const mb = MB(live.model.bytes + live.runtime.bytes);
    const go = element("button", worded("fetch", { mb }), { type: "button", class: "fetch-model" });
    go.addEventListener("click", () => { consented = true; window.dispatchEvent(new HashChangeEvent("hashchange")); });
    show(element("h1", worded("your_sentence")), element("p", text, { class: "sentence" }),
         element("p", worded("fetch_note", { mb }), { class: "note" }), go);
    return false;
  }
  const status = note(worded("reading_tokenizer"));
  show(element("h1", worded("your_sentence")), status);
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
    show(element("h1", worded("your_sentence")), note(error instanceof Error ? error.message : String(error), true));
    return false;
  }
}

function listedPages() {  // "Tokens, Tour, …, Word in context and Similarity"
  const names = PAGES.map((p) => site.pages[p]);
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * A view that shows the exported sentences only, asked for a sentence the site does not hold (computed here, or
 * not yet): it says so (with no fetch), links the views that show it, and lists the site's own.
 * @param {HTMLElement} view
 * @param {string} page the view's name
 * @param {URLSearchParams} keys
 */
export function elsewhere(view, page, keys) {
  const text = (keys.get("text") || "").trim(), pair = (keys.get("pair") || "").trim();
  const named = namedLine({ text, pair: pair || null }), said = { text, ...(pair ? { pair } : {}) };
  const computed = (find(text, pair) || { live: false }).live;
  view.append(element("h1", worded("not_in_site")),
              element("p", worded(computed ? "elsewhere_computed" : "elsewhere_new",
                                  { named, pages: listedPages(), page }), { class: "note" }));
  const links = element("div", undefined, { class: "sentences" });
  PAGES.forEach((p) => links.append(element("a", `${site.pages[p]}: “${named}”`,
                                            { href: link(p, said), class: "yours-link" })));
  view.append(links);
  listed(view, worded("own_sentences"));
}

/**
 * "Your sentence": Enter opens one of PAGES on it (the one shown, else Tokens). A projector's lecture shows the box
 * where a lecturer takes a sentence from the hall (the overview and Tokens), and keeps the other views' height.
 * @param {string} page
 */
export function placeBox(page) {
  const form = /** @type {HTMLFormElement | null} */ (document.querySelector("form.yours"));
  if (form) form.hidden = lectureMode() && !["", "overview", "tokens"].includes(page);
}

/** The box for a sentence of the reader's own, in the header, on a live site. */
export function box() {
  if (!live) return;
  const form = element("form", undefined, { class: "yours", role: "search" });
  const input = /** @type {HTMLInputElement} */ (element("input", undefined, {
    type: "text", name: "text", "aria-label": worded("your_sentence"), placeholder: worded("box_placeholder"),
    maxlength: "100000" }));
  form.append(element("label", worded("your_sentence"), { for: "your-sentence" }), input);
  input.id = "your-sentence";
  const { keys } = route();
  if (wanted(keys)) input.value = keys.get("text") || "";  // a shared link's sentence, there to change
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const { page, keys } = route();
    const target = PAGES.includes(page) ? page : "tokens";
    const dropped = ["text", "pair", "cell", "lecture"];  // the sentence's own; link() adds lecture mode
    const kept = target === page ? Object.fromEntries([...keys].filter(([k]) => !dropped.includes(k))) : {};
    location.hash = link(target, { ...kept, text: input.value });
  });
  const header = document.querySelector("header");
  if (header) header.append(form);
}

/**
 * A page's title; for a sentence computed here, it says so beside it (no more height).
 * @param {string} title
 * @param {SiteSentence | null | undefined} s
 */
export function titled(title, s) {
  if (!(s && s.live)) return element("h1", title);
  const h1 = element("h1");
  h1.append(element("span", title, { class: "title-words" }),  // lecture mode hides these, not the badge
            element("span", worded("computed_here"), { class: "computed-here", title: worded("computed_here_title") }));
  return h1;
}

export { PAGES as pages };
