// The site's entry (bundled by build.mjs into bertviz_lite/export/assets/site.js, loaded after plotly.min.js and
// data.js): importing the modules reads the site's data (window.BVL_SITE) as the old scripts did in their load order,
// then the router starts the site.
//
// window.BVL is the tests' surface, and nothing else: what tests/test_export_explain.py, tests/test_export_live.py
// and bertviz_lite/benchmarks read from the page by name (grep them for "BVL."). The modules themselves import what
// they use from each other; none reads window.BVL. A name the tests read is added here, under the name they use.
import { fixed, general, num } from "./numbers.js";
import { stepName } from "./steps.js";
import { explain } from "./explain.js";
import { lecture, Lecture } from "./lecture.js";
import { explanationFigure } from "./explanation_figure.js";
import { attentionViews } from "./attention_views.js";
import { tourOf } from "./tour.js";
import { analysed } from "./analysed.js";
import { tokenized } from "./tokenizing.js";
import { stored } from "./model_parts.js";
import { compared } from "./similar.js";
import { find } from "./yours.js";
import { PAGE_ROWS, WINDOW, moved, windowStart } from "./cell_keys.js";
import { cellWords } from "./hover_words.js";
import { SHORTCUTS, shortcutOf } from "./shortcuts.js";
import { start } from "./router.js";

window.BVL = {
  fixed, general, num, stepName, explain, lecture, Lecture, explanationFigure, attentionViews, analysed,
  tour: { tourOf }, tokenizing: { tokenized }, modelParts: { stored }, similar: { compared },
  yours: { find }, cellKeys: { PAGE_ROWS, WINDOW, moved, cellWords, windowStart }, shortcuts: { SHORTCUTS, shortcutOf },
};
start();
