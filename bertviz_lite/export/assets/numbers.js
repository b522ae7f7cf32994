// The site's numbers: the arrays of a lecture's data (base64 float32 or int32, as export/steps.py packs them)
// and numbers written as Python writes them in the app's formulas (ops/worked.py: num, plus; Python's format
// specs .4f, .4g, .6g, g), so that a formula in the browser reads character for character as the app's.
"use strict";
(function () {
  const BVL = (window.BVL = window.BVL || {});
  const FLOAT32_MIN = -3.4028234663852886e38;  // the most negative float32: the mask's "may not see"
  const MASKED_BELOW = FLOAT32_MIN / 2;  // ops/worked.py: a score this low was masked

  // closeness.py's bound for one pair, its constants from the site's data (`tolerances`): |got − expected| ≤ atol +
  // rtol·|expected|, equal values (a mask's) agreeing
  function within(got, expected, { atol, rtol }) {
    return got === expected || Math.abs(got - expected) <= atol + rtol * Math.abs(expected);
  }

  function unpack(packed) {  // {shape, type, data} → {shape, data: a typed array}
    const bytes = Uint8Array.from(atob(packed.data), (c) => c.charCodeAt(0));
    const Kind = packed.type === "i4" ? Int32Array : Float32Array;
    return { shape: packed.shape, data: new Kind(bytes.buffer) };
  }

  function offset(array, index) {  // the flat position of a (possibly partial) index
    let at = 0;
    array.shape.forEach((size, axis) => { at = at * size + (index[axis] || 0); });
    return at;
  }

  function get(array, ...index) {
    return array.data[offset(array, index)];
  }

  function row(array, ...leading) {  // the last axis at `leading` indices, as numbers (float64, exactly)
    const n = array.shape[array.shape.length - 1];
    const start = offset(array, leading);
    return Array.from(array.data.subarray(start, start + n));
  }

  function column(array, leading, last) {  // array[...leading, :, last]: the second-to-last axis
    const rows = array.shape[array.shape.length - 2];
    return Array.from({ length: rows }, (_, r) => get(array, ...leading, r, last));
  }

  function matrix(array, ...leading) {  // the last two axes at `leading`, as rows of numbers
    const rows = array.shape[array.shape.length - 2];
    return Array.from({ length: rows }, (_, r) => row(array, ...leading, r));
  }

  function fixed(value, decimals) {  // Python's f"{value:.Nf}": correctly rounded, ties to even, "-0.0000" kept
    if (!isFinite(value)) return isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    const size = Math.abs(value);
    let text = size < 1e21 ? size.toFixed(decimals)  // correctly rounded, but an exact tie goes up
      : BigInt(size).toString() + (decimals ? "." + "0".repeat(decimals) : "");  // (a whole number, in full)
    const exact = size < 1e21 ? size.toFixed(100) : "";  // the value's own decimal digits
    if (new RegExp(`\\.\\d{${decimals}}50*$`).test(exact)) {  // exactly halfway: Python takes the even neighbour
      const cut = exact.slice(0, exact.indexOf(".") + (decimals ? 1 + decimals : 0));
      if (Number(cut[cut.length - 1]) % 2 === 0) text = cut;
    }
    const negative = value < 0 || Object.is(value, -0);
    return (negative ? "-" : "") + text;
  }

  function general(value, digits) {  // Python's f"{value:.Ng}" ("g" alone is .6g)
    if (value === 0) return Object.is(value, -0) ? "-0" : "0";
    if (!isFinite(value)) return isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    const [mantissa, exponentText] = Math.abs(value).toExponential(digits - 1).split("e");
    const exponent = Number(exponentText);
    const sign = value < 0 ? "-" : "";
    if (exponent < -4 || exponent >= digits) {
      const trimmed = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
      return `${sign}${trimmed}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
    }
    const text = fixed(Math.abs(value), Math.max(0, digits - 1 - exponent));
    return sign + (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);
  }

  function num(value) {  // ops/worked.py num: 4 decimals, or 4 significant digits when large; the mask as −∞
    if (value <= MASKED_BELOW) return "−∞";
    return Math.abs(value) < 1e4 ? fixed(value, 4) : general(value, 4);
  }

  function plus(value) {  // ops/worked.py plus: "+ 0.0532" or "− 0.0532"
    return value < 0 ? `− ${num(-value)}` : `+ ${num(value)}`;
  }

  function signed(value) {  // Python's f"{value:+d}"
    return (value >= 0 ? "+" : "-") + Math.abs(value);
  }

  function exactSum(values) {  // math.fsum's exactly rounded sum (Shewchuk's partials, as CPython computes it)
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

  function at(array, i) {  // array[i]: an array of its own, {shape, data}, on the same bytes
    const rest = array.shape.slice(1), n = rest.reduce((a, b) => a * b, 1);
    return { shape: rest, data: array.data.subarray(i * n, (i + 1) * n) };
  }

  function dot(a, b) {  // Σ a_k b_k in float64, in order
    let total = 0;
    for (let k = 0; k < a.length; k += 1) total += a[k] * b[k];
    return total;
  }

  const norm = (a) => Math.sqrt(dot(a, a));

  Object.assign(BVL, { FLOAT32_MIN, MASKED_BELOW, within, unpack, get, row, column, matrix, fixed, general, num, plus, signed, exactSum,
                       at, dot, norm });
})();
