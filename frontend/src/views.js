// The views whose figures the app's own code drew when the site was written (export/tour.py, attention.py,
// similarity.py), each styled for a browser, a projector and a phone: the guided tour, BertViz's head and model
// views (for a sentence computed in this browser, the app's figures filled here: attention_views.js), and the sentences'
// similarity with each pair's split.
import { lecture as lectureOf } from "./lecture.js";
import { plot } from "./plot.js";
import { element, link, chosen, drawn, screen, paragraph, chips, failed, sentenceKeys,
  worded, capitalized, lectureMode } from "./page.js";
import { askedFor, answerOf, keyOf, nextFirst, noneAsked, questionOf, waits } from "./ask_first.js";
import { focusOf, headButtons, keepLines, linesPanel } from "./head_view.js";
import { stepperControl } from "./stepper.js";
import { section } from "./similar.js";
import { addressed, titled } from "./yours.js";

/** @typedef {import("./figure_types.js").Figure} Figure */
/** @typedef {import("./analysed_page.js").ForScreens} ForScreens */
/**
 * A chapter of the tour (export/tour.py tour_chapters, or tour.js tourOf for a sentence computed here): its kind
 * ("step", "tokens", "stream", "output"), title, step (where it is one), sentences, its figure for each screen
 * (the app's, styled in Python; a computed sentence's, a template filled) and what it asks first (ask_first.js).
 * @typedef {{ kind: string, title: string, step: string | null, lines: string[],
 *             figure: ForScreens | null, question: import("./asked.js").Question | null }} Chapter
 */
/** A view of BertViz's, for each screen; `scrolls` where its rows do not fit a projector (export/attention.py). */
/** @typedef {ForScreens & { scrolls?: boolean }} AttentionView */
/** A figure Plotly drew: it tells its clicks (a thumbnail's [layer, head] in `customdata`). */
/** @typedef {HTMLElement & { on: (event: string, listener: (event: { points: { customdata?: unknown }[] }) => void) => void }} Plotted */

const site = window.BVL_SITE;
let keyed = false;  // whether the attention view is drawn for a key pressed on its figure: the focus goes back to it

/** @type {import("./router.js").Page} the guided tour, as the app's tour computed it for this sentence (export/tour.py) */
function tour(view, keys, current) {
  const s = chosen(keys, view);
  if (!s) return;
  const index = site.sentences.indexOf(s);
  lectureOf(site, index).then((lecture) => lecture.part("tour")).then((/** @type {Chapter[]} */ story) => {
    if (!current()) return;
    const asked = keys.get("chapter") || "1";
    const number = /^\d{1,3}$/.test(asked) && Number(asked) >= 1 && Number(asked) <= story.length ? Number(asked) : 1;
    view.replaceChildren(titled("Tour", s));
    if (String(number) !== asked) {
      view.append(element("p", worded("no_chapter", { asked, count: story.length }), { class: "note" }));
    }
    const chapterLink = (/** @type {number} */ n) => link("tour", { ...sentenceKeys(s), chapter: String(n) });
    const go = (/** @type {number} */ n) => { location.hash = chapterLink(n); };
    const pick = element("div", undefined, { class: "controls" });
    pick.append(stepperControl("Chapter", story.map((c, i) => `${i + 1}/${story.length} · ${c.title}`),
                                   number - 1, (/** @type {number} */ i) => go(i + 1), "chapter", true));
    view.append(pick);
    const chapter = story[number - 1];
    const columns = element("div", undefined, { class: "stepper-columns" });
    const canvas = element("section", undefined, { class: "canvas", "data-point": "chapter" });
    const words = element("section", undefined, { class: "words" });
    columns.append(canvas, words);
    view.append(columns);
    words.append(element("h2", chapter.title));
    const asks = askedFor(keys);
    for (const note of asks.notes) view.insertBefore(element("p", note, { class: "note" }), columns);
    const question = asks.ask ? chapter.question : null;  // its figure and answering words held back till a choice
    const questionKey = question && keyOf(question, JSON.stringify(sentenceKeys(s)));
    const again = () => tour(view, keys, current);
    const next = number < story.length ? { title: story[number].title, href: chapterLink(number + 1) } : null;
    if (asks.ask && lectureMode()) nextFirst(questionKey, again, next);  // question, answer, next chapter
    if (asks.ask && !question) words.append(noneAsked());
    if (question && questionKey) {
      if (waits(questionKey)) {
        canvas.removeAttribute("data-point");
        canvas.append(questionOf(question, questionKey, again));
        return;
      }
      (screen() === "lecture" ? words : canvas).append(answerOf(question, questionKey));  // beside the figure on a
    }  // projector (the figure whole above the fold), else above it
    for (const line of chapter.lines) words.append(paragraph(line));
    const about = site.views.tour;
    words.append(element("p", worded("tour_about", about), { class: "note" }));
    if (chapter.step) {
      const [, layer, key] = /^layers\.(\d+)\.(.+)$/.exec(chapter.step) || [null, "0", chapter.step];
      words.append(element("a", worded("open_step"), { href: link("layers", { ...sentenceKeys(s), step: key,
                                                                                             layer }) }));
    }
    if (chapter.kind === "tokens") canvas.append(chips(s));
    if (chapter.figure) {
      const figure = element("div", undefined, { class: "figure", id: "tour-figure" });
      canvas.append(figure);
      plot(figure, chapter.figure[screen()]);  // styled in Python for this screen (figures/screens.py)
    }
  }).catch((error) => current() && failed(view, "Tour", error));
}

