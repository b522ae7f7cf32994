// One cell of any sub-step explained in the browser, as explaining/__init__.py explains it in the app: the cell
// checked against its step's axes, then its operation's recipe (ops/recipe.py, in the model's data) worked out on
// the numbers it reads (recipe.js). An operation with no recipe (DeBERTa's bucketed distances, computed by the
// model's own function) shows its stored number. Nothing here is an operation's own: a new operation's recipe is
// written once, in Python.
import { at as rowOf, num } from "./numbers.js";
import { partOf } from "./lecture.js";
import { findStep, axisNames, Cell } from "./steps.js";
import { wordsOf, workedOut } from "./recipe.js";

/** @typedef {import("./lecture.js").Lecture} Lecture */
/** @typedef {import("./recipe.js").Recipe} Recipe */
/** @typedef {import("./recipe.js").ModuleNumbers} ModuleNumbers */
/**
 * A cell's explanation, as explaining/record.py Explanation.
 * @typedef {{ step: string, title: string, head: number | null, at: number[], value: number, op: string,
 *             formula: string, inputs: Record<string, any>, terms: [string, number][], recomputed: number | null,
 *             labels: Record<string, any>, figure: Record<string, any>, drawn_as: string | null }} Explained
 */

/**
 * The numbers of the cell's module that its recipe reads, fetched: its weight and bias (a norm's from the site's
 * small parameters, others from the weights script), a norm's ε, an activation's name, a buffer, a table's rows.
 * @param {Lecture} lecture
 * @param {string | undefined} module
 * @param {Set<string>} words
 * @returns {Promise<ModuleNumbers>}
 */
async function moduleNumbers(lecture, module, words) {
  if (!module) return {};
  const small = lecture.model.parameters[module];
  /** @type {ModuleNumbers} */
  const numbers = {
    buffer: (name) => /** @type {import("./numbers.js").Unpacked} */ (lecture.parameter(`${module}.${name}`)),
  };
  if (small && !small.shape) Object.assign(numbers, lecture.parameter(module));  // {weight, bias, eps} or {function}
  if (words.has("weight") && !(small && "weight" in small)) Object.assign(numbers, await lecture.weights(module));
  if (words.has("table_row")) {
    const table = await lecture.tableRows(module);
    numbers.tableRow = (id) => rowOf(table.rows, table.ids.indexOf(id));
  }
  return numbers;
}

/**
 * The recipe's view of a cell (recipe.js RecipeCell).
 * @param {Lecture} lecture
 * @param {Cell} cell
 * @param {ModuleNumbers} module
 * @returns {import("./recipe.js").RecipeCell}
 */
function recipeCell(lecture, cell, module) {
  const window = cell.attrs.window;
  return {
    at: cell.at, head: cell.head, node: cell.node, array: cell.array, module, tokens: lecture.tokens,
    ids: lecture.ids, input: (k) => cell.input(k), source: (name) => cell.source(name),
    token: (i) => cell.token(i), row: (i, of) => cell.row(i, of), step: (name) => lecture.array(name),
    visible: (i, j) => lecture.mask[j] === 1 && (window === undefined || window === null || Math.abs(i - j) <= window),
  };
}

/**
 * The cell's explanation (explaining/__init__.py explain).
 * @param {Lecture} lecture
 * @param {string} step
 * @param {number | null | undefined} head
 * @param {number[]} at
 * @returns {Promise<Explained>}
 */
export async function explain(lecture, step, head, at) {
  const found = findStep(lecture.model, step);
  if (!found) throw new Error(`This site has no step ${step}.`);
  const [block, node] = found;
  await lecture.block(partOf(step));  // its block's numbers and what the block reads
  const array = lecture.array(step);
  const shape = node.headed ? array.shape.slice(1) : array.shape;
  const chosen = node.headed ? head ?? 0 : null;
  if (chosen !== null && !(chosen >= 0 && chosen < array.shape[0])) {
    throw new Error(`There is no head ${chosen} in ${step}.`);
  }
  if (at.length !== shape.length || at.some((v, k) => !(Number.isInteger(v) && v >= 0 && v < shape[k]))) {
    const names = axisNames(node, shape.length).map((n, k) => `${n} 0–${shape[k] - 1}`).join(", ");
    throw new Error(`The cell ${at.join(",")} is not one of this step's (${names}).`);
  }
  const cell = new Cell(lecture, block, node, chosen, at);
  const op = lecture.model.ops[node.op];
  const explained = { step, title: node.title, head: chosen, at, value: cell.value, op: node.op,
                      drawn_as: op.drawn_as };
  if (node.recipe === null || node.recipe === undefined) {  // ops/record.py recomputed: the model's own number
    return { ...explained, ...storedNumber(cell, op.meaning) };
  }
  /** @type {Recipe} */
  const recipe = lecture.model.recipes[node.recipe];
  const numbers = await moduleNumbers(lecture, node.module, wordsOf(/** @type {any} */ (Object.values(recipe))));
  return { ...explained, ...workedOut(recipe, recipeCell(lecture, cell, numbers)) };
}

/**
 * An operation the browser does not compute (DeBERTa's bucketed distances): the model's own function computed it
 * at export; its number is shown, with no check.
 * @param {Cell} cell
 * @param {string} meaning
 */
function storedNumber(cell, meaning) {
  const tokens = cell.lecture.tokens.length, shape = cell.array.shape;
  const pair = cell.at.length === 2 && shape[shape.length - 1] === tokens && shape[shape.length - 2] === tokens;
  const [i, j] = cell.at;
  const inputs = pair ? { "query position": i, "key position": j, "i - j": i - j } : {};
  return { formula: `${meaning}: ${num(cell.value)}`, inputs, recomputed: null, terms: [], labels: {}, figure: {} };
}
