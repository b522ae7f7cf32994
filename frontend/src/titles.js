// A title too long for its figure's width on as many lines as it needs, as figures/fit.py _fit_title wraps the
// app's (its measures handed over with the site's style: room.py CHAR_EM, LINE_EM), for the figures the browser still
// builds itself (the tour's, the Contributions' mixing lines).
import { escaped } from "./figure_words.js";
import { pyRound } from "./numbers.js";

/** @typedef {import("./figure_types.js").Figure} Figure */
/** @typedef {import("./figure_types.js").Layout} Layout */

/**
 * The title on as many lines as `width` needs, and the height they add; null where it fits
 * @param {Layout} layout
 * @param {number} width
 * @param {number} base  the figure's type size
 * @returns {{ text: string, added: number } | null}
 */
export function wrappedTitle(layout, width, base) {
  const title = layout.title && layout.title.text;
  if (!title || !layout.title) return null;  // (a text: layout.title is there)
  const { char_em: em, line_em: line } = window.BVL_SITE.style.title_wrap;
  const size = (layout.title.font && layout.title.font.size) || base * 1.1;
  const perLine = Math.max(12, Math.trunc((width - 20) / (size * em)));
  const given = title.split("<br>");
  const lines = given.flatMap((text) => wrapped(unescaped(text), perLine));
  return lines.length > given.length ? { text: lines.map(escaped).join("<br>"),
                                         added: pyRound(line * size) * (lines.length - given.length) } : null;
}

/**
 * Python's textwrap.wrap on words (these titles hold no hyphen, no long word)
 * @param {string} text
 * @param {number} width
 * @returns {string[]}
 */
function wrapped(text, width) {
  /** @type {string[]} */
  const lines = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [""];
}

/** @param {string} text */
function unescaped(text) {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}
