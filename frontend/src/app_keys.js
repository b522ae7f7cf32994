// The app's entry for its heatmaps' keys (issue 56), bundled by build.mjs into app_pages/shell/js/app_keys.js and
// mounted once per run by app_pages/shell/cell_keys.py (a Streamlit component that draws nothing): every heatmap
// Streamlit draws is walked by keyboard and read as a grid by cell_keys.js, the site's own code, so the app and a site
// answer the same keys with the same words. A figure redrawn (a rerun, a new head) is walked again. Enter and Escape
// are handed to the chart as DOM events, "bvl-pick" (with the cell) and "bvl-close", which a chart whose cells open an
// explanation hears (app_taps.js); the focus goes back to the figure once the rerun has drawn it again.
// The site's shortcuts (shortcuts.js: Alt+Shift+← → for the walk's ◀ ▶, Alt+Shift+N for Next) press the app's
// buttons that Python names (`data.shortcuts`: a selector per shortcut), and what they chose is said once the rerun
// has drawn it.

import { announce } from "./announce.js";
import { walkable } from "./cell_keys.js";
import { SHORTCUTS, ownKeys, shortcutOf } from "./shortcuts.js";
import { skipLink } from "./skip_link.js";

const SETTLE_MS = 150;  // Streamlit changes the page in bursts: walk once a burst is over

/**
 * A chart's Streamlit key (its container's `st-key-…` class): what names the same chart from one run to the next.
 * @param {Element} figure
 */
function chartOf(figure) {
  const box = figure.closest('[class*="st-key-"]');
  const found = box && Array.from(box.classList).find((name) => name.startsWith("st-key-"));
  return found || "";
}

/**
 * The first of the buttons `selector` finds that is on the page (Streamlit draws a button with help twice, one
 * copy hidden).
 * @param {string} selector
 */
function shown(selector) {
  return /** @type {HTMLButtonElement | undefined} */ (Array.from(document.querySelectorAll(selector))
    .find((control) => control.getClientRects().length > 0));
}

/** @typedef {HTMLElement & { _fullData?: unknown[] }} Figure */

const SAID_WITHIN_MS = 8000;  // how long a shortcut's choice is waited for (a rerun), checked every POLL_MS
const POLL_MS = 200;

/**
 * What a shortcut chose, as the page shows it: the choice in the pressed button's row (a slider's, "Layer 3"; a
 * select box's: a sub-step, a chapter), or the page's title (Next opens another page).
 * @param {Element | null} row
 */
function choiceIn(row) {
  const there = row && row.isConnected ? row : null;
  const slid = /** @type {HTMLInputElement | null} */ (there && there.querySelector('input[type="range"]'));
  if (slid) return `${slid.getAttribute("aria-label") || ""} ${slid.getAttribute("aria-valuetext") || slid.value}`.trim();
  const picked = /** @type {HTMLInputElement | null} */ (there && there.querySelector('input[role="combobox"]'));
  const title = document.querySelector("h1");
  return (picked ? picked.value : (title && title.textContent) || document.title).trim();
}

/**
 * A shortcut's button pressed; what it chose said once the page shows something else.
 * @param {HTMLButtonElement} control
 */
function press(control) {
  const row = control.closest('[data-testid="stHorizontalBlock"]');
  const before = choiceIn(row);
  control.click();
  const started = Date.now();
  const look = () => {
    const shown = choiceIn(row);
    if (shown && shown !== before) announce(shown);
    else if (Date.now() - started < SAID_WITHIN_MS) setTimeout(look, POLL_MS);
  };
  setTimeout(look, POLL_MS);
}

/**
 * @param {{ data?: { shortcuts?: Partial<Record<import("./shortcuts.js").Shortcut, string>>, skip?: string } }}
 *   [component]
 */
export default function mount({ data } = {}) {
  const shortcuts = (data && data.shortcuts) || {};
  if (data && data.skip) skipLink(data.skip);  // the first Tab stop: past the sidebar and the controls
  /** @type {WeakMap<Figure, unknown[]>} the drawing each figure was last walked for */
  const walked = new WeakMap();
  /** @type {{ chart: string, cell: [number, number] } | null} a key pressed on a figure: the rerun's redraw keeps it */
  let pressed = null;

  /**
   * @param {Figure} figure
   * @param {string} name
   * @param {[number, number]} cell
   * @param {unknown} [target]  the cell's click target, where the walk knows it (a head view's token)
   */
  const hand = (figure, name, cell, target) => {
    pressed = { chart: chartOf(figure), cell };
    figure.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: { row: cell[0], column: cell[1], target } }));
  };

  const walk = () => {
    for (const [name, selector] of Object.entries(shortcuts)) {  // the buttons say their keys
      const { keys } = SHORTCUTS[/** @type {import("./shortcuts.js").Shortcut} */ (name)];
      document.querySelectorAll(selector).forEach((control) => control.setAttribute("aria-keyshortcuts", keys));
    }
    for (const figure of Array.from(/** @type {NodeListOf<Figure>} */ (document.querySelectorAll(".js-plotly-plot")))) {
      const drawing = figure._fullData;
      if (!drawing || walked.get(figure) === drawing) continue;
      walked.set(figure, drawing);
      const again = pressed !== null && pressed.chart === chartOf(figure);
      const start = again && pressed ? pressed.cell : null;
      if (again) pressed = null;
      let at = /** @type {[number, number]} */ (start || [0, 0]);  // Escape's cell: the one Enter picked
      walkable(figure, {
        pick: (row, column, target) => { at = [row, column]; hand(figure, "bvl-pick", at, target); },
        close: () => hand(figure, "bvl-close", at),
        start, focus: again,
      });
    }
  };

  /** @param {KeyboardEvent} event */
  const shortcut = (event) => {
    const name = shortcutOf(event);
    if (!name || event.defaultPrevented || ownKeys(event.target)) return;
    const selector = shortcuts[name];
    const control = selector ? shown(selector) : undefined;
    if (!control || control.disabled) return;
    event.preventDefault();
    press(control);
  };

  let timer = 0;
  const soon = () => { clearTimeout(timer); timer = window.setTimeout(walk, SETTLE_MS); };
  const watching = new MutationObserver(soon);
  watching.observe(document.body, { childList: true, subtree: true });
  document.addEventListener("keydown", shortcut);
  walk();
  return () => { clearTimeout(timer); watching.disconnect(); document.removeEventListener("keydown", shortcut); };
}
