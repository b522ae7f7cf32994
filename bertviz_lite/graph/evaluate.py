"""Run a block's graph: each node's operation on its inputs, with the model's own modules, in the graph's order.

Only what is asked for is computed (a node and the nodes it reads); values already at hand are used as they are,
so asking for a layer's attention alone costs Q, K, the scores and the softmax, not the feed-forward.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import torch
from torch import nn

from .nodes import Graph
from ..ops import INPUT, Tokens


@torch.inference_mode()
def evaluate(graph: Graph, base: nn.Module, tokens: Tokens, given: Callable[[str], torch.Tensor],
             wanted: Iterable[str] | None = None, known: Mapping[str, torch.Tensor] | None = None
             ) -> dict[str, torch.Tensor]:
    """{key: tensor} for `wanted` (default: every node) and what they need, in the graph's order.

    `given(name)` supplies what comes from outside the block by its global name: an `input` node's value and any
    input from another block. `known` holds values of this block already computed, which are not computed again.
    """
    known = {} if known is None else known
    needed = graph.ancestors(graph.keys if wanted is None else wanted, known)
    values: dict[str, torch.Tensor] = {}
    for node in graph.nodes:
        if node.key not in needed:
            continue
        if node.key in known:
            values[node.key] = known[node.key]
        elif node.op is INPUT:
            values[node.key] = given(graph.name(node.key))
        else:
            inputs = [values[s] if s in values else given(s) for s in node.inputs]
            module = base.get_submodule(node.module) if node.module is not None else None
            values[node.key] = node.op.compute(node, inputs, module, tokens)
    return values
