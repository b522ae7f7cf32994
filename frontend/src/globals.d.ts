// The globals the bundle reads beside it (it imports none of them): data.js's window.BVL_SITE (written by
// bertviz_lite/export/writing.py), the sentence and weights scripts lecture.js loads into BVL_SENTENCES, BVL_PARTS
// and BVL_WEIGHTS, Plotly (plotly.min.js, loaded before the bundle) and, on a live site, onnxruntime-web's `ort`.
// Honest types where the scripts read a field by name; `any` where the data is the app's JSON that nothing here
// types yet (figures, graphs' attrs, the live manifest): the "one source" work is to type it from the Python side.

/** A sentence of the site (export/content.py), or one computed in this browser (yours.js). */
interface SiteSentence {
  text: string;
  pair?: string | null;
  tokens: string[];
  ids: number[];
  sentences: string[];  // "A", "B" or "special", per token
  continues?: boolean[];
  dropped?: number;
  live?: boolean;
  notice?: string | null;
  unknown?: string | null;
}

/** data.js: the site's data. `sentences` and `pages` are typed; the rest (model, views, style, live, …) is untyped
 * JSON. */
interface SiteData {
  sentences: SiteSentence[];
  pages: Record<string, string>;  // the navigation: each page's name by its path (tour/page_names.py site_pages)
  [key: string]: any;
}

interface Window {
  BVL_SITE: SiteData;
  BVL_SENTENCES: Record<string, any>;  // sentences/N.js: a sentence's ids, mask, checks, given arrays (untyped)
  BVL_PARTS: Record<string, any>;  // sentences/N-PART.js: packed arrays by step name, a tour, views (untyped)
  BVL_WEIGHTS: Record<string, any>;  // weights/MODULE.js: a module's packed weight and bias (untyped)
  ort: any;  // onnxruntime-web, loaded by a live site (untyped: its own types are not installed here)
  BVL: object;  // main.js: what the Python tests read from the page
}

declare const Plotly: any;  // plotly.min.js (untyped: its types are not installed here)
