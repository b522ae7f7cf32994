// A question before the figure on a site (issue 57, `ask=1`), as the app's tour asks it (app_pages/shell/asking.py):
// the question and its choices in the figure's place, the figure and the words that would give the answer held back
// until a choice; then each choice's line with its number, "right" and "your choice" said in words, whether the
// choice was right and what decides it. The words are the package's (asking/words.py, handed over as the site's
// `asking`). A static site counts no one's answer, and says so where the link asks for the hall's count. A choice is
// remembered while the page is open (the same question asked again shows its answer).
import { element, said } from "./page.js";
import { answers as answersShortcut } from "./shortcuts.js";

/** @typedef {import("./asked.js").Question} Question */

const SHOWN = -1;  // the answer shown without a choice (the lecture's Next)
/** @type {Map<string, number>} each question's choice, by `keyOf` */
const chosen = new Map();

/** @param {string} name @param {Record<string, unknown>} [values] */
const worded = (name, values = {}) => said(window.BVL_SITE.asking.words[name], values);

/**
 * What the link asks for: questions (`ask=1`), the hall's count (`hall=1`), and a line for a value not understood.
 * @param {URLSearchParams} keys
 * @returns {{ ask: boolean, hall: boolean, notes: string[] }}
 */
export function askedFor(keys) {
  const notes = [];
  /** @param {string} key @param {string} bad */
  const on = (key, bad) => {
    const value = keys.get(key) || "";
    if (["", "0", "1"].includes(value)) return value === "1";
    notes.push(worded(bad, { asked: value.slice(0, 40) }));
    return false;
  };
  const ask = on("ask", "bad_ask"), hall = on("hall", "bad_hall");
  if (ask && hall) notes.push(worded("hall_static"));  // on the lecturer's screen: no count here
  return { ask, hall, notes };
}

/**
 * Who asks the same question: its words and choices, about the same sentence.
 * @param {Question} question
 * @param {string} about
 */
export const keyOf = (question, about) => JSON.stringify([about, question.text, question.choices.map((c) => c.label)]);

/** @param {string} key */
export const waits = (key) => !chosen.has(key);

/**
 * The question and its choices; a choice is remembered, then `then()` draws the page again.
 * @param {Question} question
 * @param {string} key
 * @param {() => void} then
 * @returns {HTMLElement}
 */
export function questionOf(question, key, then) {
  const box = element("div", undefined, { class: "question", "data-point": "question" });
  box.append(element("h3", question.text), element("p", worded("first"), { class: "note" }));
  const group = element("div", undefined, { class: "choices", role: "group", "aria-label": worded("choose") });
  question.choices.forEach((choice, k) => {
    const button = element("button", choice.label, { type: "button", class: "choice" });
    button.addEventListener("click", () => { chosen.set(key, k); then(); });
    group.append(button);
  });
  box.append(group);
  return box;
}

/**
 * The answer: each choice's line (the right one and the chosen one said in words), whether the choice was right,
 * and what decides it.
 * @param {Question} question
 * @param {string} key
 * @returns {HTMLElement}
 */
export function answerOf(question, key) {
  const mine = chosen.get(key) ?? SHOWN;
  const right = question.choices.find((c) => c.right);
  const box = element("div", undefined, { class: "answer" });
  const list = element("ul");
  question.choices.forEach((choice, k) => {
    const marks = [...(choice.right ? [worded("right")] : []), ...(k === mine ? [worded("yours")] : [])];
    const line = element(choice.right ? "strong" : "span", [choice.line, ...marks].join(" — "));
    const item = element("li");
    item.append(line);
    list.append(item);
  });
  const verdict = mine === SHOWN ? worded("shown", { right: right?.label })
    : worded(question.choices[mine].right ? "was_right" : "was_wrong", { label: question.choices[mine].label,
                                                                         right: right?.label });
  box.append(element("h3", question.text), list, element("p", `${verdict} ${question.decides}`.trim()));
  return box;
}

/** A chapter that asks nothing here (none, or its numbers decide none), said where the link asks. */
export const noneAsked = () => element("p", worded("none"), { class: "note" });

/**
 * In lecture mode, the lecture's Next on this page first (the bar under it: router.js): while the question waits,
 * Show the answer; then (or where the chapter asks nothing: `key` null), where `next` is given, the next chapter.
 * The lecture's own link is kept, and left for after.
 * @param {string | null} key
 * @param {() => void} then  the page drawn again
 * @param {{ title: string, href: string } | null} next
 */
export function nextFirst(key, then, next) {
  const bar = document.getElementById("next");
  if (!bar) return;
  document.getElementById("next-first")?.remove();  // the page's own, from before its choice
  const own = key !== null && waits(key) ? element("button", worded("reveal"), { type: "button", class: "next-view", id: "next-first" })
    : next ? element("a", worded("next_chapter", { title: next.title }), { href: next.href, class: "next-view",
                                                                          id: "next-first" })
      : null;
  const lectures = bar.querySelector("a.next-view:not(#next-first)");  // the lecture's own Next: after this page's
  if (lectures instanceof HTMLElement) {
    lectures.dataset.shortcut = own ? "later" : "next";
    lectures.classList.toggle("later", Boolean(own));
    lectures.textContent = own ? worded("leave", { title: lectures.dataset.title }) : lectures.dataset.said || "";
  }
  if (!own) return;
  if (own instanceof HTMLButtonElement && key !== null) {
    own.addEventListener("click", () => { chosen.set(key, SHOWN); then(); });
  }
  answersShortcut(own, "next", own.textContent || "");
  bar.prepend(own);
}
