"""Two figures' JSON compared as a browser reads them: Plotly's typed arrays decoded, NaN as null, numbers within
float32's rounding (the live site's figures against the app's: test_export_live.py, test_analysis_graphs.py)."""
from __future__ import annotations

import base64

import numpy as np


def plain_figure(figure) -> object:
    """A figure's JSON as plain lists: Plotly's packed arrays ({"dtype", "bdata", "shape"}) unpacked, NaN as None
    (as JSON writes a browser's NaN)."""
    if isinstance(figure, dict) and "bdata" in figure:
        array = np.frombuffer(base64.b64decode(figure["bdata"]), figure["dtype"])
        if "shape" in figure:
            array = array.reshape([int(n) for n in str(figure["shape"]).split(",")])
        return plain_figure(array.tolist())
    if isinstance(figure, dict):
        return {key: plain_figure(value) for key, value in figure.items()}
    if isinstance(figure, list):
        return [plain_figure(value) for value in figure]
    return None if isinstance(figure, float) and np.isnan(figure) else figure


def differences(ours, theirs, where: str = "") -> list[str]:
    """Where two figures' JSON differ: a key, a length, a text, or a number by more than float32's rounding."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return ([f"{where}.{key}: only in {'the browser' if key in ours else 'Python'}'s"
                 for key in set(ours) ^ set(theirs)]
                + [d for key in set(ours) & set(theirs) for d in differences(ours[key], theirs[key], f"{where}.{key}")])
    if isinstance(ours, list) and isinstance(theirs, list):
        if len(ours) != len(theirs):
            return [f"{where}: {len(ours)} items, not {len(theirs)}"]
        return [d for k, (a, b) in enumerate(zip(ours, theirs)) for d in differences(a, b, f"{where}[{k}]")]
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (ours, theirs))
    if numbers and abs(ours - theirs) <= 1e-6 * max(1.0, abs(theirs)):
        return []
    return [] if ours == theirs else [f"{where}: {ours!r}, not {theirs!r}"]
