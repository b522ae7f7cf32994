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
    return [f for f in figures if (f["layout"].get("meta") == "diagram") == diagrams]


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
