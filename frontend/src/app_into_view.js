// The app's entry for bringing what a reader's action made into view (bundled by build.mjs into
// app_pages/shell/js/app_into_view.js, mounted by app_pages/shell/into_view.py only in the run that a tap, a click or
// a key asked for): the part, found by its Streamlit key, is scrolled to the middle of the screen where it is not
// whole on it (at once where the reader asked for less motion), and its words are said to a screen reader (Enter on
// a walked figure explains a cell that may lie out of sight).

import { announce } from "./announce.js";

const LAID_OUT_MS = 400;  // the figures under the part move it while the page lays out what the run drew

/**
 * A part's words as a screen reader reads them: what is hidden from it left out (Streamlit writes an icon as its
 * Material name, "calculate", hidden).
 * @param {HTMLElement} part
 */
function words(part) {
  const copy = /** @type {HTMLElement} */ (part.cloneNode(true));
  copy.querySelectorAll('[aria-hidden="true"]').forEach((icon) => icon.remove());
  return (copy.textContent || "").replace(/\s+/g, " ").trim();
}

/**
 * @param {{ data: { part: string } }} component
 */
export default function bring({ data }) {
  const look = () => {
    const part = /** @type {HTMLElement | null} */ (document.querySelector(`.st-key-${data.part}`));
    if (!part) return;
    const box = part.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
      part.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
    }
    announce(words(part));
  };
  const timer = setTimeout(look, LAID_OUT_MS);
  return () => clearTimeout(timer);
}
