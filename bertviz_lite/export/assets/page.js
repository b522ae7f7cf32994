// The site's pages share these: an element made with its text set as text (never as markup), the address read as
// the app's URL keys, a link that keeps lecture mode, the sentence a link names, a figure drawn for this screen,
// the sentence's chips, and what to say where a page cannot show what is asked.
"use strict";
(function () {
  const BVL = (window.BVL = window.BVL || {});
  const site = window.BVL_SITE;

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

  function chosen(keys, view) {  // the sentence (or sentence pair) a link names by text= (and pair=), as the app's
    const text = keys.get("text");
    if (text === null) return site.sentences[0];
    const pair = (keys.get("pair") || "").trim() || null;
    const found = site.sentences.find((s) => s.text === text.trim() && (s.pair || null) === pair);
    if (!found) cannot(view, `This site holds ${exported().length} sentence(s), not "${named({ text, pair })}": ` +
                       "the app computes any other. Pick one of these:");
    return found;
  }

  function sentenceKeys(s) {  // the URL keys that name a sentence of the site (a pair's B as pair=, as the app's)
    return { text: s.text, ...(s.pair ? { pair: s.pair } : {}) };
  }

  function named(s) {  // a sentence as a line: a pair's two sentences with a bar between
    return s.pair ? `${s.text} | ${s.pair}` : s.text;
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

  function said(template, values) {  // a template the app's Python wrote ("{name}" fields), filled as Python fills it
    return template.replace(/\{(\w+)\}/g, (_, key) => values[key]);
  }

  function cannot(view, why) {
    view.append(element("h1", "Not in this site"));
    listed(view, why);
  }

  function exported() {  // the sentences the site was exported with (not those computed in this browser)
    return site.sentences.filter((s) => !s.live);
  }

  function listed(view, why) {  // why, then the site's own sentences and the overview as links
    view.append(element("p", why));
    const list = element("div", undefined, { class: "sentences" });
    for (const s of exported()) list.append(element("a", named(s), { href: link("tokens", sentenceKeys(s)) }));
    list.append(element("a", "The overview", { href: link("overview") }));
    view.append(list);
  }

  Object.assign(BVL, { element, route, link, lectureMode: lecture, chosen, sentenceKeys, named, drawn, screen, paragraph,
                       chips, failed, cannot, listed, exported, said });
})();
