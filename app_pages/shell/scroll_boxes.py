"""A box that scrolls (a view longer than a projector's screen, a diagram wider than a phone's: lecture.py
`scrolling_box`, charts.py `block_diagram`) is reachable by the keyboard and named for a screen reader: Tab stops on
it, the arrow keys scroll it, and it is read as a region named by the line above it (WCAG 2.1.1; axe's
scrollable-region-focusable: the readability tests run axe). Streamlit gives a container no tabindex, so a component
of a few lines of JavaScript (Streamlit's own `st.components.v2`, as screen.py's) gives each one, as it appears."""
from __future__ import annotations

import streamlit as st

SCROLLS = '[class*="st-key-scrolls-"]'  # every such box's key starts "scrolls-" (the readability check's mark too)
UNNAMED = "A box that scrolls"

_REACHABLE = """
export default function () {
  const captionBefore = (box) => {  // the line scrolling_box writes above its box
    for (let node = box; node && node !== document.body; node = node.parentElement) {
      const caption = node.previousElementSibling &&
        node.previousElementSibling.querySelector('[data-testid="stCaptionContainer"]');
      if (caption) return caption.textContent.trim();
      if (node.previousElementSibling) return null;
    }
    return null;
  };
  const named = (box) => {
    const title = box.querySelector(".gtitle");
    return captionBefore(box) || (title && title.textContent.trim()) || UNNAMED;
  };
  const reach = () => {
    for (const box of document.querySelectorAll(SCROLLS)) {
      if (box.hasAttribute("tabindex")) continue;
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", named(box));
    }
  };
  reach();
  const watching = new MutationObserver(reach);
  watching.observe(document.body, { childList: true, subtree: true });
  return () => watching.disconnect();
}
""".replace("SCROLLS", repr(SCROLLS)).replace("UNNAMED", repr(UNNAMED))
_reachable = st.components.v2.component("bertviz_lite.scroll_boxes", js=_REACHABLE)


def reachable_scroll_boxes() -> None:
    """Mount the component (once per run, in the sidebar: it draws nothing)."""
    _reachable(key="_scroll_boxes")
