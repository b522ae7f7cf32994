// A cell explained from its operation's recipe (bertviz_lite/ops/recipe.py: the numbers it reads, what is computed
// from them, its terms and its formula, declared once in Python and handed over with the model's data): the same
// evaluator as bertviz_lite/ops/working.py, word for word, which says what each word means. The app's explanation
// and this one are one recipe's, held equal by test/recipe.test.js (fixtures the Python side worked out) and
// tests/test_export_explain.py (every family in a browser).
import { FLOAT32_MIN, MASKED_BELOW, exactSum, norm } from "./numbers.js";
import { said } from "./page.js";  // a template filled as Python fills it (`num` and `plus` too: numbers.js formatted)
import { activation } from "./activations.js";
import { headName } from "./steps.js";
import { isArray, number, plain, vector, elementwise, numbersOf } from "./values.js";
import { FIGURE_WORDS, asValue } from "./figure_words.js";

/** @typedef {import("./values.js").Unpacked} Unpacked */
/** @typedef {import("./values.js").Value} Value */
/**
 * An expression: a word and its arguments, or a number or string as it is.
 * @typedef {number | string | boolean | null | TreeList} Tree
 */
/** @typedef {Array<Tree>} TreeList */
/**
 * A recipe as ops/recipe.py Recipe.to_json writes it.
 * @typedef {{ let: [string, Tree][], formula: Tree, value: Tree, terms: [Tree, Tree][],
 *             inputs: Record<string, Tree>, labels: Record<string, Tree>, figure: Record<string, Tree> }} Recipe
 */
/**
 * What a recipe reads of its cell (steps.js Cell, with its module's numbers fetched: explain.js).
 * @typedef {{ at: number[], head: number | null, node: { inputs: string[], module?: string | null,
 *             attrs?: Record<string, unknown> },
 *             array: Unpacked, input: (k: number) => Unpacked, source: (name: string) => Unpacked,
 *             token: (i: number) => string, row: (i: number, of?: Unpacked) => string,
 *             tokens: string[], ids: Record<string, number[]>, visible: (i: number, j: number) => boolean,
 *             step: (name: string) => Unpacked, module: ModuleNumbers }} RecipeCell
 */
/**
 * What a narration reads of its chapter's step (tour.js, as tour/narration.py Step): its array and inputs, the
 * chosen head's part of it (`mine`) and that head, the chosen token, where it is, the numbers of heads and tokens.
 * @typedef {{ array: Unpacked, input: (k: number) => Unpacked, head: number | null, mine: Unpacked, chosen: number,
 *             where: string, heads: number, length: number, tok: (i: number) => string }} StepContext
 */
/**
 * A chapter's narration, as ops/telling.py Telling.to_json writes it.
 * @typedef {{ let: [string, Tree][], sentences: Tree[] }} Telling
 */
/**
 * A module's numbers, as far as the recipe reads them.
 * @typedef {{ weight?: Unpacked | null, bias?: Unpacked | null, eps?: number, function?: string,
 *             buffer?: (name: string) => Unpacked, tableRow?: (id: number) => Unpacked }} ModuleNumbers
 */
/**
 * A cell's account, as ops/worked.py Worked.
 * @typedef {{ formula: string, inputs: Record<string, unknown>, recomputed: number,
 *             terms: [string, number][], labels: Record<string, unknown>, figure: Record<string, unknown> }} Worked
 */

/**
 * The words a recipe uses, for what must be fetched before it is worked out (the module's weights).
 * @param {Tree} tree
 * @param {Set<string>} [found]
 * @returns {Set<string>}
 */
export function wordsOf(tree, found = new Set()) {
  if (Array.isArray(tree)) {
    if (typeof tree[0] === "string") found.add(tree[0]);
    tree.forEach((t) => wordsOf(t, found));
  }
  return found;
}

/**
 * The names a recipe or a telling binds, in order, each able to use those before it.
 * @param {[string, Tree][]} lets
 * @param {RecipeCell} cell
 * @returns {Record<string, Value>}
 */
function bound(lets, cell) {
  /** @type {Record<string, Value>} */
  const env = {};
  for (const [name, tree] of lets) env[name] = evaluate(tree, cell, env);
  return env;
}

/**
 * The recipe's account of the cell.
 * @param {Recipe} recipe
 * @param {RecipeCell} cell
 * @returns {Worked}
 */
