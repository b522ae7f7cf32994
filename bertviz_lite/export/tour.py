"""The guided tour for the site: every chapter of a sentence's tour, its words and its figure, computed by the
app's own tour (`bertviz_lite/tour`: chapters, narrate, chapter_figure), so that the site tells what the app
tells. The site's tour is about layer 0, head 0 and token 1 (the app's defaults); the app picks any other.

A sentence computed in the browser (a live site) is told there (frontend/src/tour.js) in the package's own words:
`tour_words` hands over every narrator's templates (ops/telling.py `tells`), what they share and the chapters'
stories (tour/narration.py STORIES), which the browser fills with the numbers its narrators find (those are still
ported: docs/frontend.md); tests/test_export_live.py holds its words to these on the exported sentences, and
tests/test_one_source.py a sentence changed in Python to a typed sentence's tour."""
from __future__ import annotations

from dataclasses import asdict

from ..analyses.sentence_pooling import pooling_of
from ..analyses.similarity import sentence_vectors, vectors_of, vectors_of_trace
from ..tour import NO_CHAPTER, chapter_figure, chapters, narrate
from ..ops import COMMON_OPS, LINEAR, TELLING
from ..tour.narration import NO_WEIGHTS, RANDOM, STORIES, output_sentences, vocabulary_words
from ..tour.views import FIGURE_TITLES, LECTURE_PX
from .screens import for_screens

LAYER, HEAD, TOKEN = 0, 0, 1  # the app's defaults (app_pages/shell/pages.py)


def tour_chapters(loaded, t) -> list[dict]:
    """Each chapter: its kind and title, the step it shows (a "step" chapter), its sentences, its figure as JSON."""
    vectors = (vectors_of_trace(t) or sentence_vectors(loaded, [t.text]))[0]
    token = min(TOKEN, len(t.tokens) - 1)
    out = []
    for chapter in chapters(t, LAYER):
        outputs = output_sentences(t, vectors=vectors) if chapter.kind == "output" else None
        shown = vectors if chapter.kind == "output" else None
        out.append({"kind": chapter.kind, "title": chapter.title, "step": chapter.step,
                    "lines": narrate(t, chapter, HEAD, token, outputs),
                    "figure": for_screens(lambda lecture: chapter_figure(t, chapter, HEAD, shown, None, token),
                                              LECTURE_PX)})
    return out


def tour_words(loaded, t) -> dict:
    """What the browser's tour says that no sentence changes: its chapters (the model's, whatever the sentence), every
    sentence's template (each narrator's of this model's operations, what they share, the chapters that are no
    step's), the figures' titles and what a link to no chapter says, random weights' warning, the words for a step
    that reads no weights, the vocabulary, which linear maps add a bias, and how the model makes a sentence vector
    (the Similarity page's first way)."""
    graphs = [g for g in (t.graph("embed"), *(t.graph("layers", i) for i in range(t.num_layers)), t.graph("pooler"),
                          t.graph("positions")) if g is not None]
    linear = {n.module for g in graphs for n in g if n.op is LINEAR}
    way, pooling = vectors_of(loaded, [t])[0], pooling_of(loaded)
    ops = {*COMMON_OPS, *(n.op for g in graphs for n in g)}  # (a narrator may tell in another's words: the mask's)
    narrators = {op.narrate.__name__: op.narrate.said for op in ops if hasattr(op.narrate, "said")}
    return {"narrators": narrators, "telling": TELLING, "stories": STORIES,  # the sentences' templates
            "random": RANDOM if loaded.warning else None, "no_weights": NO_WEIGHTS, "vocabulary": vocabulary_words(t),
            "biased": {m: loaded.base.get_submodule(m).bias is not None for m in sorted(linear)},
            "chapters": [asdict(chapter) for chapter in chapters(t, LAYER)], "no_chapter": NO_CHAPTER,
            "figure_titles": FIGURE_TITLES,
            "vector": {"name": way.name, "how": way.how, "trained": way.trained_for_similarity,
                       "pooled": loaded.sentence_pooling is not None,  # else the trace's own vectors, however long
                       "most_tokens": min(pooling.max_tokens or loaded.max_tokens, loaded.max_tokens)}}