/** @type {import("./router.js").Page} BertViz's head view and model view, as the app draws them (export/attention.py) */
function attention(view, keys, current) {
  const s = chosen(keys, view);
  if (!s) return;
  lectureOf(site, site.sentences.indexOf(s)).then((held) => held.part("attention")).then((
    /** @type {{ head: AttentionView[], model: AttentionView }} */ views) => {
    if (!current()) return;
    const layers = views.head.length;
    const model = keys.get("view") === "model";
    const layer = Math.min(Math.max(parseInt(keys.get("layer") || "0", 10) || 0, 0), layers - 1);
    const focus = model ? null : focusOf(keys.get("focus"), s.tokens.length);  // a token's lines alone
    const go = (/** @type {Record<string, string>} */ changes) => {
      const base = { ...sentenceKeys(s), view: model ? "model" : "head", layer: String(layer),
                     ...(focus ? { focus: focus.join("") } : {}) };
      const keys = Object.fromEntries(Object.entries({ ...base, ...changes }).filter(([, value]) => value !== ""));
      location.hash = link("attention", keys);
    };
    view.replaceChildren(titled("Attention", s));
    const row = element("div", undefined, { class: "controls" });
    const kinds = element("div", undefined, { class: "stages" });
    for (const [name, title] of [["head", "Head view"], ["model", "Model view"]]) {
      const b = element("button", title, { type: "button" });
      if ((name === "model") === model) b.setAttribute("aria-pressed", "true");
      b.addEventListener("click", () => go({ view: name }));
      kinds.append(b);
    }
    row.append(kinds);
    if (!model) {
      row.append(stepperControl("Layer", views.head.map((_, l) => `Layer ${l}`), layer,
                                    (/** @type {number} */ l) => go({ layer: String(l) }), "layer", true));
    }
    view.append(row, element("p", worded(model ? "model_view_help" : "head_view_help"), { class: "explains" }));
    const figure = /** @type {Plotted} */ (element("div", undefined, { class: "figure", id: "attention-figure" }));
    const shown = model ? views.model : views.head[layer];
    if (shown.scrolls && screen() === "lecture") {  // more rows than a projector holds: they scroll in a box of their own
      const box = element("div", undefined, { class: "scroll-box", "data-point": "view", "data-scrolls": "" });
      box.append(figure);
      view.append(element("p", worded("scrolls", { count: s.tokens.length })), box);
      const room = window.innerHeight - box.getBoundingClientRect().top - 2;  // what the screen holds under it
      box.style.maxHeight = `${Math.max(240, Math.min(500, room))}px`;  // (a computed sentence's line above)
    } else {
      figure.dataset.point = "view";
      view.append(figure);
    }
    const open = (/** @type {number} */ tileLayer, /** @type {number} */ head) => {  // a thumbnail's matrix in the
      location.hash = link("layers", { ...sentenceKeys(s), layer: String(tileLayer), head: String(head),  // stepper
                                       step: "attn.probs" });
    };
    const wasKeyed = keyed;
    keyed = false;
    const pickToken = (/** @type {unknown} */ data) => {  // a token's [side, index]: its lines alone, or every line
      if (!Array.isArray(data) || data.length !== 2) return;
      const picked = `${data[0]}${data[1]}`;
      go({ focus: focus && focus.join("") === picked ? "" : picked });
    };
    const every = () => { keyed = true; go({ focus: "" }); };
    /** @type {import("./cell_keys.js").Walk} */
    const walk = model ? { pick: open } : {
      pick: (_r, _c, target) => { keyed = true; pickToken(target); }, close: focus ? every : undefined,
      start: focus ? [focus[1], focus[0] === "q" ? 0 : 1] : null,  // a token's row, its side's column (a site's
      focus: wasKeyed && !focus };  // head view: queries left)
    plot(figure, shown[screen()], walk).then(async () => {  // Enter on a walked thumbnail or token, or a click
      figure.on("plotly_click", (event) => {  // a thumbnail's [layer, head], a token's [side, index]
        const data = event.points[0] && event.points[0].customdata;
        if (model && Array.isArray(data) && data.length === 2) open(data[0], data[1]);
        else if (!model) pickToken(data);
      });
      if (model) return;
      const after = figure.closest(".scroll-box") || figure;
      let panel = element("div");  // a token's lines, listed as the figure draws them
      const listed = () => {
        if (!focus) return;
        const fresh = linesPanel(figure, focus, every);
        panel.replaceWith(fresh);
        panel = fresh;
      };
      if (focus) {
        await keepLines(figure, focus, { ...walk, focus: wasKeyed });
        after.after(panel);
        listed();
      }
      after.after(headButtons(figure, walk, listed));  // the legend's heads, by keyboard
    });
  }).catch((error) => current() && failed(view, "Attention", error));
}

