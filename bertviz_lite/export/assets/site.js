// An exported lecture (bertviz-lite export): the views of the lecture's data (data.js, window.BVL_SITE) drawn in
// the browser, with no server. A view is picked by the address's hash as the app's address picks a page:
// index.html#/tokens?text=... is the app's /tokens?text=... . Every text from the data is set as text, never as
// markup, so a sentence that holds markup or script is shown as typed and runs nothing.
"use strict";
(function () {
  const site = window.BVL_SITE;
  const PAGES = { "": overview, overview: overview, tokens: tokens, tour: tour, layers: layers, attention: attention,
                  similarity: similarity };
  const NAMES = { overview: "Overview", tokens: "Tokens", tour: "Tour", layers: "Layers", attention: "Attention",
                  similarity: "Similarity" };
  const LATER = ["heads", "rollout", "contributions", "lens",
                 "intervene", "attribute", "contexts", "compare", "architecture"];

  function element(tag, text, attributes) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    return node;
  }

  function route() {  // "#/tokens?text=a+b" → page "tokens", keys {text: "a b"}; a malformed page name is itself
    const address = location.hash.replace(/^#\/?/, "");
    const cut = address.indexOf("?");
    const [page, query] = cut < 0 ? [address, ""] : [address.slice(0, cut), address.slice(cut + 1)];
    let name = page;
    try { name = decodeURIComponent(page); } catch (error) { /* "%E0": shown as typed, a page the site lacks */ }
    return { page: name, keys: new URLSearchParams(query) };
  }

  function link(page, keys) {  // a page of the site, in lecture mode where this one is (as the app's links keep it)
    const query = new URLSearchParams({ ...(keys || {}), ...(lecture() ? { lecture: "1" } : {}) }).toString();
    return "#/" + page + (query ? "?" + query : "");
  }

  function lecture() {
    return route().keys.get("lecture") === "1";
  }

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
    const text = keys.get("text");
    bar.append(element("a", `Next: ${ahead.title} ▶`, { href: link(ahead.page, { ...(text ? { text } : {}),
                                                                                ...ahead.keys }), class: "next-view" }));
  }

  function navigation(here) {
    const nav = document.getElementById("pages");
    nav.replaceChildren(...Object.entries(NAMES).map(([page, name]) =>
      element("a", name, { href: link(page), class: page === here ? "here" : "" })));
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
    for (const s of site.sentences) list.append(element("a", s.text, { href: link("tokens", { text: s.text }) }));
    view.append(list);
    BVL.plot(figure, o.sunburst);
  }

  function chosen(keys, view) {
    const text = keys.get("text");
    if (text === null) return site.sentences[0];
    const found = site.sentences.find((s) => s.text === text.trim());
    if (!found) cannot(view, `This site holds ${site.sentences.length} sentence(s), not "${text}": the app ` +
                       "computes any other. Pick one of these:");
    return found;
  }

  function tokens(view, keys) {
    const s = chosen(keys, view);
    if (!s) return;
    view.append(element("h1", "Tokens"));
    if (s.notice) view.append(element("p", s.notice, { class: "note" }));  // before a long text, not under it
    view.append(element("p", s.text, { class: "sentence" }));
    const shown = chips(s);
    shown.dataset.point = "tokens";
    view.append(element("p", `${s.tokens.length} tokens. Special tokens are grey; the sentence is blue.`), shown);
    if (site.vocabulary) view.append(element("p", site.vocabulary, { class: "note" }));
    if (s.unknown) view.append(element("p", s.unknown, { class: "note" }));  // pieces that became [UNK]
  }

  function layers(view, keys, current) {  // the stepper (stepper.js), on the sentence's own data
    const s = chosen(keys, view);
    if (!s) return;
    view.append(element("p", "Reading the sentence's numbers…", { class: "note" }));
    BVL.layers(view, keys, site.sentences.indexOf(s), link, current).catch((error) => current() &&
      failed(view, "Layers", error));
  }

  function tour(view, keys, current) {  // the guided tour, as the app's tour computed it for this sentence (export/tour.py)
    const s = chosen(keys, view);
    if (!s) return;
    const index = site.sentences.indexOf(s);
    BVL.lecture(site, index).then((lecture) => lecture.part("tour")).then((story) => {
      if (!current()) return;
      const asked = keys.get("chapter") || "1";
      const number = /^\d{1,3}$/.test(asked) && Number(asked) >= 1 && Number(asked) <= story.length ? Number(asked) : 1;
      view.replaceChildren(element("h1", "Tour"));
      if (String(number) !== asked) {
        view.append(element("p", `There is no chapter '${asked}': this tour has chapters 1 to ${story.length}. ` +
                            "Showing chapter 1.", { class: "note" }));
      }
      const go = (n) => { location.hash = link("tour", { text: s.text, chapter: String(n) }); };
      const pick = element("div", undefined, { class: "controls" });
      pick.append(BVL.stepperControl("Chapter", story.map((c, i) => `${i + 1}/${story.length} · ${c.title}`),
                                     number - 1, (i) => go(i + 1), "chapter"));
      view.append(pick);
      const chapter = story[number - 1];
      const columns = element("div", undefined, { class: "stepper-columns" });
      const canvas = element("section", undefined, { class: "canvas", "data-point": "chapter" });
      const words = element("section", undefined, { class: "words" });
      columns.append(canvas, words);
      view.append(columns);
      words.append(element("h2", chapter.title));
      for (const line of chapter.lines) words.append(paragraph(line));
      const about = site.views.tour;
      words.append(element("p", `This tour is about layer ${about.layer}, head ${about.head} and token ` +
                           `${about.token}; the app's tour picks any other.`, { class: "note" }));
      if (chapter.step) {
        const [, layer, key] = /^layers\.(\d+)\.(.+)$/.exec(chapter.step) || [null, "0", chapter.step];
        words.append(element("a", "Open this step in the stepper", { href: link("layers", { text: s.text, step: key,
                                                                                               layer }) }));
      }
      if (chapter.kind === "tokens") canvas.append(chips(s));
      if (chapter.figure) {
        const figure = element("div", undefined, { class: "figure", id: "tour-figure" });
        canvas.append(figure);
        const styled = chapter.figure[screen()];  // styled in Python for this screen (figures/screens.py)
        BVL.plot(figure, styled);
      }
    }).catch((error) => current() && failed(view, "Tour", error));
  }

  function attention(view, keys, current) {  // BertViz's head view and model view, as the app draws them (export/attention.py)
    const s = chosen(keys, view);
    if (!s) return;
    BVL.lecture(site, site.sentences.indexOf(s)).then((held) => held.part("attention")).then((views) => {
      if (!current()) return;
      const layers = views.head.length;
      const model = keys.get("view") === "model";
      const layer = Math.min(Math.max(parseInt(keys.get("layer") || "0", 10) || 0, 0), layers - 1);
      const go = (changes) => { location.hash = link("attention", { text: s.text, view: model ? "model" : "head",
                                                                    layer: String(layer), ...changes }); };
      view.replaceChildren(element("h1", "Attention"));
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
        row.append(BVL.stepperControl("Layer", views.head.map((_, l) => `Layer ${l}`), layer,
                                      (l) => go({ layer: String(l) }), "layer"));
      }
      view.append(row, element("p", model
        ? "Each thumbnail: one head's attention, queries down, keys across, 0 to 1. Click one to open it in Layers."
        : "A line per attention weight, its opacity the weight. In the legend, click a head to hide it, " +
          "double-click to show it alone. The app also keeps one token's lines and gives their numbers.",
        { class: "explains" }));
      const figure = element("div", undefined, { class: "figure", id: "attention-figure" });
      const shown = model ? views.model : views.head[layer];
      if (shown.scrolls && lecture()) {  // more rows than a projector holds: they scroll in a box of their own
        const box = element("div", undefined, { class: "scroll-box", "data-point": "view", "data-scrolls": "" });
        box.append(figure);
        view.append(element("p", `${s.tokens.length} tokens: the view scrolls in its box.`), box);
      } else {
        figure.dataset.point = "view";
        view.append(figure);
      }
      BVL.plot(figure, shown[screen()]).then(() => {
        if (!model) return;
        figure.on("plotly_click", (event) => {  // a thumbnail's [layer, head]: its matrix in the stepper
          const data = event.points[0] && event.points[0].customdata;
          if (Array.isArray(data) && data.length === 2) {
            location.hash = link("layers", { text: s.text, layer: String(data[0]), head: String(data[1]),
                                             step: "attn.probs" });
          }
        });
      });
    }).catch((error) => current() && failed(view, "Attention", error));
  }

  function similarity(view, keys) {  // the sentences' cosines and a pair's split (export/similarity.py): the
    // sentences and the pair picker beside the figures, as the app's page has them
    view.append(element("h1", "Sentence similarity"));
    const data = site.similarity;
    if (!data) {
      view.append(element("p", "This site holds one sentence: export two or more (--text twice) to compare them. " +
                          "The app compares any.", { class: "note" }));
      return;
    }
    const why = (keys.get("why") || "").trim();
    const pairs = Object.keys(data.pairs);
    const columns = element("div", undefined, { class: "beside" });
    const controls = element("section"), canvas = element("section", undefined, { class: "canvas" });
    columns.append(controls, canvas);
    view.append(columns);
    const list = element("ol", undefined, { class: "sentence-list" });
    site.sentences.forEach((s) => list.append(element("li", s.text)));
    const pick = element("select", undefined, { "aria-label": "Why are two of them similar?", id: "why" });
    pick.append(element("option", "none: every pair's cosine", { value: "" }));
    for (const pair of pairs) pick.append(element("option", `sentences ${pair.replace(",", " and ")}`, { value: pair }));
    const label = element("label", "Why are two of them similar?", { class: "picker" });
    label.append(pick);
    controls.append(list, label);
    if (why && !pairs.includes(why)) {
      controls.append(element("p", `why=${why} does not name two of the ${site.sentences.length} sentences (write ` +
                              "why=1,2).", { class: "note" }));
    }
    pick.value = pairs.includes(why) ? why : "";
    pick.addEventListener("change", () => { location.hash = link("similarity", pick.value ? { why: pick.value } : {}); });
    const chosenPair = data.pairs[pick.value];
    if (chosenPair) {
      canvas.append(paragraph(chosenPair.caption));
      drawn(canvas, chosenPair.figure, "split-figure").dataset.point = "split";
      controls.append(element("p", "A cell is ⟨a_i, b_j⟩ / (‖u‖ · ‖v‖), a_i and b_j the two tokens' parts of the " +
                              "sentence vectors u and v (for mean pooling h_i / n and g_j / m). Normalizing does not " +
                              "change a cosine.", { class: "explains" }));
    }
    data.matrices.forEach((way, k) => {
      const div = drawn(canvas, way.figure, `similarity-${k}`);
      if (!chosenPair && k === 0) div.dataset.point = "cosines";
      if (!way.trained) canvas.append(element("p", `${way.name[0].toUpperCase()}${way.name.slice(1)}: ${way.how}.`,
                                              { class: "explains" }));
    });
    if (!data.matrices[0].trained) {
      controls.append(element("p", `${data.source} was not trained for sentence similarity: both vectors put almost ` +
                              "any two sentences close together.", { class: "note" }));
    }
  }

  function drawn(view, figure, id) {  // a figure the site holds styled for each screen, drawn for this one
    const div = element("div", undefined, { class: "figure", id });
    view.append(div);
    BVL.plot(div, figure[screen()]);
    return div;
  }

  function screen() {  // which of a figure's stylings this screen takes: a projector's, a phone's or a browser's
    return lecture() ? "lecture" : window.innerWidth < 640 ? "phone" : "browse";
  }

  function paragraph(markdown) {  // a narration's line: its **bold** as bold, everything else as text
    const p = element("p");
    markdown.split("**").forEach((part, i) => p.append(i % 2 ? element("strong", part) : document.createTextNode(part)));
    return p;
  }

  function chips(s) {  // the sentence's tokens as the app's chips: the piece, its position and id
    const box = element("div", undefined, { class: "chips" });
    s.tokens.forEach((token, i) => {
      const chip = element("span", token, { class: `chip ${s.sentences[i]}`, title: `position ${i}, id ${s.ids[i]}` });
      chip.append(element("small", `${i} · ${s.ids[i]}`));
      box.append(chip);
    });
    return box;
  }

  function failed(view, title, error) {  // what could not be read or drawn, said in the page (and in the console)
    console.error(error.stack || error);
    view.replaceChildren(element("h1", title), element("p", error.message, { class: "note", "data-error": "" }));
  }

  function cannot(view, why) {
    view.append(element("h1", "Not in this site"), element("p", why));
    const list = element("div", undefined, { class: "sentences" });
    for (const s of site.sentences) list.append(element("a", s.text, { href: link("tokens", { text: s.text }) }));
    list.append(element("a", "The overview", { href: link("overview") }));
    view.append(list);
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
    navigation(page || "overview");
    lectureBar(page || "overview", keys);
    const draw = PAGES[page];
    if (draw) return draw(view, keys, alive(render));
    const holds = Object.values(NAMES).join(", ");
    cannot(view, LATER.includes(page)
      ? `The ${page} view is not exported yet: this site shows ${holds}. The app shows it, computed for any sentence.`
      : `This site has no page "${page}". It shows ${holds}.`);
  }

  window.addEventListener("hashchange", show);
  document.fonts.ready.then(show);  // figures measure their labels in the app's type: drawn once it is there
})();
