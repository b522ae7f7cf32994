// @ts-nocheck
// (not typed yet: the overview's data and the lecture's stops are the site's untyped JSON; the "one source" work
// rewrites it)
// An exported lecture (bertviz-lite export): the site's router, its navigation, lecture mode's Next, and the overview
// and tokens pages (the stepper is stepper.js, the tour, attention and similarity views.js; what pages share,
// page.js). A view is picked by the address's hash as the app's address picks a page:
// index.html#/tokens?text=... is the app's /tokens?text=... . Every text from the data is set as text, never as
// markup, so a sentence that holds markup or script is shown as typed and runs nothing.
import { plot } from "./figures.js";
import { element, route, link, lectureMode as lecture, chosen, cannot, chips, failed, exported, named, sentenceKeys }
  from "./page.js";
import { layers as stepperPage } from "./stepper.js";
import { tourView, attentionView, similarityView } from "./views.js";
import { headsView, rolloutView, contributionsView, lensView } from "./analyses.js";
import { find, wanted, ready, elsewhere, titled, pages as livePages, box, placeBox } from "./yours.js";

const site = window.BVL_SITE;
const PAGES = { "": overview, overview: overview, architecture: architecture, tokens: tokens, tour: tourView, layers: layers,
                attention: attentionView, heads: headsView, rollout: rolloutView,
                contributions: contributionsView, lens: lensView, similarity: similarityView };
const NAMES = { overview: "Overview", tokens: "Tokens", tour: "Tour", layers: "Layers", attention: "Attention",
                heads: "Heads", rollout: "Rollout", contributions: "Contributions", lens: "Lens",
                similarity: "Similarity" };
const WHOLE_SITE = ["", "overview", "architecture"];  // pages that show no one sentence
const APP_ONLY = {  // the app's pages that need the model itself, and why
  contexts: "it runs the model on the word's two sentences, any you type",
  intervene: "it runs the sentence again through the model with a head switched off, a token masked or a value zeroed",
  attribute: "it takes gradients through the model",
  compare: "it runs two models side by side",
};

function following(page, keys) {  // the lecture's next view (app_pages/shell/pages.py following): after the
  // last stop this view shows, or after the page's first; the first from a page the lecture does not visit
  const stops = site.lecture;
  const shows = (stop) => stop.page === page && Object.entries(stop.keys).every(([k, v]) => keys.get(k) === v);
  const exact = stops.map((stop, i) => (shows(stop) ? i : -1)).filter((i) => i >= 0);
  const onPage = stops.map((stop, i) => (stop.page === page ? i : -1)).filter((i) => i >= 0);
  const here = exact.length ? exact[exact.length - 1] : onPage.length ? onPage[0] : -1;
  return stops[here + 1] || null;
}

function lectureBar(page, keys) {  // in lecture mode, "Next" to the lecture's following view, same sentence
  const bar = document.getElementById("next");
  bar.replaceChildren();
  if (!lecture()) return;
  const ahead = following(page, keys);
  if (!ahead) return;
  const said = Object.fromEntries(["text", "pair"].filter((k) => keys.get(k)).map((k) => [k, keys.get(k)]));
  bar.append(element("a", `Next: ${ahead.title} ▶`, { href: link(ahead.page, { ...said, ...ahead.keys }),
                                                     class: "next-view" }));
}

function navigation(here, keys) {  // each page on the sentence shown (as the app's pages keep its text)
  const nav = document.getElementById("pages");
  const said = Object.fromEntries(["text", "pair"].filter((k) => keys.get(k) !== null).map((k) => [k, keys.get(k)]));
  nav.replaceChildren(...Object.entries(NAMES).map(([page, name]) =>
    element("a", name, { href: link(page, page === "overview" ? {} : said),
                         class: page === here ? "here" : "" })));
  document.getElementById("about").textContent = site.about;
}

function overview(view) {
  const o = site.overview;
  view.append(element("h1", "Overview"),
              element("p", `${o.architecture}: ${o.total.toLocaleString("en")} parameters.`));
  const columns = element("div", undefined, { class: "columns" });
  const tree = element("section");
  tree.append(element("h2", "Module tree"),
              element("p", "Click a line to open it. Repeated blocks are folded; tied tensors count once."));
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

function architecture(view) {  // the app's Architecture page: its tree and sunburst are the overview's
  overview(view);
  view.children[1].after(element("p", "The app's Architecture page also lists every named parameter and the task " +
                                  "heads; its module tree and sunburst are here.", { class: "note" }));
}

function tokens(view, keys) {
  const s = chosen(keys, view);
  if (!s) return;
  view.append(titled("Tokens", s));
  if (s.notice) view.append(element("p", s.notice, { class: "note" }));  // before a long text, not under it
  view.append(element("p", s.text, { class: "sentence" }));
  if (s.pair) view.append(element("p", s.pair, { class: "sentence pair" }));  // sentence B, read after [SEP]
  const shown = chips(s);
  shown.dataset.point = "tokens";
  view.append(element("p", `${s.tokens.length} tokens. Special tokens are grey; ` +
                      (s.pair ? "sentence A is blue, sentence B orange." : "the sentence is blue.")), shown);
  if (site.vocabulary) view.append(element("p", site.vocabulary, { class: "note" }));
  if (s.unknown) view.append(element("p", s.unknown, { class: "note" }));  // pieces that became [UNK]
}

function layers(view, keys, current) {  // the stepper (stepper.js), on the sentence's own data
  const s = chosen(keys, view);
  if (!s) return;
  view.append(element("p", "Reading the sentence's numbers…", { class: "note" }));
  stepperPage(view, keys, site.sentences.indexOf(s), link, current).catch((error) => current() &&
    failed(view, "Layers", error));
}

let renders = 0;  // each address's render; one still reading a part when the address changes draws nothing

function alive(render) {
  return () => render === renders;
}

function show() {
  const render = ++renders;
  const { page, keys } = route();
  const view = document.getElementById("view");
  view.replaceChildren();
  document.body.classList.toggle("lecture", lecture());  // large type for a projector, as the app's lecture mode
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
  cannot(view, page in APP_ONLY
    ? `The ${page} view needs the model itself (${APP_ONLY[page]}): this site shows ${holds}. The app shows it, ` +
      "for any sentence."
    : `This site has no page "${page}". It shows ${holds}.`);
}

function drawn(draw, view, page, keys, current) {  // a page, or why a sentence computed here is not in it
  const s = keys.get("text") === null ? null : find(keys.get("text"), keys.get("pair"));
  if (s && s.live && !livePages.includes(page) && !WHOLE_SITE.includes(page)) {
    return elsewhere(view, NAMES[page], keys);
  }
  return draw(view, keys, current);
}

// The site started: each address drawn as it changes, the box for a sentence of the reader's own where the site is
// live, and the first address drawn once the app's type is loaded
export function start() {
  window.addEventListener("hashchange", show);
  box();
  // Figures measure their labels in the app's type: drawn once it is loaded (asked for by name: `fonts.ready`
  // alone may resolve before a font that only a figure will use has been read, and the labels then overlap)
  Promise.all(['16px "Source Sans"', '16px "Source Code"'].map((font) => document.fonts.load(font)))
    .catch(() => null).then(show);
}
