// @ts-nocheck
// (not typed yet: the analyses' words and pages are the site's untyped JSON; the "one source" work rewrites it)
// What the analyses of a sentence computed in this browser share (heads_rollout.js, contributions_lens.js): the
// words the app's Python hands over (export/analyses.py analyses_words) and a page in the shape export/analyses.py gives an exported sentence's (which analyses.js draws).

const site = window.BVL_SITE;
export const words = () => site.views.analyses;

// ---- the pages, as export/analyses.py writes them ----
export const item = (figure, lines = [], links = []) => ({ figure, said: [], lines, checks: [], links });
export const picker = (key, options, value, label) => ({ key, label: label || words().labels[key],
                                                         options, value });
export function numbered(key, names, label) {
  return picker(key, names.map((name, i) => [String(i), name]),
                String(Math.min(words().defaults[key], names.length - 1)), label);
}
export const page = (name, pickers, panels, side = [], wide = false) => ({ title: words().titles[name], pickers,
                                                                           panels, side, notes: [], wide });
export const tokenOption = (tokens) => tokens.map((token, i) => `${i} ${token}`);

export function forScreens(draw, wide) {  // a figure for each screen (export/screens.py for_screens), drawn when shown
  const s = words().screens, made = {};
  const get = (screen) => made[screen] || (made[screen] = draw(
    screen === "phone" ? s.phone : wide ? s.wide : s.browse, screen === "lecture" ? s.tallest : null));
  return { get browse() { return get("browse"); }, get lecture() { return get("lecture"); },
           get phone() { return get("phone"); } };
}

