// Keys for a view's walk and the lecture's Next (issue 56): a reader who uses only a keyboard steps through a
// layer's sub-steps (and Layers' layers, by ↑ ↓), the tour's chapters or the head view's layers, and on through the
// lecture, from wherever the
// focus is (a walked matrix included), without Tab-ing back to ◀ ▶ and Next. Each key holds Alt and Shift: WCAG
// 2.1.4 forbids a single character's shortcut that cannot be turned off, and Alt+Shift with an arrow or N is no
// browser's or common screen reader's. A box being typed in, a select or a slider keeps its keys (on a Mac,
// Option+Shift+an arrow selects text there): a shortcut is not taken from them (`ownKeys`). The controls say their
// keys (aria-keyshortcuts, and their tooltip); what a key chose is said aloud (a polite live region).

import { announce } from "./announce.js";

/** @typedef {"back" | "forward" | "shallower" | "deeper" | "next"} Shortcut */

/** @type {Record<Shortcut, { keys: string, shown: string }>} each shortcut's keys, as ARIA and a tooltip write them */
export const SHORTCUTS = {
  back: { keys: "Alt+Shift+ArrowLeft", shown: "Alt+Shift+←" },
  forward: { keys: "Alt+Shift+ArrowRight", shown: "Alt+Shift+→" },
  shallower: { keys: "Alt+Shift+ArrowUp", shown: "Alt+Shift+↑" },  // a layer back (Layers' ◀ beside the layer)
  deeper: { keys: "Alt+Shift+ArrowDown", shown: "Alt+Shift+↓" },  // a layer on
  next: { keys: "Alt+Shift+N", shown: "Alt+Shift+N" },
};

/**
 * The shortcut a key press is, or null: Alt and Shift held (no Control or Meta), and an arrow or N.
 * @param {{ key: string, code?: string, altKey: boolean, shiftKey: boolean, ctrlKey: boolean, metaKey: boolean }} press
 * @returns {Shortcut | null}
 */
export function shortcutOf(press) {
  if (!press.altKey || !press.shiftKey || press.ctrlKey || press.metaKey) return null;
  if (press.key === "ArrowLeft") return "back";
  if (press.key === "ArrowRight") return "forward";
  if (press.key === "ArrowUp") return "shallower";
  if (press.key === "ArrowDown") return "deeper";
  // Alt+Shift+N is "Ñ" or "˜" on some layouts: the key's place says it
  if (press.code === "KeyN" || press.key === "N" || press.key === "n") return "next";
  return null;
}

/**
 * Whether the element a key was pressed on keeps its keys: a box being typed in, a select, a slider.
 * @param {EventTarget | null} target
 */
export function ownKeys(target) {
  return target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

/**
 * `control` answers `name`'s keys: it says them, and `says` is what a screen reader hears when a key presses it.
 * @param {HTMLElement} control  a button or a link
 * @param {Shortcut} name
 * @param {string} says
 */
export function answers(control, name, says) {
  control.setAttribute("aria-keyshortcuts", SHORTCUTS[name].keys);
  control.dataset.shortcut = name;
  control.dataset.says = says;
  control.title = `${control.title || says} (${SHORTCUTS[name].shown})`;
}

/**
 * The page's one listener: a shortcut presses the first enabled control that answers it.
 * @param {Document} page
 */
export function listen(page) {
  page.addEventListener("keydown", (event) => {
    const name = shortcutOf(event);
    if (!name || event.defaultPrevented || ownKeys(event.target)) return;
    const control = /** @type {HTMLButtonElement | null} */ (
      page.querySelector(`[data-shortcut="${name}"]:not(:disabled)`));
    if (!control) return;
    event.preventDefault();
    announce(control.dataset.says || "");
    control.click();
  });
}
