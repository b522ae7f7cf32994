"""ModernBERT (Warner et al. 2024, "Smarter, Better, Faster, Longer"): a pre-norm encoder layer.

- LayerNorm *before* attention and before the MLP (layer 0's attention norm is an identity: the embeddings were
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

from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from ..stepthrough.names import StepInfo
from ..stepthrough.ops import context, scaled_dot_products, softmax_rows, split_heads
from .bert_layout import counting_positions, no_pooler
from .records import AttentionBlock, EmbeddingParts, Family, LayerInput, LayerShape, MaskedLMHead, TokenizerRecipe

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


def _steps(config, i: int) -> tuple[StepInfo, ...]:
    window = ("every token attends to every token (a global layer)" if _is_global(config, i) else
              f"keys more than {_half_window(config)} tokens away are masked (a local layer)")
    steps = (
        StepInfo("input", "Layer input", "(T, d)", "the previous layer's output (the embeddings for layer 0)"),
        StepInfo("attn.pre_norm", "LayerNorm before attention", "(T, d)",
                 "LayerNorm of the layer input; the residual stream itself stays unnormalised (layer 0: an identity, "
                 "the embeddings were just normalised)"),
        StepInfo("attn.q", "Queries Q", "(h, T, d_h)", "the first third of normed × Wqkv (no bias), split into heads"),
        StepInfo("attn.k", "Keys K", "(h, T, d_h)", "the second third of normed × Wqkv, split into heads"),
        StepInfo("attn.v", "Values V", "(h, T, d_h)", "the last third of normed × Wqkv, split into heads"),
        StepInfo("attn.q_rot", "Queries, rotated", "(h, T, d_h)",
                 "each pair of dimensions of Q turned by an angle that grows with the token's position (rotary); "
                 "a rotation keeps each vector's length and puts position into angles"),
        StepInfo("attn.k_rot", "Keys, rotated", "(h, T, d_h)",
                 "K turned the same way, so Q_i · K_j depends on i − j"),
        StepInfo("attn.scores", "Scores", "(h, T, T)",
                 f"Q_rot K_rotᵀ / √d_h plus the mask; {window}; row = query, column = key"),
        StepInfo("attn.probs", "Attention (softmax)", "(h, T, T)",
                 "softmax of each row of the scores: how much each token takes from every other; rows sum to 1"),
        StepInfo("attn.context", "Context", "(T, d)", "probs × V for every head, the heads concatenated back to d"),
        StepInfo("attn.out", "Attention output", "(T, d)", "context × Wo (no bias)"),
        StepInfo("attn.residual", "Residual add", "(T, d)", "layer input + attention output: no norm after it"),
        StepInfo("ffn.pre_norm", "LayerNorm before the MLP", "(T, d)", "LayerNorm of the residual sum"),
        StepInfo("ffn.in", "GeGLU input half", "(T, d_ff)", "the first half of normed × Wi"),
        StepInfo("ffn.gate", "GeGLU gate half", "(T, d_ff)", "the second half of normed × Wi"),
        StepInfo("ffn.act", "Gated activation", "(T, d_ff)", "GELU(input half) ⊙ gate half"),
        StepInfo("ffn.out", "Feed-forward output", "(T, d)", "the gated activations × Wo (no bias): back to d"),
        StepInfo("ffn.residual", "Residual add = layer output", "(T, d)",
                 "attention's residual sum + feed-forward output: the layer's output"),
    )
    if i == config.num_hidden_layers - 1:
        steps += (StepInfo("final.norm", "Final LayerNorm = model output", "(T, d)",
                           "the norm after the last layer: the model's last hidden state"),)
    return steps


def _rotate(t: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotary embedding of (1, h, T, d_h) with cos, sin (1, T, d_h): dimension m is paired with m + d_h / 2."""
    half = t.shape[-1] // 2
    rotated_half = torch.cat((-t[..., half:], t[..., :half]), dim=-1)
    return t * cos[:, None] + rotated_half * sin[:, None]


