"""The operations a sub-step can be, each written once: what it means and how it is computed.

Every operation computes its node from the node's inputs (tensors without a batch dimension: (T, d) for token
vectors, (h, T, ·) per head), the model's own module where it applies one (a Linear, a LayerNorm, an Embedding, an
activation), and the tokens of the input. The explanations (`explaining/`) dispatch on the same names, and a family
whose layer needs something no other family has may define its own `Op` in its module (DeBERTa's relative
positions, MPNet's buckets).

>>> [op.name for op in COMMON_OPS][:5]
['input', 'lookup', 'parameter', 'add', 'linear']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class Tokens:
    """The input as the operations need it: (T,) tensors."""

    input_ids: torch.Tensor
    token_type_ids: torch.Tensor
    position_ids: torch.Tensor
    attention_mask: torch.Tensor  # 1 for a real token

    def __len__(self) -> int:
        return len(self.input_ids)


Compute = Callable[["Node", list[torch.Tensor], "nn.Module | None", Tokens], torch.Tensor]  # noqa: F821


@dataclass(frozen=True)
class Op:
    name: str
    meaning: str  # one line for people
    compute: Compute

    def __repr__(self) -> str:
        return f"Op({self.name})"


def split_heads(t: torch.Tensor, num_heads: int) -> torch.Tensor:
    """(T, h·d_h) -> (h, T, d_h): head h takes columns h·d_h to (h + 1)·d_h - 1."""
    T, d = t.shape
    return t.view(T, num_heads, d // num_heads).transpose(0, 1)


def key_head(query_head: int, num_heads: int, num_key_heads: int) -> int:
    """The key and value head that query head `query_head` reads: with grouped-query attention (fewer key/value
    heads than query heads) each key head serves num_heads / num_key_heads neighbouring query heads, as
    transformers' repeat_kv lays them out; otherwise the head of the same number."""
    return query_head // (num_heads // num_key_heads)


def head_name(query_head: int, num_heads: int, heads: int) -> str:
    """Words for the head of a step with `heads` heads that query head `query_head` reads: "head 3", or, for the
    keys and values of grouped-query attention, "key/value head 1 of 2, shared by query heads 2–3"."""
    if heads == num_heads:
        return f"head {query_head}"
    shared, group = key_head(query_head, num_heads, heads), num_heads // heads
    return (f"key/value head {shared} of {heads}, shared by query heads {shared * group}–"
            f"{(shared + 1) * group - 1}")


