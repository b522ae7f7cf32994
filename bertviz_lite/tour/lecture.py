"""The default lecture: the views a lecturer walks through with Next, in order, each a page's path, a title and the
URL keys that set its view (as a link has them). The app's lecture bar (app_pages/shell/pages.py) and an exported
site's Next both read it, so that the two lectures are one."""
from __future__ import annotations

LECTURE_STOPS = (
    ("tokens", "The text becomes tokens", ()),
    ("tour", "The guided tour, chapter by chapter", (("chapter", "1"),)),
    ("layers", "One layer, sub-step by sub-step", (("layer", "0"), ("step", "attn.scores"))),
    ("attention", "Every head's lines", (("layer", "2"), ("view", "head"))),
    ("attention", "Every layer × head at once", (("view", "model"),)),
    ("heads", "What the heads do", (("stat", "prev"),)),
    ("rollout", "Attention through the layers", (("layer", "5"),)),
    ("contributions", "What really reaches a token", (("layer", "2"),)),
    ("lens", "What the vectors lie near, layer by layer", ()),
    ("contexts", "A word in two contexts", ()),
    ("similarity", "Sentences as vectors", ()),
    ("similarity", "Why two sentences are similar, pair by pair", (("why", "1,2"),)),
    ("intervene", "Switch a head off and watch what changes", (("off", "0.2"), ("layer", "1"))),
    ("attribute", "Which input tokens the output rests on", ()),
)
LECTURE_SENTENCES = ("the cat sat on the mat", "a kitten was sitting on the rug", "the stock market fell sharply today",
                     "shares dropped on wall street", "i really enjoyed this film", "the movie was wonderful")  # the
# Similarity stops': two by two alike (the app's Similarity page opens on them; a site of one sentence compares it
# with them)
DEFAULT_OTHER = LECTURE_SENTENCES[1]  # the Attributions page's sentence B, the first one's neighbour in meaning (the
# app's default, and what an exported site attributes to)
LECTURE_END = "The lecture ends here. Again from its first stop: {title}"  # under the last stop, in place of Next
