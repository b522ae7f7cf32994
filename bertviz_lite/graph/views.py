"""Which steps a view shows together, read from a block's graph (never from a table of the family's steps).

>>> from bertviz_lite.graph.nodes import Graph, node
>>> from bertviz_lite.ops import INPUT, LAYER_NORM, LINEAR, RESIDUAL_ADD
>>> g = Graph("layers", 0, (node("layers", "input", INPUT), node("layers", "attn.out", LINEAR, ("input",)),
...                         node("layers", "attn.residual", RESIDUAL_ADD, ("input", "attn.out")),
...                         node("layers", "attn.norm", LAYER_NORM, ("attn.residual",))))
>>> stream_group(g, "attn.norm")
['input', 'attn.out', 'attn.residual', 'attn.norm']
"""
from __future__ import annotations

from .nodes import Graph
from ..ops import MASK, NORMS, RESIDUAL_ADD


def stream_group(graph: Graph, key: str) -> list[str]:
    """The residual stream around `key`: a residual add's two inputs, the add and the norm that alone reads it
    (post-norm: add & norm); a norm (LayerNorm or RMSNorm) of anything else and its input (pre-norm); [] for other
    steps."""
    node = graph.node(key)
    if node.op in NORMS and node.inputs and node.inputs[0] in graph:
        source = graph.node(node.inputs[0])
        if source.op is RESIDUAL_ADD and _norm_after(graph, source.key) == key:
            node = source
        else:
            return [source.key, key]
    if node.op is not RESIDUAL_ADD:
        return []
    norm = _norm_after(graph, node.key)
    return [*node.inputs, node.key, *([norm] if norm else [])]


def _norm_after(graph: Graph, key: str) -> str | None:
    """The norm that is the only reader of `key`, or None."""
    readers = graph.consumers(key)
    return readers[0].key if len(readers) == 1 and readers[0].op in NORMS else None


def score_terms(graph: Graph, key: str) -> list[str]:
    """Scores that add up several terms (MPNet's position bias, DeBERTa's c2c, c2p and p2c): the terms and the
    scores, for the scores or any of their terms; [] where the scores are one term plus the mask."""
    for node in graph:
        if node.op is MASK and len(node.inputs) > 1 and (key == node.key or key in node.inputs):
            return [*node.inputs, node.key]
    return []