export function workedOut(recipe, cell) {
  const env = bound(recipe.let, cell);
  /** @type {[string, number][]} */
  const terms = [];
  for (const [label, tree] of recipe.terms) {
    const value = evaluate(tree, cell, env);
    if (value === null) continue;
    if (isArray(value)) {
      Array.from(value.data).forEach((v, k) => terms.push([labelled(label, cell, { ...env, k }), v]));
    } else {
      terms.push([String(typeof label === "string" ? label : evaluate(label, cell, env)), number(value)]);
    }
  }
  env.terms_sum = exactSum(terms.map(([, v]) => v));
  const recomputed = recipe.value === null ? env.terms_sum : number(evaluate(recipe.value, cell, env));
  /** @param {Record<string, Tree>} trees */
  const named = (trees) => Object.fromEntries(Object.entries(trees).map(([k, t]) => [k, plain(evaluate(t, cell, env))])
    .filter(([, v]) => v !== null));
  return { formula: String(evaluate(recipe.formula, cell, env)), inputs: named(recipe.inputs), recomputed, terms,
           labels: named(recipe.labels), figure: named(recipe.figure) };
}

/**
 * A narrator's sentences worked out on a chapter's step (ops/working.py told).
 * @param {Telling} telling
 * @param {StepContext} context
 * @returns {string[]}
 */
export function toldOf(telling, context) {
  const s = /** @type {any} */ (context);  // the words a narration uses are the step's (STEP_WORDS)
  const env = bound(telling.let, s);
  return telling.sentences.map((tree) => evaluate(tree, s, env)).filter((v) => v !== null).map(String);
}

/**
 * A telling worked out over named values alone (ops/working.py told_over: a chapter that is no step's).
 * @param {Telling} telling
 * @param {Record<string, Value>} names
 * @returns {string[]}
 */
export function toldOver(telling, names) {
  const env = boundIn(telling.let, null, names);
  return telling.sentences.map((tree) => evaluate(tree, /** @type {any} */ (null), env)).filter((v) => v !== null)
    .map(String);
}

/**
 * The names an asking binds (ops/working.py bound: on a chapter's step, or with `context` null over `names` alone).
 * @param {[string, Tree][]} lets
 * @param {StepContext | null} context
 * @param {Record<string, Value>} [names]
 * @returns {Record<string, Value>}
 */
export function boundIn(lets, context, names = {}) {
  /** @type {Record<string, Value>} */
  const env = { ...names };
  for (const [name, tree] of lets) env[name] = evaluate(tree, /** @type {any} */ (context), env);
  return env;
}

/**
 * One expression's value on a chapter's step (or none) with the names bound (an asking's parts: asked.js).
 * @param {Tree} tree
 * @param {StepContext | null} context
 * @param {Record<string, Value>} env
 * @returns {Value}
 */
export function evaluatedIn(tree, context, env) {
  return evaluate(tree, /** @type {any} */ (context), env);
}

/**
 * @param {Tree} label
 * @param {RecipeCell} cell
 * @param {Record<string, Value>} env
 */
function labelled(label, cell, env) {
  return String(typeof label === "string" ? said(label, env) : evaluate(label, cell, env));
}

/**
 * array[index...], None a whole axis, as numpy indexes.
 * @param {Unpacked} array
 * @param {(number | null)[]} index
 * @returns {Value}
 */
function indexed(array, index) {
  const strides = array.shape.map((_, axis) => array.shape.slice(axis + 1).reduce((a, b) => a * b, 1));
  let base = 0;
  /** @type {number[]} */
  const kept = [];
  array.shape.forEach((size, axis) => {
    const i = axis < index.length ? index[axis] : null;
    if (i === null || i === undefined) kept.push(axis);
    else {
      if (!(i >= 0 && i < size)) throw new Error(`The index ${i} is outside an axis of ${size}.`);
      base += i * strides[axis];
    }
  });
  if (!kept.length) return array.data[base];
  const shape = kept.map((axis) => array.shape[axis]), total = shape.reduce((a, b) => a * b, 1);
  const data = new Float64Array(total);
  for (let n = 0; n < total; n++) {
    let rest = n, at = base;
    for (let k = kept.length - 1; k >= 0; k--) {
      at += (rest % shape[k]) * strides[kept[k]];
      rest = Math.floor(rest / shape[k]);
    }
    data[n] = array.data[at];
  }
  return { shape, data };
}

/**
 * Python's %: the sign of the divisor.
 * @param {number} a
 * @param {number} b
 */
const modulo = (a, b) => ((a % b) + b) % b;

