"""Norm-based contributions (Kobayashi et al. 2020, "Attention is Not Only a Weight: Analyzing Transformers
with Vector Norms"; 2021, "Incorporating Residual and Normalization Layers into Analysis of Masked Language
Models"): how much each token j really adds to token i in a layer's attention block, as vectors, not weights.

For one layer with input x (T×d) and head attentions α^h (T×T):

- f^h(x_j) = (x_j W_V^h + b_V^h) W_O^h, where W_O^h is the slice of the attention output matrix that takes
  head h's part of the context, and c_ij = Σ_h α^h_ij f^h(x_j);
- check 1: Σ_j c_ij + b_O equals the attention output (`attn.out`);
- with the residual: c_ij + δ_ij x_i;
- with LayerNorm: g_i(z) = γ ⊙ (z − mean(z)) / s_i, with s_i = sqrt(Var(y_i) + ε), y_i = x_i + attn.out_i and
  the biased variance, as LayerNorm computes it;
- check 2: Σ_j g_i(c_ij + δ_ij x_i) + g_i(b_O) + β equals the LayerNorm's output (`attn.norm`).

The mixing ratio of a layer, for a choice of m (T×T), is the mean over i of Σ_{j≠i} m_ij / Σ_j m_ij: how much of
what reaches token i comes from other tokens. Raw attention says tokens mix far more than the norms show.

The (T, T, d) vectors c_ij are never held whole: rows are taken in blocks of about 32 MB (at 512 tokens on
bert-base the whole would take 800 MB), and only their norms and sums are kept.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..stepthrough.steps import split_heads
from ..stepthrough.trace import Trace

MIXING = ("attention", "norm", "norm_residual", "norm_residual_ln")
BLOCK_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True, eq=False)
class LayerContributions:
    attention: np.ndarray  # (T, T) mean over heads of α^h_ij
    norm: np.ndarray  # (T, T) ‖c_ij‖
    norm_residual: np.ndarray  # (T, T) ‖c_ij + δ_ij x_i‖
    norm_residual_ln: np.ndarray  # (T, T) ‖g_i(c_ij + δ_ij x_i)‖
    out_diff: float  # check 1: max |Σ_j c_ij + b_O − attn.out|
    norm_diff: float  # check 2: max |Σ_j g_i(c_ij + δ_ij x_i) + g_i(b_O) + β − attn.norm|

    def mixing(self) -> dict[str, float]:
        return {name: mixing_ratio(getattr(self, name)) for name in MIXING}


def mixing_ratio(m: np.ndarray) -> float:
    """Mean over i of Σ_{j≠i} m_ij / Σ_j m_ij."""
    totals = m.sum(axis=-1)
    return float(np.mean((totals - np.diagonal(m)) / totals))


@torch.inference_mode()
def decompose(x: torch.Tensor, probs: torch.Tensor, w_v: torch.Tensor, b_v: torch.Tensor, w_o: torch.Tensor,
              b_o: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float, attn_out: torch.Tensor,
              attn_norm: torch.Tensor) -> LayerContributions:
    """The definitions above, from plain tensors in nn.Linear's layout (y = x Wᵀ + b): x (T, d), probs (H, T, T),
    w_v, w_o (d, d), and the references attn_out, attn_norm (T, d) that the checks compare against."""
    H, T, _ = probs.shape
    v = split_heads((x @ w_v.T + b_v)[None], H)[0]  # (H, T, d_h): x_j W_V^h + b_V^h
    w_o_heads = w_o.T.reshape(H, -1, w_o.shape[0])  # (H, d_h, d): W_O^h, the rows of Wᵀ that take head h
    f = v @ w_o_heads  # (H, T, d): f^h(x_j)
    y = x + attn_out  # (T, d): the LayerNorm's input
    s = torch.sqrt(y.var(dim=-1, unbiased=False, keepdim=True) + eps)  # (T, 1)
    g = lambda z: gamma * (z - z.mean(dim=-1, keepdim=True)) / s_block  # noqa: E731  g_i, linear in z

    norms = {name: torch.empty(T, T) for name in MIXING[1:]}
    sum_c, sum_g = torch.empty_like(x), torch.empty_like(x)  # (T, d) each: Σ_j c_ij, Σ_j g_i(c_ij + δ_ij x_i)
    rows = max(1, BLOCK_BYTES // (4 * T * x.shape[1]))
    for start in range(0, T, rows):
        block = slice(start, min(start + rows, T))
        c = torch.einsum("hij,hjd->ijd", probs[:, block], f)  # (B, T, d): c_ij
        norms["norm"][block] = c.norm(dim=-1)
        i = torch.arange(block.start, block.stop)
        c[i - block.start, i] += x[block]  # c_ij + δ_ij x_i
        norms["norm_residual"][block] = c.norm(dim=-1)
        s_block = s[block, None]  # (B, 1, 1): s_i for each row of the block
        gc = g(c)  # (B, T, d)
        norms["norm_residual_ln"][block] = gc.norm(dim=-1)
        sum_c[block] = c.sum(dim=1) - x[block]  # the residual added above is not part of Σ_j c_ij
        sum_g[block] = gc.sum(dim=1)
    s_block = s  # g_i(b_O) for every i at once: (T, 1)
    rebuilt_norm = sum_g + g(b_o.expand_as(x)) + beta
    return LayerContributions(
        probs.mean(dim=0).numpy(), *(norms[name].numpy() for name in MIXING[1:]),
        out_diff=float((sum_c + b_o - attn_out).abs().max()),
        norm_diff=float((rebuilt_norm - attn_norm).abs().max()))


@torch.inference_mode()
def layer_contributions(trace: Trace, layer: int) -> LayerContributions:
    """Layer `layer`'s contributions, checked against what the model's own modules compute from the same input:
    attn.out = the output dense of the heads' context, attn.norm = the LayerNorm of x + attn.out."""
    parts = trace.layer_parts(layer)
    x = torch.from_numpy(trace.hidden_states[layer])  # (T, d)
    probs = torch.from_numpy(trace.attention(layer))  # (H, T, T)
    H, T, _ = probs.shape
    v = split_heads(parts.value(x[None]), H)  # (1, H, T, d_h)
    context = (probs[None] @ v).transpose(1, 2).reshape(1, T, -1)  # (1, T, d)
    attn_out = parts.attn_out(context)[0]  # (T, d)
    attn_norm = parts.attn_norm(x + attn_out)  # (T, d)
    ln = parts.attn_norm
    return decompose(x, probs, parts.value.weight, parts.value.bias, parts.attn_out.weight, parts.attn_out.bias,
                     ln.weight, ln.bias, ln.eps, attn_out, attn_norm)


@dataclass(frozen=True, eq=False)
class Mixing:
    tokens: list[str]
    ratios: dict[str, list[float]]  # choice of m -> one ratio per layer
    max_abs_diff: float  # the worst of both checks over all layers

    def to_json(self) -> dict:
        return {"tokens": self.tokens, "mixing": self.ratios, "max_abs_diff": self.max_abs_diff}


def mixing_ratios(trace: Trace) -> Mixing:
    """Every layer's mixing ratio for each choice of m, computing one layer at a time."""
    ratios, worst = {name: [] for name in MIXING}, 0.0
    for layer in range(trace.num_layers):
        result = layer_contributions(trace, layer)
        for name, value in result.mixing().items():
            ratios[name].append(value)
        worst = max(worst, result.out_diff, result.norm_diff)
    return Mixing(trace.tokens, ratios, worst)
