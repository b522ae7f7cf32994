"""Value zeroing (Mohebbi et al. 2023, "Quantifying Context Mixing in Transformers", §3): how much token i's output
of a layer rests on token j, measured by zeroing token j's value vector in that layer (in every head) and seeing
how far token i's output moves.

For layer l, C_ij is the cosine distance between token i's output of layer l and its output with token j's value
vector zeroed, the layer's input being the model's own; each row is then divided by its sum, so a row is a
distribution over the tokens i rests on. It needs T runs of the layer, one per zeroed token; they share everything
up to the attention's output projection W_O and run from there as one batch (`CHUNK_FLOATS` bounds its memory):
W_O is linear, so zeroing v_j takes Σ_h p^h_ij · W_O^h v^h_j (W_O^h: the projection's columns of head h) from
token i's projected context, T × T × d multiplications per head where running W_O on every variant would take
T × T × d × d. The feed-forward's first linear maps, just after the next norm, are applied the same way to the
parts of their input rather than to every variant (`past_the_norm`), where the tokens outnumber the heads: at 64
tokens on bert-base that took the layer from 2.06× to 1.47× a whole forward pass. In an intervened run's layer,
what its op already left out (a head off, a zeroed value) is not taken away again.
Across layers the maps are rolled out as the paper's code does, with no identity added (the residual connection is
already inside each map): R_0 = C_0, R_l = C_l · R_(l−1).
"""
from __future__ import annotations

import numpy as np
import torch

from ..errors import InputError
from ..graph.evaluate import evaluate
from ..ops import LINEAR, MERGE_HEADS, WEIGHTED_SUM, shared_heads
from ..stepthrough.trace import Trace
from .past_the_norm import LinearsPastTheNorm, past_the_norm, worth_it

CHUNK_FLOATS = 2**22  # floats of the widest sub-step in one batch of zeroed tokens (16 MB in float32): small
# enough that the element-wise steps (the activation, the norms) work in the caches; 64 tokens at once took 1.16×
# as long as batches of 16 on bert-base


@torch.inference_mode()
def value_zeroing(t: Trace, layer: int) -> np.ndarray:
    """(T, T): layer `layer`'s value-zeroing map, rows normalised to sum to 1 (see the module docstring)."""
    graph = t.graph("layers", layer)
    mixed, projected = _weighted_sum_and_projection(graph)
    after = _needing(graph, mixed.key)
    stored = t.values(graph)
    own = {k: torch.from_numpy(v) for k, v in stored.items() if k not in after or k == projected.key}
    output = torch.from_numpy(t.hidden_states[layer + 1])  # (T, d): the model's own output of the layer
    probs, values = (own[k] for k in mixed.inputs)  # (h, T, T), (h_kv, T, d_h)
    values = shared_heads(values, probs.shape[0])  # (h, T, d_h)
    h, T, d_h = values.shape
    weight = t.loaded.base.get_submodule(projected.module).weight  # (d, h · d_h)
    per_head = torch.einsum("htk,dhk->thd", values, weight.view(-1, h, d_h))  # (T, h, d): W_O^h v^h_j
    per_head[list(mixed.attr("zeroed_values", ()))] = 0  # an intervened run's layer: what its op left out
    per_head[:, list(mixed.attr("heads_off", ()))] = 0  # is not there to take away
    past = past_the_norm(graph, projected.key) if worth_it(T, h) else None
    shortcut = past and LinearsPastTheNorm(past, t.loaded.base, torch.from_numpy(stored[past.norm.inputs[0]]), per_head)
    distances = np.zeros((T, T))  # [i, j]: token i's output moved by zeroing token j's value
    widest = max(output.shape[-1], *(v.shape[-1] for v in own.values() if v.ndim == 2))
    most = max(1, CHUNK_FLOATS // (T * widest * 4))  # the feed-forward's inner width is about 4 d
    step = -(-T // -(-T // most))  # batches of equal size: 64 tokens in 4 of 16, not 21, 21, 21 and 1
    for start in range(0, T, step):
        zeroed = torch.arange(start, min(T, start + step))
        removed = torch.einsum("hij,jhd->jid", probs[:, :, zeroed], per_head[zeroed])  # (J, T, d)
        known = {**own, projected.key: own[projected.key][None] - removed}  # the projected context without v_j
        if shortcut:  # the norm's input (cheap), then the maps after the norm from it (see `past_the_norm`)
            known.update(evaluate(graph, t.loaded.base, t.token_data(), t.given, [past.norm.inputs[0]], known))
            known.update(shortcut.outputs(known[past.norm.inputs[0]], probs[:, :, zeroed], zeroed))
        out = evaluate(graph, t.loaded.base, t.token_data(), t.given, [graph.output.key], known)[graph.output.key]
        distances[:, zeroed.numpy()] = _cosine_distance(out, output[None]).T.double().numpy()  # (T, J)
    return distances / np.maximum(distances.sum(axis=1, keepdims=True), 1e-12)


def _weighted_sum_and_projection(graph):
    """The layer's weighted sum of the values, and the linear map that projects its heads, merged, back to d: every
    family's attention ends so (weighted sum -> merge heads -> W_O)."""
    mixed = next(n for n in graph if n.op is WEIGHTED_SUM)
    (merged,) = graph.consumers(mixed.key)
    (projected,) = graph.consumers(merged.key)
    if merged.op is not MERGE_HEADS or projected.op is not LINEAR or projected.attr("rows") is not None:
        raise InputError(f"{graph.name(mixed.key)} is not followed by merged heads and a linear map")
    return mixed, projected


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
    """1 − cos over the last axis (broadcast): (J, T), as ‖â − b̂‖² / 2 with â, b̂ the unit vectors. A distance near
    0 is then computed from the small difference itself, precise in float32, where 1 − cos(a, b) would subtract two
    numbers near 1 and keep only float32's rounding."""
    unit_a = a / torch.linalg.vector_norm(a, dim=-1, keepdim=True).clamp_min(1e-12)
    unit_b = b / torch.linalg.vector_norm(b, dim=-1, keepdim=True).clamp_min(1e-12)
    return (unit_a - unit_b).square().sum(-1) / 2
