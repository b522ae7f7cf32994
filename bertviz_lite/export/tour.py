"""The guided tour for the site: every chapter of a sentence's tour, its words and its figure, computed by the
app's own tour (`bertviz_lite/tour`: chapters, narrate, chapter_figure), so that the site tells what the app
tells. The site's tour is about layer 0, head 0 and token 1 (the app's defaults); the app picks any other."""
from __future__ import annotations

import json

from ..analyses.similarity import sentence_vectors, vectors_of_trace
from ..figures.screens import styled
from ..tour import chapter_figure, chapters, narrate
from ..tour.narration import output_sentences

LAYER, HEAD, TOKEN = 0, 0, 1  # the app's defaults (app_pages/shell/pages.py)
CANVAS_PX, PHONE_PX, LECTURE_TOUR_PX = 720, 358, 470  # the site's figure column at 1280 px, a phone's width less
# its margins, and a tour figure's height on a projector (as the app's tour page has it)


def for_screens(build) -> dict | None:
    """The figure `build()` gives, styled by the app's own styling for each screen the site meets (a browser's, a
    projector's in lecture mode, a phone's), each from a figure of its own; None where it gives none."""
    if build() is None:
        return None
    return {"browse": json.loads(styled(build(), CANVAS_PX).to_json()),
            "lecture": json.loads(styled(build(), CANVAS_PX, LECTURE_TOUR_PX, lecture=True).to_json()),
            "phone": json.loads(styled(build(), PHONE_PX).to_json())}


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
                    "figure": for_screens(lambda: chapter_figure(t, chapter, HEAD, shown, None, token))})
    return out