/** @type {Record<string, (...args: any[]) => Value>} */
const ARITHMETIC = {
  "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b, "/": (a, b) => a / b,
  "//": (a, b) => Math.floor(a / b), "%": modulo, "<": (a, b) => a < b, "<=": (a, b) => a <= b,
  "==": (a, b) => a === b, "!=": (a, b) => a !== b,
  min: Math.min, max: Math.max, abs: Math.abs, exp: Math.exp, sqrt: Math.sqrt, cos: Math.cos, sin: Math.sin,
  log: Math.log, log10: Math.log10, floor: Math.floor, ceil: Math.ceil, f32: Math.fround,
};

/** @type {Record<string, (cell: RecipeCell, ...args: any[]) => Value>} */
const WORDS = {
  at_index: (c, k) => c.at[k], rank: (c) => c.at.length, head: (c) => c.head, step: (c) => c.array,
  input: (c, k) => c.input(k), source: (c, name) => c.source(name), input_name: (c, k) => c.node.inputs[k],
  attr: (c, name, otherwise) => /** @type {Value} */ (c.node.attrs?.[name] ?? otherwise),
  module: (c) => c.node.module ?? null,
  weight: (c, part) => (part === "bias" ? c.module.bias : c.module.weight) ?? null,
  eps: (c) => c.module.eps ?? null, function: (c) => c.module.function ?? null,
  buffer: (c, name) => /** @type {NonNullable<ModuleNumbers["buffer"]>} */ (c.module.buffer)(name),
  ids: (c, name) => vector(c.ids[name]), table_row: (c, id) => /** @type {NonNullable<ModuleNumbers["tableRow"]>} */
  (c.module.tableRow)(id), cache: (c, name) => c.step(name),
  token: (c, i) => c.token(i), token_text: (c, i) => c.tokens[i], row: (c, i, of) => c.row(i, of ?? undefined),
  mask_bias: (c, i, j) => (c.visible(i, j) ? 0 : FLOAT32_MIN),
  head_name: (c, h, heads, count) => headName(h, heads, count),
  act: (c, x) => elementwise(activation(String(WORDS.function(c))), [x]),
  linspace: (c, a, b, n) => {
    const step = (b - a) / (n - 1), xs = Array.from({ length: n }, (_, k) => a + k * step);
    xs[n - 1] = b;  // as numpy's linspace ends
    return vector(xs);
  },
  clip: (c, x, low, high) => elementwise((v) => Math.min(Math.max(v, low), high), [x]),
  sum: (c, v) => numbersOf(v).reduce((a, b) => a + b, 0), fsum: (c, v) => exactSum(numbersOf(v)),
  mean: (c, v) => numbersOf(v).reduce((a, b) => a + b, 0) / numbersOf(v).length,
  dot: (c, u, v) => { const a = numbersOf(u), b = numbersOf(v); return a.reduce((s, x, k) => s + x * b[k], 0); },
  max_of: (c, v) => numbersOf(v).reduce((a, b) => Math.max(a, b), -Infinity),  // (not Math.max(...): 512² numbers
  // would pass the engine's limit on a call's arguments)
  len: (c, v) => (isArray(v) ? v.shape[0] : Array.isArray(v) ? v.length : Array.from(String(v)).length),
  str: (c, x) => String(x), int: (c, x) => Math.trunc(x), list: (c, ...items) => vector(items),
  in: (c, x, items) => numbersOf(items).includes(x),
  zeroed: (c, values, tokens) => {
    const out = vector(numbersOf(values));
    numbersOf(tokens).forEach((t) => { out.data[t] = 0; });
    return out;
  },
};

/**
 * The first index of the largest (`sign` 1) or smallest (-1) number, flattened, among those allowed (all where
 * `allowed` is not given; numpy's argmax over the others set to ∓∞).
 * @param {Value} values
 * @param {Value | undefined} allowed
 * @param {number} sign
 */
function first(values, allowed, sign) {
  const v = numbersOf(values), ok = allowed === undefined || allowed === null ? null : numbersOf(allowed);
  const at = (/** @type {number} */ k) => (ok && !ok[k] ? -Infinity : sign * v[k]);
  let best = 0;
  for (let k = 1; k < v.length; k++) if (at(k) > at(best)) best = k;
  return best;
}

/** @type {Record<string, (s: StepContext, ...args: any[]) => Value>} */
const STEP_WORDS = {  // what a tour chapter's step reads
  mine: (s) => s.mine, chosen: (s) => s.chosen, where: (s) => s.where, heads: (s) => s.heads,
  length: (s) => s.length, tok: (s, i) => s.tok(i),
  cosines: (s) => /** @type {any} */ (s).cosines, lengths: (s) => /** @type {any} */ (s).lengths,  // the residual
  // stream's chapter's (tour/narration.py Stream)
};

