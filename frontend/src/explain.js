// @ts-nocheck
// (not typed yet: a cell's inputs and the ops' attrs are the site's untyped data; the "one source" work rewrites it)
// One cell of any sub-step explained in the browser from the numbers it was computed from: the port of each
// operation's `explain` (bertviz_lite/ops/*.py, the families' own ops) to the browser's language, the same formula
// character for character, the same terms, the value recomputed from the stored inputs. tests/test_export_explain.py
// holds it equal to the app's `explain` on every op of every family; a change to an op's explanation in Python
// must be made here too, and that test says where it was not.
import { get, row, column, num, plus, general, fixed, signed, scientific, exactSum, dot, FLOAT32_MIN, MASKED_BELOW }
  from "./numbers.js";
import { activation } from "./activations.js";
import { partOf } from "./lecture.js";
import { findStep, axisNames, keyHead, headName, Cell } from "./steps.js";

function worked(formula, inputs, recomputed, terms, labels, figure) {
  return { formula, inputs, recomputed, terms: terms || [], labels: labels || {}, figure: figure || {} };
}

function tokenLabels(cell) {  // ops/worked.py token_labels
  if (cell.at.length === 2) return { row: cell.row(cell.at[0]), dimension: String(cell.at[1]) };
  return cell.at.length === 1 ? { dimension: String(cell.at[0]) } : {};
}

// ---- tables (ops/tables.py) ----
function explainGiven(cell) {
  const source = cell.node.inputs[0];
  const value = get(cell.input(0), ...cell.index);
  const ours = get(cell.lecture.array(source), ...cell.index);
  const formula = `the model's own output of ${source} = ${num(value)} (the step-through computed ${num(ours)}, ` +
    `|Δ| = ${scientific(Math.abs(value - ours), 1)})`;
  return worked(formula, { from: source, model: value, step_through: ours }, value, [], tokenLabels(cell));
}

async function explainLookup(cell) {  // the table's rows: held by an exported sentence, read for a computed one
  const [t, d] = cell.at;
  const id = cell.lecture.ids[cell.attrs.ids][t];
  const table = await cell.lecture.tableRows(cell.node.module);
  const value = get(table.rows, table.ids.indexOf(id), d);
  return worked(`${cell.node.module}.weight[${id}, ${d}] = ${num(value)}`,
                { id, token: cell.lecture.tokens[t], table: `${cell.node.module}.weight` }, value, [],
                tokenLabels(cell));
}

async function explainParameter(cell) {
  const weights = await cell.lecture.weights(cell.node.module);
  const value = get(weights.weight, ...cell.at);
  return worked(`${cell.node.module}.weight[${cell.at.join(", ")}] = ${num(value)}`,
                { table: `${cell.node.module}.weight` }, value);
}

// ---- sums (ops/sums.py) ----
function explainAdded(cell) {
  const terms = cell.node.inputs.map((source, k) => [source, get(cell.input(k), ...cell.index)]);
  const total = exactSum(terms.map(([, v]) => v));
  const formula = terms.map(([label, v]) => `${num(v)} (${label})`).join(" + ") + ` = ${num(total)}`;
  return worked(formula, Object.fromEntries(terms), total, terms, tokenLabels(cell));
}

async function explainLinear(cell) {
  const { node } = cell;
  const x = cell.input(0);
  let t, o;
  if (node.attrs.token !== undefined) {
    [o] = cell.at;
    t = node.attrs.token;
  } else if (cell.head !== null) {
    const [token, j] = cell.at;
    t = token;
    o = cell.head * cell.array.shape[cell.array.shape.length - 1] + j;
  } else {
    [t, o] = cell.at;
  }
  const first = node.attrs.rows ? node.attrs.rows[0] : 0;
  const r = first + o;  // the row of a fused matrix (ModernBERT's Wqkv, Wi)
  const weights = await cell.lecture.weights(node.module);
  const xRow = row(x, t), wRow = row(weights.weight, r);
  const products = xRow.map((v, k) => v * wRow[k]);
  const terms = products.map((p, k) => [`x[${k}]·W[${r},${k}]`, p]);
  const bias = weights.bias ? get(weights.bias, r) : null;
  if (bias !== null) terms.push(["bias", bias]);
  const weight = `${node.module}.weight`;
  const sum = sumOf(products);
  const formula = `Σ_k x[${t}, k] · ${weight}[${r}, k] over ${products.length} dimensions = ${num(sum)}` +
    (bias !== null ? `; ${plus(bias)} (bias) = ${num(sum + bias)}` : "");
  const labels = { row: cell.row(t, x), output: `${r} of ${weight}` };
  return worked(formula, { x: xRow, weight: wRow, bias: bias === null ? 0 : bias, token: t, row: r },
                exactSum(terms.map(([, v]) => v)), terms, labels);
}

