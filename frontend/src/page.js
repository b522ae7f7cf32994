// The site's pages share these: an element made with its text set as text (never as markup), the address read as
// the app's URL keys, a link that keeps lecture mode, the sentence a link names, a figure drawn for this screen,
// the sentence's chips, and what to say where a page cannot show what is asked. The site's data is read when a
// function is called (window.BVL_SITE), never when the module is imported.
import { plot } from "./plot.js";
import { formatted } from "./numbers.js";

/** @typedef {"browse" | "lecture" | "phone"} Screen */

/**
 * A figure for each screen (export/screens.py for_screens' shape), each made when first drawn.
 * @template T
 * @param {(screen: Screen) => T} make
 * @returns {Record<Screen, T>}
 */
export function eachScreen(make) {
  /** @type {Partial<Record<Screen, T>>} */
  const made = {};
  /** @param {Screen} screen @returns {T} */
  const get = (screen) => (screen in made ? /** @type {T} */ (made[screen]) : (made[screen] = make(screen)));
  return { get browse() { return get("browse"); }, get lecture() { return get("lecture"); },
           get phone() { return get("phone"); } };
}
/** A sentence as a link names it: its text and, for a pair, sentence B. */
/** @typedef {{ text: string, pair?: string | null }} Named */

/** @returns {SiteData} */
function site() {
  return window.BVL_SITE;
}

/**
 * An element, its text set as text (never as markup), its attributes set as given.
 * @param {string} tag
 * @param {unknown} [text]
 * @param {Record<string, string>} [attributes]
 * @returns {HTMLElement}
 */
