"""ModernBERT (Warner et al. 2024, "Smarter, Better, Faster, Longer"): a pre-norm encoder layer.

- LayerNorm *before* attention and before the MLP (layer 0 has none before attention: the embeddings were
  just normalised); the residual stream itself is never normalised until the final norm after the last layer;
- one fused Wqkv gives queries, keys and values; no biases anywhere;
- rotary position embeddings: each query and key is turned, pair of dimensions by pair, by an angle that grows
  with its position; a rotation keeps every vector's length, and the dot product of a rotated query and key then
  depends on how far apart they are, so position enters the scores as angles, not as an added vector;
- global attention every `global_attn_every_n_layers` layers (from layer 0), and elsewhere a window of
  `local_attention` tokens: each token sees the local_attention / 2 tokens on each side;
- GeGLU feed-forward: Wi gives an input half and a gate half, then act(input) ⊙ gate, then Wo;
- an embedding LayerNorm (no positions, no token types in the input), a final norm, no pooler.

The last layer's output as the model reports it (hidden_states[L], last_hidden_state) is after the final norm, so
the last layer's sub-steps end with `final.norm`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from ..graph.nodes import ModuleNames, node
from ..graph.ops import (GATED_ACTIVATION, INPUT, LAYER_NORM, LINEAR, MASK, MERGE_HEADS, RESIDUAL_ADD, ROTARY_ANGLES,
                         ROTATION, SCALED_DOT, SOFTMAX, WEIGHTED_SUM)
from .bert_layout import LAYERS, counting_positions, no_pooler
from .records import EmbeddingParts, Family, LayerShape, MaskedLMHead, Nodes, TokenizerRecipe, activation_name

TOKEN_CAP = 1024  # ModernBERT reads 8,192 tokens; see the README (Today's encoders) for why the app reads 1,024
GLOBAL = "full_attention"


@dataclass(frozen=True)
class ModernBertParts:
    attn_norm: nn.Module  # LayerNorm (an identity in layer 0)
    wqkv: nn.Linear  # d -> 3d: queries, keys, values side by side
    wo: nn.Linear
    mlp_norm: nn.LayerNorm
    wi: nn.Linear  # d -> 2·d_ff: input half, gate half
    activation: Callable[[torch.Tensor], torch.Tensor]
    mlp_wo: nn.Linear  # d_ff -> d
    attention_type: str  # "full_attention" or "sliding_attention"


def _layer_parts(layer: nn.Module) -> ModernBertParts:
    return ModernBertParts(layer.attn_norm, layer.attn.Wqkv, layer.attn.Wo, layer.mlp_norm, layer.mlp.Wi,
                           layer.mlp.act, layer.mlp.Wo, layer.attention_type)


def _is_global(config, i: int) -> bool:
    return config.layer_types[i] == GLOBAL


def _half_window(config) -> int:
    return config.local_attention // 2


def _graph(base: nn.Module, i: int, p: ModernBertParts, names: ModuleNames) -> Nodes:
    """LayerNorm, Q K V from one fused Wqkv, rotary angles and rotations, scores (with the window of a local layer),
    softmax, context, Wo, residual add; LayerNorm, GeGLU (input and gate halves of Wi), Wo, residual add; and the
    final norm after the last layer."""
    config = base.config
    d, h, d_ff = config.hidden_size, config.num_attention_heads, config.intermediate_size
    rotary, kind = base.rotary_emb, p.attention_type
    normed = "input" if isinstance(p.attn_norm, nn.Identity) else "attn.pre_norm"  # layer 0: the embeddings' norm
    window = None if _is_global(config, i) else _half_window(config)
    scaling = getattr(rotary, f"{kind}_attention_scaling")
    nodes = [node(LAYERS, "input", INPUT)]
    if normed == "attn.pre_norm":
        nodes.append(node(LAYERS, "attn.pre_norm", LAYER_NORM, ("input",), names(p.attn_norm)))
    for n, (key, which) in enumerate((("attn.q", "first"), ("attn.k", "second"), ("attn.v", "last"))):
        nodes.append(node(LAYERS, key, LINEAR, (normed,), names(p.wqkv), heads=h, rows=(n * d, (n + 1) * d),
                          explains=f"the {which} third of normed × Wqkv (no bias), split into heads"))
    nodes += [
        node(LAYERS, "attn.angles", ROTARY_ANGLES, (), names(rotary, f"{kind}_inv_freq"), inv_freq=f"{kind}_inv_freq",
             explains=f"position × frequency for each pair of dimensions (m and m + d_h / 2), the frequencies "
                      f"θ^(−2m / d_h) with base θ = {config.rope_parameters[kind]['rope_theta']:,.0f}"),
        node(LAYERS, "attn.q_rot", ROTATION, ("attn.q", "attn.angles"), scaling=scaling),
        node(LAYERS, "attn.k_rot", ROTATION, ("attn.k", "attn.angles"), scaling=scaling),
        node(LAYERS, "attn.dots", SCALED_DOT, ("attn.q_rot", "attn.k_rot"), scale=math.sqrt(d // h),
             explains="Q_rot,i · K_rot,j / √d_h: the rotated vectors, so the dot product depends on i − j"),
        node(LAYERS, "attn.scores", MASK, ("attn.dots",), window=window,
             explains="the dot products plus the mask; " + (
                 "every token attends to every token (a global layer)" if window is None else
                 f"keys more than {window} tokens away are masked (a local layer)")),
        node(LAYERS, "attn.probs", SOFTMAX, ("attn.scores",)),
        node(LAYERS, "attn.head_context", WEIGHTED_SUM, ("attn.probs", "attn.v")),
        node(LAYERS, "attn.context", MERGE_HEADS, ("attn.head_context",)),
        node(LAYERS, "attn.out", LINEAR, ("attn.context",), names(p.wo), explains="context × Wo (no bias)"),
        node(LAYERS, "attn.residual", RESIDUAL_ADD, ("input", "attn.out"),
             explains="layer input + attention output: no norm after it"),
        node(LAYERS, "ffn.pre_norm", LAYER_NORM, ("attn.residual",), names(p.mlp_norm)),
        node(LAYERS, "ffn.in", LINEAR, ("ffn.pre_norm",), names(p.wi), rows=(0, d_ff), title="GeGLU input half",
             explains="the first half of normed × Wi (no bias): the pre-activation"),
        node(LAYERS, "ffn.gate", LINEAR, ("ffn.pre_norm",), names(p.wi), rows=(d_ff, 2 * d_ff),
             title="GeGLU gate half"),
        node(LAYERS, "ffn.act", GATED_ACTIVATION, ("ffn.in", "ffn.gate"), names(p.activation),
             function=activation_name(config), title="Gated activation",
             explains=f"{activation_name(config)}(input half) ⊙ gate half"),
        node(LAYERS, "ffn.out", LINEAR, ("ffn.act",), names(p.mlp_wo),
             explains="the gated activations × Wo (no bias): back to d"),
        node(LAYERS, "ffn.residual", RESIDUAL_ADD, ("attn.residual", "ffn.out"),
             title="Residual add = layer output" if i < config.num_hidden_layers - 1 else None,
             explains="attention's residual sum + feed-forward output: the layer's output"),
    ]
    if i == config.num_hidden_layers - 1:
        nodes.append(node(LAYERS, "final.norm", LAYER_NORM, ("ffn.residual",), names(base.final_norm)))
    return tuple(nodes)


def _describe(config, i: int) -> str:
    theta = config.rope_parameters[config.layer_types[i]]["rope_theta"]
    if _is_global(config, i):
        return (f"Layer {i} is global: every token sees every other (one layer in "
                f"{config.global_attn_every_n_layers}, from layer 0); rotary base θ = {theta:,.0f}.")
    return (f"Layer {i} is local: each token sees {_half_window(config)} tokens on each side (a "
            f"{config.local_attention}-token window; the band on the heatmap); rotary base θ = {theta:,.0f}.")


def _embeddings(base: nn.Module) -> EmbeddingParts:
    e = base.embeddings
    return EmbeddingParts(e.tok_embeddings, None, None, e.norm, None)


def _masked_lm_head(model: nn.Module) -> MaskedLMHead:
    """final norm -> head (dense, activation, norm) -> decoder; see MaskedLMHead for the final norm."""
    return MaskedLMHead(lambda h: model.decoder(model.head(h)), ("head.", "decoder."),
                        final_norm=model.model.final_norm)


def _notes(config) -> tuple[str, ...]:
    return ("No position or token-type embeddings are added to the input: position enters every layer as a "
            "rotation of the queries and keys (rotary embeddings), and a pair is told apart only by [SEP].",)


def _about(config) -> tuple[str, ...]:
    every = config.global_attn_every_n_layers
    return (f"**pre-norm**: LayerNorm before attention and before the MLP, a final norm after layer "
            f"{config.num_hidden_layers - 1}, no biases",
            f"**global attention in one layer of {every}** (0, {every}, {2 * every}, ...), elsewhere a window of "
            f"**{config.local_attention} tokens** ({_half_window(config)} on each side)",
            "**rotary positions**: queries and keys are turned by angles that grow with position (base θ "
            f"{config.rope_parameters[GLOBAL]['rope_theta']:,.0f} in global layers)",
            f"**GeGLU**: Wi gives {2 * config.intermediate_size:,} = 2 × {config.intermediate_size:,} numbers, an "
            f"input half and a gate half; GELU(input) ⊙ gate goes through Wo",
            f"the app reads at most **{TOKEN_CAP:,} tokens** of the model's {config.max_position_embeddings:,}")


MODERNBERT = Family(
    "ModernBERT", ("modernbert",),
    TokenizerRecipe("bpe", (), "PreTrainedTokenizerFast", False, vocabulary="bpe-modernbert",
                    special_ids=(("[UNK]", 50280), ("[CLS]", 50281), ("[SEP]", 50282), ("[PAD]", 50283),
                                 ("[MASK]", 50284))),
    _embeddings, lambda base: list(base.layers), _layer_parts, LayerShape(_graph, _describe),
    no_pooler, counting_positions, _masked_lm_head, final_norm=lambda base: base.final_norm, notes=_notes,
    about=_about, token_cap=TOKEN_CAP)
