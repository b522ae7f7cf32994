"""A tap on a phone picks a chart's point as a mouse's click does. Streamlit hears a chart's selection, and Plotly
makes none from a tap (it emits a click only: plotly.js #6721), so a tapped cell of the stepper was never explained
on a phone ("tapping does nothing"). A component of a few lines of JavaScript (Streamlit's own `st.components.v2`,
as screen.py's) listens for the chart's clicks that a finger made and hands on the point's `customdata`, which is
what a click target carries (figures.click_targets); a mouse's click is left to the selection, heard once."""
from __future__ import annotations

import re
from collections.abc import Callable

import streamlit as st

_LISTEN = """
export default function ({ data, setTriggerValue }) {
  let figure = null, stopped = false;
  const byFinger = (e) => !!e && (String(e.type).startsWith("touch") || e.pointerType === "touch" ||
                                  !!(e.sourceCapabilities && e.sourceCapabilities.firesTouchEvents));
  const heard = (event) => {
    const point = event.points && event.points[0];
    if (byFinger(event.event) && point && typeof point.customdata === "string")
      setTriggerValue("point", point.customdata);
  };
  const attach = () => {  // the chart is drawn after the run that mounts this: wait for it
    if (stopped) return;
    figure = document.querySelector(`.st-key-${data.chart} .js-plotly-plot`);
    if (figure && typeof figure.on === "function" && !figure.__tapsHeard) {
      figure.__tapsHeard = true;
      figure.on("plotly_click", heard);
    } else if (!figure || typeof figure.on !== "function") setTimeout(attach, 200);
  };
  attach();
  return () => {
    stopped = true;
    if (figure && figure.removeListener) { figure.removeListener("plotly_click", heard); figure.__tapsHeard = false; }
  };
}
"""
_listener = st.components.v2.component("bertviz_lite.taps", js=_LISTEN)


def hear_taps(chart: str, picked: Callable[[str], None]) -> None:
    """After the chart keyed `chart`: a finger's tap on one of its points calls `picked(customdata)`."""
    key = f"_taps_{chart}"

    def tapped() -> None:
        point = getattr(st.session_state.get(key), "point", None)
        if isinstance(point, str):
            picked(point)

    css_class = re.sub(r"[^A-Za-z0-9_-]", "-", chart)  # as Streamlit writes a key into its element's class
    _listener(data={"chart": css_class}, key=key, on_point_change=tapped)