/** @type {Record<string, (c: unknown, ...args: any[]) => Value>} */
const VECTOR_WORDS = {  // what a narrator finds in a row or a step
  argmax: (c, v, allowed) => first(v, allowed, 1), argmin: (c, v, allowed) => first(v, allowed, -1),
  top: (c, v, k) => vector(numbersOf(v).map((x, j) => [x, j]).sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, k).map(([, j]) => j)),
  seen: (c, v) => elementwise((x) => Number.isFinite(x) && x > MASKED_BELOW, [v]),
  std: (c, v) => {
    const x = numbersOf(v), mean = x.reduce((a, b) => a + b, 0) / x.length;
    return Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / x.length);
  },
  norm: (c, v) => norm(numbersOf(v)), size: (c, v) => numbersOf(v).length,
  ndim: (c, v) => (isArray(v) ? v.shape.length : 0), flat: (c, v) => vector(numbersOf(v)),
  min_of: (c, v) => numbersOf(v).reduce((a, b) => Math.min(a, b), Infinity),
  finite: (c, v) => { const seen = numbersOf(v).filter(Number.isFinite); return vector(seen.length ? seen : [0]); },
  width: (c, v) => /** @type {Unpacked} */ (v).shape.at(-1) ?? 1,
  shape_text: (c, v) => {
    const shape = isArray(v) ? v.shape : [];
    return `(${shape.join(", ")}${shape.length === 1 ? "," : ""})`;  // as Python writes a tuple
  },
};

/**
 * An expression's value over `names` alone (a figure's template: template.js).
 * @param {Tree} tree
 * @param {Record<string, Value>} names
 * @returns {unknown}
 */
export function valueOf(tree, names) {
  return plain(valueIn(tree, names));
}

/**
 * An expression's value over `names` alone, as the words give it (an array of numbers as one: a template's names).
 * @param {Tree} tree
 * @param {Record<string, Value>} names
 * @returns {Value}
 */
export function valueIn(tree, names) {
  return evaluate(tree, /** @type {any} */ (null), names);
}

/**
 * One expression's value.
 * @param {Tree} tree
 * @param {RecipeCell} cell
 * @param {Record<string, Value>} env
 * @returns {Value}
 */
function evaluate(tree, cell, env) {
  if (!Array.isArray(tree)) return tree;
  const [word, ...args] = /** @type {[string, ...Tree[]]} */ (tree);
  if (word === "if") return evaluate(evaluate(args[0], cell, env) ? args[1] : args[2], cell, env);
  if (word === "fmt") {  // a template, with the fields it is given (if any) over the names bound so far
    const given = /** @type {Record<string, Tree>} */ (/** @type {unknown} */ (args[1] ?? {}));
    const fields = Object.fromEntries(Object.entries(given).map(([k, t]) => [k, evaluate(t, cell, env)]));
    return said(String(args[0]), { ...env, ...fields });
  }
  if (word === "joined") {  // separator, items, what each item k says
    const items = numbersOf(evaluate(args[1], cell, env));
    return items.map((k) => String(evaluate(args[2], cell, { ...env, k }))).join(String(evaluate(args[0], cell, env)));
  }
  if (word === "each") {  // items, what each item k gives: a list (numbers: an array)
    return asValue(numbersOf(evaluate(args[0], cell, env)).map((k) => evaluate(args[1], cell, { ...env, k })));
  }
  if (word === "v") return env[String(args[0])];
  if (word === "quote") return /** @type {Value} */ (structuredClone(args[0]));  // a value as it is (a figure's part),
  // copied: Plotly may change the figure it draws, and the template is filled again
  if (word === "terms_sum") return env.terms_sum;
  const values = args.map((a) => evaluate(a, cell, env));
  if (word === "at") {
    const [array, ...index] = values;
    if (Array.isArray(array)) return /** @type {Value} */ (array[Number(index[0])]);  // a list's item (a label)
    return array === null ? null : indexed(/** @type {Unpacked} */ (array), /** @type {(number | null)[]} */ (index));
  }
  if (word === "+" && values.some((v) => typeof v === "string")) return values.map(String).join("");
  if (word in ARITHMETIC) return elementwise(ARITHMETIC[word], values);
  /** @type {((c: any, ...a: any[]) => Value) | undefined} */
  const meaning = WORDS[word] ?? STEP_WORDS[word] ?? VECTOR_WORDS[word] ?? FIGURE_WORDS[word];
  if (!meaning) throw new Error(`A recipe uses "${word}", which this site does not know: write the site again.`);
  return meaning(cell, ...values);
}