/**
 * The sentences' cosines and a pair's split (export/similarity.py): the sentences and the pair picker beside the
 * figures, as the app's page has them; first, on a live site, a sentence of the reader's own against them
 * (similar.js).
 * @type {import("./router.js").Page}
 */
function similarity(view, keys, current) {
  const s = addressed(keys);
  view.append(titled(worded("similarity_title"), s));
  const data = site.similarity;
  if (s && s.live && data && data.yours) {
    const mine = element("div", undefined, { class: "yours-similarity" });
    view.append(mine, element("h2", worded("site_sentences")));
    if (s.pair) {
      mine.append(element("p", worded("pair_not_compared"), { class: "note" }));
    } else {
      lectureOf(site, site.sentences.indexOf(s)).then((held) => (current() ? section(mine, s, keys, held) : undefined))
        .catch((error) => current() && failed(view, worded("similarity_title"), error));
    }
  }
  if (!data) {
    view.append(element("p", worded("fewer_than_two"), { class: "note" }));
    return;
  }
  const why = (keys.get("why") || "").trim();
  const pairs = Object.keys(data.pairs);
  const columns = element("div", undefined, { class: "beside" });
  const controls = element("section"), canvas = element("section", undefined, { class: "canvas" });
  columns.append(controls, canvas);
  view.append(columns);
  const list = element("ol", undefined, { class: "sentence-list" });
  data.texts.forEach((/** @type {string} */ text) => list.append(element("li", text)));  // the single sentences: a pair is one input
  const pick = /** @type {HTMLSelectElement} */ (element("select", undefined,
                                                         { "aria-label": worded("why_similar"), id: "why" }));
  pick.append(element("option", worded("every_pair"), { value: "" }));
  for (const pair of pairs) {
    const [a, b] = pair.split(",");
    pick.append(element("option", worded("sentences_pair", { a, b }), { value: pair }));
  }
  const label = element("label", worded("why_similar"), { class: "picker" });
  label.append(pick);
  controls.append(list, label);
  if (why && !pairs.includes(why)) {
    controls.append(element("p", worded("no_pair", { why, count: data.texts.length }), { class: "note" }));
  }
  pick.value = pairs.includes(why) ? why : "";
  /** @type {Record<string, string>} */
  const said = s && s.live ? { text: s.text } : {};  // the reader's sentence stays on the page
  pick.addEventListener("change", () => {
    location.hash = link("similarity", { ...said, ...(pick.value ? { why: pick.value } : {}) });
  });
  const chosenPair = data.pairs[pick.value];
  if (!data.matrices[0].trained) {
    controls.append(element("p", worded("not_trained", { source: data.source }), { class: "note" }));
  }
  const asks = askedFor(keys);  // ask=1: which sentence is closest to the first; with a pair, which token pair
  for (const note of asks.notes) controls.append(element("p", note, { class: "note" }));  // adds most (the app's)
  const question = asks.ask ? (chosenPair ? chosenPair.question : data.question) : null;
  const questionKey = question && keyOf(question, JSON.stringify([data.texts, pick.value]));
  const draw = () => {  // the figures, or while the question waits, the question in their place
    canvas.replaceChildren();
    if (asks.ask && lectureMode()) nextFirst(questionKey, draw, null);
    if (question && questionKey) {
      if (waits(questionKey)) {
        canvas.append(questionOf(question, questionKey, draw));
        return;
      }
      (screen() === "lecture" ? controls : canvas).append(answerOf(question, questionKey));
    }
    if (chosenPair) {
      canvas.append(paragraph(chosenPair.caption));
      const split = drawn(canvas, chosenPair.figure, "split-figure");
      if (!(s && s.live)) split.dataset.point = "split";
      controls.append(element("p", worded("cell_is"), { class: "explains" }));
    }
    data.matrices.forEach((/** @type {{ name: string, how: string, trained: boolean, figure: ForScreens }} */ way,
                           /** @type {number} */ k) => {
      const div = drawn(canvas, way.figure, `similarity-${k}`);
      if (!chosenPair && k === 0 && !(s && s.live)) div.dataset.point = "cosines";  // the point, unless a
      // sentence of the reader's own is (similar.js, above)
      if (!way.trained) canvas.append(element("p", worded("way_how", { name: capitalized(way.name), how: way.how }),
                                              { class: "explains" }));
    });
  };
  draw();
}

export { tour as tourView, attention as attentionView, similarity as similarityView };
