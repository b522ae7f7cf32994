// An exported lecture (bertviz-lite export): the site's router, its navigation, lecture mode's Next, and the overview
// and tokens pages (the stepper is stepper.js, the tour, attention and similarity views.js; what pages share,
// page.js). A view is picked by the address's hash as the app's address picks a page:
// index.html#/tokens?text=... is the app's /tokens?text=... . Every text from the data is set as text, never as
// markup, so a sentence that holds markup or script is shown as typed and runs nothing.
import { skipLink } from "./skip_link.js";
import { plot } from "./plot.js";
import { element, route, link, lectureMode as lecture, chosen, cannot, chips, failed, exported, named, sentenceKeys,
  worded, screen } from "./page.js";
import { layers as stepperPage } from "./stepper.js";
import { tourView, attentionView, similarityView } from "./views.js";
import { headsView, rolloutView, contributionsView, lensView, interveneView, attributeView, contextsView }
  from "./analyses.js";
import { addressed, wanted, typed, ready, elsewhere, titled, pages as livePages, box, placeBox } from "./yours.js";
import { answers, listen } from "./shortcuts.js";

/**
 * A page of the site: draws itself into `view` from the address's keys; `current()` says whether the address is
 * still the one it draws (a part read late draws nothing).
 * @typedef {(view: HTMLElement, keys: URLSearchParams, current: () => boolean) => void} Page
 */
/**
 * A stop of the lecture (export/content.py `lecture`: app_pages/shell/pages.py LECTURE_STOPS): its page, its title
 * and its keys.
 * @typedef {{ page: string, title: string, keys: Record<string, string> }} Stop
 */

const site = window.BVL_SITE;
/** @type {Record<string, Page>} */
const PAGES = { "": overview, overview: overview, architecture: architecture, tokens: tokens, tour: tourView, layers: layers,
                attention: attentionView, heads: headsView, rollout: rolloutView,
                contributions: contributionsView, lens: lensView, similarity: similarityView,
                intervene: interveneView, attribute: attributeView, contexts: contextsView };
const NAMES = site.pages;  // the navigation: each page's name as the app's sidebar says it (tour/page_names.py)
const WHOLE_SITE = ["", "overview", "architecture"];  // pages that show no one sentence
const APP_ONLY = ["compare"];  // the app's pages that need the model itself
// (why: the site's words "PAGE_needs")

/**
 * The lecture's next view (app_pages/shell/pages.py following): after the last stop this view shows, or after the
 * page's first; the first from a page the lecture does not visit. A sentence of the reader's own passes over the
 * stops whose page cannot show it (`left`: those passed over, for a line that says so).
 * @param {string} page
 * @param {URLSearchParams} keys
 * @returns {{ ahead: Stop | null, left: Stop[] }}
 */
function following(page, keys) {
  const stops = /** @type {Stop[]} */ (site.lecture);
  const shows = (/** @type {Stop} */ stop) => stop.page === page && Object.entries(stop.keys).every(([k, v]) => keys.get(k) === v);
  const exact = stops.map((stop, i) => (shows(stop) ? i : -1)).filter((i) => i >= 0);
  const onPage = stops.map((stop, i) => (stop.page === page ? i : -1)).filter((i) => i >= 0);
  const here = exact.length ? exact[exact.length - 1] : onPage.length ? onPage[0] : -1;
  const shown = (/** @type {Stop} */ stop) => !typed(keys) || livePages.includes(stop.page);
  const ahead = stops.slice(here + 1);
  const next = ahead.findIndex(shown);
  return { ahead: next < 0 ? null : ahead[next], left: next < 0 ? ahead : ahead.slice(0, next) };
}

/**
 * The element of the page's frame (index.html) by its id.
 * @param {string} id
 * @returns {HTMLElement}
 */
function frame(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The site's index.html has no #${id}: write the site again.`);
  return found;
}

/**
 * The address's sentence keys (text, pair) as they are, for a link that keeps the sentence; `empty`: an empty one
 * too (a page then says that the text is empty).
 * @param {URLSearchParams} keys
 * @param {boolean} empty
 * @returns {Record<string, string>}
 */
