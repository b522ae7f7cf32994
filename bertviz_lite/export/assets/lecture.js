// A sentence's numbers in the browser: its data script (sentences/N.js) and a module's weights script
// (weights/NAME.js) are loaded when first needed, by a <script> element, which works from a double-clicked file as
// from any host (fetch does not read file://). Arrays are decoded when first read and kept.
"use strict";
(function () {
  const BVL = (window.BVL = window.BVL || {});
  window.BVL_SENTENCES = window.BVL_SENTENCES || {};
  window.BVL_WEIGHTS = window.BVL_WEIGHTS || {};
  const loading = {};

  function script(src) {  // loads once; resolves when the script has run
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

  function decoded(cache, packed) {
    return packed === null || packed === undefined ? packed : BVL.unpack(packed);
  }

  class Lecture {  // one sentence of the site: its tokens, arrays, ids and mask, and the model's parameters
    constructor(site, index, data) {
      const sentence = site.sentences[index];
      Object.assign(this, { site, index, model: site.model, tokens: sentence.tokens, ids: data.ids, mask: data.mask,
                            checks: data.checks, data });
      this.arrays = {};
      this.decodedParameters = {};
    }
    array(name) {
      if (!(name in this.arrays)) {
        if (!(name in this.data.arrays)) throw new Error(`This site holds no numbers for ${name}.`);
        this.arrays[name] = BVL.unpack(this.data.arrays[name]);
      }
      return this.arrays[name];
    }
    given(name) {
      const packed = this.data.given[name];
      if (!packed) return null;
      if (!(`given:${name}` in this.arrays)) this.arrays[`given:${name}`] = BVL.unpack(packed);
      return this.arrays[`given:${name}`];
    }
    tableRows(module) {
      const table = this.data.rows[module];
      return { ids: table.ids, rows: this.memo(`rows:${module}`, () => BVL.unpack(table.rows)) };
    }
    parameter(name) {  // a norm's {weight, bias, eps}, an activation's {function}, a frequency vector
      return this.memo(`parameter:${name}`, () => {
        const p = this.model.parameters[name];
        if (p && p.shape) return BVL.unpack(p);
        return { ...p, weight: decoded(null, p.weight), bias: decoded(null, p.bias) };
      });
    }
    async weights(module) {
      if (!window.BVL_WEIGHTS[module]) await script(`weights/${module}.js`);
      const w = window.BVL_WEIGHTS[module];
      return this.memo(`weights:${module}`, () => ({ weight: BVL.unpack(w.weight), bias: decoded(null, w.bias) }));
    }
    memo(key, make) {
      if (!(key in this.decodedParameters)) this.decodedParameters[key] = make();
      return this.decodedParameters[key];
    }
  }

  const lectures = {};
  BVL.lecture = async function (site, index) {  // the Lecture of sentence `index`, its data loaded once
    if (!lectures[index]) {
      if (!window.BVL_SENTENCES[index]) await script(`sentences/${index}.js`);
      lectures[index] = new Lecture(site, index, window.BVL_SENTENCES[index]);
    }
    return lectures[index];
  };
})();
