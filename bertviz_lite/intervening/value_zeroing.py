"""Value zeroing (Mohebbi et al. 2023, "Quantifying Context Mixing in Transformers", §3): how much token i's output
of a layer rests on token j, measured by zeroing token j's value vector in that layer (in every head) and seeing
how far token i's output moves.

For layer l, C_ij is the cosine distance between token i's output of layer l and its output with token j's value
vector zeroed, the layer's input being the model's own; each row is then divided by its sum, so a row is a
distribution over the tokens i rests on. It needs T runs of the layer, one per zeroed token; they share everything
before the weighted sum of the values, and from there on run as one batch (`CHUNK_FLOATS` bounds its memory).
Across layers the maps are rolled out as the paper's code does, with no identity added (the residual connection is
already inside each map): R_0 = C_0, R_l = C_l · R_(l−1).
"""
from __future__ import annotations

import numpy as np
import torch

from ..graph.evaluate import evaluate
from ..ops import WEIGHTED_SUM, shared_heads
from ..stepthrough.trace import Trace

CHUNK_FLOATS = 2**25  # floats of the widest sub-step in one batch of zeroed tokens (128 MB in float32)


@torch.inference_mode()
def value_zeroing(t: Trace, layer: int) -> np.ndarray:
    """(T, T): layer `layer`'s value-zeroing map, rows normalised to sum to 1 (see the module docstring)."""
    graph = t.graph("layers", layer)
    mixed = next(n for n in graph if n.op is WEIGHTED_SUM)
    after = _needing(graph, mixed.key)
    own = {k: torch.from_numpy(v) for k, v in t.values(graph).items() if k not in after}
    output = torch.from_numpy(t.hidden_states[layer + 1]).double()  # (T, d): the model's own output of the layer
    probs, values = (own[k] for k in mixed.inputs)  # (h, T, T), (h_kv, T, d_h)
    values = shared_heads(values, probs.shape[0])  # (h, T, d_h)
    context = own.get(mixed.key)
    if context is None:
        context = torch.matmul(probs, values)
    T = len(t.tokens)
    distances = np.zeros((T, T))  # [i, j]: token i's output moved by zeroing token j's value
    widest = max(t.hidden_states.shape[-1], *(v.shape[-1] for v in own.values() if v.ndim == 2))
    step = max(1, CHUNK_FLOATS // (T * widest * 4))  # the feed-forward's inner width is about 4 d
    for start in range(0, T, step):
        zeroed = torch.arange(start, min(T, start + step))
        weights = probs[:, :, zeroed].permute(2, 0, 1)[..., None]  # (J, h, T, 1): p_ij of each zeroed j
        removed = values[:, zeroed].transpose(0, 1)[:, :, None]  # (J, h, 1, d_h): v_j
        without = context[None] - weights * removed  # (J, h, T, d_h): Σ_k p_ik v_k without token j's term
        known = {**{k: v for k, v in own.items() if k != mixed.key}, mixed.key: without}
        out = evaluate(graph, t.loaded.base, t.token_data(), t.given, [graph.output.key], known)[graph.output.key]
        distances[:, zeroed.numpy()] = _cosine_distance(out.double(), output[None]).T.numpy()  # (T, J)
    return distances / np.maximum(distances.sum(axis=1, keepdims=True), 1e-12)


def value_zeroing_rollout(maps: np.ndarray) -> np.ndarray:
    """(L, T, T) maps -> (L, T, T): R_0 = C_0, R_l = C_l · R_(l−1) (no identity added: see the module docstring)."""
    rolled = np.empty_like(maps)
    rolled[0] = maps[0]
    for layer in range(1, len(maps)):
        rolled[layer] = maps[layer] @ rolled[layer - 1]
    return rolled


def _needing(graph, key: str) -> set[str]:
    """The keys of the graph that read `key`, directly or through others, and `key` itself."""
    found = {key}
    for n in graph.nodes:
        if any(source in found for source in n.inputs):
            found.add(n.key)
    return found


def _cosine_distance(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """1 − cos over the last axis (broadcast): (J, T)."""
    return 1.0 - torch.nn.functional.cosine_similarity(a, b, dim=-1, eps=1e-12)
