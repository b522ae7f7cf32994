// A sentence's numbers in the browser: its data script (sentences/N.js), its parts (sentences/N-PART.js: a block's
// sub-steps, the tour, the attention views) and a module's weights script (weights/NAME.js) are loaded when first
// needed, by a <script> element, which works from a double-clicked file as
// from any host (fetch does not read file://). Arrays are decoded when first read and kept.
import { unpack } from "./numbers.js";

/** @typedef {import("./numbers.js").Packed} Packed */
/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {import("./steps.js").SiteModel} SiteModel */

/**
 * A sentence's data script (sentences/N.js) as export/steps.py sentence_steps writes it: its ids by input name
 * (input_ids, token_type_ids, position_ids), its attention mask, each block's check by the block's output name ([its
 * largest difference, whether it holds]), what a block reads from the model itself (by name), and the ids and rows
 * each lookup table read (by module).
 * @typedef {{ ids: Record<string, number[]>, mask: number[], checks: Record<string, [number, boolean]>,
 *             given: Record<string, Packed>, rows: Record<string, { ids: number[], rows: Packed }> }} SentenceData
 */
/**
 * A small parameter as export/steps.py small_parameters writes it: a packed vector (rotary frequencies), or a norm's
 * γ and β (null where it has none) and ε, or an activation's function.
 * @typedef {Packed | { shape?: undefined, weight?: Packed | null, bias?: Packed | null, eps?: number,
 *                      function?: string }} SmallParameter
 */
/**
 * A norm's or an activation's parameter as the explanations read it: γ and β unpacked (null where the norm has none,
 * undefined where the module is no norm), ε, the function.
 * @typedef {{ weight: Unpacked | null | undefined, bias: Unpacked | null | undefined, eps?: number,
 *             function?: string }} Parameter
 */
/**
 * A module's W and b (null where it has none), unpacked.
 * @typedef {{ weight: Unpacked, bias: Unpacked | null }} Weights
 */

window.BVL_SENTENCES = window.BVL_SENTENCES || {};
window.BVL_WEIGHTS = window.BVL_WEIGHTS || {};
window.BVL_PARTS = window.BVL_PARTS || {};
/** @type {Record<string, Promise<Event>>} */
const loading = {};

/**
 * A script of the site, loaded once; resolves when the script has run.
 * @param {string} src
 * @returns {Promise<Event>}
 */
export function script(src) {
  if (!loading[src]) {
    loading[src] = new Promise((resolve, reject) => {
      const element = document.createElement("script");
      element.src = src;
      element.onload = resolve;
      element.onerror = () => { delete loading[src]; reject(new Error(`The site could not read ${src}.`)); };
      document.head.append(element);
    });
  }
  return loading[src];
}

/**
 * A parameter that may be absent (a norm without β): null or undefined as it is.
 * @template {null | undefined} Absent
 * @param {Packed | Absent} packed
 * @returns {Unpacked | Absent}
 */
function decoded(packed) {
  return packed === null || packed === undefined ? packed : unpack(packed);
}

/**
 * export/steps.py part_of: "layers.3.attn.q" → "layers.3", "embed.norm" → "embed"
 * @param {string} step
 * @returns {string}
 */
export function partOf(step) {
  const [block, second] = step.split(".");
  return block === "layers" ? `layers.${second}` : block;
}