export function element(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

/**
 * "#/tokens?text=a+b" → page "tokens", keys {text: "a b"}; a malformed page name is itself.
 * @returns {{ page: string, keys: URLSearchParams }}
 */
export function route() {
  const address = location.hash.replace(/^#\/?/, "");
  const cut = address.indexOf("?");
  const [page, query] = cut < 0 ? [address, ""] : [address.slice(0, cut), address.slice(cut + 1)];
  let name = page;
  try { name = decodeURIComponent(page); } catch { /* "%E0": shown as typed, a page the site lacks */ }
  return { page: name, keys: new URLSearchParams(query) };
}

/**
 * A page of the site, in lecture mode where this one is, asking first where this one asks (ask=, hall=: issue 57),
 * as the app's links keep them.
 * @param {string} page
 * @param {Record<string, string>} [keys]
 * @returns {string}
 */
export function link(page, keys) {
  const here = route().keys;
  const kept = Object.fromEntries(["ask", "hall"].filter((k) => here.has(k)).map((k) => [k, here.get(k) || ""]));
  const query = new URLSearchParams({ ...(keys || {}), ...kept, ...(lectureMode() ? { lecture: "1" } : {}) })
    .toString();
  return "#/" + page + (query ? "?" + query : "");
}

const PHONE_PX = 640;  // narrower than this, a screen is a phone's (site.css's media queries say the same)

/**
 * Whether the address asks for lecture mode (a projector's).
 * @returns {boolean}
 */
export function lectureMode() {
  return route().keys.get("lecture") === "1";
}

/**
 * The sentence (or sentence pair) a link names by text= (and pair=), as the app's; where the site holds no such
 * sentence, `view` says so and lists those it holds.
 * @param {URLSearchParams} keys
 * @param {HTMLElement} view
 * @returns {SiteSentence | undefined}
 */
export function chosen(keys, view) {
  const text = keys.get("text");
  if (text === null) return site().sentences[0];
  const pair = (keys.get("pair") || "").trim() || null;
  const found = site().sentences.find((s) => s.text === text.trim() && (s.pair || null) === pair);
  if (!found) cannot(view, worded("not_held", { count: exported().length, named: named({ text, pair }) }));
  return found;
}

/**
 * The URL keys that name a sentence of the site (a pair's B as pair=, as the app's).
 * @param {Named} s
 * @returns {Record<string, string>}
 */
export function sentenceKeys(s) {
  return { text: s.text, ...(s.pair ? { pair: s.pair } : {}) };
}

/**
 * A sentence as a line: a pair's two sentences with a bar between.
 * @param {Named} s
 * @returns {string}
 */
export function named(s) {
  return s.pair ? `${s.text} | ${s.pair}` : s.text;
}

/**
 * A figure the site holds styled for each screen, drawn for this one.
 * @param {HTMLElement} view
 * @param {Record<Screen, unknown>} figure
 * @param {string} id
 * @returns {HTMLElement}
 */
export function drawn(view, figure, id) {
  const div = element("div", undefined, { class: "figure", id });
  view.append(div);
  plot(div, figure[screen()]);
  return div;
}

/**
 * Which of a figure's stylings this screen takes: a phone's, a projector's (lecture mode on a wider screen) or a
 * browser's. A narrow screen wins over lecture mode: a student opens the lecturer's link (lecture=1) on a phone, and
 * a projector's type and room would not fit there (issue 55); the lecture keeps its order and Next.
 * @returns {Screen}
 */
export function screen() {
  return window.innerWidth < PHONE_PX ? "phone" : lectureMode() ? "lecture" : "browse";
}

/**
 * A narration's line: its **bold** as bold, everything else as text.
 * @param {string} markdown
 * @returns {HTMLElement}
 */
export function paragraph(markdown) {
  const p = element("p");
  markdown.split("**").forEach((part, i) => p.append(i % 2 ? element("strong", part) : document.createTextNode(part)));
  return p;
}

/**
 * The sentence's tokens as the app's chips: the piece, its position and id.
 * @param {SiteSentence} s
 * @returns {HTMLElement}
 */
export function chips(s) {
  const box = element("div", undefined, { class: "chips" });
  s.tokens.forEach((token, i) => {
    const chip = element("span", token, { class: `chip ${s.sentences[i]}`,
                                          title: worded("chip", { position: i, id: s.ids[i] }) });
    chip.append(element("small", `${i} · ${s.ids[i]}`));
    box.append(chip);
  });
  return box;
}

/**
 * What could not be read or drawn, said in the page (and in the console).
 * @param {HTMLElement} view
 * @param {string} title
 * @param {Error} error
 */
export function failed(view, title, error) {
  console.error(error.stack || error);
  view.replaceChildren(element("h1", title), element("p", error.message, { class: "note", "data-error": "" }));
}

/**
 * A template the package's Python wrote ("{name}" and "{name:.2f}" fields), filled as str.format fills it; a field
 * with no value is an error, as in Python.
 * @param {string} template
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function said(template, values = {}) {
  return template.replace(/\{(\w+)(?::([^{}]*))?\}/g, (_, key, spec) => {
    if (!(key in values)) throw new Error(`The template "${template}" names {${key}}, which was not given.`);
    return formatted(values[key], spec);
  });
}

/**
 * A name as a sentence starts it: "Mean token vectors".
 * @param {string} text
 */
export function capitalized(text) {
  return text ? `${text[0].toUpperCase()}${text.slice(1)}` : text;
}

/**
 * One of the site's own sentences (export/site_words.py: the data's `words`), filled.
 * @param {string} name
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function worded(name, values = {}) {
  const template = site().words[name];
  if (typeof template !== "string") throw new Error(`The site's data has no words "${name}": write the site again.`);
  return said(template, values);
}

/**
 * A page that cannot show what is asked: why, then the site's own sentences.
 * @param {HTMLElement} view
 * @param {string} why
 */
export function cannot(view, why) {
  view.append(element("h1", worded("not_in_site")));
  listed(view, why);
}

/**
 * The sentences the site was exported with (not those computed in this browser).
 * @returns {SiteSentence[]}
 */
export function exported() {
  return site().sentences.filter((s) => !s.live);
}

/**
 * Why, then the site's own sentences and the overview as links.
 * @param {HTMLElement} view
 * @param {string} why
 */
export function listed(view, why) {
  view.append(element("p", why));
  const list = element("div", undefined, { class: "sentences" });
  for (const s of exported()) list.append(element("a", named(s), { href: link("tokens", sentenceKeys(s)) }));
  list.append(element("a", worded("overview_link"), { href: link("overview") }));
  view.append(list);
}
