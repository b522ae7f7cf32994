// @ts-nocheck
// (not typed yet: a sentence's data and parts are the site's untyped scripts; the "one source" work rewrites it)
// A sentence's numbers in the browser: its data script (sentences/N.js), its parts (sentences/N-PART.js: a block's
// sub-steps, the tour, the attention views) and a module's weights script (weights/NAME.js) are loaded when first
// needed, by a <script> element, which works from a double-clicked file as
// from any host (fetch does not read file://). Arrays are decoded when first read and kept.
import { unpack } from "./numbers.js";

window.BVL_SENTENCES = window.BVL_SENTENCES || {};
window.BVL_WEIGHTS = window.BVL_WEIGHTS || {};
window.BVL_PARTS = window.BVL_PARTS || {};
const loading = {};

export function script(src) {  // loads once; resolves when the script has run
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

function decoded(packed) {  // a parameter that may be absent (a norm without β)
  return packed === null || packed === undefined ? packed : unpack(packed);
}

export function partOf(step) {  // export/steps.py part_of: "layers.3.attn.q" → "layers.3", "embed.norm" → "embed"
  const [block, second] = step.split(".");
  return block === "layers" ? `layers.${second}` : block;
}

export class Lecture {  // one sentence of the site: its tokens, ids and mask, its parts as they are read, the parameters
  constructor(site, index, data) {
    const sentence = site.sentences[index];
    Object.assign(this, { site, index, model: site.model, tokens: sentence.tokens, ids: data.ids, mask: data.mask,
                          checks: data.checks, data });
    this.arrays = {};
    this.decodedParameters = {};
  }
  async part(name) {  // a part's script (a block's sub-steps, "tour", "attention"), read once
    const key = `${this.index}-${name}`;
    if (!window.BVL_PARTS[key]) await script(`sentences/${key}.js`);
    return window.BVL_PARTS[key];
  }
  async block(name) {  // a block's sub-steps and those of every block it reads (a layer's input, positions)
    const block = this.model.blocks.find((b) => partOf(b.name) === name);
    const outside = block.nodes.flatMap((n) => n.inputs).filter((i) => /^(embed|positions|layers|pooler)\./.test(i));
    await Promise.all([name, ...new Set(outside.map(partOf))].map((part) => this.part(part)));
  }
  array(name) {
    if (!(name in this.arrays)) {
      const part = window.BVL_PARTS[`${this.index}-${partOf(name)}`];
      if (!part || !(name in part)) throw new Error(`This site holds no numbers for ${name}.`);
      this.arrays[name] = unpack(part[name]);
    }
    return this.arrays[name];
  }
  given(name) {
    const packed = this.data.given[name];
    if (!packed) return null;
    if (!(`given:${name}` in this.arrays)) this.arrays[`given:${name}`] = unpack(packed);
    return this.arrays[`given:${name}`];
  }
  tableRows(module) {
    const table = this.data.rows[module];
    return { ids: table.ids, rows: this.memo(`rows:${module}`, () => unpack(table.rows)) };
  }
  parameter(name) {  // a norm's {weight, bias, eps}, an activation's {function}, a frequency vector
    return this.memo(`parameter:${name}`, () => {
      const p = this.model.parameters[name];
      if (p && p.shape) return unpack(p);
      return { ...p, weight: decoded(p.weight), bias: decoded(p.bias) };
    });
  }
  async weights(module) {
    if (!this.model.weights.includes(module)) {
      throw new Error("This site was written without the model's weights, to keep it small: the app explains " +
                      "this cell, and so does a site written by `bertviz-lite export` without --no-weights.");
    }
    if (!window.BVL_WEIGHTS[module]) await script(`weights/${module}.js`);
    const w = window.BVL_WEIGHTS[module];
    return this.memo(`weights:${module}`, () => ({ weight: unpack(w.weight), bias: decoded(w.bias) }));
  }
  memo(key, make) {
    if (!(key in this.decodedParameters)) this.decodedParameters[key] = make();
    return this.decodedParameters[key];
  }
}

const lectures = {};
export const keepLecture = (index, lecture) => { lectures[index] = lecture; };  // a sentence computed in the browser
export const forgetLecture = (index) => { delete lectures[index]; };
export const lecture = async function (site, index) {  // the Lecture of sentence `index`, its data loaded once
  if (!lectures[index]) {
    if (!window.BVL_SENTENCES[index]) await script(`sentences/${index}.js`);
    lectures[index] = new Lecture(site, index, window.BVL_SENTENCES[index]);
  }
  return lectures[index];
};
