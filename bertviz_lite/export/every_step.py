"""The model as one graph whose outputs are every sub-step the stepper shows, for a site that computes a new sentence
in the browser (issue 46): the family's own graphs of operations (stepthrough/blocks.py), block after block, each
layer reading the one before, run by the same `evaluate` the trace runs, so that the browser's sub-steps are the
app's. Written as ONNX by PyTorch's exporter, float32 (what "exact" needs), for any sentence length.

The trace explains each layer from the model's own input to it (hidden_states[i]); here each layer reads the
previous layer's last sub-step, which the model computes the same way: the two differ by float32 rounding only
(tests/test_export_every_step.py holds every sub-step within closeness.ANOTHER_ROUTE of the trace). The graph also runs transformers'
own model on the sentence (`OWN`: its hidden states and pooler output), so that the browser checks each block
against the model itself, as the app does.
"""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from ..graph.evaluate import evaluate
from ..graph.nodes import Graph
from ..ops import INPUT, Tokens
from ..stepthrough.blocks import block_graph
from ..stepthrough.trace import model_inputs

INPUTS = ("input_ids", "token_type_ids", "attention_mask")  # (T,) each, as the tokenizer gives them
HIDDEN_STATES, POOLER_OUTPUT = "model.hidden_states", "model.pooler_output"  # (L + 1, T, d) and (d,): the model's own
POSITION_IDS = "tokens.position_ids"  # (T,): the positions as the family numbers them: a lookup's explanation reads them


def block_graphs(loaded) -> list[Graph]:
    """Every block's graph in the order the model runs them: embeddings, positions' steps, each layer, pooler."""
    layers = [block_graph(loaded, "layers", i) for i in range(loaded.config.num_hidden_layers)]
    return [g for g in (block_graph(loaded, "embed"), block_graph(loaded, "positions"), *layers,
                        block_graph(loaded, "pooler")) if g is not None]


def step_names(graphs: list[Graph]) -> list[str]:
    """The global name of every sub-step the graphs compute (an `input` node is another block's output)."""
    return [g.name(n.key) for g in graphs for n in g.nodes if n.op is not INPUT]


def step_sources(graphs: list[Graph]) -> dict[str, str]:
    """What each `input` node reads: a layer's input is the block before's last sub-step (by global names)."""
    return {g.name(n.key): n.inputs[0] for g in graphs for n in g.nodes if n.op is INPUT and n.inputs}


class EveryStep(nn.Module):
    """forward(input_ids, token_type_ids, attention_mask) -> every sub-step in `names`' order, then `extras`: the
    positions' ids and the model's own outputs."""

    def __init__(self, loaded):
        super().__init__()
        self.loaded, self.base = loaded, loaded.base
        self.graphs = block_graphs(loaded)
        self.names = step_names(self.graphs)
        self.sources = step_sources(self.graphs)
        pooled = any(g.block == "pooler" for g in self.graphs)
        self.extras = (POSITION_IDS, HIDDEN_STATES, *((POOLER_OUTPUT,) if pooled else ()))

    def forward(self, input_ids, token_type_ids, attention_mask) -> tuple[torch.Tensor, ...]:
        positions = self.loaded.family.position_ids(self.base, input_ids[None])[0]  # (T,), as the family numbers them
        tokens = Tokens(input_ids, token_type_ids, positions, attention_mask)
        values: dict[str, torch.Tensor] = {}  # global name -> (…) tensor
        for graph in self.graphs:
            computed = evaluate.__wrapped__(graph, self.base, tokens,  # not under inference mode: it is exported
                                            lambda name: values[self.sources.get(name, name)])
            values.update((graph.name(key), value) for key, value in computed.items())
        model = self.base(**model_inputs(self.loaded, input_ids[None], attention_mask[None], token_type_ids[None]),
                          output_hidden_states=True)
        extras = (positions, torch.stack(model.hidden_states)[:, 0],
                  model.pooler_output[0] if POOLER_OUTPUT in self.extras else None)
        return (*(values[name] for name in self.names), *extras[:len(self.extras)])


def example_inputs(t) -> tuple[torch.Tensor, ...]:
    """A trace's sentence as EveryStep reads it."""
    tokens = t.token_data()
    return tuple(getattr(tokens, name) for name in INPUTS)


def run_values(loaded, t) -> dict[str, torch.Tensor]:
    """EveryStep's outputs on a trace's sentence, by name, and its ids as "input_ids": what the analysis graphs
    (analysis_graphs.py) are exported with."""
    module, inputs = EveryStep(loaded).eval(), example_inputs(t)
    with torch.no_grad():
        return {**dict(zip([*module.names, *module.extras], module(*inputs))), "input_ids": inputs[0]}


def write_onnx(loaded, t, path: Path) -> list[str]:
    """The model with every sub-step an output, as ONNX at `path` (its weights in `path`.data beside it), for any
    length from 2 tokens to the model's longest; `t` is an example sentence's trace. Gives the outputs' names: the
    sub-steps' global names, then `POSITION_IDS` and the model's own (`HIDDEN_STATES`, and `POOLER_OUTPUT` where it
    has a pooler)."""
    module = EveryStep(loaded).eval()
    length = torch.export.Dim("tokens", min=2, max=loaded.max_tokens)
    outputs = [*module.names, *module.extras]
    with torch.no_grad():
        torch.onnx.export(module, example_inputs(t), str(path), input_names=list(INPUTS), output_names=outputs,
                          dynamo=True, dynamic_shapes=tuple({0: length} for _ in INPUTS), external_data=True,
                          verbose=False)
    return outputs
