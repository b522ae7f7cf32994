"""A figure for each screen an exported site meets, styled by the app's own styling (figures/screens.py): a
browser's, a projector's in lecture mode, a phone's. The site draws the one its screen takes."""
from __future__ import annotations

import json
from collections.abc import Callable

from ..figures.screens import LECTURE_CHART_PX, styled

CANVAS_PX, PHONE_PX = 720, 358  # the site's figure column at 1280 px; a phone's 390 px less its margins


def for_screens(build: Callable[[bool], object], tallest: int = LECTURE_CHART_PX) -> dict | None:
    """The figure `build(lecture)` gives, styled for each screen, each from a figure of its own (a styled figure is
    changed in place); None where it gives none. `tallest`: its height at most on a projector."""
    browse = build(False)
    if browse is None:
        return None
    return {"browse": json.loads(styled(browse, CANVAS_PX).to_json()),
            "lecture": json.loads(styled(build(True), CANVAS_PX, tallest, lecture=True).to_json()),
            "phone": json.loads(styled(build(False), PHONE_PX).to_json())}
