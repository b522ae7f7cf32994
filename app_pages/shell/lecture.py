"""How a page is laid out for the room: its title (none in lecture mode), the container of its point (above the
fold), controls beside the canvas on a projector, the page's style, and the lecture's bar under every page
("Next" to the following view of the lecture)."""
from __future__ import annotations

import urllib.parse
from pathlib import Path

import streamlit as st


from bertviz_lite.asking import ASK_WORDS
from bertviz_lite.tour.lecture import LECTURE_END

from .pages import LECTURE, Stop, following
from .state import from_url, lecture_mode, projector, set_value


PAGE_CSS = Path(__file__).parents[1] / "page.css"


LECTURE_CSS = Path(__file__).parents[1] / "lecture.css"


def lecture_bar(page: str) -> None:
    """In lecture mode, under the page: the link to this very view (Streamlit's copy button on hover) and "Next",
    the following view of the default lecture (pages.py), on the same model and sentence."""
    if not lecture_mode():
        return
    ahead = following(page, st.session_state)
    link, onward = st.columns([3, 2], vertical_alignment="center")
    query = urllib.parse.urlencode({k: v for k, v in st.query_params.to_dict().items() if k != "hall"})  # the
    # students' link: the lecturer's count (hall=1) is the lecturer's own; a student with it would not be counted
    here = (st.context.url or "").split("?")[0]  # None where no browser asked (a test)
    link.code(here + (f"?{query}" if query else ""), language=None, wrap_lines=True)
    inside = st.session_state.pop("_lecture_within_page", False)  # the page has its own ▶ still to press (the tour)
    if own := st.session_state.pop("_lecture_page_next", None):  # the page's own next (a question's answer first)
        label, action, args = own
        onward.button(label, icon=":material/arrow_forward:", type="primary", on_click=action, args=args,
                      key="lecture_next")
        if ahead is not None:
            onward.button(ASK_WORDS["leave"].format(title=ahead.title), type="secondary", on_click=_show_view,
                          args=(ahead,), key="lecture_leave")
        return
    if ahead is not None:
        onward.button(ASK_WORDS["leave"].format(title=ahead.title) if inside else f"Next: {ahead.title}",
                      icon=":material/arrow_forward:", type="secondary" if inside else "primary",
                      on_click=_show_view, args=(ahead,), key="lecture_next")
    else:  # the last stop: the lecture ends, and can start again
        onward.button(LECTURE_END.format(title=LECTURE[0].title), icon=":material/replay:", on_click=_show_view,
                      args=(LECTURE[0],), key="lecture_next")


def _show_view(view: Stop) -> None:
    """Set a lecture view's URL keys (in a callback: before this run's widgets exist) and ask for its page, which
    the next run opens before drawing anything (`go_to_pending_page`)."""
    for key, value in view.keys:
        set_value(key, from_url(key, value))
    st.session_state._pending_page = view.page.script


def go_to_pending_page() -> None:
    """Open the page a click asked for (the lecture's Next), before the current page draws anything."""
    if script := st.session_state.pop("_pending_page", None):
        st.switch_page(script)


def page_title(title: str) -> None:
    """The page's title, except on a projector: one rule for every page (a projector keeps the room for the
    figure; the lecture's link and Next name the view)."""
    if not projector():
        st.title(title)


def point(name: str = "figure"):
    """A container for what makes the page's point (its figure; on Layers the step's own figure and an
    explanation's result): in lecture mode it starts above a 720-pixel fold. The readability check
    (tests/test_readability.py) finds it by its key, `point-<name>`, and holds every page to that."""
    return st.container(key=f"point-{name}")


def scrolling_box(scrolls: bool, name: str, height: int, what: str):
    """A view's container: as it is, or where the view is longer than a projector's screen (`scrolls`), a box of
    `height` px that scrolls, under a line that says so (`what`: "60 tokens"). The readability check knows such a
    box by its key, `scrolls-<name>`, and holds it, not what it holds, to the fold."""
    if not scrolls:
        return st.container()
    st.caption(f"{what} are more than a screen holds: scroll inside the box for the rest.")
    return st.container(height=height, key=f"scrolls-{name}")


def controls_and_canvas(title: str, lecture_widths: list[int], gap: str = "medium"):
    """(controls, canvas): side by side in lecture mode, so that both fit a 1280×720 projector (the page is named
    in the navigation there); one below the other under the page's title otherwise (the figure first on a
    phone: `figure_first`)."""
    page_title(title)
    if projector():
        return tuple(st.columns(lecture_widths, gap=gap))
    return figure_first()


def figure_first(*parts: str) -> tuple:
    """(controls, *parts, canvas): containers one below the other, the controls and each of `parts` above the canvas
    on a wide screen; on a phone (page.css), the canvas first and the others after it (their keys start with
    "after-figure"): a student who opens a link sees its figure, not a screen of pickers."""
    pair = st.container(key="figure-first")
    return (pair.container(key="after-figure"), *(pair.container(key=f"after-figure-{part}") for part in parts),
            pair.container())


def beside(widths: list[float], gap: str = "large") -> tuple:
    """(controls, canvas): columns side by side, the controls first on a wide screen and after the canvas on a
    phone, where columns stack (page.css)."""
    left, right = st.columns(widths, gap=gap)
    return left.container(key="after-figure"), right


def control_row(title: str, widths: list[float]):
    """(controls, canvas): `controls` a container per control, in one row across the page in lecture mode (the
    figure below it then has the whole width: two panels side by side, each 400 px or more), else one container
    above the canvas, under the page's title."""
    page_title(title)
    if projector():
        return st.columns(widths, vertical_alignment="bottom"), st.container()
    controls, canvas = figure_first()
    return [controls] * len(widths), canvas


def apply_style() -> None:
    """The page's own spacing, then lecture mode's larger type where it is on."""
    st.html(PAGE_CSS)
    if projector():
        st.html(LECTURE_CSS)