export class Lecture {  // one sentence of the site: its tokens, ids and mask, its parts as they are read, the parameters
  /**
   * @param {SiteData} site
   * @param {number} index
   * @param {SentenceData} data
   */
  constructor(site, index, data) {
    const sentence = site.sentences[index];
    this.site = site;
    this.index = index;
    /** @type {SiteModel} */
    this.model = site.model;  // the site's JSON, as steps.js types it
    this.tokens = sentence.tokens;
    this.ids = data.ids;
    this.mask = data.mask;
    this.checks = data.checks;
    this.data = data;
    /** @type {Record<string, Unpacked>} */
    this.arrays = {};
    /** @type {Record<string, unknown>} */
    this.decodedParameters = {};
  }
  /**
   * A part's script (a block's sub-steps, "tour", "attention"), read once.
   * @param {string} name
   * @returns {Promise<any>}  the part as the site's script holds it: JSON, typed where it is read
   */
  async part(name) {
    const key = `${this.index}-${name}`;
    if (!window.BVL_PARTS[key]) await script(`sentences/${key}.js`);
    return window.BVL_PARTS[key];
  }
  /**
   * A block's sub-steps and those of every block it reads (a layer's input, positions).
   * @param {string} name
   */
  async block(name) {
    const block = this.model.blocks.find((b) => partOf(b.name) === name);
    if (!block) throw new Error(`This site's model has no block ${name}.`);
    const outside = block.nodes.flatMap((n) => n.inputs).filter((i) => /^(embed|positions|layers|pooler)\./.test(i));
    await Promise.all([name, ...new Set(outside.map(partOf))].map((part) => this.part(part)));
  }
  /**
   * A sub-step's numbers, unpacked when first read.
   * @param {string} name
   * @returns {Unpacked}
   */
  array(name) {
    if (!(name in this.arrays)) {
      /** @type {Record<string, Packed> | undefined} */
      const part = window.BVL_PARTS[`${this.index}-${partOf(name)}`];  // a block's script: its sub-steps, packed
      if (!part || !(name in part)) throw new Error(`This site holds no numbers for ${name}.`);
      this.arrays[name] = unpack(part[name]);
    }
    return this.arrays[name];
  }
  /**
   * What a block reads from the model itself (a layer's input: its hidden state); null where it reads no such thing.
   * @param {string} name
   * @returns {Unpacked | null}
   */
  given(name) {
    const packed = this.data.given[name];
    if (!packed) return null;
    if (!(`given:${name}` in this.arrays)) this.arrays[`given:${name}`] = unpack(packed);
    return this.arrays[`given:${name}`];
  }
  /**
   * The ids a lookup table read and their rows.
   * @param {string} module
   * @returns {Promise<{ ids: number[], rows: Unpacked }>}
   */
  async tableRows(module) {
    const table = this.data.rows[module];
    return { ids: table.ids, rows: this.memo(`rows:${module}`, () => unpack(table.rows)) };
  }
  /**
   * A norm's {weight, bias, eps}, an activation's {function}, a frequency vector.
   * @param {string} name
   * @returns {Unpacked | Parameter}
   */
  parameter(name) {
    return this.memo(`parameter:${name}`, () => {
      /** @type {SmallParameter | undefined} */
      const p = this.model.parameters[name];  // the site's JSON
      if (p && p.shape) return unpack(p);
      if (!p) throw new Error(`This site holds no parameter ${name}.`);
      return { ...p, weight: decoded(p.weight), bias: decoded(p.bias) };
    });
  }
  /**
   * A module's W and b, its weights script read once.
   * @param {string} module
   * @returns {Promise<Weights>}
   */
  async weights(module) {
    if (!this.model.weights.includes(module)) {
      throw new Error("This site was written without the model's weights, to keep it small: the app explains " +
                      "this cell, and so does a site written by `bertviz-lite export` without --no-weights.");
    }
    if (!window.BVL_WEIGHTS[module]) await script(`weights/${module}.js`);
    /** @type {{ weight: Packed, bias: Packed | null }} */
    const w = window.BVL_WEIGHTS[module];  // the weights script's JSON (export/steps.py module_weights)
    return this.memo(`weights:${module}`, () => ({ weight: unpack(w.weight), bias: decoded(w.bias) }));
  }
  /**
   * What `make` makes, made once for `key`.
   * @template T
   * @param {string} key
   * @param {() => T} make
   * @returns {T}
   */
  memo(key, make) {
    if (!(key in this.decodedParameters)) this.decodedParameters[key] = make();
    return /** @type {T} */ (this.decodedParameters[key]);  // a key is always made by the same `make`
  }
}

/** @type {Record<number, Lecture>} */
const lectures = {};
/**
 * A sentence computed in the browser, kept as sentence `index`'s Lecture.
 * @param {number} index
 * @param {Lecture} lecture
 */
export const keepLecture = (index, lecture) => { lectures[index] = lecture; };
/** @param {number} index */
export const forgetLecture = (index) => { delete lectures[index]; };
/**
 * The Lecture of sentence `index`, its data loaded once.
 * @param {SiteData} site
 * @param {number} index
 * @returns {Promise<Lecture>}
 */
export const lecture = async function (site, index) {
  if (!lectures[index]) {
    if (!window.BVL_SENTENCES[index]) await script(`sentences/${index}.js`);
    lectures[index] = new Lecture(site, index, window.BVL_SENTENCES[index]);  // its data script's JSON
  }
  return lectures[index];
};
