"""The default lecture: the views an "Inside BERT" lecture shows, in order, across the app's pages. Each view
names its page (the page's URL path) and the URL keys that set it; the model and the sentence are not among
them, so one sentence on one model runs through the whole lecture, whichever the lecturer picked.

The guided tour is one stop of it (its own ◀ ▶ walk the chapters); the other stops are the pages that show what
the tour only names: every head's lines, what heads do, how much really reaches a token, what the vectors lie
near, a word in two contexts.

>>> [view.page for view in LECTURE][:3]
['tokens', 'tour', 'layers']
>>> following("attention", {"view": "model", "layer": 2}).page
'heads'
>>> following("overview", {}).title
'The text becomes tokens'
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class LectureView:
    page: str  # the page's URL path: "layers", "attention", ...
    title: str
    keys: tuple[tuple[str, str], ...] = ()  # the URL keys that set the view, as in a link


LECTURE = (
    LectureView("tokens", "The text becomes tokens"),
    LectureView("tour", "The guided tour, chapter by chapter", (("chapter", "1"),)),
    LectureView("layers", "One layer, sub-step by sub-step", (("layer", "0"), ("step", "attn.scores"))),
    LectureView("attention", "Every head's lines", (("layer", "2"), ("view", "head"))),
    LectureView("attention", "Every layer × head at once", (("view", "model"),)),
    LectureView("heads", "What the heads do", (("stat", "prev"),)),
    LectureView("rollout", "Attention through the layers", (("layer", "5"),)),
    LectureView("contributions", "What really reaches a token", (("layer", "2"),)),
    LectureView("lens", "What the vectors lie near, layer by layer", ()),
    LectureView("contexts", "A word in two contexts", ()),
    LectureView("similarity", "Sentences as vectors", ()),
)


def _shows(view: LectureView, page: str, state: Mapping) -> bool:
    return view.page == page and all(str(state.get(key)) == value for key, value in view.keys)


def position(page: str, state: Mapping) -> int | None:
    """Where the reader is in the lecture: the last view of this page that the state shows, else the page's first
    view, else None (a page the lecture does not visit)."""
    exact = [i for i, view in enumerate(LECTURE) if _shows(view, page, state)]
    on_page = [i for i, view in enumerate(LECTURE) if view.page == page]
    return (exact or on_page or [None])[-1 if exact else 0]


def following(page: str, state: Mapping) -> LectureView | None:
    """The view after the reader's; the first from a page the lecture does not visit; None after the last."""
    here = position(page, state)
    after = 0 if here is None else here + 1
    return LECTURE[after] if after < len(LECTURE) else None