function explainMergeHeads(cell) {
  const [t, c] = cell.at;
  const input = cell.input(0);
  const dh = input.shape[input.shape.length - 1];
  const head = Math.floor(c / dh), d = c % dh;
  const value = get(input, head, t, d);
  const formula = `context[${t}, ${c}] = head ${head}'s context[${t}, ${d}] = ${num(value)} (head ${head} fills ` +
    `dimensions ${head * dh}–${(head + 1) * dh - 1})`;
  return worked(formula, { head, dim: d }, value, [], tokenLabels(cell));
}

// ---- attention (ops/attention.py) ----
function sharedHead(cell, k) {
  const heads = cell.input(0).shape[0], shared = cell.input(k === undefined ? 1 : k).shape[0];
  return [keyHead(cell.head, heads, shared), shared === heads ? "" : ` (${headName(cell.head, heads, shared)})`];
}

function explainScaledDot(cell) {
  const [i, j] = cell.at, h = cell.head, scale = cell.attrs.scale;
  const [kh, shared] = sharedHead(cell);
  const q = row(cell.input(0), h, i), k = row(cell.input(1), kh, j);
  const products = q.map((v, d) => v * k[d] / scale);
  const terms = products.map((p, d) => [`q[${d}]·k[${d}]/${general(scale, 4)}`, p]);
  const qk = dot(q, k);
  const formula = `q_${i} · k_${j}${shared} / ${general(scale, 4)} = ${num(qk)} / ${general(scale, 4)} = ` +
    `${num(qk / scale)}`;
  return worked(formula, { query: q, key: k, scale, key_head: kh }, exactSum(products), terms,
                { query: cell.token(i), key: cell.token(j) });
}

function visible(cell, i, j) {  // ops/attention.py visible
  const window = cell.attrs.window;
  return cell.lecture.mask[j] === 1 && (window === undefined || window === null || Math.abs(i - j) <= window);
}

function explainMask(cell) {
  const [i, j] = cell.at, h = cell.head;
  const terms = [], inputs = {}, said = [];
  cell.node.inputs.forEach((source, k) => {
    const node = cell.inputNode(k);
    if (node !== null && node.op === "scaled_dot") {
      const product = explainScaledDot(cell.atNode(node));
      terms.push(...product.terms);
      Object.assign(inputs, { query: product.inputs.query, key: product.inputs.key, scale: product.inputs.scale });
      said.push(product.formula);
    } else {
      const value = get(cell.input(k), h, i, j);
      terms.push([source, value]);
      said.push(`${said.length ? plus(value) : num(value)} (${source.replace(/^attn\./, "")})`);
    }
  });
  const mask = visible(cell, i, j) ? 0 : FLOAT32_MIN;
  terms.push(["mask", mask]);
  inputs.mask = mask;
  const total = mask ? terms.reduce((a, [, v]) => a + v, 0) : exactSum(terms.map(([, v]) => v));
  const formula = said.join("; ") + `; ${mask > MASKED_BELOW ? plus(mask) : "+ −∞"} (mask) = ${num(total)}`;
  return worked(formula, inputs, total, terms, { query: cell.token(i), key: cell.token(j) });
}

