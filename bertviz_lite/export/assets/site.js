// GENERATED FILE: do not edit by hand. Built from frontend/src (entry src/main.js) by `npm run build` in
// frontend/ (esbuild, see frontend/build.mjs); edit the modules there and build again. tests/test_frontend.py
// checks that this file is what the modules build to.
"use strict";
(() => {
  // src/numbers.js
  var FLOAT32_MIN = -34028234663852886e22;
  var MASKED_BELOW = FLOAT32_MIN / 2;
  function within(got, expected, { atol, rtol }) {
    return got === expected || Math.abs(got - expected) <= atol + rtol * Math.abs(expected);
  }
  function unpack(packed) {
    const bytes = Uint8Array.from(atob(packed.data), (c) => c.charCodeAt(0));
    const Kind = packed.type === "i4" ? Int32Array : Float32Array;
    return { shape: packed.shape, data: new Kind(bytes.buffer) };
  }
  function offset(array, index) {
    let at3 = 0;
    array.shape.forEach((size, axis) => {
      at3 = at3 * size + (index[axis] || 0);
    });
    return at3;
  }
  function get(array, ...index) {
    return array.data[offset(array, index)];
  }
  function row(array, ...leading) {
    const n = array.shape[array.shape.length - 1];
    const start3 = offset(array, leading);
    return Array.from(array.data.subarray(start3, start3 + n));
  }
  function matrix(array, ...leading) {
    const rows = array.shape[array.shape.length - 2];
    return Array.from({ length: rows }, (_, r) => row(array, ...leading, r));
  }
  function fixed(value, decimals) {
    if (!isFinite(value)) return isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    const size = Math.abs(value);
    let text = size < 1e21 ? size.toFixed(decimals) : BigInt(size).toString() + (decimals ? "." + "0".repeat(decimals) : "");
    const exact = size < 1e21 ? size.toFixed(100) : "";
    if (new RegExp(`\\.\\d{${decimals}}50*$`).test(exact)) {
      const cut2 = exact.slice(0, exact.indexOf(".") + (decimals ? 1 + decimals : 0));
      if (Number(cut2[cut2.length - 1]) % 2 === 0) text = cut2;
    }
    const negative = value < 0 || Object.is(value, -0);
    return (negative ? "-" : "") + text;
  }
  function exponential(size, decimals) {
    const [mantissa, exponent] = size.toExponential(decimals).split("e");
    const exact = size >= 1e21 ? BigInt(size).toString() : Number.isInteger(size * 2 ** 100) ? size.toFixed(100) : "";
    const whole = exact.indexOf(".") < 0 ? exact.length : exact.indexOf(".");
    const digits = exact.replace(".", ""), first2 = digits.search(/[1-9]/);
    const significant = first2 < 0 ? "" : digits.slice(first2);
    if (new RegExp(`^\\d{${decimals + 1}}50*$`).test(significant) && Number(significant[decimals]) % 2 === 0) {
      const kept = significant.slice(0, decimals + 1);
      return [kept[0] + (decimals ? "." + kept.slice(1) : ""), whole - 1 - first2];
    }
    return [mantissa, Number(exponent)];
  }
  function formatted(value, spec) {
    if (!spec) return String(value);
    if (typeof value === "number" && (spec === "num" || spec === "plus" || spec === "+d")) {
      return spec === "num" ? num(value) : spec === "plus" ? plus(value) : signed(value);
    }
    const parts = /^(\+)?(z)?(?:\.(\d+))?([fge])$/.exec(spec);
    if (!parts || typeof value !== "number") {
      throw new Error(`A template asks for {…:${spec}} of ${String(value)}: the site writes .Nf, .Ng, g, .Ne (z: no "-0"), +d, num and plus of numbers.`);
    }
    const [, sign, zero, digits, kind] = parts;
    let text = kind === "f" ? fixed(value, Number(digits ?? 6)) : kind === "g" ? general(value, Number(digits ?? 6)) : scientific(value, Number(digits ?? 6));
    if (zero && /^-0(\.0*)?(e[+-]\d+)?$/.test(text)) text = text.slice(1);
    return sign && !text.startsWith("-") ? `+${text}` : text;
  }
  function general(value, digits) {
    if (value === 0) return Object.is(value, -0) ? "-0" : "0";
    if (!isFinite(value)) return isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    const [mantissa, exponent] = exponential(Math.abs(value), digits - 1);
    const sign = value < 0 ? "-" : "";
    if (exponent < -4 || exponent >= digits) {
      const trimmed = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
      return `${sign}${trimmed}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
    }
    const text = fixed(Math.abs(value), Math.max(0, digits - 1 - exponent));
    return sign + (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);
  }
  function scientific(value, digits) {
    if (!isFinite(value)) return isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    const [mantissa, e] = exponential(Math.abs(value), digits);
    const negative = value < 0 || Object.is(value, -0);
    return `${negative ? "-" : ""}${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  function difference(value, digits = 1) {
    return scientific(value, digits).replace(/-/g, "−");
  }
  function num(value) {
    if (value <= MASKED_BELOW) return "−∞";
    return Math.abs(value) < 1e4 ? fixed(value, 4) : general(value, 4);
  }
  function plus(value) {
    return value < 0 ? `− ${num(-value)}` : `+ ${num(value)}`;
  }
  function signed(value) {
    return (value >= 0 ? "+" : "-") + Math.abs(value);
  }
  function pyRound(x) {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  function exactSum(values) {
    const partials = [];
    for (let x of values) {
      let i = 0;
      for (let y of partials) {
        if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
        const high = x + y;
        const low = y - (high - x);
        if (low) partials[i++] = low;
        x = high;
      }
      partials.length = i;
      partials.push(x);
    }
    return partials.reduce((a, b) => a + b, 0);
  }
  function at(array, i) {
    const rest = array.shape.slice(1), n = rest.reduce((a, b) => a * b, 1);
    return { shape: rest, data: array.data.subarray(i * n, (i + 1) * n) };
  }
  function dot(a, b) {
    let total = 0;
    for (let k = 0; k < a.length; k += 1) total += a[k] * b[k];
    return total;
  }
  var norm = (a) => Math.sqrt(dot(a, a));

  // src/steps.js
  function stepName(block, key) {
    return block.layer === null || block.layer === void 0 ? `${block.block}.${key}` : `${block.block}.${block.layer}.${key}`;
  }
  function findStep(model, name) {
    for (const block of model.blocks) {
      for (const node of block.nodes) if (stepName(block, node.key) === name) return [block, node];
    }
    return null;
  }
  function axisNames(node, count) {
    const symbols = node.headed ? node.axes.slice(1) : node.axes.slice();
    if (symbols.filter((s) => s === "T").length === 2) return ["query", "key"];
    const names = { T: "token", "2k": "relative distance row" };
    const named3 = symbols.map((s) => names[s] || "dimension").slice(0, count);
    while (named3.length < count) named3.push("index");
    return named3;
  }
  function keyHead(queryHead, heads, keyHeads) {
    return Math.floor(queryHead / Math.floor(heads / keyHeads));
  }
  function headName(queryHead, heads, count) {
    if (count === heads) return `head ${queryHead}`;
    const shared = keyHead(queryHead, heads, count), group = Math.floor(heads / count);
    return `key/value head ${shared} of ${count}, shared by query heads ${shared * group}–${(shared + 1) * group - 1}`;
  }
  var Cell = class _Cell {
    /**
     * @param {import("./lecture.js").Lecture} lecture  a Lecture, or a sentence computed here (yours.js: a Lecture too)
     * @param {GraphBlock} block
     * @param {GraphNode} node
     * @param {number | null} head
     * @param {number[]} at
     */
    constructor(lecture2, block, node, head, at3) {
      this.lecture = lecture2;
      this.block = block;
      this.node = node;
      this.head = head;
      this.at = at3;
    }
    get name() {
      return stepName(this.block, this.node.key);
    }
    /** @returns {import("./numbers.js").Unpacked} */
    get array() {
      return this.lecture.array(this.name);
    }
    get index() {
      return this.head === null ? this.at : [this.head, ...this.at];
    }
    get value() {
      return get(this.array, ...this.index);
    }
    /**
     * @param {number} k
     * @returns {import("./numbers.js").Unpacked}
     */
    input(k) {
      return this.source(this.node.inputs[k]);
    }
    /**
     * @param {string} name
     * @returns {import("./numbers.js").Unpacked}
     */
    source(name) {
      if (this.block.nodes.some((n) => n.key === name)) return this.lecture.array(stepName(this.block, name));
      return this.lecture.given(name) || this.lecture.array(name);
    }
    /** @param {number} k */
    inputNode(k) {
      return this.block.nodes.find((n) => n.key === this.node.inputs[k]) || null;
    }
    /** @param {number} position */
    token(position) {
      return `${position} ${this.lecture.tokens[position]}`;
    }
    /**
     * @param {number} index
     * @param {import("./numbers.js").Unpacked} [of]
     */
    row(index, of) {
      const shape = (of || this.array).shape;
      const rows = shape[shape.length - 2];
      if (rows === this.lecture.tokens.length && this.node.axes.includes("T")) return this.token(index);
      if (this.node.axes.includes("2k")) return `${index} (δ = ${index - Math.floor(rows / 2)})`;
      return String(index);
    }
    /**
     * @param {GraphNode} node
     * @param {number[]} [at]
     */
    atNode(node, at3) {
      return new _Cell(this.lecture, this.block, node, this.head, at3 || this.at);
    }
    get attrs() {
      return this.node.attrs || {};
    }
  };

  // src/lecture.js
  window.BVL_SENTENCES = window.BVL_SENTENCES || {};
  window.BVL_WEIGHTS = window.BVL_WEIGHTS || {};
  window.BVL_PARTS = window.BVL_PARTS || {};
  var loading = {};
  function script(src) {
    if (!loading[src]) {
      loading[src] = new Promise((resolve, reject) => {
        const element2 = document.createElement("script");
        element2.src = src;
        element2.onload = resolve;
        element2.onerror = () => {
          delete loading[src];
          reject(new Error(`The site could not read ${src}.`));
        };
        document.head.append(element2);
      });
    }
    return loading[src];
  }
  function decoded(packed) {
    return packed === null || packed === void 0 ? packed : unpack(packed);
  }
  function partOf(step) {
    const [block, second] = step.split(".");
    return block === "layers" ? `layers.${second}` : block;
  }
  var Lecture = class {
    // one sentence of the site: its tokens, ids and mask, its parts as they are read, the parameters
    /**
     * @param {SiteData} site
     * @param {number} index
     * @param {SentenceData} data
     */
    constructor(site8, index, data) {
      const sentence = site8.sentences[index];
      this.site = site8;
      this.index = index;
      this.model = site8.model;
      this.tokens = sentence.tokens;
      this.ids = data.ids;
      this.mask = data.mask;
      this.checks = data.checks;
      this.data = data;
      this.arrays = {};
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
        const part = window.BVL_PARTS[`${this.index}-${partOf(name)}`];
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
        const p = this.model.parameters[name];
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
        throw new Error("This site was written without the model's weights, to keep it small: the app explains this cell, and so does a site written by `bertviz-lite export` without --no-weights.");
      }
      if (!window.BVL_WEIGHTS[module]) await script(`weights/${module}.js`);
      const w = window.BVL_WEIGHTS[module];
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
      return (
        /** @type {T} */
        this.decodedParameters[key]
      );
    }
  };
  var lectures = {};
  var keepLecture = (index, lecture2) => {
    lectures[index] = lecture2;
  };
  var forgetLecture = (index) => {
    delete lectures[index];
  };
  var lecture = async function(site8, index) {
    if (!lectures[index]) {
      if (!window.BVL_SENTENCES[index]) await script(`sentences/${index}.js`);
      lectures[index] = new Lecture(site8, index, window.BVL_SENTENCES[index]);
    }
    return lectures[index];
  };

  // src/announce.js
  var announcer = (
    /** @type {HTMLElement | null} */
    null
  );
  function announce(words3) {
    if (!announcer || !announcer.isConnected) {
      announcer = document.createElement("div");
      announcer.className = "visually-hidden";
      announcer.setAttribute("aria-live", "polite");
      document.body.append(announcer);
    }
    announcer.textContent = words3;
  }

  // src/figure_name.js
  function plain(text) {
    return String(text || "").replace(/<br\s*\/?>/g, " ").replace(/<[^>]+>/g, "").replace(/[▸◂]/g, "").replace(/\s+/g, " ").trim();
  }
  function titleOf(figure) {
    const layout = figure.layout || {};
    const title = plain(typeof layout.title === "string" ? layout.title : layout.title && layout.title.text);
    const meta = layout.meta && typeof layout.meta === "object" ? layout.meta : {};
    const panels = (layout.annotations || []).filter((note) => note.xref === "paper" && note.yref === "paper" && note.yanchor === "bottom").map((note) => plain(note.text)).filter(Boolean);
    return title || plain(meta.name) || panels.join(" · ") || "Figure";
  }
  function pointOf(figure) {
    const meta = figure.layout && figure.layout.meta;
    return meta && typeof meta === "object" ? plain(meta.point) : "";
  }
  function nameFigure(figure, said2) {
    const id = figure.id || (figure.id = `plot-${Math.random().toString(36).slice(2)}`);
    const point = said2 ? "" : pointOf(
      /** @type {Drawn} */
      figure
    );
    let line2 = figure.querySelector(":scope > .figure-point");
    if (point) {
      if (!line2) {
        line2 = Object.assign(document.createElement("p"), {
          className: "figure-point",
          hidden: true,
          id: `point-of-${id}`
        });
        figure.append(line2);
      }
      line2.textContent = point;
    } else if (line2) {
      line2.remove();
    }
    figure.setAttribute("role", "figure");
    figure.setAttribute("aria-label", titleOf(
      /** @type {Drawn} */
      figure
    ));
    const by = said2 || (line2 && point ? line2.id : "");
    if (by) figure.setAttribute("aria-describedby", by);
    else figure.removeAttribute("aria-describedby");
  }

  // src/values.js
  var isArray = (value) => typeof value === "object" && value !== null && "shape" in value;
  function number(value) {
    if (typeof value === "number") return value;
    if (typeof value === "boolean") return Number(value);
    throw new Error(`A recipe gave ${String(value)} where it needs a number.`);
  }
  function plain2(value) {
    if (!isArray(value)) return value;
    if (value.shape.length <= 1) return Array.from(value.data);
    const [rows, ...rest] = value.shape, size = rest.reduce((a, b) => a * b, 1);
    return Array.from(
      { length: rows },
      (_, r) => plain2({ shape: rest, data: value.data.subarray(r * size, (r + 1) * size) })
    );
  }
  var vector = (values) => ({ shape: [values.length], data: Float64Array.from(values) });
  function elementwise(f, args) {
    const arrays = args.filter(isArray);
    if (!arrays.length) return f(...args);
    const { shape, data } = arrays[0];
    const out = new Float64Array(data.length);
    for (let n = 0; n < data.length; n++) out[n] = number(f(...args.map((a) => isArray(a) ? a.data[n] : a)));
    return { shape, data: out };
  }
  var numbersOf = (value) => isArray(value) ? Array.from(value.data) : Array.isArray(value) ? value.map((x) => number(
    /** @type {Value} */
    x
  )) : [number(value)];
  var listOf = (value) => isArray(value) ? Array.from(value.data) : (
    /** @type {unknown[]} */
    value
  );

  // src/figure_words.js
  var escaped = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  var unescaped = (text) => String(text).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  var chars = (text) => Array.from(text);
  function cut(label, longest) {
    const shown2 = chars(unescaped(label));
    return shown2.length <= longest ? label : `${escaped(shown2.slice(0, longest - 1).join(""))}…`;
  }
  function wrapped(text, width) {
    if (Array.isArray(text)) return text.flatMap((part) => wrapped(part, width));
    const lines2 = [];
    for (const word of String(text).split(/\s+/).filter(Boolean)) {
      const last = lines2.length - 1;
      if (last >= 0 && chars(lines2[last]).length + 1 + chars(word).length <= width) lines2[last] += ` ${word}`;
      else lines2.push(word);
    }
    return lines2.length ? lines2 : [""];
  }
  var NUMBER = /^[−-]?\d*\.?\d+$/u;
  var thousandths = (value) => fixed(value, 3).replace(/^(-?)0\./, "$1.").replace("-", "−");
  var eachNumber = (word) => (c, values) => {
    if (typeof values === "number") return word(values);
    const array = (
      /** @type {Unpacked} */
      values
    ), last = array.shape[array.shape.length - 1] ?? 0;
    const texts = Array.from(array.data, word);
    if (array.shape.length < 2) return texts;
    return Array.from({ length: texts.length / last }, (_, r) => texts.slice(r * last, (r + 1) * last));
  };
  var oneLine = (texts) => Array.isArray(texts) ? texts.map(oneLine) : String(texts).replaceAll("<br>", " ");
  function interp(x, xs, ys) {
    const last = xs.length - 1;
    if (x < xs[0]) return ys[0];
    if (x >= xs[last]) return ys[last];
    let j = 0;
    while (j + 1 < last && xs[j + 1] <= x) j++;
    if (xs[j] === x) return ys[j];
    const slope = (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j]);
    return slope * (x - xs[j]) + ys[j];
  }
  var sliced = (v, start3, stop) => isArray(v) ? vector(v.data.subarray(start3, Math.max(start3, stop))) : (
    /** @type {unknown[]} */
    v.slice(start3, stop)
  );
  var asValue = (items) => items.every((x) => typeof x === "number") ? vector(
    /** @type {number[]} */
    items
  ) : items;
  var itemsOf = (part) => isArray(part) ? Array.from(part.data) : Array.isArray(part) ? part : [part];
  function pooled(matrix3, step) {
    const [rows, cols] = matrix3.shape, out = [Math.ceil(rows / step), Math.ceil(cols / step)];
    const data = new Float64Array(out[0] * out[1]);
    for (let i = 0; i < out[0]; i++) {
      for (let j = 0; j < out[1]; j++) {
        let sum = 0, count = 0;
        for (let r = i * step; r < Math.min(rows, (i + 1) * step); r++) {
          for (let c = j * step; c < Math.min(cols, (j + 1) * step); c++) {
            const v = matrix3.data[r * cols + c];
            if (!Number.isNaN(v)) {
              sum += v;
              count += 1;
            }
          }
        }
        data[i * out[1] + j] = count ? Math.fround(sum / count) : NaN;
      }
    }
    return { shape: out, data };
  }
  var eachText = (word) => (c, texts, ...args) => Array.isArray(texts) ? texts.map((t) => word(String(t), ...args)) : word(String(texts), ...args);
  var linesOf = (texts) => listOf(texts).flatMap((t) => String(t).split("<br>"));
  var FIGURE_WORDS = {
    round: (c, x) => pyRound(x),
    range: (c, n) => vector(Array.from({ length: n }, (_, k) => k)),
    repeat: (c, value, n) => Array(n).fill(value),
    pick: (c, k, ...options) => options[Number(k)],
    zip: (c, a, b) => {
      const second = listOf(b);
      return listOf(a).map((x, k) => [x, second[k]]);
    },
    part: (c, flat, counts, k) => {
      const runs = numbersOf(counts), start3 = runs.slice(0, k).reduce((s, n) => s + n, 0);
      return { shape: [runs[k]], data: (
        /** @type {Unpacked} */
        flat.data.subarray(start3, start3 + runs[k])
      ) };
    },
    cat: (c, ...parts) => asValue(parts.flatMap(itemsOf)),
    slice: (c, v, start3, stop) => sliced(v, start3, stop),
    taken: (c, v, indices) => {
      const at3 = numbersOf(indices);
      return isArray(v) ? vector(at3.map((i) => v.data[i])) : at3.map((i) => (
        /** @type {unknown[]} */
        v[i]
      ));
    },
    which: (c, mask) => vector(numbersOf(mask).flatMap((x, k) => x ? [k] : [])),
    cells: (c, items) => isArray(items) ? vector(items.data) : (
      /** @type {unknown[][]} */
      items.flat()
    ),
    rows_of: (c, items, width) => {
      const all = listOf(items);
      return Array.from({ length: Math.ceil(all.length / width) }, (_, r) => all.slice(r * width, (r + 1) * width));
    },
    line_counts: (c, texts) => vector(listOf(texts).map((t) => String(t).split("<br>").length)),
    one_line: (c, texts) => oneLine(texts),
    numeric: (c, texts) => vector(listOf(texts).map((t) => Number(NUMBER.test(String(t))))),
    thousandths: eachNumber(thousandths),
    index: (c, values, items) => {
      const all = listOf(values);
      return vector(listOf(items).map((v) => all.indexOf(v)));
    },
    has: (c, texts, part) => typeof texts === "string" ? Number(texts.includes(part)) : vector(listOf(texts).map((t) => Number(String(t).includes(part)))),
    chars: (c, texts) => Array.isArray(texts) ? vector(texts.map((t) => chars(unescaped(t)).length)) : chars(unescaped(texts)).length,
    escaped: eachText(escaped),
    unescaped: eachText(unescaped),
    cut: eachText(cut),
    lines: (c, texts) => linesOf(texts),
    wrapped: (c, text, width) => wrapped(text, width),
    merged: (c, part, more) => ({ ...part, ...more }),
    unique: (c, items) => [...new Set(listOf(items))],
    interp: (c, x, xs, ys) => interp(x, numbersOf(xs), numbersOf(ys)),
    pooled: (c, matrix3, step) => pooled(
      /** @type {Unpacked} */
      matrix3,
      step
    )
  };

  // src/hover_words.js
  function cellWords(template, cell2) {
    return template.replace(/<extra>.*?<\/extra>/g, "").replace(/%\{(\w+)(?:\[(\d+)\])?(?::\.(\d+)f)?\}/g, (whole, field, index, digits) => {
      const named3 = (
        /** @type {Record<string, unknown>} */
        cell2[field]
      );
      const value = index === void 0 ? named3 : Array.isArray(named3) ? named3[Number(index)] : void 0;
      if (field === "z" && (value === null || typeof value === "number" && Number.isNaN(value))) return "masked";
      if (value === void 0 || value === null) return "";
      if (typeof value === "number" && digits !== void 0) return value.toFixed(Number(digits)).replace("-", "−");
      return String(value);
    }).replace(/<br\s*\/?>/g, ", ").replace(/<[^>]+>/g, "").replace(/&lt;|&gt;|&amp;/g, unescaped);
  }

  // src/token_lines.js
  function drawnLines(traces, across) {
    const found = [];
    for (const trace of traces) {
      if (trace.mode !== "lines" || !trace.x || trace.x.length < 2 || trace.visible === "legendonly") continue;
      const places = across ? trace.x : trace.y;
      for (let k = 0; k + 1 < places.length; k += 3) {
        found.push({
          name: String(trace.name),
          weight: Number(trace.opacity ?? 1),
          query: Number(places[k]),
          key: Number(places[k + 1])
        });
      }
    }
    return found.sort((a, b) => b.weight - a.weight);
  }
  function lineWords(say, line2, side, other) {
    const index = side === "q" ? line2.key : line2.query;
    return cellWords(say.line, { name: line2.name, index, token: other(index), weight: line2.weight });
  }
  function countWords(say, count) {
    return count === 1 ? say.one : cellWords(say.count, { count });
  }
  function linesWords(say, lines2, side, other, most) {
    if (!lines2.length) return say.none;
    const each = lines2.slice(0, most).map((line2) => lineWords(say, line2, side, other));
    const more = lines2.length > most ? [cellWords(say.more, { count: lines2.length - most })] : [];
    return [countWords(say, lines2.length), ...each, ...more].join("; ");
  }
  function sidesOf(traces) {
    const side = (trace) => trace.type === "scatter" && Array.isArray(trace.customdata) && Array.isArray(trace.customdata[0]) && ["q", "k"].includes(trace.customdata[0][0]);
    const at3 = traces.map((trace, k) => side(trace) ? k : -1).filter((k) => k >= 0);
    if (at3.length !== 2) return null;
    const [queries, keys] = at3.map((k) => traces[k]);
    return { at: at3, queries, keys, across: Number(queries.y[0]) !== Number(keys.y[0]) };
  }
  function tokenSides(figure) {
    const found = sidesOf(figure._fullData);
    if (!found) return null;
    const { at: at3, queries, keys, across } = found;
    const n = queries.customdata.length;
    const lines2 = drawnLines(figure._fullData, across);
    const token = (s, i) => String((s ? keys : queries).text[i]);
    const own = (s, i) => lines2.filter((line2) => (s ? line2.key : line2.query) === i);
    const sideOf = (r, c) => across ? r : c;
    const indexOf = (r, c) => across ? c : r;
    const marks2 = (s) => s ? keys : queries;
    const said2 = at3.map((k) => figure.data[k] && figure.data[k].meta || {});
    const words3 = (r, c, most) => {
      const s = sideOf(r, c), i = indexOf(r, c), trace = marks2(s);
      const say = said2[s];
      const hover = cellWords(String(trace.hovertemplate), { text: trace.text[i], customdata: trace.customdata[i] });
      return say.line ? `${hover}: ${linesWords(say, own(s, i), s ? "k" : "q", (j) => token(1 - s, j), most)}` : hover;
    };
    const names = Array.from({ length: n }, (_, i) => cellWords("%{index} %{token}", { index: i, token: token(0, i) }));
    const sideNames = said2.map((say) => String(say.side || ""));
    return {
      rows: across ? 2 : n,
      columns: across ? n : 2,
      x: across ? names : sideNames,
      y: across ? sideNames : names,
      words: (r, c) => words3(r, c, Infinity),
      said: (r, c) => words3(r, c, Number(said2[sideOf(r, c)].most) || 0),
      place: (r, c) => [
        [{ curveNumber: at3[sideOf(r, c)], pointNumber: indexOf(r, c) }],
        `${queries.xaxis || "x"}${queries.yaxis || "y"}`
      ],
      target: (r, c) => marks2(sideOf(r, c)).customdata[indexOf(r, c)]
    };
  }

  // src/cell_keys.js
  var PAGE_ROWS = 10;
  var WINDOW = 12;
  function moved(key, row2, column, rows, columns) {
    const within2 = (r, c) => (
      /** @type {[number, number]} */
      [Math.max(0, Math.min(rows - 1, r)), Math.max(0, Math.min(columns - 1, c))]
    );
    switch (key) {
      case "ArrowUp":
        return within2(row2 - 1, column);
      case "ArrowDown":
        return within2(row2 + 1, column);
      case "ArrowLeft":
        return within2(row2, column - 1);
      case "ArrowRight":
        return within2(row2, column + 1);
      case "Home":
        return within2(row2, 0);
      case "End":
        return within2(row2, columns - 1);
      case "PageUp":
        return within2(row2 - PAGE_ROWS, column);
      case "PageDown":
        return within2(row2 + PAGE_ROWS, column);
      default:
        return null;
    }
  }
  function windowStart(at3, count) {
    return Math.max(0, Math.min(at3 - Math.floor(WINDOW / 2), count - WINDOW));
  }
  var unwalk = /* @__PURE__ */ new WeakMap();
  function heatmaps(figure) {
    const valued = (trace) => trace.type === "heatmap" && /%\{(z|text)\b/.test(trace.hovertemplate || "");
    const maps = figure.data.map((trace, k) => valued(trace) ? matrix2(figure._fullData[k]) : null).filter((map) => map !== null && map.rows > 0 && map.columns > 0);
    return maps.length ? sideBySide(
      /** @type {Walked[]} */
      maps
    ) : null;
  }
  function matrix2(full) {
    const at3 = (grid, r, c) => Array.isArray(grid) && Array.isArray(grid[r]) ? grid[r][c] : void 0;
    const rows = full.z.length;
    const placed2 = (values, k) => typeof values[k] === "number" ? values[k] : k;
    const subplot = `${full.xaxis || "x"}${full.yaxis || "y"}`;
    return {
      rows,
      columns: rows ? full.z[0].length : 0,
      x: full.x,
      y: full.y,
      words: (r, c) => cellWords(String(full.hovertemplate), {
        x: full.x[c],
        y: full.y[r],
        z: full.z[r][c],
        text: at3(full.text, r, c),
        customdata: at3(full.customdata, r, c)
      }),
      place: (r, c) => [{ xval: placed2(full.x, c), yval: placed2(full.y, r) }, subplot]
    };
  }
  function sideBySide(maps) {
    if (maps.length === 1) return maps[0];
    const starts = maps.map((_, k) => maps.slice(0, k).reduce((sum, map) => sum + map.columns, 0));
    const which = (r, c) => {
      let k = starts.length - 1;
      while (k > 0 && starts[k] > c) k -= 1;
      return [maps[k], Math.min(r, maps[k].rows - 1), c - starts[k]];
    };
    return {
      rows: maps[0].rows,
      columns: starts[starts.length - 1] + maps[maps.length - 1].columns,
      y: maps[0].y,
      x: maps.flatMap((map) => Array.from(map.x)),
      words: (r, c) => {
        const [map, rr, cc] = which(r, c);
        return map.words(rr, cc);
      },
      place: (r, c) => {
        const [map, rr, cc] = which(r, c);
        return map.place(rr, cc);
      }
    };
  }
  function tiles(figure) {
    const paired = (trace) => trace.type === "scatter" && Array.isArray(trace.customdata) && Array.isArray(trace.customdata[0]) && trace.customdata[0].length === 2;
    const index = figure.data.findIndex(paired);
    if (index < 0) return null;
    const full = figure._fullData[index];
    const places = (
      /** @type {[number, number][]} */
      Array.from(full.customdata)
    );
    const rows = 1 + Math.max(...places.map(([r]) => r)), columns = 1 + Math.max(...places.map(([, c]) => c));
    const which = new Map(places.map(([r, c], k) => [`${r},${c}`, k]));
    const point = (r, c) => which.get(`${r},${c}`) ?? 0;
    return {
      rows,
      columns,
      x: Array.from({ length: columns }, (_, c) => c),
      y: Array.from({ length: rows }, (_, r) => r),
      words: (r, c) => cellWords(String(full.hovertemplate), {
        x: full.x[point(r, c)],
        y: full.y[point(r, c)],
        z: null,
        customdata: [r, c]
      }),
      place: (r, c) => [
        { xval: full.x[point(r, c)], yval: full.y[point(r, c)] },
        `${full.xaxis || "x"}${full.yaxis || "y"}`
      ]
    };
  }
  function walkable(figure, walk) {
    const undo = unwalk.get(figure);
    if (undo) undo();
    nameFigure(figure, walk.said);
    const map = heatmaps(
      /** @type {Drawn} */
      figure
    ) || tokenSides(
      /** @type {Drawn} */
      figure
    ) || tiles(
      /** @type {Drawn} */
      figure
    );
    if (!map) return null;
    const { rows, columns } = map;
    if (!rows || !columns) return null;
    let [row2, column] = walk.start || [0, 0];
    const id = figure.id || (figure.id = `grid-${Math.random().toString(36).slice(2)}`);
    const grid = document.createElement("div");
    grid.className = "visually-hidden";
    figure.append(grid);
    const drawing = figure.querySelector(".plot-container");
    if (drawing) drawing.setAttribute("aria-hidden", "true");
    figure.tabIndex = 0;
    figure.setAttribute("role", "grid");
    figure.setAttribute("aria-rowcount", String(rows + 1));
    figure.setAttribute("aria-colcount", String(columns + 1));
    const words3 = map.words;
    const cellId = (r, c) => `cell-${r}-${c}-of-${id}`;
    const rebuild = () => {
      const top = windowStart(row2, rows), left2 = windowStart(column, columns);
      const shownColumns = Array.from({ length: Math.min(WINDOW, columns) }, (_, k) => left2 + k);
      const header = line(1, [cell("columnheader", 1, ""), ...shownColumns.map((c) => cell("columnheader", c + 2, String(map.x[c])))]);
      const body = Array.from({ length: Math.min(WINDOW, rows) }, (_, k) => top + k).map((r) => line(r + 2, [
        cell("rowheader", 1, String(map.y[r])),
        ...shownColumns.map((c) => Object.assign(cell("gridcell", c + 2, words3(r, c)), { id: cellId(r, c) }))
      ]));
      grid.replaceChildren(header, ...body);
      figure.setAttribute("aria-activedescendant", cellId(row2, column));
    };
    const show3 = () => {
      rebuild();
      Plotly.Fx.hover(figure, ...map.place(row2, column));
      announce((map.said || words3)(row2, column));
    };
    const keyed3 = (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const to = moved(event.key, row2, column, rows, columns);
      if (to) {
        event.preventDefault();
        [row2, column] = to;
        show3();
      } else if ((event.key === "Enter" || event.key === " ") && walk.pick) {
        event.preventDefault();
        walk.pick(row2, column, map.target ? map.target(row2, column) : void 0);
      } else if (event.key === "Escape" && walk.close) {
        event.preventDefault();
        walk.close();
      }
    };
    const left = () => Plotly.Fx.unhover(figure);
    const focused = () => {
      if (figure.matches(":focus-visible")) show3();
    };
    figure.addEventListener("keydown", keyed3);
    figure.addEventListener("focus", focused);
    figure.addEventListener("blur", left);
    unwalk.set(figure, () => {
      figure.removeEventListener("keydown", keyed3);
      figure.removeEventListener("focus", focused);
      figure.removeEventListener("blur", left);
      grid.remove();
      if (drawing) drawing.removeAttribute("aria-hidden");
      for (const name of ["tabindex", "aria-rowcount", "aria-colcount", "aria-activedescendant"]) {
        figure.removeAttribute(name);
      }
      unwalk.delete(figure);
    });
    rebuild();
    if (walk.focus) figure.focus();
    return (r, c) => {
      [row2, column] = [r, c];
      show3();
    };
  }
  function line(index, cells) {
    const row2 = document.createElement("div");
    row2.setAttribute("role", "row");
    row2.setAttribute("aria-rowindex", String(index));
    row2.append(...cells);
    return row2;
  }
  function cell(role, index, text) {
    const node = document.createElement("div");
    node.setAttribute("role", role);
    node.setAttribute("aria-colindex", String(index));
    node.textContent = text;
    return node;
  }

  // src/plot.js
  var FONT_FAMILY = '"Source Sans", sans-serif';
  function plot(div, figure, walk = {}) {
    const site8 = window.BVL_SITE, given = figure.layout;
    const size = given.font && given.font.size || site8.style.font;
    const title = (
      /** @type {Title | undefined} */
      given.title
    );
    const titleSize = title && title.font && title.font.size || Math.round(size * 1.1);
    const layout = {
      ...given,
      font: { family: FONT_FAMILY, ...given.font || {} },
      title: title && { ...title, font: { size: titleSize, ...title.font || {} } }
    };
    for (const name of Object.keys(layout).filter((k) => /^[xy]axis\d*$/.test(k))) {
      layout[name] = { automargin: true, ...layout[name] };
    }
    if (title && title.yanchor === "top" && title.yref === "container") {
      layout.title.pad = { ...title.pad || {}, t: (title.pad && title.pad.t || 0) + Math.round(titleSize / 2) };
    }
    if (figure.template) layout.template = site8.templates[figure.template];
    return Plotly.newPlot(div, figure.data, layout, { displaylogo: false, displayModeBar: false, responsive: true }).then((drawn3) => {
      walkable(div, walk);
      return drawn3;
    });
  }

  // src/page.js
  function eachScreen(make) {
    const made = {};
    const get2 = (screen2) => screen2 in made ? (
      /** @type {T} */
      made[screen2]
    ) : made[screen2] = make(screen2);
    return {
      get browse() {
        return get2("browse");
      },
      get lecture() {
        return get2("lecture");
      },
      get phone() {
        return get2("phone");
      }
    };
  }
  function site() {
    return window.BVL_SITE;
  }
  function element(tag, text, attributes) {
    const node = document.createElement(tag);
    if (text !== void 0 && text !== null) node.textContent = String(text);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    return node;
  }
  function route() {
    const address2 = location.hash.replace(/^#\/?/, "");
    const cut2 = address2.indexOf("?");
    const [page2, query] = cut2 < 0 ? [address2, ""] : [address2.slice(0, cut2), address2.slice(cut2 + 1)];
    let name = page2;
    try {
      name = decodeURIComponent(page2);
    } catch {
    }
    return { page: name, keys: new URLSearchParams(query) };
  }
  function link(page2, keys) {
    const here = route().keys;
    const kept = Object.fromEntries(["ask", "hall"].filter((k) => here.has(k)).map((k) => [k, here.get(k) || ""]));
    const query = new URLSearchParams({ ...keys || {}, ...kept, ...lectureMode() ? { lecture: "1" } : {} }).toString();
    return "#/" + page2 + (query ? "?" + query : "");
  }
  var PHONE_PX = 640;
  function lectureMode() {
    return route().keys.get("lecture") === "1";
  }
  function chosen(keys, view) {
    const text = keys.get("text");
    if (text === null) return site().sentences[0];
    const pair = (keys.get("pair") || "").trim() || null;
    const found = site().sentences.find((s) => s.text === text.trim() && (s.pair || null) === pair);
    if (!found) cannot(view, worded("not_held", { count: exported().length, named: named({ text, pair }) }));
    return found;
  }
  function sentenceKeys(s) {
    return { text: s.text, ...s.pair ? { pair: s.pair } : {} };
  }
  function named(s) {
    return s.pair ? `${s.text} | ${s.pair}` : s.text;
  }
  function drawn(view, figure, id) {
    const div = element("div", void 0, { class: "figure", id });
    view.append(div);
    plot(div, figure[screen()]);
    return div;
  }
  function screen() {
    return window.innerWidth < PHONE_PX ? "phone" : lectureMode() ? "lecture" : "browse";
  }
  function paragraph(markdown) {
    const p = element("p");
    markdown.split("**").forEach((part, i) => p.append(i % 2 ? element("strong", part) : document.createTextNode(part)));
    return p;
  }
  function chips(s) {
    const box2 = element("div", void 0, { class: "chips" });
    s.tokens.forEach((token, i) => {
      const chip = element("span", token, {
        class: `chip ${s.sentences[i]}`,
        title: worded("chip", { position: i, id: s.ids[i] })
      });
      chip.append(element("small", `${i} · ${s.ids[i]}`));
      box2.append(chip);
    });
    return box2;
  }
  function failed(view, title, error) {
    console.error(error.stack || error);
    view.replaceChildren(element("h1", title), element("p", error.message, { class: "note", "data-error": "" }));
  }
  function said(template, values = {}) {
    return template.replace(/\{(\w+)(?::([^{}]*))?\}/g, (_, key, spec) => {
      if (!(key in values)) throw new Error(`The template "${template}" names {${key}}, which was not given.`);
      return formatted(values[key], spec);
    });
  }
  function capitalized(text) {
    return text ? `${text[0].toUpperCase()}${text.slice(1)}` : text;
  }
  function worded(name, values = {}) {
    const template = site().words[name];
    if (typeof template !== "string") throw new Error(`The site's data has no words "${name}": write the site again.`);
    return said(template, values);
  }
  function cannot(view, why) {
    view.append(element("h1", worded("not_in_site")));
    listed(view, why);
  }
  function exported() {
    return site().sentences.filter((s) => !s.live);
  }
  function listed(view, why) {
    view.append(element("p", why));
    const list = element("div", void 0, { class: "sentences" });
    for (const s of exported()) list.append(element("a", named(s), { href: link("tokens", sentenceKeys(s)) }));
    list.append(element("a", worded("overview_link"), { href: link("overview") }));
    view.append(list);
  }

  // src/activations.js
  function erf(x) {
    const a = Math.abs(x);
    if (a < 2.5) {
      let term = a, total = a;
      for (let n = 1; n < 80; n++) {
        term *= -a * a / n;
        total += term / (2 * n + 1);
      }
      return Math.sign(x) * total * 2 / Math.sqrt(Math.PI);
    }
    let fraction = a;
    for (let n = 60; n >= 1; n--) fraction = a + n / 2 / fraction;
    return Math.sign(x) * (1 - Math.exp(-a * a) / (Math.sqrt(Math.PI) * fraction));
  }
  var tanhGelu = (x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
  var FUNCTIONS = {
    gelu: (x) => 0.5 * x * (1 + erf(x / Math.SQRT2)),
    gelu_new: tanhGelu,
    gelu_fast: tanhGelu,
    gelu_pytorch_tanh: tanhGelu,
    quick_gelu: (x) => x / (1 + Math.exp(-1.702 * x)),
    silu: (x) => x / (1 + Math.exp(-x)),
    swish: (x) => x / (1 + Math.exp(-x)),
    relu: (x) => Math.max(0, x),
    tanh: Math.tanh
  };
  function activation(name) {
    const f = FUNCTIONS[name];
    if (!f) throw new Error(`The site cannot compute ${name} in the browser: the app explains this cell.`);
    return f;
  }

  // src/recipe.js
  function wordsOf(tree, found = /* @__PURE__ */ new Set()) {
    if (Array.isArray(tree)) {
      if (typeof tree[0] === "string") found.add(tree[0]);
      tree.forEach((t) => wordsOf(t, found));
    }
    return found;
  }
  function bound(lets, cell2) {
    const env = {};
    for (const [name, tree] of lets) env[name] = evaluate(tree, cell2, env);
    return env;
  }
  function workedOut(recipe, cell2) {
    const env = bound(recipe.let, cell2);
    const terms = [];
    for (const [label, tree] of recipe.terms) {
      const value = evaluate(tree, cell2, env);
      if (value === null) continue;
      if (isArray(value)) {
        Array.from(value.data).forEach((v, k) => terms.push([labelled(label, cell2, { ...env, k }), v]));
      } else {
        terms.push([String(typeof label === "string" ? label : evaluate(label, cell2, env)), number(value)]);
      }
    }
    env.terms_sum = exactSum(terms.map(([, v]) => v));
    const recomputed = recipe.value === null ? env.terms_sum : number(evaluate(recipe.value, cell2, env));
    const named3 = (trees) => Object.fromEntries(Object.entries(trees).map(([k, t]) => [k, plain2(evaluate(t, cell2, env))]).filter(([, v]) => v !== null));
    return {
      formula: String(evaluate(recipe.formula, cell2, env)),
      inputs: named3(recipe.inputs),
      recomputed,
      terms,
      labels: named3(recipe.labels),
      figure: named3(recipe.figure)
    };
  }
  function toldOf(telling, context) {
    const s = (
      /** @type {any} */
      context
    );
    const env = bound(telling.let, s);
    return telling.sentences.map((tree) => evaluate(tree, s, env)).filter((v) => v !== null).map(String);
  }
  function toldOver(telling, names) {
    const env = boundIn(telling.let, null, names);
    return telling.sentences.map((tree) => evaluate(
      tree,
      /** @type {any} */
      null,
      env
    )).filter((v) => v !== null).map(String);
  }
  function boundIn(lets, context, names = {}) {
    const env = { ...names };
    for (const [name, tree] of lets) env[name] = evaluate(
      tree,
      /** @type {any} */
      context,
      env
    );
    return env;
  }
  function evaluatedIn(tree, context, env) {
    return evaluate(
      tree,
      /** @type {any} */
      context,
      env
    );
  }
  function labelled(label, cell2, env) {
    return String(typeof label === "string" ? said(label, env) : evaluate(label, cell2, env));
  }
  function indexed(array, index) {
    const strides = array.shape.map((_, axis) => array.shape.slice(axis + 1).reduce((a, b) => a * b, 1));
    let base = 0;
    const kept = [];
    array.shape.forEach((size, axis) => {
      const i = axis < index.length ? index[axis] : null;
      if (i === null || i === void 0) kept.push(axis);
      else {
        if (!(i >= 0 && i < size)) throw new Error(`The index ${i} is outside an axis of ${size}.`);
        base += i * strides[axis];
      }
    });
    if (!kept.length) return array.data[base];
    const shape = kept.map((axis) => array.shape[axis]), total = shape.reduce((a, b) => a * b, 1);
    const data = new Float64Array(total);
    for (let n = 0; n < total; n++) {
      let rest = n, at3 = base;
      for (let k = kept.length - 1; k >= 0; k--) {
        at3 += rest % shape[k] * strides[kept[k]];
        rest = Math.floor(rest / shape[k]);
      }
      data[n] = array.data[at3];
    }
    return { shape, data };
  }
  var modulo = (a, b) => (a % b + b) % b;
  var ARITHMETIC = {
    "+": (a, b) => a + b,
    "-": (a, b) => a - b,
    "*": (a, b) => a * b,
    "/": (a, b) => a / b,
    "//": (a, b) => Math.floor(a / b),
    "%": modulo,
    "<": (a, b) => a < b,
    "<=": (a, b) => a <= b,
    "==": (a, b) => a === b,
    "!=": (a, b) => a !== b,
    min: Math.min,
    max: Math.max,
    abs: Math.abs,
    exp: Math.exp,
    sqrt: Math.sqrt,
    cos: Math.cos,
    sin: Math.sin,
    log: Math.log,
    log10: Math.log10,
    floor: Math.floor,
    ceil: Math.ceil,
    f32: Math.fround
  };
  var WORDS = {
    at_index: (c, k) => c.at[k],
    rank: (c) => c.at.length,
    head: (c) => c.head,
    step: (c) => c.array,
    input: (c, k) => c.input(k),
    source: (c, name) => c.source(name),
    input_name: (c, k) => c.node.inputs[k],
    attr: (c, name, otherwise) => (
      /** @type {Value} */
      c.node.attrs?.[name] ?? otherwise
    ),
    module: (c) => c.node.module ?? null,
    weight: (c, part) => (part === "bias" ? c.module.bias : c.module.weight) ?? null,
    eps: (c) => c.module.eps ?? null,
    function: (c) => c.module.function ?? null,
    buffer: (c, name) => (
      /** @type {NonNullable<ModuleNumbers["buffer"]>} */
      c.module.buffer(name)
    ),
    ids: (c, name) => vector(c.ids[name]),
    table_row: (c, id) => (
      /** @type {NonNullable<ModuleNumbers["tableRow"]>} */
      c.module.tableRow(id)
    ),
    cache: (c, name) => c.step(name),
    token: (c, i) => c.token(i),
    token_text: (c, i) => c.tokens[i],
    row: (c, i, of) => c.row(i, of ?? void 0),
    mask_bias: (c, i, j) => c.visible(i, j) ? 0 : FLOAT32_MIN,
    head_name: (c, h, heads, count) => headName(h, heads, count),
    act: (c, x) => elementwise(activation(String(WORDS.function(c))), [x]),
    linspace: (c, a, b, n) => {
      const step = (b - a) / (n - 1), xs = Array.from({ length: n }, (_, k) => a + k * step);
      xs[n - 1] = b;
      return vector(xs);
    },
    clip: (c, x, low, high) => elementwise((v) => Math.min(Math.max(v, low), high), [x]),
    sum: (c, v) => numbersOf(v).reduce((a, b) => a + b, 0),
    fsum: (c, v) => exactSum(numbersOf(v)),
    mean: (c, v) => numbersOf(v).reduce((a, b) => a + b, 0) / numbersOf(v).length,
    dot: (c, u, v) => {
      const a = numbersOf(u), b = numbersOf(v);
      return a.reduce((s, x, k) => s + x * b[k], 0);
    },
    max_of: (c, v) => numbersOf(v).reduce((a, b) => Math.max(a, b), -Infinity),
    // (not Math.max(...): 512² numbers
    // would pass the engine's limit on a call's arguments)
    len: (c, v) => isArray(v) ? v.shape[0] : Array.isArray(v) ? v.length : Array.from(String(v)).length,
    str: (c, x) => String(x),
    int: (c, x) => Math.trunc(x),
    list: (c, ...items) => vector(items),
    in: (c, x, items) => numbersOf(items).includes(x),
    zeroed: (c, values, tokens2) => {
      const out = vector(numbersOf(values));
      numbersOf(tokens2).forEach((t) => {
        out.data[t] = 0;
      });
      return out;
    }
  };
  function first(values, allowed, sign) {
    const v = numbersOf(values), ok = allowed === void 0 || allowed === null ? null : numbersOf(allowed);
    const at3 = (k) => ok && !ok[k] ? -Infinity : sign * v[k];
    let best = 0;
    for (let k = 1; k < v.length; k++) if (at3(k) > at3(best)) best = k;
    return best;
  }
  var STEP_WORDS = {
    // what a tour chapter's step reads
    mine: (s) => s.mine,
    chosen: (s) => s.chosen,
    where: (s) => s.where,
    heads: (s) => s.heads,
    length: (s) => s.length,
    tok: (s, i) => s.tok(i),
    cosines: (s) => (
      /** @type {any} */
      s.cosines
    ),
    lengths: (s) => (
      /** @type {any} */
      s.lengths
    )
    // the residual
    // stream's chapter's (tour/narration.py Stream)
  };
  var VECTOR_WORDS = {
    // what a narrator finds in a row or a step
    argmax: (c, v, allowed) => first(v, allowed, 1),
    argmin: (c, v, allowed) => first(v, allowed, -1),
    top: (c, v, k) => vector(numbersOf(v).map((x, j) => [x, j]).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, k).map(([, j]) => j)),
    seen: (c, v) => elementwise((x) => Number.isFinite(x) && x > MASKED_BELOW, [v]),
    std: (c, v) => {
      const x = numbersOf(v), mean = x.reduce((a, b) => a + b, 0) / x.length;
      return Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / x.length);
    },
    norm: (c, v) => norm(numbersOf(v)),
    size: (c, v) => numbersOf(v).length,
    ndim: (c, v) => isArray(v) ? v.shape.length : 0,
    flat: (c, v) => vector(numbersOf(v)),
    min_of: (c, v) => numbersOf(v).reduce((a, b) => Math.min(a, b), Infinity),
    finite: (c, v) => {
      const seen = numbersOf(v).filter(Number.isFinite);
      return vector(seen.length ? seen : [0]);
    },
    width: (c, v) => (
      /** @type {Unpacked} */
      v.shape.at(-1) ?? 1
    ),
    shape_text: (c, v) => {
      const shape = isArray(v) ? v.shape : [];
      return `(${shape.join(", ")}${shape.length === 1 ? "," : ""})`;
    }
  };
  function valueOf(tree, names) {
    return plain2(valueIn(tree, names));
  }
  function valueIn(tree, names) {
    return evaluate(
      tree,
      /** @type {any} */
      null,
      names
    );
  }
  function evaluate(tree, cell2, env) {
    if (!Array.isArray(tree)) return tree;
    const [word, ...args] = (
      /** @type {[string, ...Tree[]]} */
      tree
    );
    if (word === "if") return evaluate(evaluate(args[0], cell2, env) ? args[1] : args[2], cell2, env);
    if (word === "fmt") {
      const given = (
        /** @type {Record<string, Tree>} */
        /** @type {unknown} */
        args[1] ?? {}
      );
      const fields = Object.fromEntries(Object.entries(given).map(([k, t]) => [k, evaluate(t, cell2, env)]));
      return said(String(args[0]), { ...env, ...fields });
    }
    if (word === "joined") {
      const items = numbersOf(evaluate(args[1], cell2, env));
      return items.map((k) => String(evaluate(args[2], cell2, { ...env, k }))).join(String(evaluate(args[0], cell2, env)));
    }
    if (word === "each") {
      return asValue(numbersOf(evaluate(args[0], cell2, env)).map((k) => evaluate(args[1], cell2, { ...env, k })));
    }
    if (word === "v") return env[String(args[0])];
    if (word === "quote") return (
      /** @type {Value} */
      structuredClone(args[0])
    );
    if (word === "terms_sum") return env.terms_sum;
    const values = args.map((a) => evaluate(a, cell2, env));
    if (word === "at") {
      const [array, ...index] = values;
      if (Array.isArray(array)) return (
        /** @type {Value} */
        array[Number(index[0])]
      );
      return array === null ? null : indexed(
        /** @type {Unpacked} */
        array,
        /** @type {(number | null)[]} */
        index
      );
    }
    if (word === "+" && values.some((v) => typeof v === "string")) return values.map(String).join("");
    if (word in ARITHMETIC) return elementwise(ARITHMETIC[word], values);
    const meaning = WORDS[word] ?? STEP_WORDS[word] ?? VECTOR_WORDS[word] ?? FIGURE_WORDS[word];
    if (!meaning) throw new Error(`A recipe uses "${word}", which this site does not know: write the site again.`);
    return meaning(cell2, ...values);
  }

  // src/explain.js
  async function moduleNumbers(lecture2, module, words3) {
    if (!module) return {};
    const small = lecture2.model.parameters[module];
    const numbers = {
      buffer: (name) => (
        /** @type {import("./numbers.js").Unpacked} */
        lecture2.parameter(`${module}.${name}`)
      )
    };
    if (small && !small.shape) Object.assign(numbers, lecture2.parameter(module));
    if (words3.has("weight") && !(small && "weight" in small)) Object.assign(numbers, await lecture2.weights(module));
    if (words3.has("table_row")) {
      const table = await lecture2.tableRows(module);
      numbers.tableRow = (id) => at(table.rows, table.ids.indexOf(id));
    }
    return numbers;
  }
  function recipeCell(lecture2, cell2, module) {
    const window2 = cell2.attrs.window;
    return {
      at: cell2.at,
      head: cell2.head,
      node: cell2.node,
      array: cell2.array,
      module,
      tokens: lecture2.tokens,
      ids: lecture2.ids,
      input: (k) => cell2.input(k),
      source: (name) => cell2.source(name),
      token: (i) => cell2.token(i),
      row: (i, of) => cell2.row(i, of),
      step: (name) => lecture2.array(name),
      visible: (i, j) => lecture2.mask[j] === 1 && (window2 === void 0 || window2 === null || Math.abs(i - j) <= window2)
    };
  }
  async function explain(lecture2, step, head, at3) {
    const found = findStep(lecture2.model, step);
    if (!found) throw new Error(`This site has no step ${step}.`);
    const [block, node] = found;
    await lecture2.block(partOf(step));
    const array = lecture2.array(step);
    const shape = node.headed ? array.shape.slice(1) : array.shape;
    const chosen3 = node.headed ? head ?? 0 : null;
    if (chosen3 !== null && !(chosen3 >= 0 && chosen3 < array.shape[0])) {
      throw new Error(`There is no head ${chosen3} in ${step}.`);
    }
    if (at3.length !== shape.length || at3.some((v, k) => !(Number.isInteger(v) && v >= 0 && v < shape[k]))) {
      const names = axisNames(node, shape.length).map((n, k) => `${n} 0–${shape[k] - 1}`).join(", ");
      throw new Error(`The cell ${at3.join(",")} is not one of this step's (${names}).`);
    }
    const cell2 = new Cell(lecture2, block, node, chosen3, at3);
    const op2 = lecture2.model.ops[node.op];
    const explained2 = {
      step,
      title: node.title,
      head: chosen3,
      at: at3,
      value: cell2.value,
      op: node.op,
      drawn_as: op2.drawn_as
    };
    if (node.recipe === null || node.recipe === void 0) {
      return { ...explained2, ...storedNumber(cell2, op2.meaning) };
    }
    const recipe = lecture2.model.recipes[node.recipe];
    const numbers = await moduleNumbers(lecture2, node.module, wordsOf(
      /** @type {any} */
      Object.values(recipe)
    ));
    return { ...explained2, ...workedOut(recipe, recipeCell(lecture2, cell2, numbers)) };
  }
  function storedNumber(cell2, meaning) {
    const tokens2 = cell2.lecture.tokens.length, shape = cell2.array.shape;
    const pair = cell2.at.length === 2 && shape[shape.length - 1] === tokens2 && shape[shape.length - 2] === tokens2;
    const [i, j] = cell2.at;
    const inputs = pair ? { "query position": i, "key position": j, "i - j": i - j } : {};
    return { formula: `${meaning}: ${num(cell2.value)}`, inputs, recomputed: null, terms: [], labels: {}, figure: {} };
  }

  // src/template.js
  function filled(template, names) {
    const figure = structuredClone(template.figure);
    const bound2 = { ...names };
    for (const [name, tree] of template.lets ?? []) bound2[name] = valueIn(tree, bound2);
    for (const [path, tree] of template.fills) placed(figure, path, valueOf(tree, bound2));
    const dropped = template.drops.filter(([, tree]) => valueOf(tree, bound2)).map(([path]) => path);
    dropped.sort((a, b) => later(b, a));
    for (const path of dropped) {
      const part = at2(figure, path.slice(0, -1)), key = path.at(-1);
      if (Array.isArray(part)) part.splice(Number(key), 1);
      else delete part[String(key)];
      if (!Object.keys(part).length) delete at2(figure, path.slice(0, -2))[String(path.at(-2))];
    }
    return figure;
  }
  function later(a, b) {
    for (let k = 0; k < Math.min(a.length, b.length); k++) {
      if (a[k] !== b[k]) return typeof a[k] === "number" ? Number(a[k]) - Number(b[k]) : String(a[k]) < String(b[k]) ? -1 : 1;
    }
    return a.length - b.length;
  }
  function at2(figure, path) {
    return path.reduce((part, key) => part[key], figure);
  }
  function placed(figure, path, value) {
    const parent = path.slice(0, -1).reduce((part, key) => part[key] ?? (part[key] = {}), figure);
    parent[
      /** @type {string | number} */
      path.at(-1)
    ] = value;
  }

  // src/explanation_figure.js
  var named2 = (value) => Array.isArray(value) && value.every((x) => typeof x === "number") ? vector(value) : (
    /** @type {Value} */
    value
  );
  function namesOf(e, tokens2) {
    const given = Object.entries({ ...e.inputs, ...e.figure }).map(([k, v]) => [k, named2(v)]);
    return {
      ...Object.fromEntries(given),
      labels: e.terms.map(([label]) => label),
      values: vector(e.terms.map(([, v]) => v)),
      value: e.value,
      cell: vector(e.at),
      tokens: tokens2
    };
  }
  function explanationFigure(e, tokens2, screen2) {
    const kind = (
      /** @type {Record<string, Kind>} */
      window.BVL_SITE.views.explanations[e.drawn_as ?? ""]
    );
    if (!kind) return null;
    const names = namesOf(e, tokens2);
    if (kind.needs.some((name) => names[name] === void 0 || names[name] === null)) return null;
    return valueOf(kind.drawn, names) ? filled(kind[screen2], names) : null;
  }

  // src/model_parts.js
  var live = window.BVL_SITE.live;
  var NOT_LIVE = "This site was written without --live: it holds no model files.";
  var CACHE = `bertviz-lite-live:${location.pathname}`;
  var address = (part) => `${part.path}?${part.hash}`;
  var everyPart = () => live ? [live.model.graph, ...live.model.data, ...live.runtime.wasm] : [];
  var weightFiles = (at3) => {
    if (!live) throw new Error(NOT_LIVE);
    return at3.in === "extra" ? live.extra : live.model.data;
  };
  function cache() {
    return window.caches ? caches.open(CACHE).catch(() => null) : Promise.resolve(null);
  }
  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  async function checked(part, response) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    const hash = window.crypto && crypto.subtle ? hex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 16) : null;
    if (bytes.length !== part.bytes || hash !== null && hash !== part.hash) {
      throw new Error(`The site's ${part.path} is not the file it was exported with (${bytes.length} bytes where ${part.bytes} were written): the host may have changed it. Export the site again.`);
    }
    return bytes;
  }
  async function partBytes(part, kept) {
    const found = kept && await kept.match(address(part));
    if (found) return new Uint8Array(await found.arrayBuffer());
    const response = await fetch(address(part));
    if (!response.ok) throw new Error(`The site could not read ${part.path} (${response.status}).`);
    const bytes = await checked(part, response);
    if (kept) await kept.put(address(part), new Response(bytes)).catch(() => null);
    return bytes;
  }
  async function fetched(parts, done) {
    const kept = await cache();
    const read2 = await Promise.all(parts.map(async (part) => {
      const bytes = await partBytes(part, kept);
      done(bytes.length);
      return bytes;
    }));
    if (read2.length === 1) return read2[0];
    const whole = new Uint8Array(read2.reduce((n, b) => n + b.length, 0));
    read2.reduce((at3, b) => {
      whole.set(b, at3);
      return at3 + b.length;
    }, 0);
    return whole;
  }
  async function cachedAlready() {
    const kept = await cache();
    return kept !== null && (await Promise.all(everyPart().map((p) => kept.match(address(p))))).every(Boolean);
  }
  async function forgetOthers() {
    const kept = await cache();
    if (!kept) return;
    if (!live) throw new Error(NOT_LIVE);
    const current = new Set([...everyPart(), ...live.extra].map((p) => new URL(address(p), location.href).href));
    for (const request of await kept.keys()) if (!current.has(request.url)) await kept.delete(request);
  }
  function partsOver(parts, start3, length) {
    let at3 = 0;
    return parts.map((part) => {
      const begins = at3;
      at3 += part.bytes;
      return { part, begins };
    }).filter(({ part, begins }) => begins < start3 + length && begins + part.bytes > start3);
  }
  function reader() {
    const read2 = /* @__PURE__ */ new Map();
    return async (part) => {
      let bytes = read2.get(part.path);
      if (!bytes) {
        bytes = cache().then((kept) => partBytes(part, kept));
        read2.set(part.path, bytes);
      }
      return bytes;
    };
  }
  async function bytesAt(parts, start3, length, read2) {
    const out = new Uint8Array(length);
    for (const { part, begins } of partsOver(parts, start3, length)) {
      const bytes = await read2(part);
      const from = Math.max(start3, begins), to = Math.min(start3 + length, begins + part.bytes);
      out.set(bytes.subarray(from - begins, to - begins), from - start3);
    }
    return out;
  }
  function forgotten(promise, drop) {
    promise.catch(drop);
    return promise;
  }
  var WEIGHTS_KEPT = 8;
  var weightsRead = /* @__PURE__ */ new Map();
  function stored(module, kind) {
    if (!live) throw new Error(NOT_LIVE);
    const at3 = (live.weights[module] || {})[kind];
    if (!at3) return Promise.resolve(null);
    const key = `${module}/${kind}`;
    const kept = weightsRead.get(key);
    if (kept) {
      weightsRead.delete(key);
      weightsRead.set(key, kept);
      return kept;
    }
    const count = at3.shape.reduce((n, k) => n * k, 1);
    const read2 = bytesAt(weightFiles(at3), at3.offset, 4 * count, reader()).then((bytes) => ({ shape: at3.shape, data: new Float32Array(bytes.buffer) }));
    weightsRead.set(key, forgotten(read2, () => weightsRead.delete(key)));
    const oldest = weightsRead.keys().next().value;
    if (weightsRead.size > WEIGHTS_KEPT && oldest !== void 0) weightsRead.delete(oldest);
    return read2;
  }
  async function tableRows(module, ids) {
    if (!live) throw new Error(NOT_LIVE);
    const table = live.weights[module].weight;
    if (!table) throw new Error(`The site's live folder holds no weight of ${module}.`);
    const width = table.shape[1], read2 = reader();
    const wanted2 = [...new Set(ids)].sort((x, y) => x - y);
    const data = new Float32Array(wanted2.length * width);
    for (const [k, id] of wanted2.entries()) {
      const bytes = await bytesAt(weightFiles(table), table.offset + 4 * id * width, 4 * width, read2);
      data.set(new Float32Array(bytes.buffer), k * width);
    }
    return { ids: wanted2, rows: { shape: [wanted2.length, width], data } };
  }

  // src/tokenizing.js
  var live2 = window.BVL_SITE.live;
  var NOT_LIVE2 = "This site was written without --live: it holds no tokenizer.";
  var reading = null;
  function read(address2) {
    return fetch(address2).then((r) => {
      if (!r.ok) throw new Error(`The site could not read ${address2} (${r.status}).`);
      return r.json();
    });
  }
  function tokenizer() {
    if (!live2) throw new Error(NOT_LIVE2);
    reading = reading || Promise.all([
      import(new URL(live2.tokenizer.module, location.href).href),
      read(live2.tokenizer.json),
      live2.tokenizer.readable ? read(live2.tokenizer.readable) : {}
    ]).then(([{ Tokenizer }, json, readable]) => Object.assign(
      new Tokenizer(json, live2.tokenizer.config),
      { readable, words: wordSplitter(json) }
    )).catch((error) => {
      reading = null;
      throw error;
    });
    return reading;
  }
  function wordSplitter(json) {
    const parts = (p) => !p ? [] : p.type === "Sequence" ? (
      /** @type {SequenceJson} */
      p.pretokenizers.flatMap(parts)
    ) : [p];
    const space = (
      /** @type {MetaspaceJson | undefined} */
      parts(json.pre_tokenizer).find((p) => p.type === "Metaspace" && p.split !== false)
    );
    if (!space) return (word) => [word];
    const before = new RegExp(`(?=${space.replacement.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})`, "u");
    return (word) => word.split(before).filter(Boolean);
  }
  function wordsOf2(t, text) {
    if (t.do_lowercase_and_remove_accent) return t.encode_text(text).map((piece) => [piece]);
    const stripped = (parts) => {
      parts.forEach((part, k) => {
        const added = t.added_tokens_map.get(part);
        if (added && added.lstrip && k > 0) parts[k - 1] = parts[k - 1].trimEnd();
        if (added && added.rstrip && k < parts.length - 1) parts[k + 1] = parts[k + 1].trimStart();
      });
      return parts;
    };
    return stripped(t.splitter_unnormalized.split(text)).flatMap((section2, index) => {
      if (!section2.length) return [];
      if (t.added_tokens_map.has(section2)) return [[section2]];
      let normal = t.remove_space === true ? section2.trim().split(/\s+/).join(" ") : section2;
      if (t.normalizer !== null) normal = t.normalizer(normal);
      if (!normal.length) return [];
      return stripped(t.splitter_normalized.split(normal)).flatMap((part) => {
        if (!part.length) return [];
        if (t.added_tokens_map.has(part)) return [[part]];
        const words3 = (t.pre_tokenizer !== null ? t.pre_tokenizer(part, { section_index: index }) : [part]).flatMap(t.words);
        return words3.map((word) => t.model([word])).filter((pieces) => pieces.length);
      });
    });
  }
  function longestFirst(a, b, room) {
    if (b === null) return [Math.min(a, room), null];
    if (a + b <= room) return [a, b];
    const swap = a > b;
    let [short, long] = swap ? [b, a] : [a, b];
    long = short > room ? short : Math.max(short, room - short);
    if (short + long > room) {
      short = Math.floor(room / 2);
      long = short + room % 2;
    }
    return swap ? [long, short] : [short, long];
  }
  var marks = (n, letter) => Array.from({ length: n }, (_, i) => `\0${letter}${i}`);
  function encoded(t, text, pair, most) {
    if (!live2) throw new Error(NOT_LIVE2);
    const wordsA = wordsOf2(t, text), wordsB = pair ? wordsOf2(t, pair) : null;
    const a = wordsA.flat(), b = wordsB && wordsB.flat();
    const later2 = (words3) => words3.flatMap((pieces) => pieces.map((_, k) => k > 0));
    const goesOn = { A: later2(wordsA), B: wordsB ? later2(wordsB) : [] };
    const processor = t.post_processor;
    const specials = processor ? processor([], b ? [] : null).tokens.length : 0;
    const [n1, n2] = longestFirst(a.length, b ? b.length : null, (most || live2.max_tokens) - specials);
    const placed2 = processor ? processor(marks(n1, "A"), b ? marks(n2 ?? 0, "B") : null) : { tokens: [...marks(n1, "A"), ...b ? marks(n2 ?? 0, "B") : []] };
    const own = { A: a, B: b || [] };
    const sentences = placed2.tokens.map((p) => p[0] === "\0" ? p[1] : "special");
    const tokens2 = placed2.tokens.map((p) => p[0] === "\0" ? own[p[1]][Number(p.slice(2))] : p);
    const ids = tokens2.map((p) => {
      const id = t.added_tokens_map.get(p)?.id ?? t.model.tokens_to_ids.get(p) ?? t.model.unk_token_id;
      if (id === void 0) throw new Error(`The tokenizer has no id for "${p}", and no unknown token.`);
      return id;
    });
    const shown2 = tokens2.map((p) => Object.hasOwn(t.readable, p) ? t.readable[p] : p);
    const types = placed2.token_type_ids || sentences.map((s) => s === "B" ? 1 : 0);
    const continues = placed2.tokens.map((p) => p[0] === "\0" && goesOn[p[1]][Number(p.slice(2))]);
    return {
      tokens: shown2,
      ids,
      sentences,
      types,
      continues,
      dropped: a.length + (b ? b.length : 0) + specials - tokens2.length
    };
  }
  async function tokenized(text, pair) {
    return encoded(await tokenizer(), text, pair || null);
  }

  // src/running.js
  var live3 = window.BVL_SITE.live;
  var NOT_LIVE3 = "This site was written without --live: it runs no model in this browser.";
  var MB = (bytes) => (bytes / 1e6).toFixed(0);
  var starting = null;
  function begun() {
    return starting !== null;
  }
  var runtimeRead = null;
  function runtime(done) {
    runtimeRead = runtimeRead || forgotten((async () => {
      if (!live3) throw new Error(NOT_LIVE3);
      const [wasm] = await Promise.all([fetched(live3.runtime.wasm, done), script(live3.runtime.script)]);
      const ort = window.ort;
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.wasmPaths = { mjs: new URL(live3.runtime.module, location.href).href };
      ort.env.wasm.wasmBinary = wasm;
      return ort;
    })(), () => {
      runtimeRead = null;
    });
    return runtimeRead;
  }
  async function newSession(graph, externalData = [], done = () => null) {
    const ort = await runtime(done);
    const session2 = await ort.InferenceSession.create(graph, { executionProviders: ["wasm"], externalData });
    ort.env.wasm.wasmBinary = void 0;
    return session2;
  }
  function start(progress) {
    starting = starting || forgotten((async () => {
      if (!live3) throw new Error(NOT_LIVE3);
      const total = live3.model.bytes + live3.runtime.bytes;
      let got = 0;
      const done = (n) => {
        got += n;
        progress(worded("fetching", { got: MB(got), total: MB(total) }));
      };
      forgetOthers().catch(() => null);
      const [tokenizer2, graph, weights] = await Promise.all([
        tokenizer(),
        fetched([live3.model.graph], done),
        fetched(live3.model.data, done),
        runtime(done)
      ]);
      progress(worded("starting"));
      const session2 = await newSession(graph, [{ path: live3.model.data_name, data: weights }]);
      return { tokenizer: tokenizer2, session: session2 };
    })(), () => {
      starting = null;
    });
    return starting;
  }
  function tokenTypes(types) {
    if (!live3) throw new Error(NOT_LIVE3);
    const rows = live3.token_types.rows, most = Math.max(...types);
    if (rows === null || most < rows) return types;
    if (live3.token_types.zero_past_rows) return types.map(() => 0);
    throw new Error(said(live3.words.types_refused, { type: most, rows }));
  }
  function asArray(tensor) {
    const data = tensor.data instanceof BigInt64Array ? Int32Array.from(tensor.data, Number) : tensor.data;
    return { shape: tensor.dims.slice(), data };
  }
  async function run(text, pair, progress, most, only) {
    const { tokenizer: tokenizer2, session: session2 } = await start(progress);
    progress(worded("computing"));
    const e = encoded(tokenizer2, text, pair, most);
    const types = tokenTypes(e.types);
    const tensor = (values) => new window.ort.Tensor("int64", BigInt64Array.from(values, BigInt), [values.length]);
    const feeds = { input_ids: tensor(e.ids), token_type_ids: tensor(types), attention_mask: tensor(e.ids.map(() => 1)) };
    const outputs = await (only ? session2.run(feeds, only) : session2.run(feeds));
    return { e, types, arrays: Object.fromEntries(Object.entries(outputs).map(([name, t]) => [name, asArray(t)])) };
  }
  async function hiddenStatesOf(text, most) {
    if (!live3) throw new Error(NOT_LIVE3);
    return (await run(text, null, () => null, most, [live3.hidden_states])).arrays[live3.hidden_states];
  }
  async function computed(text, pair, progress) {
    if (!live3) throw new Error(NOT_LIVE3);
    const { e, types, arrays } = await run(text, pair, progress);
    const unknown = e.tokens.filter((t) => t === live3.tokenizer.unknown).length;
    const total = e.tokens.length + e.dropped;
    const sentence = {
      text,
      pair,
      tokens: e.tokens,
      ids: e.ids,
      sentences: e.sentences,
      continues: e.continues,
      dropped: e.dropped,
      live: true,
      notice: e.dropped ? said(live3.words.dropped, {
        total: total.toLocaleString("en"),
        most: live3.max_tokens.toLocaleString("en"),
        dropped: e.dropped.toLocaleString("en")
      }) : null,
      unknown: unknown ? said(live3.words.unknown, { count: unknown, unknown: live3.tokenizer.unknown }) : null
    };
    const ids = { input_ids: e.ids, token_type_ids: types, position_ids: Array.from(arrays[live3.positions].data) };
    return { sentence, data: { ids, mask: e.ids.map(() => 1), checks: {}, given: {}, rows: {} }, arrays };
  }

  // src/analysis_graphs.js
  var sessions = /* @__PURE__ */ new Map();
  function analysisGraphs() {
    const live5 = window.BVL_SITE.live;
    if (!live5) throw new Error("This site was written without --live: it runs no model in this browser.");
    return live5.analyses;
  }
  function session(name) {
    const started = sessions.get(name);
    if (started) return started;
    const starting2 = forgotten(
      (async () => newSession(await fetched([analysisGraphs()[name].graph], () => null)))(),
      () => sessions.delete(name)
    );
    sessions.set(name, starting2);
    return starting2;
  }
  async function fed(feed, sentence, given) {
    const ort = window.ort;
    const whole = (values, dims) => new ort.Tensor("int64", BigInt64Array.from(values, BigInt), dims);
    if (feed[0] === "ids") return whole(sentence.ids[feed[1]], [sentence.ids[feed[1]].length]);
    if (feed[0] === "given") return whole([given[feed[1]]], []);
    const array = feed[0] === "step" ? sentence.array(feed[1]) : (await sentence.weights(feed[1]))[feed[2]];
    if (!array) throw new Error(`The site's live folder holds no ${feed[2]} of ${feed[1]}.`);
    return new ort.Tensor("float32", array.data, array.shape);
  }
  async function analysed(name, sentence, given = {}) {
    const spec = analysisGraphs()[name], started = await session(name);
    const feeds = Object.fromEntries(await Promise.all(Object.entries(spec.inputs).map(
      async ([input, feed]) => [input, await fed(feed, sentence, given)]
    )));
    const outputs = await started.run(feeds);
    return Object.fromEntries(Object.entries(outputs).map(([output, tensor]) => [output, {
      shape: tensor.dims.slice(),
      data: tensor.data instanceof BigInt64Array ? Int32Array.from(tensor.data, Number) : tensor.data
    }]));
  }

  // src/attention_views.js
  function templates() {
    const given = window.BVL_SITE.views.attention;
    if (!given) throw new Error("This site was written without --live: it builds no attention view in the browser.");
    return given;
  }
  var filledForScreens = (screens, names) => eachScreen((screen2) => filled(screens[screen2], names));
  async function attentionViews(sentence) {
    const found = await analysed("views", sentence), t = templates();
    const names = { n: sentence.tokens.length, labels: sentence.tokens.map(escaped) };
    const layers3 = Object.keys(found).filter((name) => name.startsWith("points.")).length;
    const head = Array.from({ length: layers3 }, (_, layer) => Object.assign(
      filledForScreens(t.head, {
        ...names,
        layer,
        x: found[`x.${layer}`],
        y: found[`y.${layer}`],
        points: found[`points.${layer}`]
      }),
      { scrolls: Boolean(valueOf(t.scrolls, names)) }
    ));
    const model = filledForScreens(t.model, {
      ...names,
      canvas: found.canvas,
      placing: found.placing,
      side: found.side.data[0]
    });
    return { head, model };
  }

  // src/asked.js
  var asking = () => window.BVL_SITE.asking;
  function askedOf(a, context, names = {}) {
    const env = boundIn(a.let, context, names);
    const value = (tree, extra = {}) => evaluatedIn(tree, context, { ...env, ...extra });
    const numbers = numbersOf(value(a.numbers));
    const allowed = a.allowed === null ? null : numbersOf(value(a.allowed));
    const sign = a.fewest ? 1 : -1;
    const ranked = numbers.map((_, k) => k).filter((k) => (!allowed || allowed[k]) && Number.isFinite(numbers[k])).sort((i, j) => sign * (numbers[i] - numbers[j]) || i - j).slice(0, asking().choices);
    if (ranked.length < asking().fewest) return null;
    const shown2 = ranked.map((k) => said(a.shown, { value: numbers[k] }));
    if (shown2[0] === shown2[1]) return null;
    const labels = ranked.map((k) => String(value(a.label, { k })));
    const apart = labels.map((label, i) => labels.filter((l) => l === label).length > 1 ? said(a.apart, { label, k: ranked[i] }) : label);
    if (new Set(apart).size < apart.length) return null;
    const order = a.order === null ? numbers.map((_, k) => k) : numbersOf(value(a.order));
    const choices = ranked.map((k, i) => ({ k, label: apart[i], number: shown2[i] })).sort((x, y) => order[x.k] - order[y.k] || x.k - y.k).map(({ k, label, number: number2 }) => ({ label, number: number2, right: k === ranked[0], line: said(a.line, { label, number: number2 }) }));
    return {
      text: String(value(a.question)),
      choices,
      decides: a.decides === null ? "" : String(value(a.decides, { right: ranked[0] }))
    };
  }

  // src/labels.js
  function labelled2(tokens2) {
    return (
      /** @type {string[]} */
      valueOf(window.BVL_SITE.style.token_labels, { tokens: tokens2 })
    );
  }

  // src/matrix_figure.js
  function asMatrix(rows) {
    const columns = rows.length ? rows[0].length : 0;
    const data = new Float64Array(rows.length * columns);
    rows.forEach((r, i) => r.forEach((v, j) => {
      data[i * columns + j] = v === null ? NaN : v;
    }));
    return { shape: [rows.length, columns], data };
  }
  function matrixFigure(kind, names, place) {
    return formFigure(
      /** @type {Record<string, Form[]>} */
      window.BVL_SITE.views.matrices[kind],
      names,
      place
    );
  }
  function formFigure(forms, names, place) {
    const form = (
      /** @type {Form} */
      forms.find((f) => valueOf(f.when, names))
    );
    return filled(form[place], names);
  }

  // src/tour.js
  var site2 = window.BVL_SITE;
  function stepContext(lecture2, block, node, array, head, token, where2) {
    const heads = lecture2.model.num_heads;
    const own = node.headed ? keyHead(Math.min(head, heads - 1), heads, array.shape[0]) : null;
    return {
      array,
      head: own,
      mine: own === null ? array : at(array, own),
      chosen: token,
      where: where2,
      heads,
      length: lecture2.tokens.length,
      tok: (i) => quoted(lecture2.tokens[i]),
      input: (k) => {
        const key = node.inputs[k];
        return lecture2.array(block.nodes.some((n) => n.key === key) ? stepName(block, key) : key);
      }
    };
  }
  var words = () => site2.views.tour.words;
  var quoted = (token) => said(words().telling.token, { token });
  function tokensStory(lecture2, sentence) {
    return toldOver(words().tokens_telling, {
      tokens: lecture2.tokens,
      vocabulary: words().vocabulary,
      special: vector(lecture2.tokens.map((_, i) => Number(sentence.sentences[i] === "special"))),
      pieces: vector(lecture2.tokens.map((_, i) => Number(Boolean(sentence.continues?.[i]))))
    });
  }
  function streamStory(lecture2, chapter, stream, token) {
    return toldOf(
      /** @type {import("./recipe.js").Telling} */
      chapter.telling,
      streamContext(lecture2, stream, token)
    );
  }
  function streamContext(lecture2, stream, token) {
    return { ...stream, chosen: token, tok: (i) => quoted(lecture2.tokens[i]) };
  }
  async function sentenceVector(lecture2, sentence) {
    const way = words().vector;
    const own = !sentence.pair && (!way.pooled || sentence.tokens.length + (sentence.dropped || 0) <= way.most_tokens);
    const states = own ? null : await hiddenStatesOf(sentence.text, way.most_tokens);
    const run2 = own ? lecture2 : { array: () => (
      /** @type {Unpacked} */
      states
    ), ids: {}, weights: async () => ({}) };
    const { vector: vector2 } = await analysed("vector", run2);
    return { way, vector: Array.from(vector2.data) };
  }
  function outputStory(found) {
    return toldOver(words().vector_telling, {
      vector: vector(found.vector),
      how: found.way.how,
      trained: found.way.trained
    });
  }
  function narrate(lecture2, sentence, chapter, head, token, outputs, stream) {
    const w = words(), told = w.stories.step;
    token = Math.min(Math.max(token, 0), lecture2.tokens.length - 1);
    let lines2 = w.random ? [w.random] : [];
    if (chapter.kind === "tokens") return [...lines2, ...tokensStory(lecture2, sentence)];
    if (chapter.kind === "stream") return [...lines2, ...streamStory(lecture2, chapter, stream, token)];
    if (chapter.kind === "output") return [...lines2, ...outputs];
    const { node, step } = chapterStep(lecture2, chapter, head, token);
    if (!lecture2.model.ops[node.op].reads_weights) lines2 = [w.no_weights];
    const what = node.explains[0].toUpperCase() + node.explains.slice(1);
    const telling = (
      /** @type {import("./recipe.js").Telling} */
      chapter.telling
    );
    return [...lines2, said(told.explains, { what }), ...toldOf(telling, step)];
  }
  function chapterStep(lecture2, chapter, head, token) {
    const told = words().stories.step;
    const [block, node] = (
      /** @type {[GraphBlock, GraphNode]} */
      findStep(lecture2.model, String(chapter.step))
    );
    const array = lecture2.array(String(chapter.step));
    const numHeads = lecture2.model.num_heads, queryHead = Math.min(head, numHeads - 1);
    const place = block.block === "layers" ? said(told.layer, { layer: block.layer }) : told.here;
    const where2 = node.headed ? said(told.head, { place, head: headName(queryHead, numHeads, array.shape[0]) }) : place;
    return { node, step: stepContext(lecture2, block, node, array, head, token, where2) };
  }
  function questionOf(lecture2, chapter, head, token, stream) {
    if (!chapter.asking) return null;
    if (chapter.kind === "stream") return askedOf(chapter.asking, streamContext(lecture2, stream, token));
    return askedOf(chapter.asking, chapterStep(lecture2, chapter, head, token).step);
  }
  function stepFigure(lecture2, chapter, head, token) {
    const [, node] = (
      /** @type {[GraphBlock, GraphNode]} */
      findStep(lecture2.model, String(chapter.step))
    );
    const array = lecture2.array(String(chapter.step)), numHeads = lecture2.model.num_heads;
    const own = node.headed ? keyHead(Math.min(head, numHeads - 1), numHeads, array.shape[0]) : null;
    const matrix3 = own === null ? array : at(array, own);
    if (matrix3.shape.length !== 2) return null;
    const tokenByToken = node.axes.slice(-2).join() === "T,T";
    const byToken = matrix3.shape[0] === lecture2.tokens.length;
    const largest = (
      /** @type {import("./values.js").Value} */
      valueOf(
        words().largest,
        { z: matrix3, token: byToken ? token : null }
      )
    );
    const queryHead = Math.min(head, numHeads - 1);
    const titles = words().figure_titles;
    const title = own === null ? node.title : said(titles[array.shape[0] === numHeads ? "head" : "shared_head"], { title: node.title, head: queryHead, shared: own });
    const span = Math.floor(matrix3.shape[0] / 2);
    const rows = byToken ? lecture2.tokens : matrix(matrix3).map((_, i) => `δ = ${i - span}`);
    const shown2 = tokenByToken ? matrix3 : asMatrix(matrix(matrix3).map((r) => r.slice(0, site2.views.window)));
    const names = {
      z: shown2,
      labels: labelled2(rows),
      title,
      scale: op(lecture2, node).scale ?? null,
      colorbar: node.headed ? op(lecture2, node).gives_probabilities ? "attention" : "score" : node.short,
      chosen: largest,
      first: 0,
      count: matrix3.shape[1]
    };
    const kind = tokenByToken ? "token" : "window";
    return eachScreen((screen2) => matrixFigure(kind, names, screen2 === "lecture" ? "tour_lecture" : screen2));
  }
  var op = (lecture2, node) => lecture2.model.ops[node.op];
  async function tourOf(lecture2, sentence) {
    const about = site2.views.tour;
    const token = Math.min(about.token, lecture2.tokens.length - 1);
    const found = await sentenceVector(lecture2, sentence);
    const { cosines, lengths } = await analysed("stream", lecture2);
    return words().chapters.map((chapter) => {
      const lines2 = narrate(lecture2, sentence, chapter, about.head, token, outputStory(found), { cosines, lengths });
      const question = questionOf(lecture2, chapter, about.head, token, { cosines, lengths });
      const stream = { z: cosines, labels: labelled2(lecture2.tokens) };
      const figure = chapter.kind === "output" ? eachScreen((screen2) => filled(words().vector_figure[screen2], { vector: found.vector })) : chapter.kind === "stream" ? eachScreen((screen2) => formFigure(words().stream_figure, stream, screen2)) : chapter.kind === "step" ? stepFigure(lecture2, chapter, about.head, token) : null;
      return { ...chapter, lines: lines2, figure, question };
    });
  }

  // src/analysed_page.js
  var site3 = window.BVL_SITE;
  var words2 = () => site3.views.analyses;
  var item = (figure, lines2 = [], links = []) => ({ figure, said: [], lines: lines2, checks: [], links });
  var picker = (key, options, value, label) => ({
    key,
    label: label || words2().labels[key],
    options,
    value
  });
  function numbered(key, names, label) {
    return picker(
      key,
      names.map((name, i) => [String(i), name]),
      String(Math.min(words2().defaults[key], names.length - 1)),
      label
    );
  }
  var page = (name, pickers, panels, side = [], wide = false) => ({
    title: words2().titles[name],
    pickers,
    panels,
    side,
    notes: [],
    wide,
    any_sentence: false,
    questions: null
  });
  var tokenOption = (tokens2) => tokens2.map((token, i) => `${i} ${token}`);

  // src/heads_rollout.js
  async function attentionAnalyses(lecture2) {
    const found = await analysed("attention", lecture2), { least, most } = words2().striking;
    const { fingerprints, rollout } = found, heads = fingerprints.shape[2];
    const [order, stat, value] = ["striking_order", "striking_stat", "striking_value"].map((k) => Array.from(found[k].data));
    const striking = order.map((index, k) => [Math.floor(index / heads), index % heads, words2().stats[stat[k]], value[k]]);
    return {
      fingerprints,
      stats: Object.fromEntries(words2().stats.map((name, k) => [name, matrix(fingerprints, k)])),
      R: Array.from({ length: rollout.shape[0] }, (_, l) => matrix(rollout, l)),
      found: striking.filter(([, , , v]) => v >= least).slice(0, most)
    };
  }
  async function headsPage(lecture2) {
    const w = words2(), { fingerprints, stats, found } = await attentionAnalyses(lecture2);
    const grids = Object.fromEntries(w.stats.map((stat, k) => [stat, item(eachScreen((screen2) => (
      // the app's figure
      filled(w.figures.heads[stat][screen2], { z: at(fingerprints, k) })
    )), [w.captions[stat]])]));
    const named3 = w.striking.said + (found.length ? found.map(([layer, head, stat, value]) => `- layer ${layer}, head ${head} ${w.stat_words[stat]}: ${fixed(value, 2)}`).join("\n") : w.striking.none);
    const links = found.map(([layer, head]) => ({
      text: said(w.striking.open, { layer, head }),
      page: "layers",
      keys: {
        layer: String(layer),
        head: String(head),
        step: "attn.probs"
      }
    }));
    const layers3 = fingerprints.shape[1];
    const asked = Object.fromEntries(w.stats.flatMap((stat, k) => Array.from({ length: layers3 }, (_, layer) => [`${stat},${layer}`, askedOf(w.head_asking, null, { grid: at(fingerprints, k), layer, does: w.stat_does[stat] })])));
    return Object.assign(
      page(
        "heads",
        [picker("stat", w.stats.map((s) => [s, w.stat_buttons[s]]), w.defaults.stat)],
        [{ by: ["stat"], items: grids }, { by: [], items: { "": item(null, [named3], links) } }]
      ),
      { numbers: stats, questions: { by: ["stat", "layer"], items: asked } }
    );
  }
  async function rolloutPage(lecture2) {
    const w = words2().rollout, figures = words2().figures, { R } = await attentionAnalyses(lecture2);
    const tokens2 = lecture2.tokens, labels = labelled2(tokens2);
    const layers3 = Object.fromEntries(R.map((matrix3, l) => [String(l), item(eachScreen((screen2) => formFigure(
      figures.rollout,
      {
        z: asMatrix(matrix3),
        labels,
        title: said(w.title, { layer: l }),
        colorbar: w.scale,
        scale: "share",
        chosen: null
      },
      screen2
    )))]));
    const mixtures = Object.fromEntries(tokens2.map((token, i) => [String(i), item(eachScreen((screen2) => formFigure(
      figures.mixture,
      {
        z: asMatrix(R.map((matrix3) => matrix3[i])),
        labels,
        title: said(w.mixture, { token: escaped(token) })
      },
      screen2
    )))]));
    return Object.assign(
      page(
        "rollout",
        [
          numbered("layer", R.map((_, l) => String(l)), words2().labels.rollout_layer),
          numbered("token", tokenOption(tokens2))
        ],
        [{ by: ["layer"], items: layers3 }, { by: ["token"], items: mixtures }],
        [w.caption],
        true
      ),
      { numbers: R }
    );
  }

  // src/contributions_lens.js
  function worst(rebuilt, own, tolerance) {
    let most = 0, holds = true;
    for (let k = 0; k < own.data.length; k += 1) {
      most = Math.max(most, Math.abs(rebuilt.data[k] - own.data[k]));
      holds = holds && within(rebuilt.data[k], own.data[k], tolerance);
    }
    return [most, holds];
  }
  async function contributions(lecture2) {
    const spec = (
      /** @type {ContributionsGraph} */
      analysisGraphs().contributions
    );
    const out = await analysed("contributions", lecture2);
    const tolerance = words2().contributions.tolerance;
    const layers3 = spec.checks.map(([[rebuiltOut, attnOut], [rebuiltNorm, normed]], layer) => ({
      ...Object.fromEntries(spec.matrices.map((name) => [name, matrix(out[`contributions.${layer}.${name}`])])),
      norm_residual_ln: spec.matrices.includes("norm_residual_ln") ? matrix(out[`contributions.${layer}.norm_residual_ln`]) : null,
      out_diff: worst(out[rebuiltOut], lecture2.array(attnOut), tolerance),
      norm_diff: worst(out[rebuiltNorm], lecture2.array(normed), tolerance)
    }));
    const results = (
      /** @type {LayerContributions[]} */
      layers3
    );
    const mixing = matrix(out.mixing);
    const ratios = (
      /** @type {Ratios} */
      Object.fromEntries(["attention", "norm", "norm_residual", "norm_residual_ln"].map((name) => [name, spec.matrices.includes(name) ? mixing[spec.matrices.indexOf(name)] : null]))
    );
    return { results, ratios };
  }
  var percent = (value) => `${fixed(100 * value, 0)}%`;
  async function contributionsPage(lecture2) {
    const w = words2().contributions, figures = words2().figures, labels = labelled2(lecture2.tokens);
    const { results, ratios } = await contributions(lecture2);
    const norms = (
      /** @type {Norm[]} */
      ["norm", "norm_residual", "norm_residual_ln"].filter((name) => results[0][name] !== null)
    );
    const fullest = norms[norms.length - 1];
    const panel = (view, matrix3) => eachScreen((screen2) => formFigure(
      figures.panel,
      { z: asMatrix(matrix3), labels, view },
      screen2
    ));
    const attentionItems = {};
    const beside = {};
    results.forEach((result, layer) => {
      const shown2 = (
        /** @type {View[]} */
        ["attention", ...norms]
      );
      const mixed = Object.fromEntries(shown2.map((name) => [
        name,
        /** @type {number[]} */
        ratios[name][layer]
      ]));
      const check = (what, [diff, holds]) => [said(w.checks.said, {
        what: said(what, { layer }),
        diff: difference(diff)
      }), holds];
      attentionItems[String(layer)] = {
        ...item(panel("attention", result.attention)),
        said: [said(w.said, {
          layer,
          attention: percent(mixed.attention),
          fullest: percent(mixed[fullest]),
          ln: fullest === "norm_residual_ln" ? " and LayerNorm" : ""
        })],
        checks: [
          check(w.checks.out, result.out_diff),
          check(w.checks[result.norm_residual_ln === null ? "pre_norm" : "post_norm"], result.norm_diff)
        ]
      };
      for (const name of norms) {
        beside[`${layer},${name}`] = item(panel(
          name,
          /** @type {number[][]} */
          result[name]
        ));
      }
    });
    const mixing = item(eachScreen((screen2) => filled(figures.mixing[screen2], ratios)));
    return Object.assign(page(
      "contributions",
      [
        numbered("layer", results.map((_, l) => String(l))),
        picker("norm", norms.map((name) => [name, w.views[name]]), fullest)
      ],
      [
        { by: ["layer"], half: true, items: attentionItems },
        { by: ["layer", "norm"], half: true, items: beside },
        { by: [], items: { "": mixing } }
      ],
      [w.caption],
      true
    ), { notes: w.notes, numbers: { results, ratios } });
  }
  async function pieceNames() {
    const t = (
      /** @type {PieceTable} */
      await tokenizer()
    );
    const added = new Map(t.added_tokens.map((token) => [token.id, token.content]));
    return (id) => {
      const piece = added.get(id) ?? t.model.vocab[id];
      if (piece === void 0) return `[id ${id}]`;
      return Object.hasOwn(t.readable, piece) ? t.readable[piece] : piece;
    };
  }
  async function nearestAt(lecture2, position) {
    const [{ ids, cosines }, name] = await Promise.all([analysed("nearest", lecture2, { position }), pieceNames()]);
    return Array.from({ length: ids.shape[0] }, (_, l) => row(ids, l).map((id, k) => [name(id), get(cosines, l, k)]));
  }
  function lensFigure(layers3, position, token) {
    const w = (
      /** @type {NearestWords} */
      words2().lens
    );
    const title = said(w.title, { position, token: escaped(token) });
    return eachScreen((screen2) => {
      const shown2 = layers3.map((top) => top.slice(0, screen2 === "phone" ? w.phone_top : w.top));
      return filled(w.figure[screen2], {
        pieces: shown2.map((top) => top.map(([piece]) => piece)),
        z: asMatrix(shown2.map((top) => top.map(([, c]) => c))),
        title
      });
    });
  }
  async function lensItem(lecture2, position) {
    const layers3 = await nearestAt(lecture2, position);
    return Object.assign(item(lensFigure(layers3, position, lecture2.tokens[position])), { numbers: layers3 });
  }
  async function lensPage(lecture2) {
    const w = words2().lens;
    if (w.mode === "lens") throw new Error("This checkpoint's Lens needs its masked-LM head, which the site's live files do not hold: the app shows it.");
    if (w.mode === "notes") return Object.assign(page("lens", [], []), { notes: w.notes });
    const masks = lecture2.ids.input_ids.flatMap((id, i) => id === w.mask_id ? [i] : []);
    if (masks.length) {
      return Object.assign(
        page("lens", [], [{ by: [], items: { "": await lensItem(lecture2, masks[0]) } }]),
        { notes: w.notes }
      );
    }
    const items = Object.fromEntries(lecture2.tokens.map((_, i) => [String(i), { part: `lens.position.${i}` }]));
    return Object.assign(page(
      "lens",
      [numbered("position", tokenOption(lecture2.tokens))],
      [{ by: ["position"], items }],
      [w.position_note]
    ), { notes: w.notes });
  }

  // src/analysed.js
  var analysed2 = {
    heads: headsPage,
    rollout: rolloutPage,
    contributions: contributionsPage,
    lens: lensPage,
    lensItem
  };

  // src/similar.js
  function signed2(value, decimals) {
    const text = fixed(value, decimals);
    return text.startsWith("-") ? text : `+${text}`;
  }
  function caption(split, tokens2, yours) {
    const w = yours.words, width = split.cells[0].length;
    const strongest = split.bySize.slice(0, w.strongest).map((flat) => {
      const r = Math.floor(flat / width), c = flat % width;
      return said(w.pair, { a: tokens2[split.rows[r]], b: split.columns[c], value: signed2(split.cells[r][c], 3) });
    });
    return said(w.caption, {
      cells: split.cells.length * width,
      total: fixed(split.total, 4),
      how: yours.pooled ? "" : w.not_pooled,
      cosine: fixed(split.cosine, 4),
      strongest: strongest.join("; ")
    });
  }
  async function compared(sentence, yours, k) {
    const got = await analysed("similarity", sentence), at3 = (name) => got[`split.${k}.${name}`];
    const pair = k ? {
      cells: matrix(at3("cells")),
      rows: Array.from(at3("rows").data),
      columns: yours.columns[k - 1].map((j) => yours.tokens[k - 1][j]),
      bySize: Array.from(at3("by_size").data),
      cosine: at3("cosine").data[0],
      total: at3("total").data[0]
    } : null;
    return { cosines: matrix(got.cosines), pair, text: pair && caption(pair, sentence.tokens, yours) };
  }
  async function section(view, s, keys, sentence) {
    const data = window.BVL_SITE.similarity, yours = data.yours;
    const texts = (
      /** @type {string[]} */
      data.texts
    );
    if (s.tokens.length > yours.most_tokens) {
      view.append(element("p", worded("yours_too_long", {
        count: s.tokens.length,
        source: data.source,
        most: yours.most_tokens
      }), { class: "note" }));
      return;
    }
    const asked = (keys.get("with") || "").trim();
    const k = /^\d{1,2}$/.test(asked) && Number(asked) >= 1 && Number(asked) <= texts.length ? Number(asked) : 0;
    const numbers = await compared(sentence, yours, k);
    const columns = element("div", void 0, { class: "beside" });
    const controls2 = element("section"), canvas = element("section", void 0, { class: "canvas" });
    columns.append(controls2, canvas);
    view.append(columns);
    controls2.append(element("p", s.text, { class: "yours-text" }));
    const asking2 = { "aria-label": worded("why_yours"), id: "with" };
    const pick = (
      /** @type {HTMLSelectElement} */
      element("select", void 0, asking2)
    );
    pick.append(element("option", worded("each_cosine"), { value: "" }));
    texts.forEach((_, j) => pick.append(element("option", worded("sentence_k", { k: j + 1 }), { value: String(j + 1) })));
    pick.value = k ? String(k) : "";
    pick.addEventListener("change", () => {
      location.hash = link("similarity", { text: s.text, ...pick.value ? { with: pick.value } : {} });
    });
    const label = element("label", worded("why_yours"), { class: "picker" });
    label.append(pick);
    controls2.append(label);
    if (asked && !k) {
      controls2.append(element("p", worded("no_with", { asked, count: texts.length }), { class: "note" }));
    }
    if (numbers.pair && numbers.text) {
      const split = numbers.pair;
      canvas.append(paragraph(numbers.text));
      const div = element("div", void 0, { class: "figure", id: "yours-split", "data-point": "split" });
      canvas.append(div);
      plot(div, formFigure(yours.split, {
        z: asMatrix(split.cells),
        rows: labelled2(split.rows.map((i) => s.tokens[i])),
        columns: labelled2(split.columns),
        title: worded("split_title", { a: yours.row, b: k, cosine: split.cosine })
      }, screen()));
    }
    yours.ways.forEach((way, w) => {
      const div = element("div", void 0, {
        class: "figure",
        id: `yours-cosines-${w}`,
        ...!k && w === 0 ? { "data-point": "cosines" } : {}
      });
      canvas.append(div);
      plot(div, filled(yours.cosines[screen()], {
        z: asMatrix([numbers.cosines[w]]),
        title: worded("cosines_title", { name: way.name })
      }));
      if (!way.trained) canvas.append(element(
        "p",
        worded("way_how", { name: capitalized(way.name), how: way.how }),
        { class: "explains" }
      ));
    });
  }

  // src/yours.js
  var site4 = window.BVL_SITE;
  var live4 = site4.live;
  var PAGES = [
    "tokens",
    "tour",
    "layers",
    "attention",
    "heads",
    "rollout",
    "contributions",
    "lens",
    "contexts",
    "similarity"
  ].filter((page2) => page2 !== "lens" || !live4 || site4.views.analyses.lens.mode !== "lens");
  var phone = () => window.innerWidth < 640;
  var KEPT_BYTES = () => phone() ? 0 : 25e7;
  var consented = false;
  var held = [];
  function servedOverHttp() {
    return /^https?:$/.test(location.protocol);
  }
  function find(text, pair) {
    const b = (pair || "").trim() || null;
    return site4.sentences.find((s) => s.text === text.trim() && (s.pair || null) === b);
  }
  function addressed(keys) {
    const text = keys.get("text");
    return text === null ? null : find(text, keys.get("pair")) || null;
  }
  function typed(keys) {
    const text = keys.get("text");
    if (!live4 || text === null) return false;
    const found = find(text, keys.get("pair"));
    return !found || Boolean(found.live);
  }
  function wanted(keys) {
    const text = keys.get("text");
    if (!live4 || text === null) return false;
    const found = find(text, keys.get("pair"));
    return !found || found.live && !held.some(([index]) => index === site4.sentences.indexOf(found));
  }
  function shouldAsk() {
    const connection = (
      /** @type {Navigator & { connection?: object }} */
      navigator.connection || {}
    );
    return phone() || connection.saveData || /(^|-)(2g|3g)$/.test(connection.effectiveType || "");
  }
  var Computed = class extends Lecture {
    // a sentence computed here: its sub-steps are the run's outputs
    /**
     * @param {number} index
     * @param {SentenceData} data
     * @param {Record<string, Unpacked>} arrays
     */
    constructor(index, data, arrays) {
      super(site4, index, data);
      Object.assign(this.arrays, arrays);
    }
    /**
     * The attention views (attention_views.js), the tour (tour.js) and the analyses (analysed.js), built here.
     * @param {string} name
     * @returns {Promise<any>} as an exported sentence's part (Lecture.part)
     */
    async part(name) {
      const once = (make) => this.memo(name, () => forgotten(
        Promise.resolve().then(make),
        // a failure is tried again
        () => {
          delete this.decodedParameters[name];
        }
      ));
      if (name === "attention") {
        return once(() => attentionViews(this));
      }
      if (name === "tour") return once(() => tourOf(this, site4.sentences[this.index]));
      if (name === "heads" || name === "rollout" || name === "contributions" || name === "lens") {
        return once(() => analysed2[name](this));
      }
      if (name === "contexts") return once(async () => (await lecture(site4, 0)).part(name));
      const position = /^lens\.position\.(\d+)$/.exec(name);
      if (position) return once(() => analysed2.lensItem(this, Number(position[1])));
      throw new Error(`This view is not computed in the browser: ${PAGES.join(", ")} are.`);
    }
    /** Nothing to read: every sub-step is the run's. */
    async block() {
    }
    /**
     * A sub-step; a layer's input is the block before's last, as the run read it.
     * @param {string} name
     * @returns {Unpacked}
     */
    array(name) {
      if (name in live4.sources) return this.array(live4.sources[name]);
      if (!(name in this.arrays)) throw new Error(`The model computed no ${name}.`);
      return this.arrays[name];
    }
    /**
     * A block's output as the model itself computed it (its hidden state), in the same run.
     * @param {string} name
     * @returns {Unpacked | null}
     */
    given(name) {
      const check = live4.checks[name];
      if (!check) return null;
      return this.memo(`given:${name}`, () => {
        const [own, index] = (
          /** @type {[string, number | undefined]} */
          check
        ), whole = this.arrays[own], size = this.arrays[name].data.length;
        const start3 = index === void 0 ? 0 : index * size;
        return { shape: this.arrays[name].shape, data: whole.data.subarray(start3, start3 + size) };
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
      const ids = this.ids[
        /** @type {string} */
        (lookup.attrs || {}).ids
      ];
      return this.memo(key, () => forgotten(
        tableRows(module, ids),
        () => {
          delete this.decodedParameters[key];
        }
      ));
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
  };
  function checks(lecture2) {
    return Object.fromEntries(Object.keys(live4.checks).map((name) => {
      const ours = lecture2.array(name).data, given = lecture2.given(name);
      if (!given) throw new Error(`The model's own output for ${name} is missing from the run.`);
      const theirs = given.data;
      let worst2 = 0, holds = true;
      for (let k = 0; k < ours.length; k += 1) {
        worst2 = Math.max(worst2, Math.abs(ours[k] - theirs[k]));
        holds = holds && within(ours[k], theirs[k], window.BVL_SITE.tolerances.same_sum);
      }
      return [
        name,
        /** @type {[number, boolean]} */
        [worst2, holds]
      ];
    }));
  }
  function keep(index, arrays) {
    const bytes = Object.values(arrays).reduce((n, a) => n + a.data.byteLength, 0);
    const at3 = held.findIndex(([i]) => i === index);
    if (at3 >= 0) held.splice(at3, 1);
    held.push([index, bytes]);
    while (held.length > 1 && held.reduce((n, [, b]) => n + b, 0) > KEPT_BYTES()) {
      forgetLecture(
        /** @type {[number, number]} */
        held.shift()[0]
      );
    }
  }
  async function ready(view, keys, alive2) {
    const text = (keys.get("text") || "").trim(), pair = (keys.get("pair") || "").trim() || null;
    const show3 = (...nodes) => {
      if (alive2()) view.replaceChildren(...nodes);
    };
    const note = (words3, error = false) => element("p", words3, { class: "note", ...error ? { "data-error": "" } : {} });
    if (!text) {
      show3(element("h1", worded("your_sentence")), note(live4.words.empty, true));
      return false;
    }
    if (!servedOverHttp()) {
      cannot(view, worded("from_disk"));
      return false;
    }
    if (!begun() && !consented && shouldAsk() && !await cachedAlready()) {
      const mb = MB(live4.model.bytes + live4.runtime.bytes);
      const go = element("button", worded("fetch", { mb }), { type: "button", class: "fetch-model" });
      go.addEventListener("click", () => {
        consented = true;
        window.dispatchEvent(new HashChangeEvent("hashchange"));
      });
      show3(
        element("h1", worded("your_sentence")),
        element("p", text, { class: "sentence" }),
        element("p", worded("fetch_note", { mb }), { class: "note" }),
        go
      );
      return false;
    }
    const status = note(worded("reading_tokenizer"));
    show3(element("h1", worded("your_sentence")), status);
    try {
      const { sentence, data, arrays } = await computed(text, pair, (words3) => {
        status.textContent = words3;
      });
      const found = find(text, pair);
      const index = found ? site4.sentences.indexOf(found) : site4.sentences.push(sentence) - 1;
      site4.sentences[index] = sentence;
      const lecture2 = new Computed(index, data, arrays);
      lecture2.checks = checks(lecture2);
      keepLecture(index, lecture2);
      keep(index, arrays);
      return alive2();
    } catch (error) {
      show3(element("h1", worded("your_sentence")), note(error instanceof Error ? error.message : String(error), true));
      return false;
    }
  }
  function listedPages() {
    const names = PAGES.map((p) => site4.pages[p]);
    return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  }
  function elsewhere(view, page2, keys) {
    const text = (keys.get("text") || "").trim(), pair = (keys.get("pair") || "").trim();
    const named3 = named({ text, pair: pair || null }), said2 = { text, ...pair ? { pair } : {} };
    const computed2 = (find(text, pair) || { live: false }).live;
    view.append(
      element("h1", worded("not_in_site")),
      element("p", worded(
        computed2 ? "elsewhere_computed" : "elsewhere_new",
        { named: named3, pages: listedPages(), page: page2 }
      ), { class: "note" })
    );
    const links = element("div", void 0, { class: "sentences" });
    PAGES.forEach((p) => links.append(element(
      "a",
      `${site4.pages[p]}: “${named3}”`,
      { href: link(p, said2), class: "yours-link" }
    )));
    view.append(links);
    listed(view, worded("own_sentences"));
  }
  function placeBox(page2) {
    const form = (
      /** @type {HTMLFormElement | null} */
      document.querySelector("form.yours")
    );
    if (form) form.hidden = lectureMode() && !["", "overview", "tokens"].includes(page2);
  }
  function box() {
    if (!live4) return;
    const form = element("form", void 0, { class: "yours", role: "search" });
    const input = (
      /** @type {HTMLInputElement} */
      element("input", void 0, {
        type: "text",
        name: "text",
        "aria-label": worded("your_sentence"),
        placeholder: worded("box_placeholder"),
        maxlength: "100000"
      })
    );
    form.append(element("label", worded("your_sentence"), { for: "your-sentence" }), input);
    input.id = "your-sentence";
    const { keys } = route();
    if (wanted(keys)) input.value = keys.get("text") || "";
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const { page: page2, keys: keys2 } = route();
      const target = PAGES.includes(page2) ? page2 : "tokens";
      const dropped = ["text", "pair", "cell", "lecture"];
      const kept = target === page2 ? Object.fromEntries([...keys2].filter(([k]) => !dropped.includes(k))) : {};
      location.hash = link(target, { ...kept, text: input.value });
    });
    const header = document.querySelector("header");
    if (header) header.append(form);
  }
  function titled(title, s) {
    if (!(s && s.live)) return element("h1", title);
    const h1 = element("h1");
    h1.append(
      element("span", title, { class: "title-words" }),
      // lecture mode hides these, not the badge
      element("span", worded("computed_here"), { class: "computed-here", title: worded("computed_here_title") })
    );
    return h1;
  }

  // src/shortcuts.js
  var SHORTCUTS = {
    back: { keys: "Alt+Shift+ArrowLeft", shown: "Alt+Shift+←" },
    forward: { keys: "Alt+Shift+ArrowRight", shown: "Alt+Shift+→" },
    shallower: { keys: "Alt+Shift+ArrowUp", shown: "Alt+Shift+↑" },
    // a layer back (Layers' ◀ beside the layer)
    deeper: { keys: "Alt+Shift+ArrowDown", shown: "Alt+Shift+↓" },
    // a layer on
    next: { keys: "Alt+Shift+N", shown: "Alt+Shift+N" }
  };
  function shortcutOf(press) {
    if (!press.altKey || !press.shiftKey || press.ctrlKey || press.metaKey) return null;
    if (press.key === "ArrowLeft") return "back";
    if (press.key === "ArrowRight") return "forward";
    if (press.key === "ArrowUp") return "shallower";
    if (press.key === "ArrowDown") return "deeper";
    if (press.code === "KeyN" || press.key === "N" || press.key === "n") return "next";
    return null;
  }
  function ownKeys(target) {
    return target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"]') !== null;
  }
  function answers(control, name, says) {
    control.setAttribute("aria-keyshortcuts", SHORTCUTS[name].keys);
    control.dataset.shortcut = name;
    control.dataset.says = says;
    control.title = `${control.title || says} (${SHORTCUTS[name].shown})`;
  }
  function listen(page2) {
    page2.addEventListener("keydown", (event) => {
      const name = shortcutOf(event);
      if (!name || event.defaultPrevented || ownKeys(event.target)) return;
      const control = (
        /** @type {HTMLButtonElement | null} */
        page2.querySelector(`[data-shortcut="${name}"]:not(:disabled)`)
      );
      if (!control) return;
      event.preventDefault();
      announce(control.dataset.says || "");
      control.click();
    });
  }

  // src/skip_link.js
  function skipLink(words3) {
    let skip = (
      /** @type {HTMLButtonElement | null} */
      document.querySelector("button.skip-link")
    );
    if (!skip) {
      skip = document.createElement("button");
      skip.type = "button";
      skip.className = "skip-link";
      skip.addEventListener("click", toTheFigure);
      document.body.prepend(skip);
    }
    skip.textContent = words3;
  }
  function toTheFigure() {
    const first2 = (selector) => (
      /** @type {HTMLElement | null} */
      document.querySelector(`main ${selector}`) || document.querySelector(selector)
    );
    const figure = first2('[role="grid"]'), heading = first2("h1");
    const target = figure || heading;
    if (!target) return;
    if (target === heading) target.tabIndex = -1;
    target.scrollIntoView({ block: "start" });
    target.focus();
  }

  // src/stepper.js
  var WINDOW2 = (
    /** @type {number} */
    window.BVL_SITE.views.window
  );
  var STAGES = { embed: "Embeddings", positions: "Positions", layers: "Layer", pooler: "Pooler" };
  var EXPLAINS = "step-explains";
  function where(model, keys) {
    const step = keys.get("step") || "attn.probs";
    const notes = [];
    const within2 = (name, count) => {
      const asked = keys.get(name) || "0";
      const value = /^\d{1,4}$/.test(asked) ? Math.min(Number(asked), count - 1) : 0;
      if (String(value) !== asked) {
        notes.push(worded("no_index", { name, asked, last: count - 1, value }));
      }
      return value;
    };
    const layer = within2("layer", model.num_layers), head = within2("head", model.num_heads);
    const global = /^(embed|positions|pooler)\./.test(step);
    const block = model.blocks.find((b) => global ? step.startsWith(b.block + ".") : b.block === "layers" && b.layer === layer);
    const key = global ? step.slice(block ? block.block.length + 1 : 0) : step;
    const node = block && block.nodes.find((n) => n.key === key);
    return { block, node, layer, head, step, notes };
  }
  function keysFor(block, key, layer, head, cell2) {
    const keys = {
      step: block.block === "layers" ? key : `${block.block}.${key}`,
      layer: String(layer),
      head: String(head)
    };
    if (cell2) keys.cell = cell2.join(",");
    return keys;
  }
  function parseCell(text) {
    if (!text) return null;
    const parts = text.split(",").map((p) => p.trim());
    return parts.every((p) => /^\d{1,9}$/.test(p)) ? parts.map(Number) : void 0;
  }
  function shown(lecture2, block, node, head, first2) {
    const array = lecture2.array(stepName(block, node.key));
    const heads = node.headed ? array.shape[0] : null;
    const own = heads === null ? null : keyHead(head, lecture2.model.num_heads, heads);
    const lead = own === null ? [] : [own];
    let rows = array.shape.length - lead.length === 1 ? [row(array, ...lead)] : matrix(array, ...lead);
    const tokenByToken = node.axes.slice(-2).join() === "T,T";
    const count = rows[0].length;
    const start3 = tokenByToken ? 0 : Math.min(first2, Math.max(0, count - WINDOW2));
    const columns = tokenByToken ? labelled2(lecture2.tokens) : Array.from({ length: Math.min(WINDOW2, count - start3) }, (_, k) => String(start3 + k));
    if (!tokenByToken) rows = rows.map((r) => r.slice(start3, start3 + WINDOW2));
    const rowNames = node.axes.includes("2k") ? rows.map((_, i) => `δ = ${i - Math.floor(rows.length / 2)}`) : rows.length === lecture2.tokens.length ? lecture2.tokens : rows.map((_, i) => String(i));
    const masked = rows.map((r) => r.map((v) => v <= MASKED_BELOW ? null : v));
    return { rows: masked, rowNames, columns, start: start3, count, tokenByToken, own, heads };
  }
  function stepTitle(lecture2, block, node, head, s) {
    const what = s.heads === null ? "" : s.heads === lecture2.model.num_heads ? ` head ${head}` : ` key/value head ${s.own}`;
    const where2 = block.block === "layers" ? `layer ${block.layer}` : STAGES[block.block].toLowerCase();
    return `${where2}${what}: ${node.title}`;
  }
  function controls(host, model, block, node, layer, head, go) {
    const row2 = element("div", void 0, { class: "controls" });
    const stages = element("div", void 0, { class: "stages" });
    for (const name of ["embed", "positions", "layers", "pooler"]) {
      const first2 = model.blocks.find((b) => b.block === name);
      if (!first2) continue;
      const target = name === "layers" ? model.blocks.find((b) => b.block === "layers" && b.layer === layer) || first2 : first2;
      const key = name === "layers" ? target.nodes.some((n) => n.key === "attn.probs") ? "attn.probs" : target.nodes[0].key : target.nodes[target.nodes.length - 1].key;
      stages.append(button(STAGES[name], block.block === name, () => go(target, key, layer, head)));
    }
    row2.append(stages);
    if (block.block === "layers") {
      const layers3 = model.blocks.filter((b) => b.block === "layers");
      row2.append(stepper("Layer", layers3.map((b) => `Layer ${b.layer}`), layer, (i) => {
        const next = layers3[i];
        go(next, next.nodes.some((n) => n.key === node.key) ? node.key : next.nodes[0].key, i, head);
      }, "layer", "layers"));
      const heads = Array.from({ length: model.num_heads }, (_, h) => `Head ${h}`);
      const perHead = node.headed || node.op === "merge_heads";
      const picker2 = stepper("Head", heads, head, (h) => go(block, node.key, layer, h));
      if (!perHead) {
        picker2.querySelectorAll("select, button").forEach((control) => {
          control.disabled = true;
        });
        picker2.title = worded("no_heads");
      }
      row2.append(picker2);
    }
    const keys = block.nodes.map((n) => n.key);
    row2.append(stepper(
      "Sub-step",
      block.nodes.map((n, i) => `${i + 1}/${keys.length} ${n.title}`),
      keys.indexOf(node.key),
      (i) => go(block, keys[i], layer, head),
      "step",
      true
    ));
    host.append(row2);
  }
  function button(text, pressed, onClick, attributes) {
    const b = (
      /** @type {HTMLButtonElement} */
      element("button", text, { type: "button", ...attributes || {} })
    );
    if (pressed) b.setAttribute("aria-pressed", "true");
    b.addEventListener("click", onClick);
    return b;
  }
  var WIDE_OPTION = 20;
  function stepper(label, options, current, choose, name, walk = false) {
    const wide = Math.max(...options.map((text) => text.length)) > WIDE_OPTION;
    const box2 = element("label", void 0, { class: wide ? "stepper wide" : "stepper" });
    box2.append(element("span", label));
    const back = button("◀", false, () => choose(current - 1), {
      title: `previous ${label.toLowerCase()}`,
      class: `back ${name || ""}`
    });
    back.disabled = current <= 0;
    const select = (
      /** @type {HTMLSelectElement} */
      element("select", void 0, { "aria-label": label })
    );
    options.forEach((text, i) => select.append(element("option", text, { value: String(i) })));
    select.value = String(current);
    select.addEventListener("change", () => choose(Number(select.value)));
    const forward = button("▶", false, () => choose(current + 1), {
      title: `next ${label.toLowerCase()}`,
      class: `next ${name || ""}`
    });
    forward.disabled = current >= options.length - 1;
    if (walk) {
      answers(back, walk === "layers" ? "shallower" : "back", `${label}: ${options[current - 1] ?? ""}`);
      answers(forward, walk === "layers" ? "deeper" : "forward", `${label}: ${options[current + 1] ?? ""}`);
    }
    box2.append(back, select, forward);
    return box2;
  }
  function checkLine(lecture2, block) {
    const check = lecture2.checks[block.name];
    const words3 = (
      /** @type {SiteModel & { words: Record<string, string> }} */
      lecture2.model.words
    );
    if (check === void 0 || check === null) return element("p", words3.shared, { class: "note" });
    const [diff, ok] = check;
    return element(
      "p",
      `${ok ? "✔" : "✘"} ${said(words3.check, { against: block.against, diff: difference(diff) })}`,
      { class: ok ? "ok" : "bad" }
    );
  }
  var tapped = false;
  var keyed = false;
  async function explained(host, lecture2, step, head, queryHead, cell2, tokens2, lectureMode2, alive2) {
    let e;
    host.append(element("p", worded("reading_numbers"), { class: "note" }));
    try {
      e = await explain(lecture2, step, head, cell2);
      if (!alive2()) return;
    } catch (error) {
      host.replaceChildren(element("p", error instanceof Error ? error.message : String(error), { class: "note" }));
      return;
    }
    host.replaceChildren();
    const labels = Object.entries(
      /** @type {Record<string, string>} */
      e.labels
    ).map(([k, v]) => `${k} ${v}`).join(", ") || e.at.join(",");
    const heads = e.head === null ? 0 : lecture2.array(e.step).shape[0];
    const which = e.head === null ? "" : `, ${headName(queryHead, lecture2.model.num_heads, heads)}`;
    host.append(
      element("h3", `${e.title}${which}, ${labels} = ${fixed(e.value, 4)}`, { class: "explained" }),
      element("p", `${e.op}: ${e.formula}`, { class: "formula" })
    );
    if (e.recomputed === null) {
      host.append(element("p", worded("not_recomputed"), { class: "note" }));
    } else {
      const diff = Math.abs(e.recomputed - e.value);
      const ok = within(e.recomputed, e.value, window.BVL_SITE.tolerances.same_sum);
      const words3 = (
        /** @type {SiteModel & { words: Record<string, string> }} */
        lecture2.model.words
      );
      const result = said(words3.result, { recomputed: e.recomputed, value: e.value, diff: difference(diff, 0) });
      host.append(element(
        "p",
        `${ok ? "✔" : "✘"} ${result}`,
        { class: `result ${ok ? "ok" : "bad"}`, ...lectureMode2 ? { "data-point": "result" } : {} }
      ));
    }
    const figure = explanationFigure(e, tokens2, screen());
    if (figure) {
      const div = element("div", void 0, { class: "figure explanation" });
      host.append(div);
      plot(div, figure);
    }
  }
  async function layers(view, keys, index, link2, alive2) {
    const site8 = window.BVL_SITE;
    const lecture2 = await lecture(site8, index);
    if (!alive2()) return;
    const { block, node, layer, head, step, notes } = where(site8.model, keys);
    const cut2 = site8.sentences[index].notice;
    view.replaceChildren(
      titled("Layers", site8.sentences[index]),
      ...[cut2, ...notes].filter(Boolean).map((note) => element("p", note, { class: "note" }))
    );
    if (!block || !node) {
      const steps = (site8.model.blocks.find((b) => b.block === "layers") || { nodes: [] }).nodes.map((n) => n.key).join(", ");
      view.append(element("p", worded("no_step", { step, steps }), { class: "note" }));
      return;
    }
    await lecture2.block(partOf(block.name));
    if (!alive2()) return;
    const sentence = site8.sentences[index];
    const go = (b, key, l, h, cell3) => {
      location.hash = link2("layers", { ...sentenceKeys(sentence), ...keysFor(b, key, l, h, cell3) });
    };
    controls(view, site8.model, block, node, layer, head, go);
    const columns = element("div", void 0, { class: "stepper-columns" });
    const words3 = element("section", void 0, { class: "words" });
    const canvas = element("section", void 0, { class: "canvas" });
    columns.append(canvas, words3);
    view.append(columns);
    const position = block.nodes.indexOf(node) + 1;
    words3.append(
      element("h2", `${block.block === "layers" ? `Layer ${layer} · ` : ""}step ${position} of ${block.nodes.length}: ${node.title}`),
      element("p", `${node.explains} ${node.shape}`, { class: "explains", id: EXPLAINS }),
      checkLine(lecture2, block)
    );
    const cellText = keys.get("cell");
    const cell2 = parseCell(cellText);
    const first2 = cell2 && !(node.axes.slice(-2).join() === "T,T") ? Math.floor(cell2[cell2.length - 1] / WINDOW2) * WINDOW2 : Math.max(0, parseInt(keys.get("dims") || "0", 10) || 0);
    const s = shown(lecture2, block, node, head, first2);
    const chosen3 = cell2 && cell2.length === 2 ? cell2 : null;
    const figure = (
      /** @type {Plotted} */
      element(
        "div",
        void 0,
        { class: "figure step", id: "step-figure", "data-point": "step" }
      )
    );
    canvas.append(figure);
    const lectureMode2 = document.body.classList.contains("lecture");
    const drawn3 = matrixFigure(s.tokenByToken ? "token" : "window", {
      z: asMatrix(s.rows),
      labels: s.tokenByToken ? s.columns : labelled2(s.rowNames),
      title: stepTitle(lecture2, block, node, head, s),
      colorbar: node.op === "softmax" ? "attention" : "score",
      scale: lecture2.model.ops[node.op].scale ?? null,
      chosen: chosen3,
      first: s.start,
      count: s.count
    }, screen());
    const offset2 = s.tokenByToken ? 0 : s.start;
    const pickAt = (r, c) => {
      tapped = true;
      go(block, node.key, layer, head, s.rows.length === 1 && node.axes.length - (node.headed ? 1 : 0) === 1 ? [s.start + c] : [r, offset2 + c]);
    };
    const wasKeyed = keyed;
    keyed = false;
    const start3 = cell2 && cell2.length === 2 && cell2[1] >= offset2 && cell2[1] - offset2 < (s.rows[0] || []).length ? (
      /** @type {[number, number]} */
      [cell2[0], cell2[1] - offset2]
    ) : null;
    await plot(figure, drawn3, {
      pick: (r, c) => {
        keyed = true;
        pickAt(r, c);
      },
      start: start3,
      focus: wasKeyed,
      said: EXPLAINS,
      close: cell2 ? () => {
        keyed = true;
        go(block, node.key, layer, head);
      } : void 0
    });
    figure.on("plotly_click", (event) => {
      const point = event.points.find((p) => p.data.type === "heatmap");
      if (point) pickAt(point.pointNumber[0], point.pointNumber[1]);
    });
    if (!s.tokenByToken && s.count > WINDOW2) {
      canvas.append(stepper("Dimensions", Array.from({ length: Math.ceil(s.count / WINDOW2) }, (_, k) => `${k * WINDOW2}–${Math.min(s.count, (k + 1) * WINDOW2) - 1} of ${s.count}`), Math.floor(s.start / WINDOW2), (k) => {
        location.hash = link2("layers", { ...sentenceKeys(sentence), ...keysFor(block, node.key, layer, head), dims: String(k * WINDOW2) });
      }, "dims"));
    }
    const explanation = element("div", void 0, { class: "explanation-panel" });
    words3.append(explanation);
    if (cell2 === void 0) {
      explanation.append(element(
        "p",
        worded("not_a_cell", { cell: cellText }),
        { class: "note" }
      ));
    } else if (cell2 === null) {
      explanation.append(element("p", worded("click_a_cell"), { class: "note" }));
    } else {
      const wasTapped = tapped;
      tapped = false;
      await explained(
        explanation,
        lecture2,
        stepName(block, node.key),
        node.headed ? s.own : null,
        head,
        cell2,
        lecture2.tokens,
        lectureMode2,
        alive2
      );
      const result = explanation.querySelector(".result");
      if (wasKeyed && result) announce(result.textContent || "");
      const line2 = (result || explanation).getBoundingClientRect();
      if (wasTapped && alive2() && (line2.top < 0 || line2.bottom > window.innerHeight)) {
        explanation.scrollIntoView({ block: "start" });
      }
    }
  }

  // src/ask_first.js
  var SHOWN = -1;
  var chosen2 = /* @__PURE__ */ new Map();
  var worded2 = (name, values = {}) => said(window.BVL_SITE.asking.words[name], values);
  function askedFor(keys) {
    const notes = [];
    const on = (key, bad) => {
      const value = keys.get(key) || "";
      if (["", "0", "1"].includes(value)) return value === "1";
      notes.push(worded2(bad, { asked: value.slice(0, 40) }));
      return false;
    };
    const ask = on("ask", "bad_ask"), hall = on("hall", "bad_hall");
    if (ask && hall) notes.push(worded2("hall_static"));
    return { ask, hall, notes };
  }
  var keyOf = (question, about) => JSON.stringify([about, question.text, question.choices.map((c) => c.label)]);
  var waits = (key) => !chosen2.has(key);
  function questionOf2(question, key, then) {
    const box2 = element("div", void 0, { class: "question", "data-point": "question" });
    box2.append(element("h3", question.text), element("p", worded2("first"), { class: "note" }));
    const group = element("div", void 0, { class: "choices", role: "group", "aria-label": worded2("choose") });
    question.choices.forEach((choice, k) => {
      const button2 = element("button", choice.label, { type: "button", class: "choice" });
      button2.addEventListener("click", () => {
        chosen2.set(key, k);
        then();
      });
      group.append(button2);
    });
    box2.append(group);
    return box2;
  }
  function answerOf(question, key) {
    const mine = chosen2.get(key) ?? SHOWN;
    const right = question.choices.find((c) => c.right);
    const box2 = element("div", void 0, { class: "answer" });
    const list = element("ul");
    question.choices.forEach((choice, k) => {
      const marks2 = [...choice.right ? [worded2("right")] : [], ...k === mine ? [worded2("yours")] : []];
      const line2 = element(choice.right ? "strong" : "span", [choice.line, ...marks2].join(" — "));
      const item2 = element("li");
      item2.append(line2);
      list.append(item2);
    });
    const verdict = mine === SHOWN ? worded2("shown", { right: right?.label }) : worded2(question.choices[mine].right ? "was_right" : "was_wrong", {
      label: question.choices[mine].label,
      right: right?.label
    });
    box2.append(element("h3", question.text), list, element("p", `${verdict} ${question.decides}`.trim()));
    return box2;
  }
  var noneAsked = () => element("p", worded2("none"), { class: "note" });
  function nextFirst(key, then, next) {
    const bar = document.getElementById("next");
    if (!bar) return;
    document.getElementById("next-first")?.remove();
    const own = key !== null && waits(key) ? element("button", worded2("reveal"), { type: "button", class: "next-view", id: "next-first" }) : next ? element("a", worded2("next_chapter", { title: next.title }), {
      href: next.href,
      class: "next-view",
      id: "next-first"
    }) : null;
    const lectures2 = bar.querySelector("a.next-view:not(#next-first)");
    if (lectures2 instanceof HTMLElement) {
      lectures2.dataset.shortcut = own ? "later" : "next";
      lectures2.classList.toggle("later", Boolean(own));
      lectures2.textContent = own ? worded2("leave", { title: lectures2.dataset.title }) : lectures2.dataset.said || "";
    }
    if (!own) return;
    if (own instanceof HTMLButtonElement && key !== null) {
      own.addEventListener("click", () => {
        chosen2.set(key, SHOWN);
        then();
      });
    }
    answers(own, "next", own.textContent || "");
    bar.prepend(own);
  }

  // src/head_view.js
  function focusOf(text, count) {
    const found = /^([qk])(\d{1,4})$/.exec(text || "");
    return found && Number(found[2]) < count ? [
      /** @type {"q" | "k"} */
      found[1],
      Number(found[2])
    ] : null;
  }
  async function keepLines(figure, token, walk) {
    const traces = (
      /** @type {Drawn} */
      figure._fullData
    ), found = sidesOf(traces);
    if (!found) return;
    const [side, index] = token, end = side === "q" ? 0 : 1;
    const kept = [];
    const xs = [];
    const ys = [];
    traces.forEach((trace, k) => {
      if (trace.mode !== "lines" || !trace.x || trace.x.length < 2) return;
      const places = found.across ? trace.x : trace.y;
      const x = [], y = [];
      for (let p = 0; p + 1 < places.length; p += 3) {
        if (Number(places[p + end]) !== index) continue;
        x.push(trace.x[p], trace.x[p + 1], NaN);
        y.push(trace.y[p], trace.y[p + 1], NaN);
      }
      kept.push(k);
      xs.push(x);
      ys.push(y);
    });
    await Plotly.restyle(figure, { x: xs, y: ys }, kept);
    walkable(figure, walk);
  }
  function linesPanel(figure, token, every) {
    const drawn3 = (
      /** @type {Drawn} */
      figure
    ), found = sidesOf(drawn3._fullData);
    if (!found) return element("div");
    const [side, index] = token, s = side === "q" ? 0 : 1;
    const say = drawn3.data[found.at[s]].meta;
    if (!say || !say.line) return element("div");
    const name = (marks2, i) => String(marks2.text[i]);
    const words3 = { index, token: name(s ? found.keys : found.queries, index) };
    const lines2 = drawnLines(drawn3._fullData, found.across).filter((line2) => (s ? line2.key : line2.query) === index);
    const other = (j) => name(s ? found.queries : found.keys, j);
    const button2 = element("button", cellWords(say.every, words3), { type: "button", class: "every-line" });
    button2.addEventListener("click", every);
    const list = element("ul", void 0, { class: "lines-list" });
    list.append(...lines2.map((line2) => element("li", lineWords(say, line2, side, other))));
    const panel = element("div", void 0, { class: "lines-panel" });
    panel.append(
      element("h3", cellWords(say.alone, words3)),
      button2,
      // the way back first: a phone's list is long
      element("p", lines2.length ? countWords(say, lines2.length) : say.none),
      list,
      element("p", worded("lines_as_drawn"), { class: "note" })
    );
    return panel;
  }
  function headButtons(figure, walk, changed) {
    const drawn3 = (
      /** @type {Drawn & { on: (event: string, listener: () => void) => void }} */
      figure
    );
    const groups = drawn3._fullData.filter((trace) => trace.showlegend !== false && trace.legendgroup).map((trace) => (
      /** @type {string} */
      trace.legendgroup
    ));
    const legend = drawn3._fullLayout && drawn3._fullLayout.legend;
    const row2 = element("div", void 0, {
      class: "stages head-buttons",
      role: "group",
      "aria-label": legend && legend.title && legend.title.text || ""
    });
    const members = (group) => drawn3._fullData.map((trace, k) => trace.legendgroup === group ? k : -1).filter((k) => k >= 0);
    const shown2 = (group) => drawn3._fullData.some((trace) => trace.legendgroup === group && trace.visible === true);
    const buttons = groups.map((group) => {
      const button2 = element("button", group, { type: "button" });
      button2.addEventListener("click", () => {
        Plotly.restyle(figure, { visible: shown2(group) ? "legendonly" : true }, members(group));
      });
      return button2;
    });
    const mark = () => {
      buttons.forEach((button2, k) => button2.setAttribute("aria-pressed", String(shown2(groups[k]))));
      walkable(figure, { ...walk, focus: figure === document.activeElement });
      changed();
    };
    drawn3.on("plotly_restyle", mark);
    buttons.forEach((button2, k) => button2.setAttribute("aria-pressed", String(shown2(groups[k]))));
    row2.append(...buttons);
    return row2;
  }

  // src/views.js
  var site5 = window.BVL_SITE;
  var keyed2 = false;
  function tour(view, keys, current) {
    const s = chosen(keys, view);
    if (!s) return;
    const index = site5.sentences.indexOf(s);
    lecture(site5, index).then((lecture2) => lecture2.part("tour")).then((story) => {
      if (!current()) return;
      const asked = keys.get("chapter") || "1";
      const number2 = /^\d{1,3}$/.test(asked) && Number(asked) >= 1 && Number(asked) <= story.length ? Number(asked) : 1;
      view.replaceChildren(titled("Tour", s));
      if (String(number2) !== asked) {
        view.append(element("p", worded("no_chapter", { asked, count: story.length }), { class: "note" }));
      }
      const chapterLink = (n) => link("tour", { ...sentenceKeys(s), chapter: String(n) });
      const go = (n) => {
        location.hash = chapterLink(n);
      };
      const pick = element("div", void 0, { class: "controls" });
      pick.append(stepper(
        "Chapter",
        story.map((c, i) => `${i + 1}/${story.length} · ${c.title}`),
        number2 - 1,
        (i) => go(i + 1),
        "chapter",
        true
      ));
      view.append(pick);
      const chapter = story[number2 - 1];
      const columns = element("div", void 0, { class: "stepper-columns" });
      const canvas = element("section", void 0, { class: "canvas", "data-point": "chapter" });
      const words3 = element("section", void 0, { class: "words" });
      columns.append(canvas, words3);
      view.append(columns);
      words3.append(element("h2", chapter.title));
      const asks = askedFor(keys);
      for (const note of asks.notes) view.insertBefore(element("p", note, { class: "note" }), columns);
      const question = asks.ask ? chapter.question : null;
      const questionKey = question && keyOf(question, JSON.stringify(sentenceKeys(s)));
      const again = () => tour(view, keys, current);
      const next = number2 < story.length ? { title: story[number2].title, href: chapterLink(number2 + 1) } : null;
      if (asks.ask && lectureMode()) nextFirst(questionKey, again, next);
      if (asks.ask && !question) words3.append(noneAsked());
      if (question && questionKey) {
        if (waits(questionKey)) {
          canvas.removeAttribute("data-point");
          canvas.append(questionOf2(question, questionKey, again));
          return;
        }
        (screen() === "lecture" ? words3 : canvas).append(answerOf(question, questionKey));
      }
      for (const line2 of chapter.lines) words3.append(paragraph(line2));
      const about = site5.views.tour;
      words3.append(element("p", worded("tour_about", about), { class: "note" }));
      if (chapter.step) {
        const [, layer, key] = /^layers\.(\d+)\.(.+)$/.exec(chapter.step) || [null, "0", chapter.step];
        words3.append(element("a", worded("open_step"), { href: link("layers", {
          ...sentenceKeys(s),
          step: key,
          layer
        }) }));
      }
      if (chapter.kind === "tokens") canvas.append(chips(s));
      if (chapter.figure) {
        const figure = element("div", void 0, { class: "figure", id: "tour-figure" });
        canvas.append(figure);
        plot(figure, chapter.figure[screen()]);
      }
    }).catch((error) => current() && failed(view, "Tour", error));
  }
  function attention(view, keys, current) {
    const s = chosen(keys, view);
    if (!s) return;
    lecture(site5, site5.sentences.indexOf(s)).then((held2) => held2.part("attention")).then((views) => {
      if (!current()) return;
      const layers3 = views.head.length;
      const model = keys.get("view") === "model";
      const layer = Math.min(Math.max(parseInt(keys.get("layer") || "0", 10) || 0, 0), layers3 - 1);
      const focus = model ? null : focusOf(keys.get("focus"), s.tokens.length);
      const go = (changes) => {
        const base = {
          ...sentenceKeys(s),
          view: model ? "model" : "head",
          layer: String(layer),
          ...focus ? { focus: focus.join("") } : {}
        };
        const keys2 = Object.fromEntries(Object.entries({ ...base, ...changes }).filter(([, value]) => value !== ""));
        location.hash = link("attention", keys2);
      };
      view.replaceChildren(titled("Attention", s));
      const row2 = element("div", void 0, { class: "controls" });
      const kinds = element("div", void 0, { class: "stages" });
      for (const [name, title] of [["head", "Head view"], ["model", "Model view"]]) {
        const b = element("button", title, { type: "button" });
        if (name === "model" === model) b.setAttribute("aria-pressed", "true");
        b.addEventListener("click", () => go({ view: name }));
        kinds.append(b);
      }
      row2.append(kinds);
      if (!model) {
        row2.append(stepper(
          "Layer",
          views.head.map((_, l) => `Layer ${l}`),
          layer,
          (l) => go({ layer: String(l) }),
          "layer",
          true
        ));
      }
      view.append(row2, element("p", worded(model ? "model_view_help" : "head_view_help"), { class: "explains" }));
      const figure = (
        /** @type {Plotted} */
        element("div", void 0, { class: "figure", id: "attention-figure" })
      );
      const shown2 = model ? views.model : views.head[layer];
      if (shown2.scrolls && screen() === "lecture") {
        const box2 = element("div", void 0, { class: "scroll-box", "data-point": "view", "data-scrolls": "" });
        box2.append(figure);
        view.append(element("p", worded("scrolls", { count: s.tokens.length })), box2);
        const room = window.innerHeight - box2.getBoundingClientRect().top - 2;
        box2.style.maxHeight = `${Math.max(240, Math.min(500, room))}px`;
      } else {
        figure.dataset.point = "view";
        view.append(figure);
      }
      const open = (tileLayer, head) => {
        location.hash = link("layers", {
          ...sentenceKeys(s),
          layer: String(tileLayer),
          head: String(head),
          // stepper
          step: "attn.probs"
        });
      };
      const wasKeyed = keyed2;
      keyed2 = false;
      const pickToken = (data) => {
        if (!Array.isArray(data) || data.length !== 2) return;
        const picked2 = `${data[0]}${data[1]}`;
        go({ focus: focus && focus.join("") === picked2 ? "" : picked2 });
      };
      const every = () => {
        keyed2 = true;
        go({ focus: "" });
      };
      const walk = model ? { pick: open } : {
        pick: (_r, _c, target) => {
          keyed2 = true;
          pickToken(target);
        },
        close: focus ? every : void 0,
        start: focus ? [focus[1], focus[0] === "q" ? 0 : 1] : null,
        // a token's row, its side's column (a site's
        focus: wasKeyed && !focus
      };
      plot(figure, shown2[screen()], walk).then(async () => {
        figure.on("plotly_click", (event) => {
          const data = event.points[0] && event.points[0].customdata;
          if (model && Array.isArray(data) && data.length === 2) open(data[0], data[1]);
          else if (!model) pickToken(data);
        });
        if (model) return;
        const after = figure.closest(".scroll-box") || figure;
        let panel = element("div");
        const listed2 = () => {
          if (!focus) return;
          const fresh = linesPanel(figure, focus, every);
          panel.replaceWith(fresh);
          panel = fresh;
        };
        if (focus) {
          await keepLines(figure, focus, { ...walk, focus: wasKeyed });
          after.after(panel);
          listed2();
        }
        after.after(headButtons(figure, walk, listed2));
      });
    }).catch((error) => current() && failed(view, "Attention", error));
  }
  function similarity(view, keys, current) {
    const s = addressed(keys);
    view.append(titled(worded("similarity_title"), s));
    const data = site5.similarity;
    if (s && s.live && data && data.yours) {
      const mine = element("div", void 0, { class: "yours-similarity" });
      view.append(mine, element("h2", worded("site_sentences")));
      if (s.pair) {
        mine.append(element("p", worded("pair_not_compared"), { class: "note" }));
      } else {
        lecture(site5, site5.sentences.indexOf(s)).then((held2) => current() ? section(mine, s, keys, held2) : void 0).catch((error) => current() && failed(view, worded("similarity_title"), error));
      }
    }
    if (!data) {
      view.append(element("p", worded("fewer_than_two"), { class: "note" }));
      return;
    }
    const why = (keys.get("why") || "").trim();
    const pairs = Object.keys(data.pairs);
    const columns = element("div", void 0, { class: "beside" });
    const controls2 = element("section"), canvas = element("section", void 0, { class: "canvas" });
    columns.append(controls2, canvas);
    view.append(columns);
    const list = element("ol", void 0, { class: "sentence-list" });
    data.texts.forEach((text) => list.append(element("li", text)));
    const pick = (
      /** @type {HTMLSelectElement} */
      element(
        "select",
        void 0,
        { "aria-label": worded("why_similar"), id: "why" }
      )
    );
    pick.append(element("option", worded("every_pair"), { value: "" }));
    for (const pair of pairs) {
      const [a, b] = pair.split(",");
      pick.append(element("option", worded("sentences_pair", { a, b }), { value: pair }));
    }
    const label = element("label", worded("why_similar"), { class: "picker" });
    label.append(pick);
    controls2.append(list, label);
    if (why && !pairs.includes(why)) {
      controls2.append(element("p", worded("no_pair", { why, count: data.texts.length }), { class: "note" }));
    }
    pick.value = pairs.includes(why) ? why : "";
    const said2 = s && s.live ? { text: s.text } : {};
    pick.addEventListener("change", () => {
      location.hash = link("similarity", { ...said2, ...pick.value ? { why: pick.value } : {} });
    });
    const chosenPair = data.pairs[pick.value];
    if (!data.matrices[0].trained) {
      controls2.append(element("p", worded("not_trained", { source: data.source }), { class: "note" }));
    }
    const asks = askedFor(keys);
    for (const note of asks.notes) controls2.append(element("p", note, { class: "note" }));
    const question = asks.ask ? chosenPair ? chosenPair.question : data.question : null;
    const questionKey = question && keyOf(question, JSON.stringify([data.texts, pick.value]));
    const draw = () => {
      canvas.replaceChildren();
      if (asks.ask && lectureMode()) nextFirst(questionKey, draw, null);
      if (question && questionKey) {
        if (waits(questionKey)) {
          canvas.append(questionOf2(question, questionKey, draw));
          return;
        }
        (screen() === "lecture" ? controls2 : canvas).append(answerOf(question, questionKey));
      }
      if (chosenPair) {
        canvas.append(paragraph(chosenPair.caption));
        const split = drawn(canvas, chosenPair.figure, "split-figure");
        if (!(s && s.live)) split.dataset.point = "split";
        controls2.append(element("p", worded("cell_is"), { class: "explains" }));
      }
      data.matrices.forEach((way, k) => {
        const div = drawn(canvas, way.figure, `similarity-${k}`);
        if (!chosenPair && k === 0 && !(s && s.live)) div.dataset.point = "cosines";
        if (!way.trained) canvas.append(element(
          "p",
          worded("way_how", { name: capitalized(way.name), how: way.how }),
          { class: "explains" }
        ));
      });
    };
    draw();
  }

  // src/analyses.js
  var site6 = window.BVL_SITE;
  function picked(page2, keys) {
    const values = {};
    const notes = [];
    for (const p of page2.pickers) {
      const asked = keys.get(p.key);
      const names = p.options.map(([value]) => value);
      if (asked === null || names.includes(asked)) {
        values[p.key] = asked === null ? p.value : asked;
        continue;
      }
      const last = names[names.length - 1];
      const past = /^\d+$/.test(asked) && /^\d+$/.test(last) && Number(asked) > Number(last);
      values[p.key] = past ? last : p.value;
      const among = /^\d+$/.test(last) ? `${names[0]} to ${last}` : names.join(", ");
      notes.push(worded("no_value", { key: p.key, asked, among, label: p.label.toLowerCase(), value: values[p.key] }));
    }
    return { values, notes };
  }
  function lines(host, said2, kind) {
    for (const line2 of said2) {
      const [first2, ...items] = line2.split("\n- ");
      if (first2.trim()) {
        const p = paragraph(first2.replace(/\n$/, ""));
        if (kind) p.className = kind;
        host.append(p);
      }
      if (items.length) {
        const list = element("ul");
        for (const entry of items) {
          const item2 = element("li");
          item2.append(paragraph(entry.replace(/^- /, "")));
          list.append(item2);
        }
        host.append(list);
      }
    }
  }
  function analysisPage(part) {
    return function(view, keys, current) {
      const s = chosen(keys, view);
      if (!s) return;
      view.append(element("p", worded("reading"), { class: "note" }));
      lecture(site6, site6.sentences.indexOf(s)).then(async (held2) => {
        const page2 = (
          /** @type {Page} */
          await held2.part(part)
        );
        const { values, notes } = picked(page2, keys);
        const shown2 = await Promise.all(page2.panels.map(async (panel) => {
          const found = panel.items[panel.by.map((key) => values[key]).join(",")];
          return (
            /** @type {Item | undefined} */
            found && "part" in found ? await held2.part(found.part) : found
          );
        }));
        if (current()) show(view, page2, part, s, values, notes, shown2, keys);
      }).catch((error) => current() && failed(view, site6.pages[part], error));
    };
  }
  function show(view, page2, part, s, values, notes, items, keys) {
    const asked = (page2.questions?.by ?? []).filter((k) => !(k in values) && keys.has(k)).map((k) => [k, keys.get(k) || ""]);
    const go = (key, value) => {
      location.hash = link(part, { ...sentenceKeys(s), ...values, [key]: value, ...Object.fromEntries(asked) });
    };
    view.replaceChildren(
      titled(page2.title, page2.any_sentence ? null : s),
      ...notes.map((note) => element("p", note, { class: "note" }))
    );
    if (page2.pickers.length) {
      const row2 = element("div", void 0, { class: "controls labelled" });
      page2.pickers.forEach((p, k) => {
        const index = p.options.findIndex(([value]) => value === values[p.key]);
        row2.append(stepper(
          p.label,
          p.options.map(([, label]) => label),
          index,
          (i) => go(p.key, p.options[Math.max(0, Math.min(i, p.options.length - 1))][0]),
          p.key,
          k === 0
        ));
      });
      view.append(row2);
    }
    const columns = element("div", void 0, { class: page2.wide ? "under" : "beside" });
    const side = element("section", void 0, { class: "side" });
    const canvas = element("section", void 0, { class: "canvas" });
    columns.append(...page2.wide ? [canvas, side] : [side, canvas]);
    view.append(columns);
    if (asksFirst(view, page2, keys, values, s, side, canvas, () => show(view, page2, part, s, values, notes, items, keys))) {
      return;
    }
    let halves = null;
    let first2 = true;
    page2.panels.forEach((panel, k) => {
      const shown2 = items[k];
      if (!shown2) return;
      lines(canvas, shown2.said);
      if (shown2.figure) {
        const host = panel.half ? halves = halves || canvas.appendChild(element("div", void 0, { class: "halves" })) : canvas;
        const div = drawn(host, shown2.figure, `figure-${part}-${k}`);
        if (first2) (panel.half ? host : div).dataset.point = part;
        first2 = false;
      }
      if (!panel.half) halves = null;
      lines(side, shown2.lines);
      for (const [said2, holds] of shown2.checks) {
        side.append(element("p", `${holds ? "✔" : "✘"} ${said2}`, { class: `result ${holds ? "ok" : "bad"}` }));
      }
      for (const target of shown2.links) {
        side.append(element("a", target.text, {
          href: link(target.page, { ...sentenceKeys(s), ...target.keys }),
          class: "open-link"
        }));
      }
    });
    lines(side, page2.side, "explains");
    for (const note of page2.notes) (first2 ? canvas : side).append(element("p", note, { class: "note" }));
    const last = canvas.lastElementChild;
    if (first2 && last instanceof HTMLElement) last.dataset.point = part;
  }
  function asksFirst(view, page2, keys, values, s, side, canvas, again) {
    const asks = askedFor(keys);
    for (const note of asks.notes) view.insertBefore(element("p", note, { class: "note" }), side.parentElement);
    if (!asks.ask || !page2.questions) return false;
    const question = page2.questions.items[page2.questions.by.map((k) => values[k] ?? keys.get(k) ?? "0").join(",")];
    const questionKey = question ? keyOf(question, JSON.stringify(sentenceKeys(s))) : null;
    if (lectureMode()) nextFirst(questionKey, again, null);
    if (!question || !questionKey) {
      side.append(noneAsked());
      return false;
    }
    if (waits(questionKey)) {
      canvas.append(questionOf2(question, questionKey, again));
      return true;
    }
    side.append(answerOf(question, questionKey));
    return false;
  }
  var headsView = analysisPage("heads");
  var rolloutView = analysisPage("rollout");
  var contributionsView = analysisPage("contributions");
  var lensView = analysisPage("lens");
  var interveneView = analysisPage("intervene");
  var attributeView = analysisPage("attribute");
  var contextsView = analysisPage("contexts");

  // src/router.js
  var site7 = window.BVL_SITE;
  var PAGES2 = {
    "": overview,
    overview,
    architecture,
    tokens,
    tour,
    layers: layers2,
    attention,
    heads: headsView,
    rollout: rolloutView,
    contributions: contributionsView,
    lens: lensView,
    similarity,
    intervene: interveneView,
    attribute: attributeView,
    contexts: contextsView
  };
  var NAMES = site7.pages;
  var WHOLE_SITE = ["", "overview", "architecture"];
  var APP_ONLY = ["compare"];
  function following(page2, keys) {
    const stops = (
      /** @type {Stop[]} */
      site7.lecture
    );
    const shows = (stop) => stop.page === page2 && Object.entries(stop.keys).every(([k, v]) => keys.get(k) === v);
    const exact = stops.map((stop, i) => shows(stop) ? i : -1).filter((i) => i >= 0);
    const onPage = stops.map((stop, i) => stop.page === page2 ? i : -1).filter((i) => i >= 0);
    const here = exact.length ? exact[exact.length - 1] : onPage.length ? onPage[0] : -1;
    const shown2 = (stop) => !typed(keys) || PAGES.includes(stop.page);
    const ahead = stops.slice(here + 1);
    const next = ahead.findIndex(shown2);
    return { ahead: next < 0 ? null : ahead[next], left: next < 0 ? ahead : ahead.slice(0, next) };
  }
  function frame(id) {
    const found = document.getElementById(id);
    if (!found) throw new Error(`The site's index.html has no #${id}: write the site again.`);
    return found;
  }
  function sentenceOf(keys, empty) {
    const kept = {};
    for (const k of ["text", "pair"]) {
      const value = keys.get(k);
      if (value !== null && (empty || value)) kept[k] = value;
    }
    return kept;
  }
  function lectureBar(page2, keys) {
    const bar = frame("next");
    bar.replaceChildren();
    if (!lectureMode()) return;
    const { ahead, left } = following(page2, keys);
    const first2 = (
      /** @type {Stop[]} */
      site7.lecture[0]
    );
    const stop = ahead || first2;
    const next = element(
      "a",
      worded(ahead ? "next" : "lecture_end", { title: stop.title }),
      {
        href: link(stop.page, { ...sentenceOf(keys, false), ...stop.keys }),
        class: ahead ? "next-view" : "next-view lecture-end"
      }
    );
    next.dataset.title = stop.title;
    next.dataset.said = next.textContent || "";
    answers(next, "next", next.textContent || "");
    bar.append(next);
    if (left.length) {
      const names = [...new Set(left.map((passed) => NAMES[passed.page]))];
      bar.append(element("p", worded("left_out", { pages: names.join(" and ") }), { class: "left-out" }));
    }
  }
  function navigation(here, keys) {
    const nav = frame("pages");
    const said2 = sentenceOf(keys, true);
    const links = Object.entries(NAMES).map(([page2, name]) => element("a", name, {
      href: link(page2, page2 === "overview" ? {} : said2),
      ...page2 === here ? { class: "here", "aria-current": "page" } : {}
    }));
    if (screen() === "browse") {
      nav.replaceChildren(...links);
    } else {
      const menu = element("details", void 0, { class: "pages-menu" });
      const list = element("div", void 0, { class: "menu" });
      list.append(...links);
      menu.append(element("summary", `☰ ${NAMES[here] || worded("pages")}`), list);
      nav.replaceChildren(menu);
    }
    frame("about").textContent = site7.about;
  }
  function overview(view) {
    const o = site7.overview;
    view.append(
      element("h1", "Overview"),
      element("p", `${o.architecture}: ${o.total.toLocaleString("en")} parameters.`)
    );
    const columns = element("div", void 0, { class: "columns" });
    const tree = element("section");
    tree.append(
      element("h2", "Module tree"),
      element("p", worded("tree_help"))
    );
    const body = element("div", void 0, { class: "tree" });
    body.innerHTML = o.tree;
    tree.append(body);
    const sunburst = element("section", void 0, { "data-point": "sunburst" });
    const figure = element("div", void 0, { id: "sunburst" });
    sunburst.append(element("h2", "Parameter sunburst"), figure);
    columns.append(tree, sunburst);
    view.append(columns, element("h2", "Sentences"));
    const list = element("div", void 0, { class: "sentences" });
    for (const s of exported()) list.append(element("a", named(s), { href: link("tokens", sentenceKeys(s)) }));
    view.append(list);
    plot(figure, o.sunburst);
  }
  function architecture(view) {
    overview(view);
    view.children[1].after(element("p", worded("architecture_note"), { class: "note" }));
  }
  function tokens(view, keys) {
    const s = chosen(keys, view);
    if (!s) return;
    view.append(titled("Tokens", s));
    if (s.notice) view.append(element("p", s.notice, { class: "note" }));
    view.append(element("p", s.text, { class: "sentence" }));
    if (s.pair) view.append(element("p", s.pair, { class: "sentence pair" }));
    const shown2 = chips(s);
    shown2.dataset.point = "tokens";
    view.append(element("p", worded(s.pair ? "tokens_pair" : "tokens_single", { count: s.tokens.length })), shown2);
    if (site7.vocabulary) view.append(element("p", site7.vocabulary, { class: "note" }));
    if (s.unknown) view.append(element("p", s.unknown, { class: "note" }));
  }
  function layers2(view, keys, current) {
    const s = chosen(keys, view);
    if (!s) return;
    view.append(element("p", worded("reading"), { class: "note" }));
    layers(view, keys, site7.sentences.indexOf(s), link, current).catch((error) => current() && failed(view, "Layers", error));
  }
  var renders = 0;
  function alive(render) {
    return () => render === renders;
  }
  function show2() {
    const render = ++renders;
    const { page: page2, keys } = route();
    const view = frame("view");
    view.replaceChildren();
    document.body.classList.toggle("lecture", screen() === "lecture");
    navigation(page2 === "architecture" ? "overview" : page2 || "overview", keys);
    lectureBar(page2 || "overview", keys);
    placeBox(page2);
    const draw = PAGES2[page2];
    if (draw && !WHOLE_SITE.includes(page2) && wanted(keys)) {
      if (!PAGES.includes(page2)) return elsewhere(view, NAMES[page2], keys);
      const current = alive(render);
      ready(view, keys, current).then((ready2) => {
        if (!ready2) return;
        view.replaceChildren();
        drawn2(draw, view, page2, keys, current);
      }).catch((error) => current() && failed(view, NAMES[page2], error));
      return;
    }
    if (draw) return drawn2(draw, view, page2, keys, alive(render));
    const holds = Object.values(NAMES).join(", ");
    cannot(view, APP_ONLY.includes(page2) ? worded("app_only", { page: page2, why: worded(`${page2}_needs`), holds }) : worded("no_page", { page: page2, holds }));
  }
  function drawn2(draw, view, page2, keys, current) {
    const s = addressed(keys);
    if (s && s.live && !PAGES.includes(page2) && !WHOLE_SITE.includes(page2)) {
      return elsewhere(view, NAMES[page2], keys);
    }
    return draw(view, keys, current);
  }
  function start2() {
    window.addEventListener("hashchange", show2);
    listen(document);
    skipLink(worded("skip_to_figure"));
    box();
    Promise.all(['16px "Source Sans"', '16px "Source Code"'].map((font) => document.fonts.load(font))).catch(() => null).then(show2);
  }

  // src/main.js
  window.BVL = {
    fixed,
    general,
    num,
    stepName,
    explain,
    lecture,
    Lecture,
    explanationFigure,
    attentionViews,
    analysed: analysed2,
    tour: { tourOf },
    tokenizing: { tokenized },
    modelParts: { stored },
    similar: { compared },
    yours: { find },
    cellKeys: { PAGE_ROWS, WINDOW, moved, cellWords, windowStart },
    shortcuts: { SHORTCUTS, shortcutOf }
  };
  start2();
})();
