// What the analyses of a sentence computed in this browser share (heads_rollout.js, contributions_lens.js): the
// words the app's Python hands over (export/analyses.py analyses_words) and a page in the shape export/analyses.py
// gives an exported sentence's (which analyses.js draws).

/** @typedef {import("./figure_types.js").Figure} Figure */
/** @typedef {import("./page.js").Screen} Screen */
/** @typedef {import("./numbers.js").Tolerance} Tolerance */
/** @typedef {import("./analysis_graphs.js").Sentence} Sentence */
/**
 * A sentence computed in this browser as the analyses read it (yours.js, a Lecture): its tokens, and what the
 * graphs read of it (its run's arrays, its ids, the model's weights).
 * @typedef {Sentence & { tokens: string[] }} Computed
 */
/** A page of the analyses, by its name in export/analyses.py (its title's key). */
/** @typedef {"heads" | "rollout" | "contributions" | "lens" | "intervene" | "attribute" | "contexts"} PageName */
/** A picker whose values are 0 … n − 1, with the app's default (export/analyses.py numbered). */
/** @typedef {"layer" | "head" | "token" | "position"} NumberedKey */
/**
 * The Lens's words (export/analyses.py lens_words), by the checkpoint's `mode`: "notes" (no lens to show, and why),
 * "lens" (a trained masked-LM head, not in the live files) or "nearest" (NearestWords).
 * @typedef {{ mode: "notes", notes: string[] } | { mode: "lens", notes: string[] } | NearestWords} LensWords
 */
/**
 * The Lens's words where the checkpoint has no trained masked-LM head (lens_words' "nearest"): the notes, the pieces


 * @typedef {{ mode: "nearest", notes: string[], top: number, phone_top: number, title: string,
 *             position_note: string, mask_id: number | null,
 *             figure: Record<Screen, import("./template.js").Template> }} NearestWords
 */
/** @typedef {import("./matrix_figure.js").Form} Form */
/**
 * The analyses' figures that a typed sentence's numbers fill (export/analyses.py heads_templates,
 * export/analysis_figures.py): each statistic's grid for each screen; the rollout's, a token's mixture's and a
 * Contributions panel's forms; the mixing ratios for each screen.
 * @typedef {{ heads: Record<string, Record<Screen, import("./template.js").Template>>, rollout: Form[],
 *             mixture: Form[], panel: Form[], mixing: Record<Screen, import("./template.js").Template> }} Figures
 */
/**
 * The words of the analyses' pages (export/analyses.py analyses_words, with `lens` from lens_words: the site's
 * `views.analyses`): the pages' titles, the pickers' labels and defaults, the fingerprints' statistics (their
 * buttons, captions and words, and the Heads page's question: analyses/questions.py), the striking heads' rule (at least `least`, `most` of them) and
 * words, the figures' widths and heights (export/screens.py; `numbers`: a lecture's numbers' size), and the
 * Contributions', Rollout's and Lens's words (the contributions' checks' templates and their bound among them).
 * @typedef {{
 *   titles: Record<PageName, string>, labels: Record<string, string>,
 *   defaults: Record<NumberedKey, number> & { stat: string }, stats: string[],
 *   stat_buttons: Record<string, string>, captions: Record<string, string>, stat_words: Record<string, string>,
 *   head_asking: import("./asked.js").Asking, stat_does: Record<string, string>,
 *   striking: { least: number, most: number, said: string, none: string, open: string },
 *   screens: { browse: number, wide: number, phone: number, tallest: number, numbers: number },
 *   contributions: { views: Record<string, string>, caption: string, said: string,
 *                    checks: { out: string, pre_norm: string, post_norm: string, said: string },
 *                    tolerance: Tolerance, mixing: string, notes: string[] },
 *   rollout: { caption: string, title: string, scale: string, axes: string[], mixture: string },
 *   lens: LensWords, figures: Figures,
 * }} AnalysesWords
 */
/**
 * A figure for each screen (export/screens.py for_screens): a browser's, a projector's and a phone's, each drawn
 * when first read.
 * @typedef {{ readonly browse: Figure, readonly lecture: Figure, readonly phone: Figure }} ForScreens
 */
/** A link beside a figure (export/analyses.py heads_page): its text, the page it opens and that page's URL keys. */
/** @typedef {{ text: string, page: string, keys: Record<string, string> }} Link */
/**
 * A panel's item (export/analyses.py item): its figure (null where it has none), the lines above it and beside it,
 * its checks ([what is said, whether it holds]) and links.
 * @typedef {{ figure: ForScreens | null, said: string[], lines: string[], checks: [string, boolean][],
 *             links: Link[] }} Item
 */
/** An item kept in a part of its own, read when it is shown (export/analyses.py kept_apart). */
/** @typedef {{ part: string }} Apart */
/**
 * A panel (export/analyses.py): the picker keys whose values name its item, whether it sits beside the next half
 * panel, its items by those values joined with ",".
 * @typedef {{ by: string[], half?: boolean, items: Record<string, Item | Apart> }} Panel
 */
/**
 * A picker (export/analyses.py picker): its URL key, its label, its options ([value, label]) and its default.
 * @typedef {{ key: string, label: string, options: [string, string][], value: string }} Picker
 */
/**
 * A page as export/analyses.py page writes it: its title, pickers and panels, the lines beside the figures, what the
 * model does otherwise, whether the figures take the page's width, whether it is the same for every sentence (its
 * title then names none: Contexts), and what it asks first (ask=1: the Heads page's question, by stat and layer).
 * @typedef {{ title: string, pickers: Picker[], panels: Panel[], side: string[], notes: string[],
 *             wide: boolean, any_sentence: boolean,
 *             questions?: { by: string[], items: Record<string, import("./asked.js").Question | null> } | null }} Page
 */
const site = window.BVL_SITE;
/** @returns {AnalysesWords} the site's JSON (`views.analyses`: a live site's; the others' have none) */
export const words = () => site.views.analyses;

// ---- the pages, as export/analyses.py writes them ----
/**
 * @param {ForScreens | null} figure
 * @param {string[]} [lines]
 * @param {Link[]} [links]
 * @returns {Item}
 */
export const item = (figure, lines = [], links = []) => ({ figure, said: [], lines, checks: [], links });
/**
 * @param {string} key
 * @param {[string, string][]} options
 * @param {string} value
 * @param {string} [label]  else the app's label of `key`
 * @returns {Picker}
 */
export const picker = (key, options, value, label) => ({ key, label: label || words().labels[key],
                                                         options, value });
/**
 * A picker of 0 … n − 1 (named by `names`), at the app's default where there is one.
 * @param {NumberedKey} key
 * @param {string[]} names
 * @param {string} [label]
 * @returns {Picker}
 */
export function numbered(key, names, label) {
  return picker(key, names.map((name, i) => [String(i), name]),
                String(Math.min(words().defaults[key], names.length - 1)), label);
}
/**
 * @param {PageName} name
 * @param {Picker[]} pickers
 * @param {Panel[]} panels
 * @param {string[]} [side]
 * @param {boolean} [wide]
 * @returns {Page}
 */
export const page = (name, pickers, panels, side = [], wide = false) => ({ title: words().titles[name], pickers,
                                                                           panels, side, notes: [], wide,
                                                                           any_sentence: false, questions: null });
/**
 * Each token as a picker names it ("3 bank").
 * @param {string[]} tokens
 * @returns {string[]}
 */
export const tokenOption = (tokens) => tokens.map((token, i) => `${i} ${token}`);