function explainSoftmax(cell) {
  const [i, j] = cell.at, h = cell.head;
  const scores = row(cell.input(0), h, i);
  const top = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - top));
  const total = sumOf(exps);
  const p = exps[j] / total;
  const formula = `exp(${num(scores[j])} − ${num(top)}) / Σ_k exp(s_${i},k − ${num(top)}) = ${num(exps[j])} / ` +
    `${num(total)} = ${num(p)}`;
  return worked(formula, { scores_row: scores, max: top, exp_row: exps, sum_exp: total }, p, [],
                { query: cell.token(i), key: cell.token(j) });
}

function explainWeightedSum(cell) {
  const [i, d] = cell.at, h = cell.head;
  const [vh, shared] = sharedHead(cell);
  const probs = row(cell.input(0), h, i), values = column(cell.input(1), [vh], d);
  const terms = probs.map((p, j) => [`p[${i},${j}]·v[${j},${d}] (${cell.lecture.tokens[j]})`, p * values[j]]);
  const formula = `Σ_j p[${i}, j] · v[j, ${d}]${shared} over ${probs.length} keys = ${num(dot(probs, values))}`;
  return worked(formula, { probs_row: probs, values, value_head: vh }, exactSum(terms.map(([, v]) => v)), terms,
                { query: cell.token(i), dimension: String(d) });
}

// ---- norms (ops/norms.py) ----
function normParameters(cell, d) {
  const p = cell.lecture.parameter(cell.node.module);
  return { weight: p.weight ? get(p.weight, d) : 1, bias: p.bias ? get(p.bias, d) : 0, eps: p.eps };
}

function explainLayerNorm(cell) {
  const [t, d] = cell.at;
  const x = row(cell.input(0), t);
  const mean = sumOf(x) / x.length;
  const variance = sumOf(x.map((v) => (v - mean) ** 2)) / x.length;
  const { weight, bias, eps } = normParameters(cell, d);
  const normed = (x[d] - mean) / Math.sqrt(variance + eps);
  const formula = `(${num(x[d])} ${plus(-mean)}) / √(${num(variance)} + ${general(eps, 6)}) × ${num(weight)} ` +
    `${plus(bias)} = ${num(normed)} × ${num(weight)} ${plus(bias)} = ${num(normed * weight + bias)}`;
  return worked(formula, { x, mean, var: variance, eps, weight, bias }, normed * weight + bias, [],
                tokenLabels(cell), { before: x, after: row(cell.array, t), dim: d });
}

function explainRmsNorm(cell) {
  const [t, d] = cell.at;
  const x = row(cell.input(0), t);
  const meanSquare = sumOf(x.map((v) => v * v)) / x.length;
  const { weight, eps } = normParameters(cell, d);
  const normed = x[d] / Math.sqrt(meanSquare + eps);
  const formula = `${num(x[d])} / √(${num(meanSquare)} + ${general(eps, 6)}) × ${num(weight)} = ${num(normed)} × ` +
    `${num(weight)} = ${num(normed * weight)}`;
  return worked(formula, { x, mean_square: meanSquare, eps, weight }, normed * weight, [], tokenLabels(cell),
                { before: x, after: row(cell.array, t), dim: d });
}

// ---- activations (ops/activations.py) ----
function explainActivation(cell) {
  const pre = get(cell.input(0), ...cell.index);
  const name = cell.lecture.parameter(cell.node.module).function;
  const value = activation(name)(pre);
  return worked(`${name}(${num(pre)}) = ${num(value)}`, { pre, function: name }, value, [], tokenLabels(cell),
                curve(name, pre));
}

function explainGatedActivation(cell) {
  const pre = get(cell.input(0), ...cell.index), gate = get(cell.input(1), ...cell.index);
  const name = cell.lecture.parameter(cell.node.module).function;
  const acted = activation(name)(pre);
  const formula = `${name}(${num(pre)}) × ${num(gate)} = ${num(acted)} × ${num(gate)} = ${num(acted * gate)}`;
  return worked(formula, { pre, gate, function: name }, acted * gate, [], tokenLabels(cell), curve(name, pre));
}

function curve(name, pre) {
  const reach = Math.max(4, 1.5 * Math.abs(pre));
  const xs = Array.from({ length: 121 }, (_, k) => -reach + (2 * reach * k) / 120);
  return { curve_x: xs, curve_y: xs.map(activation(name)), point: pre };
}

