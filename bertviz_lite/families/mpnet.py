"""MPNet (Song et al. 2020): BERT's post-norm layer, plus a learnt relative-position bias on every score.

The encoder computes the bias once from the distance between query and key, put into one of 32 buckets (exact
for small distances, logarithmic up to 128 tokens, direction kept), each bucket a learnt number per head; every
layer adds the same (h, T, T) bias: scores = Q Kᵀ / √d_h + position_bias + mask. Positions also enter the input
as RoBERTa's do (a table, numbered from padding_idx + 1). There are no token types, and a pair is
`<s> A </s></s> B </s>`.
"""
from __future__ import annotations

import torch
from torch import nn
from transformers.models.mpnet.modeling_mpnet import create_position_ids_from_input_ids

from ..stepthrough.names import StepInfo
from ..stepthrough.ops import mask_bias, scaled_dot_products
from .bert_layout import (LayerParts, bert_layer_modules, bert_pooler, child_head, post_norm_block, post_norm_layer,
                          roberta_offset, steps_with, word_and_position_embeddings)
from .records import Family, LayerInput, LayerShape, TokenizerRecipe

PADDING_IDX = 1  # MPNetEmbeddings numbers positions from here + 1, whatever the config says

POSITION_BIAS = StepInfo("attn.position_bias", "Relative-position bias", "(h, T, T)",
                         "a learnt number per head for how far key j lies from query i (32 buckets: exact up to 8 "
                         "tokens, then logarithmic up to 128, before or after kept apart), computed once by the "
                         "encoder and added in every layer")
SCORES = StepInfo("attn.scores", "Scores", "(h, T, T)", "Q Kᵀ / √d_h + position bias + the mask (0 for real "
                                                        "tokens, a huge negative number for padding)")
STEPS = steps_with((POSITION_BIAS,), SCORES)


def _scores(layer: LayerInput, q: torch.Tensor, k: torch.Tensor) -> dict[str, torch.Tensor]:
    bias = layer.base.encoder.compute_position_bias(layer.x)  # (1, h, T, T): the model's own function
    return {"attn.position_bias": bias,
            "attn.scores": scaled_dot_products(q, k) + bias + mask_bias(layer.attention_mask, q.dtype)}


_run, _attention = post_norm_layer(_scores)


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
    LayerShape(lambda config, i: STEPS, _run, _attention, post_norm_block),
    bert_pooler, _positions, child_head("lm_head"), position_offset=roberta_offset,
    about=lambda config: (f"**relative-position bias**: {config.relative_attention_num_buckets} learnt buckets of "
                          f"distance, one number per head, added to every layer's scores",),
    notes=lambda config: ("MPNet has no token-type embeddings: the second sentence of a pair is told apart only by "
                          "the </s></s> between them.",))
