// The values an expression of a recipe or a template gives (recipe.js evaluates them): a number, a string, a
// boolean, null, an array of numbers (numbers.js Unpacked: its shape and float64 data), a list (of labels), or a part
// of a figure; and what every word reads of them.

/** @typedef {import("./numbers.js").Unpacked} Unpacked */
/** @typedef {number | string | boolean | null | Unpacked | unknown[] | Record<string, unknown>} Value */

/**
 * @param {Value | undefined} value
 * @returns {value is Unpacked}
 */
export const isArray = (value) => typeof value === "object" && value !== null && "shape" in value;

/** @param {Value} value */
export function number(value) {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return Number(value);
  throw new Error(`A recipe gave ${String(value)} where it needs a number.`);
}

/**
 * A value as the page reads it: an array's numbers as a list.
 * @param {Value} value
 * @returns {unknown}
 */
export function plain(value) {
  if (!isArray(value)) return value;
  if (value.shape.length <= 1) return Array.from(value.data);
  const [rows, ...rest] = value.shape, size = rest.reduce((a, b) => a * b, 1);
  return Array.from({ length: rows },
                    (_, r) => plain({ shape: rest, data: value.data.subarray(r * size, (r + 1) * size) }));
}

/**
 * A vector of numbers.
 * @param {ArrayLike<number>} values
 * @returns {Unpacked}
 */
export const vector = (values) => ({ shape: [values.length], data: Float64Array.from(values) });

/**
 * f on numbers, elementwise on arrays (a number beside an array goes with each of its numbers).
 * @param {(...args: any[]) => Value} f
 * @param {Value[]} args
 * @returns {Value}
 */
export function elementwise(f, args) {
  const arrays = args.filter(isArray);
  if (!arrays.length) return f(...args);
  const { shape, data } = arrays[0];
  const out = new Float64Array(data.length);
  for (let n = 0; n < data.length; n++) out[n] = number(f(...args.map((a) => (isArray(a) ? a.data[n] : a))));
  return { shape, data: out };
}

/**
 * @param {Value} value
 * @returns {number[]}
 */
export const numbersOf = (value) => (isArray(value) ? Array.from(value.data)
  : Array.isArray(value) ? value.map((x) => number(/** @type {Value} */ (x))) : [number(value)]);

/**
 * A list's items, or an array's numbers.
 * @param {Value} value
 * @returns {unknown[]}
 */
export const listOf = (value) => (isArray(value) ? Array.from(value.data) : /** @type {unknown[]} */ (value));
