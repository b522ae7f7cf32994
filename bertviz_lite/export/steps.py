"""The stepper's numbers for the site: every block's graph (as the app's diagram and explanations read it), each
sentence's every sub-step as the trace computed it (one script per block), and the model's parameters that a
cell's explanation reads.

Arrays travel as float32 (int32 for distances and buckets) in base64 (`packed`), exactly the trace's numbers, so
that the browser's explanation recomputes a cell from the same inputs as the app's `explain`. The few small
parameters (a norm's γ and β, rotary frequencies) go with the model's data; the large ones (a linear map's W, a
learnt table used whole) go to one script per module (`weights/`), which the site loads only when a cell of that
map is explained: a lecture that never asks pays nothing for them."""
from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from functools import partial

import numpy as np
import torch

from ..graph.names import BLOCKS
from ..ops import ACTIVATION, GATED_ACTIVATION, GATHER_BIAS, LINEAR, LOOKUP, NORMS, PARAMETER, ROTARY_ANGLES
from ..ops.reading import norm_eps
from ..stepthrough.blocks import output_name
from ..stepthrough.words import STEPPER, against

WEIGHTED = (LINEAR, PARAMETER, GATHER_BIAS)  # ops whose explanation reads a large parameter of their module


def packed(array) -> dict:
    """An array as the site's script holds it: its shape, its type and its bytes (little-endian) in base64."""
    array = np.asarray(array.detach() if isinstance(array, torch.Tensor) else array)
    kind = "i4" if np.issubdtype(array.dtype, np.integer) or array.dtype == bool else "f4"
    data = np.ascontiguousarray(array, dtype=f"<{kind}")
    return {"shape": list(data.shape), "type": kind, "data": base64.b64encode(data.tobytes()).decode("ascii")}


def graphs(t) -> list:
    """Every block's graph in the stepper's order (embeddings, positions, each layer, pooler), where the model
    has it."""
    found = []
    for block in BLOCKS:
        for layer in range(t.num_layers) if block == "layers" else [None]:
            if (graph := t.graph(block, layer)) is not None and (block != "pooler" or t.pooler_output is not None):
                found.append(graph)
    return found


def model_steps(loaded, t, weights: bool = True) -> dict:
    """What every sentence shares: the graphs (each node with its axes), what each operation is, the small
    parameters, and which modules have a weights script (none without `weights`)."""
    blocks = graphs(t)
    ops = {n.op.name: {"meaning": n.op.meaning, "drawn_as": n.op.drawn_as and n.op.drawn_as.value,
                       "gives_probabilities": n.op.gives_probabilities, "whole_row": n.op.whole_row,
                       "reads_weights": n.op.reads_weights, "narrates": n.op.narrate.__name__,
                       "scale": n.op.scale}
           for g in blocks for n in g}
    recipes: dict[str, int] = {}  # a recipe's JSON -> its number: every layer's nodes share their recipes
    return {"blocks": [block_json(g, loaded, recipes) for g in blocks], "ops": ops,
            "recipes": [json.loads(r) for r in recipes], "parameters": small_parameters(loaded, blocks),
            "weights": sorted({n.module for g in blocks for n in g if n.op in WEIGHTED}) if weights else [],
            "weights_left_out": not weights,
            "num_heads": t.num_heads, "num_layers": t.num_layers, "words": STEPPER}


def block_json(graph, loaded, recipes: dict[str, int]) -> dict:
    nodes = [{**n.to_json(), "axes": list(n.axes), "headed": n.has_head_axis,
              "recipe": recipe_number(graph, n, loaded, recipes)} for n in graph]
    return {"block": graph.block, "layer": graph.layer, "name": graph.name(graph.output.key), "nodes": nodes,
            "against": None if graph.block == "positions" else against(graph)}  # what its check compares with


def recipe_number(graph, node, loaded, recipes: dict[str, int]) -> int | None:
    """The number of the node's recipe (how its operation explains a cell: ops/recipe.py) in the site's list of
    them, added where it is new; None for an operation with none (the browser shows the stored number)."""
    if node.op.recipe is None:
        return None
    module = None if node.module is None else loaded.base.get_submodule(node.module)
    said = json.dumps(node.op.recipe(node, graph, module).to_json(), sort_keys=True)
    return recipes.setdefault(said, len(recipes))


