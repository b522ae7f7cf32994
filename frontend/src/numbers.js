// The site's numbers: the arrays of a lecture's data (base64 float32 or int32, as export/steps.py packs them)
// and numbers written as Python writes them in the app's formulas (ops/worked.py: num, plus; Python's format
// specs .4f, .4g, .6g, g, .Ne, +d and round), so that a formula in the browser reads character for character as
// the app's. A leaf: it reads no global of the page, so that node's tests import it as it is (test/numbers.test.js).

/**
 * An array as export/steps.py `packed` writes it into the site's scripts: its shape, its element type (float32 or
 * int32, little-endian) and its bytes in base64.
 * @typedef {{ shape: number[], type: "f4" | "i4", data: string }} Packed
 */

/**
 * An array as the site's scripts compute with it: its shape and its numbers, row-major (a view on the unpacked
 * bytes, or numbers the browser computed: float64 where it computed them itself).
 * @typedef {{ shape: number[], data: Float32Array | Int32Array | Float64Array }} Unpacked
 */

export const FLOAT32_MIN = -3.4028234663852886e38;  // the most negative float32: the mask's "may not see"
export const MASKED_BELOW = FLOAT32_MIN / 2;  // ops/worked.py: a score this low was masked

/** @typedef {{ atol: number, rtol: number }} Tolerance */

/**
 * closeness.py's bound for one pair, its constants from the site's data (`tolerances`): |got − expected| ≤ atol +
 * rtol·|expected|, equal values (a mask's) agreeing
 * @param {number} got
 * @param {number} expected
 * @param {Tolerance} tolerance
 * @returns {boolean}
 */
export function within(got, expected, { atol, rtol }) {
  return got === expected || Math.abs(got - expected) <= atol + rtol * Math.abs(expected);
}

/**
 * {shape, type, data} → {shape, data: a typed array}
 * @param {Packed} packed
 * @returns {Unpacked}
 */
export function unpack(packed) {
  const bytes = Uint8Array.from(atob(packed.data), (c) => c.charCodeAt(0));
  const Kind = packed.type === "i4" ? Int32Array : Float32Array;
  return { shape: packed.shape, data: new Kind(bytes.buffer) };
}

/**
 * The flat position of a (possibly partial) index.
 * @param {Unpacked} array
 * @param {number[]} index
 * @returns {number}
 */
function offset(array, index) {
  let at = 0;
  array.shape.forEach((size, axis) => { at = at * size + (index[axis] || 0); });
  return at;
}

/**
 * array[...index]
 * @param {Unpacked} array
 * @param {...number} index
 * @returns {number}
 */
export function get(array, ...index) {
  return array.data[offset(array, index)];
}

/**
 * The last axis at `leading` indices, as numbers (float64, exactly).
 * @param {Unpacked} array
 * @param {...number} leading
 * @returns {number[]}
 */
export function row(array, ...leading) {
  const n = array.shape[array.shape.length - 1];
  const start = offset(array, leading);
  return Array.from(array.data.subarray(start, start + n));
}

/**
 * The last two axes at `leading`, as rows of numbers.
 * @param {Unpacked} array
 * @param {...number} leading
 * @returns {number[][]}
 */
export function matrix(array, ...leading) {
  const rows = array.shape[array.shape.length - 2];
  return Array.from({ length: rows }, (_, r) => row(array, ...leading, r));
}

/**
 * Python's f"{value:.Nf}": correctly rounded, ties to even, "-0.0000" kept.
 * @param {number} value
 * @param {number} decimals
 * @returns {string}
 */