def shared_heads(t: torch.Tensor, num_heads: int) -> torch.Tensor:
    """(h_kv, T, ·) -> (h, T, ·): each key/value head repeated for the query heads that read it (`key_head`)."""
    return t if t.shape[0] == num_heads else t.repeat_interleave(num_heads // t.shape[0], dim=0)


def merge_heads(t: torch.Tensor) -> torch.Tensor:
    """(h, T, d_h) -> (T, h·d_h): the heads side by side again, head 0 first."""
    h, T, d_h = t.shape
    return t.transpose(0, 1).reshape(T, h * d_h)


def _given(node, inputs, module, tokens):
    raise AssertionError(f"{node.key} is given, not computed")  # evaluate.py fills it from the trace


def _lookup(node, inputs, module, tokens):
    return module(getattr(tokens, node.attr("ids")))  # (T, e): row ids[t] of the table


def _parameter(node, inputs, module, tokens):
    return module.weight.detach().clone()  # the table itself, copied so the trace does not hold the model


def _add(node, inputs, module, tokens):
    total = inputs[0]
    for term in inputs[1:]:
        total = total + term  # in the order the model adds them
    return total


def _linear(node, inputs, module, tokens):
    """x Wᵀ + b; `token`: only that token's row (the pooler); `rows`: a slice of a fused matrix's outputs
    (ModernBERT's Wqkv and Wi); `heads`: the output split into heads."""
    x = inputs[0] if node.attr("token") is None else inputs[0][node.attr("token")]
    rows = node.attr("rows")
    if rows is None:
        y = module(x)
    else:
        bias = None if module.bias is None else module.bias[rows[0]:rows[1]]
        y = F.linear(x, module.weight[rows[0]:rows[1]], bias)
    return y if node.attr("heads") is None else split_heads(y, node.attr("heads"))


def _module(node, inputs, module, tokens):
    return module(inputs[0])  # the model's own LayerNorm or activation


def _gated(node, inputs, module, tokens):
    return module(inputs[0]) * inputs[1]  # act(input half) ⊙ gate half


def _scaled_dot(node, inputs, module, tokens):
    q, k = inputs  # (h, T, d_h), (h_kv, T, d_h): h_kv < h with grouped-query attention
    return torch.matmul(q, shared_heads(k, q.shape[0]).transpose(-1, -2)) / node.attr("scale")  # (h, T_q, T_k)


def visible(node, tokens: Tokens) -> torch.Tensor:
    """(T, T) booleans: query i may see key j (a real token, within the window of a local layer)."""
    allowed = tokens.attention_mask.bool()[None, :].expand(len(tokens), -1)
    window = node.attr("window")
    if window is not None:
        positions = torch.arange(len(tokens))
        allowed = allowed & ((positions[:, None] - positions[None, :]).abs() <= window)
    return allowed


MASKED_BELOW = float(torch.finfo(torch.float32).min) / 2  # a score this low was masked: softmax gives it 0


def mask_bias(node, tokens: Tokens, dtype: torch.dtype) -> torch.Tensor:
    """(T, T): 0 where the query may see the key, the most negative float where it may not."""
    return torch.where(visible(node, tokens), 0.0, torch.finfo(dtype).min).to(dtype)


def _mask(node, inputs, module, tokens):
    return _add(node, inputs, module, tokens) + mask_bias(node, tokens, inputs[0].dtype)  # (h, T, T)


def _softmax(node, inputs, module, tokens):
    return torch.softmax(inputs[0], dim=-1)


def _weighted_sum(node, inputs, module, tokens):
    probs, values = inputs  # (h, T, T), (h_kv, T, d_h)
    return torch.matmul(probs, shared_heads(values, probs.shape[0]))  # (h, T, d_h): Σ_j p_ij v_j


def _merge(node, inputs, module, tokens):
    return merge_heads(inputs[0])


def _angles(node, inputs, module, tokens):
    """position × frequency, (T, d_h / 2), as the model's rotary module computes its cos and sin from them."""
    inv_freq = getattr(module, node.attr("inv_freq"))  # (d_h / 2,)
    return torch.arange(len(tokens))[:, None].float() * inv_freq[None, :].float()


def _rotate(node, inputs, module, tokens):
    """Rotary embedding: dimension m is paired with m + d_h / 2 and the pair turned by its angle."""
    x, angles = inputs  # (h, T, d_h), (T, d_h / 2)
    both = torch.cat((angles, angles), dim=-1)  # (T, d_h)
    cos, sin = both.cos() * node.attr("scaling", 1.0), both.sin() * node.attr("scaling", 1.0)
    half = x.shape[-1] // 2
    rotated_half = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated_half * sin


def _relative_dot(node, inputs, module, tokens):
    """DeBERTa's position terms, (h, T, T): c2p[i, j] = q_i · K^r[δ(i, j)] / scale, and p2c[i, j] =
    k_j · Q^r[−δ(j, i)] / scale, each relative vector gathered by the bucketed distance, as the model gathers it."""
    content, relative, distance = inputs  # (h, T, d_h), (h, 2k, d_h), (T, T) bucketed i − j
    span = relative.shape[1] // 2
    h, T = content.shape[0], content.shape[1]
    sign = 1 if node.attr("direction") == "c2p" else -1
    row = torch.clamp(sign * distance + span, 0, 2 * span - 1).expand(h, T, T)
    gathered = torch.gather(torch.matmul(content, relative.transpose(-1, -2)), -1, row)
    return (gathered if sign == 1 else gathered.transpose(-1, -2)) / node.attr("scale")


def _gather_bias(node, inputs, module, tokens):
    return module(inputs[0]).permute(2, 0, 1)  # a (buckets, h) table at each pair's bucket: (h, T, T)


INPUT = Op("input", "what the block starts from: the previous block's output", _given)
LOOKUP = Op("lookup", "a table look-up: the row of a learnt table for each id", _lookup)
PARAMETER = Op("parameter", "a learnt table, used as it is", _parameter)
ADD = Op("add", "the sum of its inputs", _add)
LINEAR = Op("linear", "a linear map: x Wᵀ + b", _linear)
LAYER_NORM = Op("layer_norm", "LayerNorm: (x − mean) / √(variance + ε) × γ + β, over each token's vector", _module)
RMS_NORM = Op("rms_norm", "RMSNorm: x / √(mean(x²) + ε) × γ, over each token's vector (no centring, no β)", _module)
NORMS = (LAYER_NORM, RMS_NORM)  # the operations that normalise each token's vector
ACTIVATION = Op("activation", "a function applied to each number", _module)
GATED_ACTIVATION = Op("gated_activation", "act(input) ⊙ gate", _gated)
SCALED_DOT = Op("scaled_dot", "a scaled dot product: q_i · k_j / scale for every query and key", _scaled_dot)
MASK = Op("mask", "the sum of its inputs plus the mask: 0 where the query may see the key, the most negative "
                  "number where it may not", _mask)
SOFTMAX = Op("softmax", "softmax of each row: exp(s_ij) / Σ_k exp(s_ik)", _softmax)
WEIGHTED_SUM = Op("weighted_sum", "a weighted sum of the values: Σ_j p_ij v_j", _weighted_sum)
MERGE_HEADS = Op("merge_heads", "the heads side by side again", _merge)
RESIDUAL_ADD = Op("residual_add", "a residual add: the block's input carried past it, plus what it computed", _add)
ROTARY_ANGLES = Op("rotary_angles", "the rotation angle of each pair of dimensions: position × frequency", _angles)
ROTATION = Op("rotation", "a rotation of each pair of dimensions by its angle (rotary positions)", _rotate)
RELATIVE_DOT = Op("relative_dot", "a gather by relative distance: a vector's dot product with the relative "
                                  "vector at the bucketed distance of the pair, scaled", _relative_dot)
GATHER_BIAS = Op("gather_bias", "a gather by relative distance: a learnt number per head for each pair's bucket",
                 _gather_bias)

COMMON_OPS = (INPUT, LOOKUP, PARAMETER, ADD, LINEAR, LAYER_NORM, RMS_NORM, ACTIVATION, GATED_ACTIVATION, SCALED_DOT,
              MASK, SOFTMAX, WEIGHTED_SUM, MERGE_HEADS, RESIDUAL_ADD, ROTARY_ANGLES, ROTATION, RELATIVE_DOT,
              GATHER_BIAS)