// ---- positions (ops/positions.py; families/deberta.py, families/mpnet.py) ----
function explainRotation(cell) {
  const [t, m] = cell.at, h = cell.head;
  const x = row(cell.input(0), h, t), angles = cell.input(1);
  const half = x.length / 2, pair = m % half;
  const theta = get(angles, t, pair), scaling = cell.attrs.scaling === undefined ? 1 : cell.attrs.scaling;
  const cos = Math.cos(theta) * scaling, sin = Math.sin(theta) * scaling;
  const [partner, sign] = m < half ? [m + half, -1] : [m - half, 1];
  const terms = [[`x[${m}]·cos θ`, x[m] * cos], [`${sign < 0 ? "−" : "+"}x[${partner}]·sin θ`, sign * x[partner] * sin]];
  const formula = `θ = ${num(theta)} rad: ${num(x[m])} × ${num(cos)} ${sign < 0 ? "−" : "+"} ${num(x[partner])} × ` +
    `${num(sin)} = ${num(terms[0][1] + terms[1][1])}`;
  const before = [x[pair], x[pair + half]];
  const after = [before[0] * cos - before[1] * sin, before[1] * cos + before[0] * sin];
  return worked(formula, { pair: before, angle: theta, position: t }, exactSum(terms.map(([, v]) => v)), terms,
                { token: cell.token(t), dimension: `${m} (pair ${pair}: ${pair} and ${pair + half})` },
                { before, after, angle: theta });
}

function explainRotaryAngles(cell) {
  const [t, m] = cell.at;
  const frequencies = cell.lecture.parameter(`${cell.node.module}.${cell.attrs.inv_freq}`);
  const frequency = get(frequencies, m);
  return worked(`${t} × ${general(frequency, 6)} = ${num(t * frequency)} rad`, { position: t, frequency },
                t * frequency, [], { token: cell.token(t), pair: String(m) });
}

function explainRelativeDot(cell) {
  const [i, j] = cell.at, h = cell.head;
  const content = cell.input(0), relative = cell.input(1), distance = cell.input(2);
  const span = Math.floor(relative.shape[1] / 2), scale = cell.attrs.scale;
  const clip = (v) => Math.min(Math.max(v, 0), 2 * span - 1);
  let delta, r, query, key, said;
  if (cell.attrs.direction === "c2p") {
    delta = get(distance, i, j);
    r = clip(delta + span);
    [query, key] = [row(content, h, i), row(relative, h, r)];
    said = `q_${i} · Kʳ[δ = ${delta}]`;
  } else {
    delta = get(distance, j, i);
    r = clip(-delta + span);
    [query, key] = [row(relative, h, r), row(content, h, j)];
    delta = -delta;
    said = `Qʳ[δ = ${delta}] · k_${j}`;
  }
  const products = query.map((v, d) => v * key[d] / scale);
  const terms = products.map((p, d) => [`a[${d}]·b[${d}]/${general(scale, 4)}`, p]);
  const formula = `${said} / ${general(scale, 4)} = ${num(dot(query, key))} / ${general(scale, 4)} = ` +
    `${num(sumOf(products))}`;
  return worked(formula, { query, key, scale, distance: delta, row: r }, exactSum(products), terms,
                { query: cell.token(i), key: cell.token(j) });
}

async function explainGatherBias(cell) {
  const [i, j] = cell.at, h = cell.head;
  const bucket = get(cell.input(0), i, j);
  const weights = await cell.lecture.weights(cell.node.module);
  const value = get(weights.weight, bucket, h);
  return worked(`${cell.node.module}.weight[bucket ${bucket}, head ${h}] = ${num(value)} (key ${j} is ` +
                `${signed(j - i)} tokens from query ${i})`, { bucket, distance: j - i }, value, [],
                { query: cell.token(i), key: cell.token(j) });
}

