// The Heads, Rollout, Contributions and Lens pages of a sentence computed in this browser, in the shape
// export/analyses.py gives an exported sentence's (which analyses.js draws), by the name yours.js asks for a part:
// the Heads and Rollout pages from the run's attention (heads_rollout.js), the Contributions and the Lens from the
// run's layers and the model's files (contributions_lens.js), with the words the app's Python hands over
// (export/analyses.py analyses_words, lens_words; analysed_page.js).
import { headsPage, rolloutPage } from "./heads_rollout.js";
import { contributionsPage, lensPage, lensItem } from "./contributions_lens.js";

export const analysed = { heads: headsPage, rollout: rolloutPage, contributions: contributionsPage, lens: lensPage,
                          lensItem };
