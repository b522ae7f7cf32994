"""The residual stream through the layers: how much each layer turns each token's vector.

Each layer adds its sub-layers' results to the stream rather than replacing it, so the cosine between a token's
vector before and after a layer (the model's own hidden_states[l] and [l + 1]) says how much that layer changed
its direction: 1 is not at all.
"""
from __future__ import annotations

import numpy as np

from ..stepthrough.trace import Trace


def layer_changes(trace: Trace) -> np.ndarray:
    """(L, T): the cosine between each token's vector before and after each layer."""
    h = trace.hidden_states.astype(np.float64)  # (L + 1, T, d)
    before, after = h[:-1], h[1:]
    lengths = np.linalg.norm(before, axis=-1) * np.linalg.norm(after, axis=-1)  # (L, T)
    return (np.sum(before * after, axis=-1) / np.maximum(lengths, 1e-12)).astype(np.float32)