function sentenceOf(keys, empty) {
  /** @type {Record<string, string>} */
  const kept = {};
  for (const k of ["text", "pair"]) {
    const value = keys.get(k);
    if (value !== null && (empty || value)) kept[k] = value;
  }
  return kept;
}

/**
 * In lecture mode, "Next" to the lecture's following view, same sentence.
 * @param {string} page
 * @param {URLSearchParams} keys
 */
function lectureBar(page, keys) {
  const bar = frame("next");
  bar.replaceChildren();
  if (!lecture()) return;
  const { ahead, left } = following(page, keys);
  const first = /** @type {Stop[]} */ (site.lecture)[0];  // after the last stop: the lecture ends, and starts again
  const stop = ahead || first;
  const next = element("a", worded(ahead ? "next" : "lecture_end", { title: stop.title }),
                       { href: link(stop.page, { ...sentenceOf(keys, false), ...stop.keys }),
                         class: ahead ? "next-view" : "next-view lecture-end" });
  next.dataset.title = stop.title;  // for a page whose own Next comes first (ask_first.js: "Leave for: …")
  next.dataset.said = next.textContent || "";
  answers(next, "next", next.textContent || "");
  bar.append(next);
  if (left.length) {  // a sentence of the reader's own: the stops it cannot show, said where Next passes them
    const names = [...new Set(left.map((passed) => NAMES[passed.page]))];
    bar.append(element("p", worded("left_out", { pages: names.join(" and ") }), { class: "left-out" }));
  }
}

/**
 * Each page on the sentence shown (as the app's pages keep its text).
 * @param {string} here
 * @param {URLSearchParams} keys
 */
function navigation(here, keys) {
  const nav = frame("pages");
  const said = sentenceOf(keys, true);
  const links = Object.entries(NAMES).map(([page, name]) =>
    element("a", name, { href: link(page, page === "overview" ? {} : said),
                         ...(page === here ? { class: "here", "aria-current": "page" } : {}) }));
  if (screen() === "browse") {
    nav.replaceChildren(...links);
  } else {  // a projector: the pages folded into a menu named by this one, as the app's lecture mode closes its
    // sidebar, so that the menu and Next keep one line (a second pushed the figures below the fold); a phone too,
    // its links then 44 px tall as its main controls are (three lines of 25 px links pushed the page down)
    const menu = element("details", undefined, { class: "pages-menu" });
    const list = element("div", undefined, { class: "menu" });
    list.append(...links);
    menu.append(element("summary", `☰ ${NAMES[here] || worded("pages")}`), list);
    nav.replaceChildren(menu);
  }
  frame("about").textContent = site.about;
}

/** @param {HTMLElement} view */
function overview(view) {
  const o = site.overview;
  view.append(element("h1", "Overview"),
              element("p", `${o.architecture}: ${o.total.toLocaleString("en")} parameters.`));
  const columns = element("div", undefined, { class: "columns" });
  const tree = element("section");
  tree.append(element("h2", "Module tree"),
              element("p", worded("tree_help")));
  const body = element("div", undefined, { class: "tree" });
  body.innerHTML = o.tree;  // the app's own HTML of the tree, every name escaped in Python (tree_html)
  tree.append(body);
  const sunburst = element("section", undefined, { "data-point": "sunburst" });  // what a projector must show
  const figure = element("div", undefined, { id: "sunburst" });
  sunburst.append(element("h2", "Parameter sunburst"), figure);
  columns.append(tree, sunburst);
  view.append(columns, element("h2", "Sentences"));
  const list = element("div", undefined, { class: "sentences" });
  for (const s of exported()) list.append(element("a", named(s), { href: link("tokens", sentenceKeys(s)) }));
  view.append(list);
  plot(figure, o.sunburst);
}

/**
 * The app's Architecture page: its tree and sunburst are the overview's.
 * @param {HTMLElement} view
 */
