// "Skip to the figure" (issue 56, WCAG 2.4.1 Bypass Blocks): the page's first Tab stop, shown when it has the focus,
// moves the focus to the view's first walked figure (cell_keys.js), or to its heading where it has none, past the
// pages' links and the controls (docs/accessibility.md says how many Tabs it saves). One button for the page,
// before everything else, in the app and a site; its words are Python's.

/**
 * Put the page's skip button first in its tab order (once; its words as given).
 * @param {string} words
 */
export function skipLink(words) {
  let skip = /** @type {HTMLButtonElement | null} */ (document.querySelector("button.skip-link"));
  if (!skip) {
    skip = document.createElement("button");
    skip.type = "button";
    skip.className = "skip-link";
    skip.addEventListener("click", toTheFigure);
    document.body.prepend(skip);
  }
  skip.textContent = words;
}

/** The focus on the view's first walked figure, or its heading. */
function toTheFigure() {
  const first = (/** @type {string} */ selector) => /** @type {HTMLElement | null} */ (
    document.querySelector(`main ${selector}`) || document.querySelector(selector));  // the page's main part's first
  const figure = first('[role="grid"]'), heading = first("h1");
  const target = figure || heading;
  if (!target) return;
  if (target === heading) target.tabIndex = -1;  // a heading takes the focus when asked, not a Tab
  target.scrollIntoView({ block: "start" });
  target.focus();
}
