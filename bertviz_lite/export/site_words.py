"""What an exported site says of itself: its notes, labels, messages and progress lines, as templates (`str.format`
fields, filled in the browser by `page.js said`, which fills them as Python does), so that the site's scripts hold no
sentence of their own (issue 54). Where the app says the same thing (a tour chapter a link names wrong, the
similarity figures' titles), the template is the app's own, imported here. Handed to the site as its data's
`words`; `tests/test_one_source.py` changes one in a copy of the package and reads it on the site."""
from __future__ import annotations

from ..figures.style import CHIPS_SAY
from ..tour import NO_CHAPTER
from ..tour.lecture import LECTURE_END
from .similarity import COSINES_TITLE, SPLIT_TITLE

SITE_WORDS = {
    # what every page says
    "reading": "Reading the sentence's numbers…",
    "not_in_site": "Not in this site",
    "not_held": 'This site holds {count} sentence(s), not "{named}": the app computes any other. Pick one of these:',
    "overview_link": "The overview",
    "no_page": 'This site has no page "{page}". It shows {holds}.',
    "app_only": "The {page} view needs the model itself ({why}): this site shows {holds}. The app shows it, for any "
                "sentence.",
    "compare_needs": "it runs two models side by side",
    "next": "Next: {title} ▶",
    "pages": "Pages",
    "skip_to_figure": "Skip to the figure",  # the page's first Tab stop (the app's too: shell/cell_keys.py)
    "lecture_end": LECTURE_END,
    "left_out": "Left out for your sentence: {pages} (they run the model again, for the site's own sentences)",
    # the overview and Tokens
    "tree_help": "Click a line to open it. Repeated blocks are folded; tied tensors count once.",
    "architecture_note": "The app's Architecture page also lists every named parameter and the task heads; its "
                         "module tree and sunburst are here.",
    "tokens_single": "{count} tokens. " + CHIPS_SAY["single"],
    "tokens_pair": "{count} tokens. " + CHIPS_SAY["pair"],
    "chip": "position {position}, id {id}",
    # Layers
    "no_index": "There is no {name} '{asked}': this model has {name}s 0 to {last}. Showing {name} {value}.",
    "no_step": 'This model has no step "{step}" here. A layer\'s steps are: {steps}.',
    "no_heads": "This sub-step has no heads: it works on whole token vectors.",
    "reading_numbers": "Reading the numbers…",
    "not_recomputed": "Computed by the model's own function when the site was written; the app computes it again.",
    "not_a_cell": "The cell {cell} is not one: write whole numbers from 0 separated by commas.",
    "click_a_cell": "Click a cell of the figure to see where its number comes from (by keyboard: Tab to the figure, "
                    "the arrow keys to a cell, Enter).",
    # the tour
    "no_chapter": NO_CHAPTER,
    "tour_about": "This tour is about layer {layer}, head {head} and token {token}; the app's tour picks any other.",
    "open_step": "Open this step in the stepper",
    # Attention
    "model_view_help": "Each thumbnail: one head's attention, queries down, keys across, 0 to 1. Click one to open "
                       "it in Layers.",
    "head_view_help": "A line per attention weight, its opacity the weight. Click a token (or press Enter on it) to "
                      "keep only its lines; a head's button under the view (or its entry in the legend) hides and "
                      "shows it; double-click an entry to show that head alone.",
    "lines_as_drawn": "Each weight as its line draws it, in tenths; the app gives them to three places.",
    "scrolls": "{count} tokens: the view scrolls in its box.",
    # Similarity
    "similarity_title": "Sentence similarity",
    "site_sentences": "The site's sentences",
    "pair_not_compared": "The similarity compares single sentences; this is a pair, read as one input.",
    "fewer_than_two": "This site holds fewer than two single sentences: export two or more (--text twice) to compare "
                      "them. The app compares any.",
    "why_similar": "Why are two of them similar?",
    "every_pair": "none: every pair's cosine",
    "sentences_pair": "sentences {a} and {b}",
    "no_pair": "why={why} does not name two of the {count} sentences (write why=1,2).",
    "cell_is": "A cell is ⟨a_i, b_j⟩ / (‖u‖ · ‖v‖), a_i and b_j the two tokens' parts of the sentence vectors u and v "
               "(for mean pooling h_i / n and g_j / m). Normalizing does not change a cosine.",
    "not_trained": "{source} was not trained for sentence similarity: both vectors put almost any two sentences "
                   "close together.",
    "way_how": "{name}: {how}.",
    "split_title": SPLIT_TITLE,
    "cosines_title": COSINES_TITLE,
    # a sentence of the reader's own (a live site)
    "yours_too_long": "Your sentence is {count} tokens; {source}'s sentence pipeline reads the first {most}: the app "
                      "compares it.",
    "why_yours": "Why is it similar to one of them?",
    "each_cosine": "none: its cosine with each",
    "sentence_k": "sentence {k}",
    "no_with": "with={asked} does not name one of the {count} sentences (write with=1).",
    "your_sentence": "Your sentence",
    "box_placeholder": "Your sentence: type it, then Enter",
    "from_disk": "This sentence is not in the site, and a page opened from disk cannot read the model's files to "
                 "compute it: serve this folder (a static Space, or `python -m http.server` in it) and open it "
                 "there. The site's own sentences:",
    "fetch": "Fetch the model ({mb} MB) and compute",
    "fetch_note": "This sentence is computed in your browser: it fetches the model once ({mb} MB), then any sentence "
                  "needs nothing more. The site's own sentences need no fetch.",
    "reading_tokenizer": "Reading the tokenizer…",
    "fetching": "Fetching the model: {got} of {total} MB…",
    "starting": "Starting the model…",
    "computing": "Computing in this browser…",
    "elsewhere_computed": "“{named}” was computed in this browser: {pages} show it here; the {page} view shows the "
                          "sentences the site was exported with.",
    "elsewhere_new": "“{named}” is not one of the site's sentences: {pages} compute it here; the {page} view shows "
                     "the sentences the site was exported with.",
    "own_sentences": "The site's own sentences:",
    "computed_here": "computed in this browser",
    "computed_here_title": "Not exported: tokenized and run by the site's model in this browser (onnxruntime-web), "
                           "each block checked against the model's own output of the same run.",
    # the analyses' pages
    "no_value": 'There is no {key} "{asked}" here ({key} is one of {among}): showing {label} {value}.',
}