function explainBucket(cell) {  // families/mpnet.py _explain_bucket: the encoder's rule (32 buckets, 128 tokens)
  const [i, j] = cell.at;
  const n = i - j, after = n < 0, distance = Math.abs(n);
  let rule, bucket;
  if (distance < 8) {
    rule = `|i − j| = ${distance} < 8: exact, ${distance}`;
    bucket = distance;
  } else {
    const scaled = Math.fround(Math.fround(Math.log(Math.fround(distance / 8)) / Math.fround(Math.log(16))) * 8);
    rule = `|i − j| = ${distance} ≥ 8: 8 + ⌊log(${distance}/8) / log(16) × 8⌋ = 8 + ⌊${fixed(scaled, 3)}⌋, at most 15`;
    bucket = Math.min(8 + Math.floor(scaled), 15);
  }
  bucket += after ? 16 : 0;
  const formula = `${rule}; ${after ? "+ 16, as the key comes after the query" : "the key is not after the query"}` +
    ` = bucket ${bucket}`;
  return worked(formula, { "query position": i, "key position": j, "i - j": n }, bucket, [],
                { query: cell.token(i), key: cell.token(j) });
}

function explainFromModel(cell) {  // ops/record.py recomputed: an op the browser does not compute (DeBERTa's
  // bucketed distances): the model's own function computed it at export; the stored value is shown, no check
  const value = cell.value;
  const tokens = cell.lecture.tokens.length;
  const shape = cell.array.shape;
  const where = cell.at.length === 2 && shape[shape.length - 1] === tokens && shape[shape.length - 2] === tokens
    ? { "query position": cell.at[0], "key position": cell.at[1], "i - j": cell.at[0] - cell.at[1] } : {};
  return worked(`${cell.lecture.model.ops[cell.node.op].meaning}: ${num(value)}`, where, null);
}

function sumOf(values) {  // a plain sum, left to right: numpy's pairwise sum differs in the last bits, which the
  // formulas' four decimals and the recomputed value's check do not see
  return values.reduce((a, b) => a + b, 0);
}

const EXPLAIN = {
  input: explainGiven, lookup: explainLookup, parameter: explainParameter, add: explainAdded,
  residual_add: explainAdded, linear: explainLinear, merge_heads: explainMergeHeads, scaled_dot: explainScaledDot,
  mask: explainMask, softmax: explainSoftmax, weighted_sum: explainWeightedSum, layer_norm: explainLayerNorm,
  rms_norm: explainRmsNorm, activation: explainActivation, gated_activation: explainGatedActivation,
  rotation: explainRotation, rotary_angles: explainRotaryAngles, relative_dot: explainRelativeDot,
  gather_bias: explainGatherBias, relative_buckets: explainBucket, relative_positions: explainFromModel,
};

export async function explain(lecture, step, head, at) {  // explaining/__init__.py explain: the cell's explanation
  const found = findStep(lecture.model, step);
  if (!found) throw new Error(`This site has no step ${step}.`);
  const [block, node] = found;
  await lecture.block(partOf(step));  // its block's numbers and what the block reads
  const array = lecture.array(step);
  const shape = node.headed ? array.shape.slice(1) : array.shape;
  if (node.headed && (head === null || head === undefined)) head = 0;
  if (!node.headed) head = null;
  if (head !== null && !(head >= 0 && head < array.shape[0])) throw new Error(`There is no head ${head} in ${step}.`);
  if (at.length !== shape.length || at.some((v, k) => !(Number.isInteger(v) && v >= 0 && v < shape[k]))) {
    const names = axisNames(node, shape.length).map((n, k) => `${n} 0–${shape[k] - 1}`).join(", ");
    throw new Error(`The cell ${at.join(",")} is not one of this step's (${names}).`);
  }
  const cell = new Cell(lecture, block, node, head, at);
  const explaining = EXPLAIN[node.op];
  const w = explaining ? await explaining(cell) : explainFromModel(cell);
  const op = lecture.model.ops[node.op];
  return { step, title: node.title, head, at, value: cell.value, op: node.op, formula: w.formula, inputs: w.inputs,
           terms: w.terms, recomputed: w.recomputed, labels: w.labels, figure: w.figure, drawn_as: op.drawn_as };
}