export function fixed(value, decimals) {
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

/**
 * |value| in exponent notation with `decimals` digits after the point, as Python rounds it: [mantissa, exponent].
 * toExponential is correctly rounded but takes an exact tie up; Python takes the even neighbour, so a tie whose
 * kept digit is even is cut there instead. The value's own decimal digits say which is a tie: toFixed(100) writes
 * them all where the value is a whole number of 2⁻¹⁰⁰ (any other has over 70 significant digits, so no tie at the
 * precisions the site writes).
 * @param {number} size  finite, not negative
 * @param {number} decimals
 * @returns {[string, number]}
 */
function exponential(size, decimals) {
  const [mantissa, exponent] = size.toExponential(decimals).split("e");
  const exact = size >= 1e21 ? BigInt(size).toString() : Number.isInteger(size * 2 ** 100) ? size.toFixed(100) : "";
  const whole = exact.indexOf(".") < 0 ? exact.length : exact.indexOf(".");  // digits before the point
  const digits = exact.replace(".", ""), first = digits.search(/[1-9]/);
  const significant = first < 0 ? "" : digits.slice(first);
  if (new RegExp(`^\\d{${decimals + 1}}50*$`).test(significant) && Number(significant[decimals]) % 2 === 0) {
    const kept = significant.slice(0, decimals + 1);  // exactly halfway, the last kept digit even: cut, not raised
    return [kept[0] + (decimals ? "." + kept.slice(1) : ""), whole - 1 - first];
  }
  return [mantissa, Number(exponent)];
}

/**
 * Python's format(value, spec) for the specifications the package's templates use: none (a string, or a whole
 * number, as str() writes it), and a number's ".Nf", ".Ng", "g", ".Ne", with "+" before for a sign always, "+d";
 * and a formula's "num" and "plus" (ops/working.py FORMULAS).
 * @param {unknown} value
 * @param {string} spec
 * @returns {string}
 */
export function formatted(value, spec) {
  if (!spec) return String(value);
  if (typeof value === "number" && (spec === "num" || spec === "plus" || spec === "+d")) {
    return spec === "num" ? num(value) : spec === "plus" ? plus(value) : signed(value);  // a formula's (ops/working.py)
  }
  const parts = /^(\+)?(z)?(?:\.(\d+))?([fge])$/.exec(spec);
  if (!parts || typeof value !== "number") {
    throw new Error(`A template asks for {…:${spec}} of ${String(value)}: the site writes .Nf, .Ng, g, .Ne (z: no "-0"), +d, num and plus of numbers.`);
  }
  const [, sign, zero, digits, kind] = parts;
  let text = kind === "f" ? fixed(value, Number(digits ?? 6)) : kind === "g" ? general(value, Number(digits ?? 6))
    : scientific(value, Number(digits ?? 6));
  if (zero && /^-0(\.0*)?(e[+-]\d+)?$/.test(text)) text = text.slice(1);  // Python's "z": a zero is not negative
  return sign && !text.startsWith("-") ? `+${text}` : text;
}

/**
 * Python's f"{value:.Ng}" ("g" alone is .6g).
 * @param {number} value
 * @param {number} digits
 * @returns {string}
 */
export function general(value, digits) {
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

/**
 * Python's f"{value:.Ne}".
 * @param {number} value
 * @param {number} digits
 * @returns {string}
 */
function scientific(value, digits) {
  if (!isFinite(value)) return isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  const [mantissa, e] = exponential(Math.abs(value), digits);
  const negative = value < 0 || Object.is(value, -0);
  return `${negative ? "-" : ""}${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/**
 * stepthrough/words.py difference: a check's difference in exponent notation with `digits` after the point, its
 * minus signs "−" (a line may break after a hyphen).
 * @param {number} value
 * @param {number} [digits]
 * @returns {string}
 */
export function difference(value, digits = 1) {
  return scientific(value, digits).replace(/-/g, "−");
}

/**
 * ops/worked.py num: 4 decimals, or 4 significant digits when large; the mask as −∞.
 * @param {number} value
 * @returns {string}
 */
export function num(value) {
  if (value <= MASKED_BELOW) return "−∞";
  return Math.abs(value) < 1e4 ? fixed(value, 4) : general(value, 4);
}

/**
 * ops/worked.py plus: "+ 0.0532" or "− 0.0532".
 * @param {number} value
 * @returns {string}
 */
function plus(value) {
  return value < 0 ? `− ${num(-value)}` : `+ ${num(value)}`;
}

/**
 * Python's f"{value:+d}".
 * @param {number} value
 * @returns {string}
 */
function signed(value) {
  return (value >= 0 ? "+" : "-") + Math.abs(value);
}

/**
 * Python's round: a half goes to the even neighbour.
 * @param {number} x
 * @returns {number}
 */
export function pyRound(x) {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * math.fsum's exactly rounded sum (Shewchuk's partials, as CPython computes it).
 * @param {Iterable<number>} values
 * @returns {number}
 */
export function exactSum(values) {
  /** @type {number[]} */
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

/**
 * array[i]: an array of its own, {shape, data}, on the same bytes.
 * @param {Unpacked} array
 * @param {number} i
 * @returns {Unpacked}
 */
export function at(array, i) {
  const rest = array.shape.slice(1), n = rest.reduce((a, b) => a * b, 1);
  return { shape: rest, data: array.data.subarray(i * n, (i + 1) * n) };
}

/**
 * Σ a_k b_k in float64, in order.
 * @param {ArrayLike<number>} a
 * @param {ArrayLike<number>} b
 * @returns {number}
 */
function dot(a, b) {
  let total = 0;
  for (let k = 0; k < a.length; k += 1) total += a[k] * b[k];
  return total;
}

/**
 * ‖a‖, in float64.
 * @param {ArrayLike<number>} a
 * @returns {number}
 */
export const norm = (a) => Math.sqrt(dot(a, a));
