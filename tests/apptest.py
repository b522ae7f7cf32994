"""Driving the app's pages headlessly with Streamlit's AppTest, shared by the tests of the pages: open a page as a
link opens it, read its Plotly figures and the bytes it sends."""
import base64
import json

import numpy as np
from streamlit.testing.v1 import AppTest

from app_pages.shell import pages as shell_pages

APP = "../app.py"  # relative to this file (AppTest resolves a path against its caller's)
PAGES = {page.file: page.script for page in shell_pages.PAGES}  # every page's script, as the app declares it


def open_page(page: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = str(value)
    at.run()  # the shell registers its pages with st.navigation on the first run
    if page != "overview":
        at.switch_page(PAGES[page]).run()
    return at


def specs(at: AppTest, diagrams: bool = False) -> list[dict]:
    """The page's Plotly figures; the block diagrams only if asked (`diagrams=True` gives those alone)."""
    figures = [json.loads(el.proto.spec) for el in at.get("plotly_chart")]
    return [f for f in figures if ((f["layout"].get("meta") or {}).get("kind") == "diagram") == diagrams]


def undescribed(at: AppTest) -> list[str]:
    """The page's figures (block diagrams too) that a screen reader could not name or would hear no point of: each
    needs a title (or a name of its own, or its panels' titles) and a one-line point (figures/described.py), which
    the browser makes its accessible name and description (frontend/src/figure_name.js)."""
    found = []
    for figure in specs(at) + specs(at, diagrams=True):
        layout = figure["layout"]
        title = layout.get("title") or {}
        meta = layout.get("meta") or {}
        panels = [note.get("text") for note in layout.get("annotations", [])  # placed as figure_name.js reads them
                  if note.get("xref") == note.get("yref") == "paper" and note.get("yanchor") == "bottom"]
        if not ((title.get("text") if isinstance(title, dict) else title) or meta.get("name") or any(panels)):
            found.append(f"a {figure['data'][0]['type']} with no name")
        if not meta.get("point"):
            found.append(f"{title.get('text') if isinstance(title, dict) else title}: no point")
    return found


def decode_typed_array(spec: dict) -> np.ndarray:
    """Plotly's JSON for a numpy array: {"dtype": "f4", "bdata": base64, "shape": "3, 3"}."""
    array = np.frombuffer(base64.b64decode(spec["bdata"]), dtype=spec["dtype"])
    shape = spec.get("shape")
    return array.reshape([int(n) for n in str(shape).split(",")]) if shape else array


def payload_bytes(at: AppTest) -> int:
    """Serialized size of every element the run produced: what the browser is sent."""
    total, stack = 0, [at._tree]
    while stack:
        node = stack.pop()
        proto = getattr(node, "proto", None)
        if proto is not None and hasattr(proto, "SerializeToString"):
            total += len(proto.SerializeToString())
        stack.extend(getattr(node, "children", {}).values())
    return total
