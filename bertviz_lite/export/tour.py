"""The guided tour for the site: every chapter of a sentence's tour, its words and its figure, computed by the
app's own tour (`bertviz_lite/tour`: chapters, narrate, chapter_figure), so that the site tells what the app
tells. The site's tour is about layer 0, head 0 and token 1 (the app's defaults); the app picks any other."""
from __future__ import annotations

from ..analyses.similarity import sentence_vectors, vectors_of_trace
from ..tour import chapter_figure, chapters, narrate
from ..tour.narration import output_sentences
from ..tour.views import LECTURE_PX
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
