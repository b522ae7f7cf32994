"""The residual stream through the layers: how much each layer turns each token's vector.

Each layer adds its sub-layers' results to the stream rather than replacing it, so the cosine between a token's
vector before and after a layer (the model's own hidden_states[l] and [l + 1]) says how much that layer changed
its direction: 1 is not at all.
"""
from __future__ import annotations

import numpy as np
import torch

from ..stepthrough.trace import Trace


def layer_changes(trace: Trace) -> np.ndarray:
    """(L, T): the cosine between each token's vector before and after each layer."""
    return turns(torch.from_numpy(trace.hidden_states))[0].numpy()


def turns(hidden_states: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """hidden_states (L + 1, T, d) -> the cosine between each token's vector before and after each layer (L, T),
    computed in float64 and given in float32, and each vector's length (L + 1, T), in float64. In torch, so that a
    live site's browser runs this very function (export/analysis_graphs.py)."""
    h = hidden_states.double()
    lengths = torch.sqrt((h * h).sum(dim=-1))  # (L + 1, T)
    cosines = (h[:-1] * h[1:]).sum(dim=-1) / torch.clamp(lengths[:-1] * lengths[1:], min=1e-12)  # (L, T)
    return cosines.float(), lengths
