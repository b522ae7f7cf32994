// The activation functions the families use, by the name the app gives them (a node's "function"), computed in
// float64 in the browser: the model computed them in float32, so a recomputed value agrees to about 1e-7.

/**
 * erf(x) to about 1e-15: Taylor's series near 0, the continued fraction of erfc beyond.
 * @param {number} x
 * @returns {number}
 */
function erf(x) {
  const a = Math.abs(x);
  if (a < 2.5) {
    let term = a, total = a;
    for (let n = 1; n < 80; n++) {
      term *= (-a * a) / n;
      total += term / (2 * n + 1);
    }
    return Math.sign(x) * total * 2 / Math.sqrt(Math.PI);
  }
  let fraction = a;
  for (let n = 60; n >= 1; n--) fraction = a + (n / 2) / fraction;
  return Math.sign(x) * (1 - Math.exp(-a * a) / (Math.sqrt(Math.PI) * fraction));
}

/** @param {number} x */
const tanhGelu = (x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
/** @type {Record<string, (x: number) => number>} */
const FUNCTIONS = {
  gelu: (x) => 0.5 * x * (1 + erf(x / Math.SQRT2)),
  gelu_new: tanhGelu, gelu_fast: tanhGelu, gelu_pytorch_tanh: tanhGelu,
  quick_gelu: (x) => x / (1 + Math.exp(-1.702 * x)),
  silu: (x) => x / (1 + Math.exp(-x)), swish: (x) => x / (1 + Math.exp(-x)),
  relu: (x) => Math.max(0, x), tanh: Math.tanh,
};

/**
 * The activation function the app names `name`.
 * @param {string} name
 * @returns {(x: number) => number}
 */
export function activation(name) {
  const f = FUNCTIONS[name];
  if (!f) throw new Error(`The site cannot compute ${name} in the browser: the app explains this cell.`);
  return f;
}
