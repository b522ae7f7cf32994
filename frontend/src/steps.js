// A step of the model's graphs as the site's data gives them (site.model): its global name (graph/names.py), where
// a name is found, its axes' names (graph/nodes.py), the key/value head a query head reads (ops/heads.py), and a
// cell of a step with what its explanation reads (explaining/cell.py), for explain.js and the pages. A node's `recipe` is the number of its operation's
// recipe in the model's `recipes` (ops/recipe.py).
import { get } from "./numbers.js";

/**
 * A node of a block's graph, as export/steps.py writes it into the site's data.
 * @typedef {{ key: string, op: string, inputs: string[], axes: string[], headed?: boolean, module?: string,
 *             attrs?: Record<string, any>, title: string, short: string, explains: string, shape: string,
 *             recipe?: number | null }} GraphNode
 */
/**
 * A block (the embeddings, the positions, a layer, the pooler) and its graph's nodes.
 * @typedef {{ block: string, layer?: number | null, name: string, nodes: GraphNode[] }} GraphBlock
 */
/**
 * The model as the site's data describes it (the parts these scripts read; `ops` and `parameters` are the app's
 * untyped JSON).
 * @typedef {{ blocks: GraphBlock[], num_heads: number, num_layers: number, ops: Record<string, any>,
 *             parameters: Record<string, any>, weights: string[],
 *             recipes: import("./recipe.js").Recipe[] }} SiteModel
 */

/**
 * graph/names.py step_name
 * @param {{ block: string, layer?: number | null }} block
 * @param {string} key
 * @returns {string}
 */
export function stepName(block, key) {
  return block.layer === null || block.layer === undefined ? `${block.block}.${key}`
    : `${block.block}.${block.layer}.${key}`;
}

/**
 * A global step name → [block, node]; null if the site has no such step.
 * @param {SiteModel} model
 * @param {string} name
 * @returns {[GraphBlock, GraphNode] | null}
 */
export function findStep(model, name) {
  for (const block of model.blocks) {
    for (const node of block.nodes) if (stepName(block, node.key) === name) return [block, node];
  }
  return null;
}

/**
 * graph/nodes.py Node.axis_names
 * @param {GraphNode} node
 * @param {number} count
 * @returns {string[]}
 */
export function axisNames(node, count) {
  const symbols = node.headed ? node.axes.slice(1) : node.axes.slice();
  if (symbols.filter((s) => s === "T").length === 2) return ["query", "key"];
  /** @type {Record<string, string>} */
  const names = { T: "token", "2k": "relative distance row" };
  const named = symbols.map((s) => names[s] || "dimension").slice(0, count);
  while (named.length < count) named.push("index");
  return named;
}

/**
 * ops/heads.py key_head
 * @param {number} queryHead
 * @param {number} heads
 * @param {number} keyHeads
 * @returns {number}
 */
export function keyHead(queryHead, heads, keyHeads) {
  return Math.floor(queryHead / Math.floor(heads / keyHeads));
}

/**
 * ops/heads.py head_name
 * @param {number} queryHead
 * @param {number} heads
 * @param {number} count
 * @returns {string}
 */
export function headName(queryHead, heads, count) {
  if (count === heads) return `head ${queryHead}`;
  const shared = keyHead(queryHead, heads, count), group = Math.floor(heads / count);
  return `key/value head ${shared} of ${count}, shared by query heads ${shared * group}–${(shared + 1) * group - 1}`;
}

/** explaining/cell.py Cell: a cell of a step, with what its explanation reads */
export class Cell {
  /**
   * @param {import("./lecture.js").Lecture} lecture  a Lecture, or a sentence computed here (yours.js: a Lecture too)
   * @param {GraphBlock} block
   * @param {GraphNode} node
   * @param {number | null} head
   * @param {number[]} at
   */
  constructor(lecture, block, node, head, at) {
    this.lecture = lecture;
    this.block = block;
    this.node = node;
    this.head = head;
    this.at = at;
  }
  get name() { return stepName(this.block, this.node.key); }
  /** @returns {import("./numbers.js").Unpacked} */
  get array() { return this.lecture.array(this.name); }
  get index() { return this.head === null ? this.at : [this.head, ...this.at]; }
  get value() { return get(this.array, ...this.index); }
  /**
   * @param {number} k
   * @returns {import("./numbers.js").Unpacked}
   */
  input(k) { return this.source(this.node.inputs[k]); }
  /**
   * @param {string} name
   * @returns {import("./numbers.js").Unpacked}
   */
  source(name) {
    if (this.block.nodes.some((n) => n.key === name)) return this.lecture.array(stepName(this.block, name));
    return this.lecture.given(name) || this.lecture.array(name);
  }
  /** @param {number} k */
  inputNode(k) { return this.block.nodes.find((n) => n.key === this.node.inputs[k]) || null; }
  /** @param {number} position */
  token(position) { return `${position} ${this.lecture.tokens[position]}`; }
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
  atNode(node, at) { return new Cell(this.lecture, this.block, node, this.head, at || this.at); }
  get attrs() { return this.node.attrs || {}; }
}