def _window_and_mask(layer: LayerInput, T: int, dtype: torch.dtype) -> torch.Tensor:
    """(1, 1, T, T): 0 where query i may see key j (a real token, and within the window in a local layer)."""
    allowed = layer.attention_mask[:, None, None, :].bool()  # (1, 1, 1, T)
    if layer.parts.attention_type != GLOBAL:
        distance = torch.arange(T)[:, None] - torch.arange(T)[None, :]  # (T, T): i − j
        allowed = allowed & (distance.abs() <= _half_window(layer.base.config))
    return torch.where(allowed, 0.0, torch.finfo(dtype).min).to(dtype)


def _attention_steps(layer: LayerInput) -> dict[str, torch.Tensor]:
    p, x, h = layer.parts, layer.x, layer.num_heads
    T, d = x.shape[1], x.shape[2]
    normed = p.attn_norm(x)  # (1, T, d)
    qkv = p.wqkv(normed)  # (1, T, 3d)
    q, k, v = (split_heads(qkv[..., n * d:(n + 1) * d], h) for n in range(3))  # (1, h, T, d_h) each
    positions = torch.arange(T)[None]  # (1, T)
    cos, sin = layer.base.rotary_emb(x, positions, p.attention_type)  # (1, T, d_h) each: the model's own tables
    q_rot, k_rot = _rotate(q, cos, sin), _rotate(k, cos, sin)
    scores = scaled_dot_products(q_rot, k_rot) + _window_and_mask(layer, T, x.dtype)  # (1, h, T, T)
    return {"input": x, "attn.pre_norm": normed, "attn.q": q, "attn.k": k, "attn.v": v, "attn.q_rot": q_rot,
            "attn.k_rot": k_rot, "attn.scores": scores, "attn.probs": softmax_rows(scores)}


def _run(layer: LayerInput) -> dict[str, torch.Tensor]:
    p = layer.parts
    steps = _attention_steps(layer)
    steps["attn.context"] = context(steps["attn.probs"], steps["attn.v"])  # (1, T, d)
    steps["attn.out"] = p.wo(steps["attn.context"])  # (1, T, d)
    steps["attn.residual"] = layer.x + steps["attn.out"]  # (1, T, d)
    steps["ffn.pre_norm"] = p.mlp_norm(steps["attn.residual"])  # (1, T, d)
    steps["ffn.in"], steps["ffn.gate"] = p.wi(steps["ffn.pre_norm"]).chunk(2, dim=-1)  # (1, T, d_ff) each
    steps["ffn.act"] = p.activation(steps["ffn.in"]) * steps["ffn.gate"]  # (1, T, d_ff)
    steps["ffn.out"] = p.mlp_wo(steps["ffn.act"])  # (1, T, d)
    steps["ffn.residual"] = steps["attn.residual"] + steps["ffn.out"]  # (1, T, d)
    if layer.index == layer.base.config.num_hidden_layers - 1:
        steps["final.norm"] = layer.base.final_norm(steps["ffn.residual"])  # (1, T, d)
    return steps


def _attention(layer: LayerInput) -> torch.Tensor:
    return _attention_steps(layer)["attn.probs"]


def _block(p: ModernBertParts) -> AttentionBlock:
    d = p.wo.weight.shape[0]
    zeros = torch.zeros(d)
    b_v = zeros if p.wqkv.bias is None else p.wqkv.bias[2 * d:]
    return AttentionBlock(p.wqkv.weight[2 * d:], b_v, p.wo.weight, zeros if p.wo.bias is None else p.wo.bias,
                          p.wo, pre_norm=p.attn_norm, post_norm=None)


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
    _embeddings, lambda base: list(base.layers), _layer_parts, LayerShape(_steps, _run, _attention, _block, _describe),
    no_pooler, counting_positions, _masked_lm_head, final_norm=lambda base: base.final_norm, notes=_notes,
    about=_about, token_cap=TOKEN_CAP)
