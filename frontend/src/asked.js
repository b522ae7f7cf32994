// A question a lecture asks before it shows a figure (issue 57), asked of a sentence computed in this browser as
// bertviz_lite/ops/asking.py asks it of the app's: the asking's parts (its numbers, which may be chosen, a
// candidate's words) worked out by recipe.js, the evaluator the narrations use; the right choice the one the numbers
// rank first, the runners-up the wrong ones, a tie as shown not asked, the choices in their own order. The words
// and numbers are the package's (export/tour.py tour_words hands each chapter's asking over);
// tests/test_export_live.py holds the questions asked here to the app's on the same sentences.
import { boundIn, evaluatedIn } from "./recipe.js";
import { said } from "./page.js";
import { numbersOf } from "./values.js";

/** @typedef {import("./recipe.js").Tree} Tree */
/** @typedef {import("./recipe.js").StepContext} StepContext */
/** @typedef {import("./values.js").Value} Value */
/**
 * An asking, as ops/asking.py Asking.to_json writes it.
 * @typedef {{ let: [string, Tree][], question: Tree, numbers: Tree, allowed: Tree, label: Tree, shown: string,
 *             fewest: boolean, line: string, apart: string, decides: Tree, order: Tree }} Asking
 */
/** @typedef {{ label: string, number: string, right: boolean, line: string }} Choice */
/**
 * A question asked (ops/asking.py Question.to_json), an exported sentence's or one asked here.
 * @typedef {{ text: string, choices: Choice[], decides: string }} Question
 */

const asking = () => window.BVL_SITE.asking;  // export/content.py: the words, how many choices at most and least

/**
 * The question an asking makes of a chapter's step (tour.js's context), or null where its numbers decide none.
 * @param {Asking} a
 * @param {StepContext | null} context
 * @param {Record<string, Value>} [names]  what it reads where it is no step's
 * @returns {Question | null}
 */
export function askedOf(a, context, names = {}) {
  const env = boundIn(a.let, context, names);
  const value = (/** @type {Tree} */ tree, extra = {}) => evaluatedIn(tree, context, { ...env, ...extra });
  const numbers = numbersOf(value(a.numbers));
  const allowed = a.allowed === null ? null : numbersOf(value(a.allowed));
  const sign = a.fewest ? 1 : -1;
  const ranked = numbers.map((_, k) => k).filter((k) => (!allowed || allowed[k]) && Number.isFinite(numbers[k]))
    .sort((i, j) => sign * (numbers[i] - numbers[j]) || i - j).slice(0, asking().choices);  // right one first
  if (ranked.length < asking().fewest) return null;
  const shown = ranked.map((k) => said(a.shown, { value: numbers[k] }));
  if (shown[0] === shown[1]) return null;  // a tie as the figure shows it: the numbers do not decide
  const labels = ranked.map((k) => String(value(a.label, { k })));
  const apart = labels.map((label, i) => (labels.filter((l) => l === label).length > 1
    ? said(a.apart, { label, k: ranked[i] }) : label));
  if (new Set(apart).size < apart.length) return null;
  const order = a.order === null ? numbers.map((_, k) => k) : numbersOf(value(a.order));
  const choices = ranked.map((k, i) => ({ k, label: apart[i], number: shown[i] }))
    .sort((x, y) => order[x.k] - order[y.k] || x.k - y.k)
    .map(({ k, label, number }) => ({ label, number, right: k === ranked[0], line: said(a.line, { label, number }) }));
  return { text: String(value(a.question)), choices,
           decides: a.decides === null ? "" : String(value(a.decides, { right: ranked[0] })) };
}