def small_parameters(loaded, blocks) -> dict:
    """A norm's γ, β and ε, an activation's function, rotary frequencies: by module name (and buffer)."""
    found = {}
    for n in (n for g in blocks for n in g):
        module = None if n.module is None else loaded.base.get_submodule(n.module)
        if n.op in NORMS:
            weight, bias = module.weight, getattr(module, "bias", None)
            found[n.module] = {"weight": None if weight is None else packed(weight),
                               "bias": None if bias is None else packed(bias), "eps": norm_eps(module)}
        elif n.op is ROTARY_ANGLES:
            found[f"{n.module}.{n.attr('inv_freq')}"] = packed(getattr(module, n.attr("inv_freq")))
        elif n.op in (ACTIVATION, GATED_ACTIVATION):
            found[n.module] = {"function": n.attr("function", type(module).__name__)}
    return found


def sentence_steps(loaded, t, checks: dict) -> dict:
    """What a sentence's every view reads: what a layer reads from the model itself (its hidden states), each
    block's check (`checks`, as `block_arrays` found them), the input's ids and mask, and the rows of each table the
    embeddings looked up (the sub-steps themselves are in `block_arrays`)."""
    blocks = graphs(t)
    tokens = t.token_data()
    ids = {name: getattr(tokens, name).tolist() for name in ("input_ids", "token_type_ids", "position_ids")}
    return {"given": _given(loaded, t, blocks), "checks": checks, "ids": ids,
            "mask": tokens.attention_mask.tolist(), "rows": _table_rows(loaded, blocks, ids)}


def block_arrays(t, checks: dict) -> Iterator[tuple[str, dict]]:
    """Each block's sub-steps by global name, one block at a time ("embed", "layers.3", ...): the site reads a
    block's script only when a view shows it or explains a cell of it. Each block is computed once, as the trace's
    `Steps`, and its check against the model's own output goes into `checks` (by the block's output name): its largest
    difference and whether it holds (closeness.SAME_SUM)."""
    blocks = [t.embeddings, t.positions, *(partial(t.layer, i) for i in range(t.num_layers)), t.pooler]
    for steps in (make() for make in blocks):  # one block at a time
        if steps is None:  # no positions' steps, no pooler
            continue
        name = steps.name(steps.graph.output.key)
        if steps.max_abs_diff is not None:
            checks[name] = [steps.max_abs_diff, steps.holds]  # what the line says, and whether it holds
        yield part_of(name), {steps.name(k): packed(v) for k, v in steps.items()}


def part_of(step: str) -> str:
    """The script a step's numbers are in: its block, and a layer's number ("layers.3.attn.q" → "layers.3")."""
    block, _, rest = step.partition(".")
    return f"{block}.{rest.split('.')[0]}" if block == "layers" else block


def _given(loaded, t, blocks) -> dict:
    """What a block reads from the model itself rather than from the step-through (a layer's input: the model's
    own hidden state of the block before), by the name it reads."""
    outputs = {output_name(loaded, "embed")} | {output_name(loaded, "layers", i) for i in range(t.num_layers)}
    wanted = {source for g in blocks for n in g for source in n.inputs if g.is_outside(source) and source in outputs}
    return {name: packed(t.given(name)) for name in sorted(wanted)}


def _table_rows(loaded, blocks, ids: dict) -> dict:
    """For each table the embeddings look up: the distinct ids read and their rows (the whole table stays out)."""
    rows = {}
    for n in (n for g in blocks for n in g if n.op is LOOKUP):
        read = sorted(set(ids[n.attr("ids")]))
        table = loaded.base.get_submodule(n.module).weight
        rows[n.module] = {"ids": read, "rows": packed(table[read])}
    return rows


def module_weights(loaded, name: str) -> dict:
    """One module's W (and b) for its weights script."""
    module = loaded.base.get_submodule(name)
    bias = getattr(module, "bias", None)
    return {"weight": packed(module.weight), "bias": None if bias is None or isinstance(bias, bool) else packed(bias)}
