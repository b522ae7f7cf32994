// GENERATED FILE: do not edit by hand. Built from frontend/src (entry src/app_into_view.js) by `npm run build` in
// frontend/ (esbuild, see frontend/build.mjs); edit the modules there and build again. tests/test_frontend.py
// checks that this file is what the modules build to.

// src/numbers.js
var FLOAT32_MIN = -34028234663852886e22;
var MASKED_BELOW = FLOAT32_MIN / 2;
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
function pyRound(x) {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// src/values.js
var isArray = (value) => typeof value === "object" && value !== null && "shape" in value;
function number(value) {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return Number(value);
  throw new Error(`A recipe gave ${String(value)} where it needs a number.`);
}
var vector = (values) => ({ shape: [values.length], data: Float64Array.from(values) });
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
  const shown = chars(unescaped(label));
  return shown.length <= longest ? label : `${escaped(shown.slice(0, longest - 1).join(""))}…`;
}
function wrapped(text, width) {
  if (Array.isArray(text)) return text.flatMap((part) => wrapped(part, width));
  const lines = [];
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && chars(lines[last]).length + 1 + chars(word).length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [""];
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
var sliced = (v, start, stop) => isArray(v) ? vector(v.data.subarray(start, Math.max(start, stop))) : (
  /** @type {unknown[]} */
  v.slice(start, stop)
);
var asValue = (items) => items.every((x) => typeof x === "number") ? vector(
  /** @type {number[]} */
  items
) : items;
var itemsOf = (part) => isArray(part) ? Array.from(part.data) : Array.isArray(part) ? part : [part];
function pooled(matrix, step) {
  const [rows, cols] = matrix.shape, out = [Math.ceil(rows / step), Math.ceil(cols / step)];
  const data = new Float64Array(out[0] * out[1]);
  for (let i = 0; i < out[0]; i++) {
    for (let j = 0; j < out[1]; j++) {
      let sum = 0, count = 0;
      for (let r = i * step; r < Math.min(rows, (i + 1) * step); r++) {
        for (let c = j * step; c < Math.min(cols, (j + 1) * step); c++) {
          const v = matrix.data[r * cols + c];
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
    const runs = numbersOf(counts), start = runs.slice(0, k).reduce((s, n) => s + n, 0);
    return { shape: [runs[k]], data: (
      /** @type {Unpacked} */
      flat.data.subarray(start, start + runs[k])
    ) };
  },
  cat: (c, ...parts) => asValue(parts.flatMap(itemsOf)),
  slice: (c, v, start, stop) => sliced(v, start, stop),
  taken: (c, v, indices) => {
    const at = numbersOf(indices);
    return isArray(v) ? vector(at.map((i) => v.data[i])) : at.map((i) => (
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
  pooled: (c, matrix, step) => pooled(
    /** @type {Unpacked} */
    matrix,
    step
  )
};

// src/cell_keys.js
var announcer = (
  /** @type {HTMLElement | null} */
  null
);
function announce(words2) {
  if (!announcer || !announcer.isConnected) {
    announcer = document.createElement("div");
    announcer.className = "visually-hidden";
    announcer.setAttribute("aria-live", "polite");
    document.body.append(announcer);
  }
  announcer.textContent = words2;
}

// src/app_into_view.js
var LAID_OUT_MS = 400;
function words(part) {
  const copy = (
    /** @type {HTMLElement} */
    part.cloneNode(true)
  );
  copy.querySelectorAll('[aria-hidden="true"]').forEach((icon) => icon.remove());
  return (copy.textContent || "").replace(/\s+/g, " ").trim();
}
function bring({ data }) {
  const look = () => {
    const part = (
      /** @type {HTMLElement | null} */
      document.querySelector(`.st-key-${data.part}`)
    );
    if (!part) return;
    const box = part.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
      part.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
    }
    announce(words(part));
  };
  const timer = setTimeout(look, LAID_OUT_MS);
  return () => clearTimeout(timer);
}
export {
  bring as default
};
