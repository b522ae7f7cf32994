"""MPNet (Song et al. 2020): BERT's post-norm layer, plus a learnt relative-position bias on every score.

The encoder computes the bias once from the distance between query and key, put into one of 32 buckets (exact
for small distances, logarithmic up to 128 tokens, direction kept), each bucket a learnt number per head; every
layer adds the same (h, T, T) bias: scores = Q Kᵀ / √d_h + position_bias + mask. Positions also enter the input
as RoBERTa's do (a table, numbered from padding_idx + 1). There are no token types, and a pair is
`<s> A </s></s> B </s>`.
"""
from __future__ import annotations

import math

import torch
from torch import nn
from transformers.models.mpnet.modeling_mpnet import create_position_ids_from_input_ids

from ..graph.nodes import ModuleNames, node
from ..ops import GATHER_BIAS, MASK, SCALED_DOT, Op, tells
from ..ops.telling import Telling, step
from ..ops.recipe import Recipe, call, cell, fmt, var, when
from .bert_layout import (LAYERS, LayerParts, bert_layer_modules, bert_pooler, child_head, post_norm_layer,
                          roberta_offset, word_and_position_embeddings)
from .records import Family, LayerShape, Nodes, TokenizerRecipe

PADDING_IDX = 1  # MPNetEmbeddings numbers positions from here + 1, whatever the config says


def _buckets(node, inputs, module, tokens) -> torch.Tensor:
    """(T, T): the bucket of key j's distance from query i, by the encoder's own function, with the defaults its
    forward uses (32 buckets, up to 128 tokens, whatever the config says)."""
    positions = torch.arange(tokens.length)
    return module.relative_position_bucket(positions[None, :] - positions[:, None])


def _bucketed(node, graph, module) -> Recipe:
    """One pair's bucket, by the rule of the encoder's own relative_position_bucket (32 buckets, 128 tokens): half
    the buckets for keys after the query; a distance under 8 is its own bucket, a longer one goes on a log scale,
    in float32 as the encoder computes it (the stored bucket, which its function computed, is the check)."""
    near = var.distance < 8
    scaled = call("log", var.distance / 8) / call("log", 16.0) * 8  # shown to 3 decimals
    in_float32 = call("f32", call("f32", call("log", call("f32", var.distance / 8)) / call("f32", call("log", 16.0)))
                      * 8)
    return Recipe(
        let={"i": cell.at(0), "j": cell.at(1), "n": var.i - var.j, "after": var.n < 0, "distance": call("abs", var.n),
             "scaled": when(near, 0.0, scaled), "logged": when(near, 0.0, in_float32),
             "bucket": when(near, var.distance, call("int", call("min", 8 + call("floor", var.logged), 15)))
             + when(var.after, 16, 0)},
        formula=when(near, fmt("|i − j| = {distance} < 8: exact, {distance}"),
                     fmt("|i − j| = {distance} ≥ 8: 8 + ⌊log({distance}/8) / log(16) × 8⌋ = 8 + ⌊{scaled:.3f}⌋, "
                         "at most 15"))
        + when(var.after, "; + 16, as the key comes after the query", "; the key is not after the query")
        + fmt(" = bucket {bucket}"),
        value=var.bucket, inputs={"query position": var.i, "key position": var.j, "i - j": var.n},
        labels={"query": cell.token(var.i), "key": cell.token(var.j)})


@tells(highest="For query {me}, the highest bucket of its row is {bucket}, first reached by {key}, {distance} tokens "
                "{side} it; keys within 7 tokens each have a bucket of their own, farther ones share buckets on a "
                "log scale.", before="before", after="after")
def _narrate_buckets(node, graph, module, say) -> Telling:
    row = step.array[step.token]  # (T,): the bucket of each key's distance from this query
    top = call("argmax", row)  # the number the figure outlines: the row's largest, its first key
    return Telling({}, (say("highest", me=step.me, bucket=call("int", row[top]), key=step.tok(top),
                            distance=call("abs", top - step.token),
                            side=when(step.token < top, say("after"), say("before"))),))


RELATIVE_BUCKETS = Op("relative_buckets", "a relative distance put into its bucket", _buckets,
                      recipe=_bucketed, narrate=_narrate_buckets, scale="share")  # buckets count from 0


def _positions_graph(base: nn.Module, names: ModuleNames) -> Nodes:
    return (node("positions", "relative_buckets", RELATIVE_BUCKETS, (), names(base.encoder),
                 explains="the distance j − i of key j from query i put into one of 32 buckets: exact up to 8 tokens, "
                          "then logarithmic up to 128, before and after kept apart"),)


def _scores(base: nn.Module, i: int, p: LayerParts, names: ModuleNames) -> Nodes:
    """Q Kᵀ / √d_h + the position bias + the mask."""
    d_h = base.config.hidden_size // base.config.num_attention_heads
    return (node(LAYERS, "attn.dots", SCALED_DOT, ("attn.q", "attn.k"), scale=math.sqrt(d_h)),
            node(LAYERS, "attn.position_bias", GATHER_BIAS, ("positions.relative_buckets",),
                 names(base.encoder.relative_attention_bias),
                 explains="a learnt number per head for how far key j lies from query i (32 buckets: exact up to 8 "
                          "tokens, then logarithmic up to 128, before or after kept apart), the same in every layer"),
            node(LAYERS, "attn.scores", MASK, ("attn.dots", "attn.position_bias"),
                 explains="Q Kᵀ / √d_h + position bias + the mask (0 for real tokens, a huge negative number for "
                          "padding)"))


def _layer_parts(layer: nn.Module) -> LayerParts:
    attn = layer.attention.attn
    return LayerParts(attn.q, attn.k, attn.v, attn.o, layer.attention.LayerNorm, layer.intermediate.dense,
                      layer.intermediate.intermediate_act_fn, layer.output.dense, layer.output.LayerNorm)


def _positions(base: nn.Module, input_ids: torch.Tensor) -> torch.Tensor:
    return create_position_ids_from_input_ids(input_ids, PADDING_IDX)  # (1, T)


MPNET = Family(
    "MPNet", ("mpnet",),
    # the real vocabulary: <s> <pad> </s> <unk>, BERT's uncased 30,522 pieces, <mask> (see offline_tokenizer)
    TokenizerRecipe("wordpiece", ("<s>", "<pad>", "</s>", "<unk>"), "MPNetTokenizer", True,
                    vocabulary="wordpiece-mpnet", trailing=("<mask>",)),
    word_and_position_embeddings, bert_layer_modules, _layer_parts,
    LayerShape(post_norm_layer(_scores)),
    bert_pooler, _positions, child_head("lm_head"), position_offset=roberta_offset,
    positions_graph=_positions_graph,
    about=lambda config: (f"**relative-position bias**: {config.relative_attention_num_buckets} learnt buckets of "
                          f"distance, one number per head, added to every layer's scores",),
    notes=lambda config: ("MPNet has no token-type embeddings: the second sentence of a pair is told apart only by "
                          "the </s></s> between them.",))
