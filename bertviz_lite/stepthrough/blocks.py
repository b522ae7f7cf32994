"""Every block of a loaded model as its graph (`graph/`): the embeddings and the pooler, which every family builds
from the same few parts, the encoder's once-per-input steps and each layer, which the family describes itself.

A layer's `input` node reads the previous block's output, by its global name, so that the graphs join up: layer 0
reads `embed.norm` (or `embed.project`), layer i reads layer i − 1's last step, the pooler the last layer's.
"""
from __future__ import annotations

import dataclasses
from functools import partial
from weakref import WeakKeyDictionary

from ..errors import InputError
from ..graph.names import BLOCKS, todays_block
from ..graph.nodes import Graph, ModuleNames, node
from ..ops import ACTIVATION, ADD, INPUT, LAYER_NORM, LINEAR, LOOKUP
from ..loading.loader import LoadedModel

_GRAPHS: WeakKeyDictionary = WeakKeyDictionary()  # loaded model -> {(block, layer): Graph}, built once each


def block_graph(loaded: LoadedModel, block: str, layer: int | None = None) -> Graph | None:
    """The graph of one block (None: a pooler or positions' steps the model does not have). An InputError names
    the layers there are. An earlier block name is read as today's (`encoder` is `positions`)."""
    block = todays_block(block)
    if block not in BLOCKS:
        raise InputError(f"There is no block {block!r}: the blocks are {', '.join(BLOCKS)}.")
    count = loaded.config.num_hidden_layers
    if block == "layers" and not (isinstance(layer, int) and 0 <= layer < count):
        raise InputError(f"There is no layer {layer}: this model has layers 0 to {count - 1}.")
    built = _GRAPHS.setdefault(loaded, {})
    if (block, layer) not in built:
        built[(block, layer)] = _build(loaded, block, layer, ModuleNames(loaded.base))
    return built[(block, layer)]


def _build(loaded: LoadedModel, block: str, layer: int | None, names: ModuleNames) -> Graph | None:
    family, base = loaded.family, loaded.base
    if block == "embed":
        return Graph("embed", None, embedding_nodes(family.embedding_parts(base), names))
    if block == "positions":
        nodes = family.positions_graph(base, names)
        return Graph("positions", None, nodes) if nodes else None
    if block == "pooler":
        parts = family.pooler_parts(base)
        return None if parts is None else Graph("pooler", None, (
            node("pooler", "dense", LINEAR, (output_name(loaded, "layers", base.config.num_hidden_layers - 1),),
                 names(parts.dense), token=0),
            node("pooler", "out", ACTIVATION, ("dense",), names(parts.activation), function="tanh")))
    parts = family.layer_parts(family.layer_modules(base)[layer])
    source = output_name(loaded, "embed") if layer == 0 else output_name(loaded, "layers", layer - 1)
    nodes = tuple(dataclasses.replace(n, inputs=(source,)) if n.op is INPUT else n
                  for n in family.layer.graph(base, layer, parts, names))
    return Graph("layers", layer, nodes)


def output_name(loaded: LoadedModel, block: str, layer: int | None = None) -> str:
    """The global name of a block's last step: what the next block reads."""
    graph = block_graph(loaded, block, layer)
    return graph.name(graph.output.key)


def embedding_nodes(parts, names: ModuleNames) -> tuple:
    """word (+ token type) (+ position) -> sum -> LayerNorm (-> projection); DeBERTa projects before its norm. A
    family with nothing to add to the word vectors (ModernBERT, DeBERTa-v3) goes straight to the LayerNorm, and one
    with no embedding norm (EuroBERT, whose layers normalise their own input) ends at the word vectors."""
    E = partial(node, "embed")
    nodes = [E("word", LOOKUP, (), names(parts.word), ids="input_ids")]
    if parts.position is not None:
        nodes.append(E("position", LOOKUP, (), names(parts.position), ids="position_ids"))
    if parts.token_type is not None:
        nodes.append(E("token_type", LOOKUP, (), names(parts.token_type), ids="token_type_ids"))
    added = [key for key in ("word", "token_type", "position") if any(n.key == key for n in nodes)]  # model's order
    last = "word"
    if len(added) > 1:
        nodes.append(E("sum", ADD, added, explains=" + ".join(k.replace("_", " ") for k in added)))
        last = "sum"
    if parts.project is not None and parts.project_first:
        nodes.append(E("project", LINEAR, (last,), names(parts.project)))
        last = "project"
    if parts.norm is not None:
        nodes.append(E("norm", LAYER_NORM, (last,), names(parts.norm)))
        last = "norm"
    if parts.project is not None and not parts.project_first:
        nodes.append(E("project", LINEAR, (last,), names(parts.project)))
    return tuple(nodes)
