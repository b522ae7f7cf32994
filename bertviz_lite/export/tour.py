"""The guided tour for the site: every chapter of a sentence's tour, its words and its figure, computed by the
app's own tour (`bertviz_lite/tour`: chapters, narrate, chapter_figure), so that the site tells what the app
tells. The site's tour is about layer 0, head 0 and token 1 (the app's defaults); the app picks any other.

A sentence computed in the browser (a live site) is told there (frontend/src/tour.js) in the package's own words:
`tour_words` hands over each step's chapter's narration (ops/telling.py: its templates and the numbers they name,
worked out in the browser by the evaluator the app uses, frontend/src/recipe.js) and its question (ops/asking.py,
asked in the browser by frontend/src/asked.js), what narrators share and the
chapters' stories (tour/narration.py STORIES), and the output and residual stream chapters' figures as the app's,
templates to fill (figures/template.py); tests/test_export_live.py holds its words to these on the exported sentences, and
tests/test_one_source.py a sentence changed in Python to a typed sentence's tour."""
from __future__ import annotations

from dataclasses import asdict

import numpy as np

from ..analyses.sentence_pooling import pooling_of
from ..analyses.similarity import sentence_vectors, vectors_of, vectors_of_trace
from ..tour import NO_CHAPTER, chapter_figure, chapters, narrate
from ..ops import TELLING
from ..tour.narration import (NO_WEIGHTS, RANDOM, STORIES, TOKENS_TELLING, VECTOR_TELLING, output_sentences,
                              stream_telling, telling_of, vocabulary_words)
from ..figures import stream_changes, vector_bars
from ..figures.charts import STREAM_LOW
from ..figures.style import MAX_LABELLED, label_step
from ..figures.template import template_of
from ..ops.recipe import call, tree_of, var
from ..tour.questions import STREAM_ASKING, chapter_question, step_asking
from ..tour.views import FIGURE_TITLES, LARGEST, LECTURE_PX
from .matrices import length_form, styled_template
from .screens import for_screens, places

LAYER, HEAD, TOKEN = 0, 0, 1  # the app's defaults (app_pages/shell/pages.py)


def tour_chapters(loaded, t) -> list[dict]:
    """Each chapter: its kind and title, the step it shows (a "step" chapter), its sentences, its figure as JSON."""
    vectors = (vectors_of_trace(t) or sentence_vectors(loaded, [t.text]))[0]
    token = min(TOKEN, len(t.tokens) - 1)
    out = []
    for chapter in chapters(t, LAYER):
        outputs = output_sentences(t, vectors=vectors) if chapter.kind == "output" else None
        shown = vectors if chapter.kind == "output" else None
        question = chapter_question(t, chapter, HEAD, token)  # (the output chapter: the sentence vector, no question)
        out.append({"kind": chapter.kind, "title": chapter.title, "step": chapter.step,
                    "lines": narrate(t, chapter, HEAD, token, outputs),
                    "question": None if question is None else question.to_json(),
                    "figure": for_screens(lambda lecture: chapter_figure(t, chapter, HEAD, shown, None, token),
                                              LECTURE_PX)})
    return out


def _asking(t, chapter) -> dict | None:
    """What a step's chapter (or the residual stream's) asks first (ops/asking.py), as the expressions its numbers
    are, for the browser to ask of a sentence typed there."""
    if chapter.kind == "stream":
        return STREAM_ASKING.to_json()
    if chapter.kind != "step":
        return None
    graph, key = t.resolve(chapter.step)
    asking = step_asking(t, graph, graph.node(key))
    return None if asking is None else asking.to_json()


def _telling(t, chapter) -> dict | None:
    """What a step's chapter (or the residual stream's) says, as the expressions its words name (ops/telling.py), for
    the browser to work out on a sentence typed there."""
    if chapter.kind == "stream":
        return stream_telling().to_json()
    if chapter.kind != "step":
        return None
    graph, key = t.resolve(chapter.step)
    return telling_of(t, graph, graph.node(key)).to_json()


def _vector_template(way) -> dict:
    """The output chapter's figure, the sentence vector's bars as the app draws them, for each screen, as a template
    (figures/template.py) that a typed sentence's `vector` fills."""
    title = FIGURE_TITLES["vector"].format(name=way.name)
    drawn = for_screens(lambda lecture: vector_bars(np.zeros_like(way.vectors[0]), title), LECTURE_PX)
    return {screen: template_of([figure], 0, {("data", 0, "y"): var.vector}) for screen, figure in drawn.items()}


def _stream_forms(layers: int) -> list[dict]:
    """The residual stream's chapter's figure as the app draws it (figures/charts.py stream_changes), its forms by
    the sentence's length (every token labelled up to MAX_LABELLED, every k-th beyond), for each screen: names `z`
    (each layer's cosines, (L, T)) and `labels`."""
    def build(sample: int, place) -> dict:
        fig = stream_changes(np.full((layers, sample), 0.95, np.float32), [f"t{i}" for i in range(sample)],
                             FIGURE_TITLES["stream"])
        named = {("data", 0, "z"): var.z, ("data", 0, "x"): var.labels, ("data", 0, "zmin"): STREAM_LOW,
                 ("layout", "xaxis", "dtick"): label_step(call("len", var.labels))}
        return styled_template(fig, named, place)
    return [length_form(build, longest, sample, places(tallest=LECTURE_PX))
            for longest, sample in ((MAX_LABELLED, 20), (None, 40))]


def tour_words(loaded, t) -> dict:
    """What the browser's tour says that no sentence changes: its chapters (the model's, whatever the sentence), each
    step's with what its narrator says of it (its templates and the numbers they name, as a `Telling`), what the
    narrators share, the chapters that are no step's, the figures' titles and what a link to no chapter says, random
    weights' warning, the words for a step that reads no weights, the vocabulary, how the model makes a sentence
    vector (the Similarity page's first way), and the output and residual stream chapters' figures."""
    way, pooling = vectors_of(loaded, [t])[0], pooling_of(loaded)
    return {"telling": TELLING, "stories": STORIES,  # the sentences' templates
            "tokens_telling": TOKENS_TELLING.to_json(), "vector_telling": VECTOR_TELLING.to_json(),
            "random": RANDOM if loaded.warning else None, "no_weights": NO_WEIGHTS, "vocabulary": vocabulary_words(t),
            "chapters": [{**asdict(chapter), "telling": _telling(t, chapter), "asking": _asking(t, chapter)}
                         for chapter in chapters(t, LAYER)],
            "no_chapter": NO_CHAPTER,
            "figure_titles": FIGURE_TITLES, "largest": tree_of(LARGEST),  # the cell a step's figure outlines
            "vector_figure": _vector_template(way), "stream_figure": _stream_forms(t.num_layers),
            "vector": {"name": way.name, "how": way.how, "trained": way.trained_for_similarity,
                       "pooled": loaded.sentence_pooling is not None,  # else the trace's own vectors, however long
                       "most_tokens": min(pooling.max_tokens or loaded.max_tokens, loaded.max_tokens)}}
