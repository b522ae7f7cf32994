// The site's Heads, Rollout, Contributions and Lens pages, and its Interventions, Attributions and Contexts (computed
// when the site was written: export/model_runs.py): one page for any of them, drawn from what the app's code
// computed, worded and drew for every value of the page's pickers (export/analyses.py gives the shape). The
// pickers are read from the address as the app's URL keys (stat, layer, token, norm, position); the figures sit in
// the canvas, the words, checks and links beside them, as the app's pages have them.
import { lecture as lectureOf } from "./lecture.js";
import { element, link, chosen, drawn, failed, paragraph, sentenceKeys, worded, lectureMode } from "./page.js";
import { askedFor, answerOf, keyOf, nextFirst, noneAsked, questionOf, waits } from "./ask_first.js";
import { stepperControl } from "./stepper.js";
import { titled } from "./yours.js";

/** @typedef {import("./analysed_page.js").Page} Page */
/** @typedef {import("./analysed_page.js").Item} Item */
/** @typedef {import("./analysed_page.js").Apart} Apart */

const site = window.BVL_SITE;

/**
 * Each picker's value: the address's where it names one, else the page's default; and a note for each the address
 * named wrong.
 * @param {Page} page
 * @param {URLSearchParams} keys
 */
function picked(page, keys) {
  /** @type {Record<string, string>} */
  const values = {};
  /** @type {string[]} */
  const notes = [];
  for (const p of page.pickers) {
    const asked = keys.get(p.key);
    const names = p.options.map(([value]) => value);
    if (asked === null || names.includes(asked)) {
      values[p.key] = asked === null ? p.value : asked;
      continue;
    }
    const last = names[names.length - 1];
    const past = /^\d+$/.test(asked) && /^\d+$/.test(last) && Number(asked) > Number(last);
    values[p.key] = past ? last : p.value;  // a layer past the model's last: its last, as the app's slider
    const among = /^\d+$/.test(last) ? `${names[0]} to ${last}` : names.join(", ");
    notes.push(worded("no_value", { key: p.key, asked, among, label: p.label.toLowerCase(), value: values[p.key] }));
  }
  return { values, notes };
}

/**
 * The app's Markdown lines: **bold**, "- " items; `kind`: their class.
 * @param {HTMLElement} host
 * @param {string[]} said
 * @param {string} [kind]
 */
function lines(host, said, kind) {
  for (const line of said) {
    const [first, ...items] = line.split("\n- ");
    if (first.trim()) {
      const p = paragraph(first.replace(/\n$/, ""));
      if (kind) p.className = kind;
      host.append(p);
    }
    if (items.length) {
      const list = element("ul");
      for (const entry of items) {
        const item = element("li");
        item.append(paragraph(entry.replace(/^- /, "")));
        list.append(item);
      }
      host.append(list);
    }
  }
}

/**
 * The page of one analysis.
 * @param {import("./analysed_page.js").PageName} part
 * @returns {import("./router.js").Page}
 */
function analysisPage(part) {
  return function (view, keys, current) {
    const s = chosen(keys, view);
    if (!s) return;
    view.append(element("p", worded("reading"), { class: "note" }));
    lectureOf(site, site.sentences.indexOf(s)).then(async (held) => {
      const page = /** @type {Page} */ (await held.part(part));
      const { values, notes } = picked(page, keys);
      const shown = await Promise.all(page.panels.map(async (panel) => {  // each panel's item for these values
        const found = panel.items[panel.by.map((key) => values[key]).join(",")];
        return /** @type {Item | undefined} */ (found && "part" in found ? await held.part(found.part) : found);
      }));  // (an item kept in a part of its own read first)
      if (current()) show(view, page, part, s, values, notes, shown, keys);
    }).catch((error) => current() && failed(view, site.pages[part], error));
  };
}

/**
 * The page drawn: its pickers, and each panel's item for the values picked (figures in the canvas, words, checks
 * and links beside them).
 * @param {HTMLElement} view
 * @param {Page} page
 * @param {string} part
 * @param {SiteSentence} s
 * @param {Record<string, string>} values
 * @param {string[]} notes
 * @param {(Item | undefined)[]} items
 * @param {URLSearchParams} keys
 */
