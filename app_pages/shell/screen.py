"""How wide the reader's screen is, as the browser says: a figure is fitted to the width it is drawn at
(figures/fit.py), and on a phone that is the phone's 390 px, not the 800 px a page gives it on a projector.

A page cannot ask Streamlit for the screen's width, so a component of a few lines of JavaScript (Streamlit's own
`st.components.v2`, no package, no network) reports `window.innerWidth` where it is a phone's (and again when it
changes): the run that follows draws every figure for that width. A wide screen reports nothing, so a lecture hall
of laptops costs no second run. Until a phone has reported (its session's first run), and in a test without a
browser, a page is drawn for a wide screen."""
from __future__ import annotations

import streamlit as st

NARROW_PX = 640  # below this, a screen is a phone's: figures are drawn at its width
MARGIN_PX = 32  # a page's margins on a narrow screen (Streamlit's 1rem a side)

_REPORT_WIDTH = """
export default function ({ setStateValue }) {
  let said = null;  // a wide screen says nothing (no rerun): only a phone's width, or leaving one, is news
  const report = () => {
    const width = Math.round(window.innerWidth);
    if (width < NARROW || (said !== null && said < NARROW && width !== said)) {
      said = width;
      setStateValue("width", width);
    }
  };
  report();
  window.addEventListener("resize", report);
  return () => window.removeEventListener("resize", report);
}
""".replace("NARROW", str(NARROW_PX))
_reporter = st.components.v2.component("bertviz_lite.screen_width", js=_REPORT_WIDTH)


def report_width() -> None:
    """Mount the reporter (once per run, in the sidebar: it draws nothing); its value reruns the page when the
    width first arrives or changes."""
    _reporter(key="_screen", on_width_change=lambda: None)


def screen_px() -> int | None:
    """The screen's width in CSS pixels, where the browser has said it; else None."""
    reported = st.session_state.get("_screen")
    width = getattr(reported, "width", None) if reported is not None else None
    return int(width) if isinstance(width, (int, float)) and width > 0 else None


def narrow() -> bool:
    """Whether the screen is a phone's (as far as the browser has said)."""
    screen = screen_px()
    return screen is not None and screen < NARROW_PX


def drawn_px(width: int) -> int:
    """The width a figure meant to be `width` px wide is drawn at on this screen: on a phone, the screen's, less
    the page's margins."""
    screen = screen_px()
    return min(width, screen - MARGIN_PX) if screen is not None and screen < NARROW_PX else width