function architecture(view) {
  overview(view);
  view.children[1].after(element("p", worded("architecture_note"), { class: "note" }));
}

/** @type {Page} */
function tokens(view, keys) {
  const s = chosen(keys, view);
  if (!s) return;
  view.append(titled("Tokens", s));
  if (s.notice) view.append(element("p", s.notice, { class: "note" }));  // before a long text, not under it
  view.append(element("p", s.text, { class: "sentence" }));
  if (s.pair) view.append(element("p", s.pair, { class: "sentence pair" }));  // sentence B, read after [SEP]
  const shown = chips(s);
  shown.dataset.point = "tokens";
  view.append(element("p", worded(s.pair ? "tokens_pair" : "tokens_single", { count: s.tokens.length })), shown);
  if (site.vocabulary) view.append(element("p", site.vocabulary, { class: "note" }));
  if (s.unknown) view.append(element("p", s.unknown, { class: "note" }));  // pieces that became [UNK]
}

/** @type {Page} the stepper (stepper.js), on the sentence's own data */
function layers(view, keys, current) {
  const s = chosen(keys, view);
  if (!s) return;
  view.append(element("p", worded("reading"), { class: "note" }));
  stepperPage(view, keys, site.sentences.indexOf(s), link, current).catch((error) => current() &&
    failed(view, "Layers", error));
}

let renders = 0;  // each address's render; one still reading a part when the address changes draws nothing

/** @param {number} render */
function alive(render) {
  return () => render === renders;
}

function show() {
  const render = ++renders;
  const { page, keys } = route();
  const view = frame("view");
  view.replaceChildren();
  document.body.classList.toggle("lecture", screen() === "lecture");  // large type for a projector, as the app's
  // lecture mode (a phone keeps its own: page.js screen)
  navigation(page === "architecture" ? "overview" : page || "overview", keys);  // the overview shows its tree
  lectureBar(page || "overview", keys);
  placeBox(page);
  const draw = PAGES[page];
  if (draw && !WHOLE_SITE.includes(page) && wanted(keys)) {  // a sentence the site does not hold
    if (!livePages.includes(page)) return elsewhere(view, NAMES[page], keys);
    const current = alive(render);
    ready(view, keys, current).then((ready) => {  // computed in this browser first
      if (!ready) return;
      view.replaceChildren();  // "Computing in this browser…" gives way to the page
      drawn(draw, view, page, keys, current);
    }).catch((error) => current() && failed(view, NAMES[page], error));
    return;
  }
  if (draw) return drawn(draw, view, page, keys, alive(render));
  const holds = Object.values(NAMES).join(", ");
  cannot(view, APP_ONLY.includes(page) ? worded("app_only", { page, why: worded(`${page}_needs`), holds })
    : worded("no_page", { page, holds }));
}

/**
 * A page, or why a sentence computed here is not in it.
 * @param {Page} draw
 * @param {HTMLElement} view
 * @param {string} page
 * @param {URLSearchParams} keys
 * @param {() => boolean} current
 */
function drawn(draw, view, page, keys, current) {
  const s = addressed(keys);
  if (s && s.live && !livePages.includes(page) && !WHOLE_SITE.includes(page)) {
    return elsewhere(view, NAMES[page], keys);
  }
  return draw(view, keys, current);
}

// The site started: each address drawn as it changes, the box for a sentence of the reader's own where the site is
// live, and the first address drawn once the app's type is loaded
export function start() {
  window.addEventListener("hashchange", show);
  listen(document);  // Alt+Shift+← → walk the view, Alt+Shift+N is Next (shortcuts.js)
  skipLink(worded("skip_to_figure"));  // the first Tab stop
  box();
  // Figures measure their labels in the app's type: drawn once it is loaded (asked for by name: `fonts.ready`
  // alone may resolve before a font that only a figure will use has been read, and the labels then overlap)
  Promise.all(['16px "Source Sans"', '16px "Source Code"'].map((font) => document.fonts.load(font)))
    .catch(() => null).then(show);
}