function show(view, page, part, s, values, notes, items, keys) {
  const asked = (page.questions?.by ?? []).filter((k) => !(k in values) && keys.has(k))  // a question's own keys
    .map((k) => [k, keys.get(k) || ""]);  // (the layer the Heads page asks of); link() keeps ask and hall
  const go = (/** @type {string} */ key, /** @type {string} */ value) => {
    location.hash = link(part, { ...sentenceKeys(s), ...values, [key]: value, ...Object.fromEntries(asked) });
  };
  view.replaceChildren(titled(page.title, page.any_sentence ? null : s),
                       ...notes.map((note) => element("p", note, { class: "note" })));
  if (page.pickers.length) {
    const row = element("div", undefined, { class: "controls labelled" });
    page.pickers.forEach((p, k) => {  // the first is the page's walk (Alt+Shift+← →)
      const index = p.options.findIndex(([value]) => value === values[p.key]);
      row.append(stepperControl(p.label, p.options.map(([, label]) => label), index,
                                    (/** @type {number} */ i) => go(p.key, p.options[Math.max(0, Math.min(i, p.options.length - 1))][0]),
                                    p.key, k === 0));
    });
    view.append(row);
  }
  const columns = element("div", undefined, { class: page.wide ? "under" : "beside" });  // words beside or under
  const side = element("section", undefined, { class: "side" });
  const canvas = element("section", undefined, { class: "canvas" });
  columns.append(...(page.wide ? [canvas, side] : [side, canvas]));
  view.append(columns);
  if (asksFirst(view, page, keys, values, s, side, canvas, () => show(view, page, part, s, values, notes, items, keys))) {
    return;  // the question waits: its figures, and the words that would say the answer, wait for a choice
  }
  /** @type {HTMLElement | null} */
  let halves = null;
  let first = true;
  page.panels.forEach((panel, k) => {
    const shown = items[k];
    if (!shown) return;
    lines(canvas, shown.said);
    if (shown.figure) {
      const host = panel.half ? (halves = halves || canvas.appendChild(element("div", undefined, { class: "halves" })))
        : canvas;
      const div = drawn(host, shown.figure, `figure-${part}-${k}`);
      if (first) (panel.half ? host : div).dataset.point = part;  // what a projector must show whole
      first = false;
    }
    if (!panel.half) halves = null;
    lines(side, shown.lines);
    for (const [said, holds] of shown.checks) {
      side.append(element("p", `${holds ? "✔" : "✘"} ${said}`, { class: `result ${holds ? "ok" : "bad"}` }));
    }
    for (const target of shown.links) {
      side.append(element("a", target.text, { href: link(target.page, { ...sentenceKeys(s), ...target.keys }),
                                              class: "open-link" }));
    }
  });
  lines(side, page.side, "explains");  // a caption: a projector leaves it out, as the app's lecture mode
  for (const note of page.notes) (first ? canvas : side).append(element("p", note, { class: "note" }));
  const last = canvas.lastElementChild;
  if (first && last instanceof HTMLElement) last.dataset.point = part;  // no figure: the page's point is why
}

/**
 * Where the link asks (ask=1) and the page has a question for its values (the Heads page: by stat and the link's
 * layer, as the app's), the question in the canvas (true: nothing else is drawn), else its answer beside the figures
 * (false); in lecture mode the lecture's Next shows the answer first.
 * @param {HTMLElement} view
 * @param {Page} page
 * @param {URLSearchParams} keys
 * @param {Record<string, string>} values
 * @param {SiteSentence} s
 * @param {HTMLElement} side
 * @param {HTMLElement} canvas
 * @param {() => void} again  the page drawn again
 */
function asksFirst(view, page, keys, values, s, side, canvas, again) {
  const asks = askedFor(keys);
  for (const note of asks.notes) view.insertBefore(element("p", note, { class: "note" }), side.parentElement);
  if (!asks.ask || !page.questions) return false;
  const question = page.questions.items[page.questions.by.map((k) => values[k] ?? keys.get(k) ?? "0").join(",")];
  const questionKey = question ? keyOf(question, JSON.stringify(sentenceKeys(s))) : null;
  if (lectureMode()) nextFirst(questionKey, again, null);
  if (!question || !questionKey) {
    side.append(noneAsked());
    return false;
  }
  if (waits(questionKey)) {
    canvas.append(questionOf(question, questionKey, again));
    return true;
  }
  side.append(answerOf(question, questionKey));
  return false;
}

export const headsView = analysisPage("heads");
export const rolloutView = analysisPage("rollout");
export const contributionsView = analysisPage("contributions");
export const lensView = analysisPage("lens");
export const interveneView = analysisPage("intervene");  // the pages that run the model again (export/model_runs.py)
export const attributeView = analysisPage("attribute");
export const contextsView = analysisPage("contexts");
