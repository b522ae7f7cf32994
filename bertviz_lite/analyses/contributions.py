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

With grouped-query attention (EuroBERT) W_V has fewer heads than there are query heads: head h's values are those
of value head h // (H / H_kv), as the model's own repeat_kv shares them, and f^h uses that value head with W_O^h.

A pre-norm layer (ModernBERT, EuroBERT) normalises before attention and not after: the values come from LN(x_j), so
f^h(x_j) = (LN(x_j) W_V^h + b_V^h) W_O^h; the residual adds x_i itself; no LayerNorm follows the sum, so there is
no ‖g_i(·)‖ (`norm_residual_ln` is None), and check 2 compares Σ_j (c_ij + δ_ij x_i) + b_O with the attention
block's output x_i + attn.out_i (`attn.residual`).

The mixing ratio of a layer, for a choice of m (T×T), is the mean over i of Σ_{j≠i} m_ij / Σ_j m_ij: how much of
what reaches token i comes from other tokens. Raw attention says tokens mix far more than the norms show.

The (T, T, d) vectors c_ij are never formed (at 512 tokens on bert-base they would take 800 MB and most of a
second per layer just to read): their norms come from quadratic forms, ‖c_ij‖² = α_ijᵀ G_j α_ij with G_j the
H × H Gram matrix of token j's head vectors f^h(x_j), and g_i is linear, so the LayerNorm'd norms and both
checks follow the same way. The tests compare every norm with the vectors built one by one.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from torch import nn

from ..closeness import ANOTHER_ROUTE
from ..ops import (LAYER_NORM, LINEAR, MERGE_HEADS, NORMS, RESIDUAL_ADD, WEIGHTED_SUM, merge_heads, shared_heads,
                   split_heads)
from ..graph.nodes import Graph, Node
from ..stepthrough.trace import Trace

MIXING = ("attention", "norm", "norm_residual", "norm_residual_ln")


@dataclass(frozen=True, eq=False)
class LayerContributions:
    attention: np.ndarray  # (T, T) mean over heads of α^h_ij
    norm: np.ndarray  # (T, T) ‖c_ij‖
    norm_residual: np.ndarray  # (T, T) ‖c_ij + δ_ij x_i‖
    norm_residual_ln: np.ndarray | None  # (T, T) ‖g_i(c_ij + δ_ij x_i)‖; None where no LayerNorm follows
    out_diff: float  # check 1: max |Σ_j c_ij + b_O − attn.out|
    norm_diff: float  # check 2: max |Σ_j g_i(c_ij + δ_ij x_i) + g_i(b_O) + β − attn.norm| (pre-norm: see above)
    out_holds: bool  # check 1 within closeness.ANOTHER_ROUTE of the model's own numbers (a bound by their size)
    norm_holds: bool  # check 2, likewise

    def mixing(self) -> dict[str, float | None]:
        return {name: None if getattr(self, name) is None else mixing_ratio(getattr(self, name)) for name in MIXING}

    def summary(self) -> tuple[dict[str, float | None], float]:
        """The mixing ratios and the worse of the two checks: what a layer-wide result keeps of this layer."""
        return self.mixing(), max(self.out_diff, self.norm_diff)


def mixing_ratio(m: np.ndarray) -> float:
    """Mean over i of Σ_{j≠i} m_ij / Σ_j m_ij."""
    return float(mixing_of(torch.from_numpy(m)))


def mixing_of(m: torch.Tensor) -> torch.Tensor:
    """(…, T, T) -> (…): the mixing ratio of each matrix. In torch, so that a live site's browser runs it too."""
    totals = m.sum(dim=-1)  # (…, T)
    return ((totals - torch.diagonal(m, dim1=-2, dim2=-1)) / totals).mean(dim=-1)


@torch.inference_mode()
def decompose(x: torch.Tensor, probs: torch.Tensor, w_v: torch.Tensor, b_v: torch.Tensor, w_o: torch.Tensor,
              b_o: torch.Tensor, gamma: torch.Tensor | None, beta: torch.Tensor | None, eps: float | None,
              attn_out: torch.Tensor, attn_norm: torch.Tensor, values_from: torch.Tensor | None = None
              ) -> LayerContributions:
    """The definitions above, from plain tensors in nn.Linear's layout (y = x Wᵀ + b): x (T, d), probs (H, T, T),
    w_v, w_o (d, d), and the references attn_out, attn_norm (T, d) that the checks compare against.

    A pre-norm layer passes `values_from` = LN(x) and gamma = beta = eps = None; attn_norm is then the block's
    output x + attn.out."""
    H = probs.shape[0]
    source = x if values_from is None else values_from  # (T, d): what the values are computed from
    v = head_values(source, w_v, b_v, H, w_o.shape[1] // H)  # (H, T, d_h): x_j W_V^h + b_V^h
    mean, raw, residual, with_ln, rebuilt_out, rebuilt_norm = contribution_tensors(x, probs, v, w_o, b_o, gamma, beta,
                                                                                   eps, attn_out)
    return LayerContributions(mean.numpy(), raw.numpy(), residual.numpy(),
                              None if with_ln is None else with_ln.numpy(),
                              **_check("out", rebuilt_out, attn_out), **_check("norm", rebuilt_norm, attn_norm))


def contribution_tensors(x: torch.Tensor, probs: torch.Tensor, v: torch.Tensor, w_o: torch.Tensor, b_o: torch.Tensor,
                         gamma: torch.Tensor | None, beta: torch.Tensor | None, eps: float | None,
                         attn_out: torch.Tensor | None) -> tuple[torch.Tensor | None, ...]:
    """The definitions above as tensors: the mean attention and ‖c_ij‖, ‖c_ij + δ_ij x_i‖, ‖g_i(c_ij + δ_ij x_i)‖
    (None without a LayerNorm after the sum: gamma is None), each (T, T), and what the two checks rebuild, each
    (T, d): Σ_j c_ij + b_O, and Σ_j g_i(c_ij + δ_ij x_i) + g_i(b_O) + β (pre-norm: Σ_j (c_ij + δ_ij x_i) + b_O).
    attn_out: what the LayerNorm reads with x (pre-norm: unread).
    v: (H, T, d_h) each query head's values (x_j W_V^h + b_V^h). In torch, so that a live site's browser runs this
    very function (export/analysis_graphs.py)."""
    H, d = probs.shape[0], x.shape[1]
    w_o_heads = w_o.T.reshape(H, -1, d)  # (H, d_h, d): W_O^h, the rows of W_Oᵀ that take head h's context
    f = v @ w_o_heads  # (H, T, d): f^h(x_j)
    sum_c = ((probs @ v) @ w_o_heads).sum(dim=0)  # (T, d): Σ_j c_ij = Σ_h (α^h v^h) W_O^h, a fifth of α^h f^h's cost
    diagonal = torch.diagonal(probs, dim1=1, dim2=2)  # (H, T): α^h_ii
    c_ii = (diagonal[:, :, None] * f).sum(dim=0)  # (T, d)
    by_key = probs.permute(2, 1, 0).contiguous()  # (T_j, T_i, H): α^h_ij, grouped by the token j that gives
    raw = _squared_norms(by_key, f)  # (T, T): ‖c_ij‖²
    # ‖c_ii + x_i‖² = ‖c_ii‖² + 2⟨c_ii, x_i⟩ + ‖x_i‖², on the diagonal alone
    residual = raw + on_diagonal((2 * c_ii * x + x * x).sum(dim=-1))
    norm = lambda squared: squared.clamp(min=0).sqrt()  # noqa: E731
    mean = probs.mean(dim=0)  # (T, T)
    if gamma is None:  # pre-norm: nothing normalises the sum; check 2 is the block's output
        return mean, norm(raw), norm(residual), None, sum_c + b_o, sum_c + x + b_o

    y = x + attn_out  # (T, d): the LayerNorm's input
    s = torch.sqrt(y.var(dim=-1, unbiased=False, keepdim=True) + eps)  # (T, 1): s_i
    lin = lambda z: gamma * (z - z.mean(dim=-1, keepdim=True))  # noqa: E731  g_i(z) = lin(z) / s_i
    lin_c, lin_x = lin(c_ii), lin(x)
    with_ln = _squared_norms(by_key, lin(f)) + on_diagonal((2 * lin_c * lin_x + lin_x * lin_x).sum(dim=-1))
    rebuilt_norm = lin(sum_c + x) / s + lin(b_o) / s + beta  # Σ_j g_i(c_ij + δ_ij x_i) + g_i(b_O) + β
    return mean, norm(raw), norm(residual), norm(with_ln) / s, sum_c + b_o, rebuilt_norm


def on_diagonal(values: torch.Tensor) -> torch.Tensor:
    """(T,) -> (T, T): the values on the diagonal, 0 elsewhere (torch.diag_embed, in operations ONNX has)."""
    return torch.eye(values.shape[0], dtype=values.dtype) * values[:, None]


def _check(name: str, rebuilt: torch.Tensor, own: torch.Tensor) -> dict:
    """One check's largest difference (what the page says) and whether it holds by the numbers' own size."""
    return {f"{name}_diff": float((rebuilt - own).abs().max()),
            f"{name}_holds": ANOTHER_ROUTE.holds(rebuilt.numpy(), own.numpy())}


def head_values(source: torch.Tensor, w_v: torch.Tensor, b_v: torch.Tensor, heads: int, d_h: int) -> torch.Tensor:
    """(T, d) -> (H, T, d_h): each query head's values. With grouped-query attention W_V has fewer heads than
    there are query heads, and query head h reads value head h // (H / H_kv), as the model's repeat_kv does."""
    return shared_heads(split_heads(source @ w_v.T + b_v, w_v.shape[0] // d_h), heads)


def _squared_norms(by_key: torch.Tensor, f: torch.Tensor) -> torch.Tensor:
    """‖Σ_h α^h_ij f^h_j‖² for every i, j without the (T, T, d) vectors: α_ijᵀ G_j α_ij, with G_j the (H, H) Gram
    matrix of token j's head vectors f^h_j. by_key: (T_j, T_i, H) attention, f: (H, T, d) head vectors."""
    gram = torch.bmm(f.transpose(0, 1), f.permute(1, 2, 0))  # (T_j, H, H): ⟨f^h_j, f^k_j⟩
    return (torch.bmm(by_key, gram) * by_key).sum(dim=-1).T  # (T_i, T_j)


@dataclass(frozen=True)
class AttentionBlock:
    """One layer's attention block as the norm-based analysis needs it, in nn.Linear's layout (y = x Wᵀ + b)."""

    w_v: torch.Tensor  # (H_kv·d_h, d): fewer rows than W_O has columns with grouped-query attention
    b_v: torch.Tensor  # (d,)
    w_o: torch.Tensor  # (d, d)
    b_o: torch.Tensor  # (d,)
    output: nn.Module  # the model's own output dense: context (.., d) -> (.., d)
    pre_norm: nn.Module | None  # pre-norm layers: values come from LN(x)
    post_norm: nn.Module | None  # post-norm layers: LN(x + attention output) is the block's output


def attention_block(trace: Trace, layer: int) -> AttentionBlock:
    """Layer `layer`'s attention block, read from its graph (`block_nodes`)."""
    graph, base = trace.graph("layers", layer), trace.loaded.base
    nodes = block_nodes(graph)
    w_v, b_v = _rows(base.get_submodule(nodes.values.module), nodes.values.attr("rows"))
    output = base.get_submodule(nodes.out.module)
    w_o, b_o = _rows(output, None)
    return AttentionBlock(w_v, b_v, w_o, b_o, output,
                          pre_norm=None if nodes.pre_norm is None else base.get_submodule(nodes.pre_norm.module),
                          post_norm=None if nodes.post_norm is None else base.get_submodule(nodes.post_norm.module))


@dataclass(frozen=True)
class BlockNodes:
    """The nodes of a layer's graph that the norm-based analysis reads."""

    values: Node  # the linear map whose heads the weighted sum mixes: (H_kv, T, d_h)
    out: Node  # W_O: the linear map of the merged heads
    residual: Node  # x + attn.out
    pre_norm: Node | None  # a norm that feeds the values
    post_norm: Node | None  # a LayerNorm that alone reads the residual sum


def block_nodes(graph: Graph) -> BlockNodes:
    """Read from the layer's graph: the values are the linear map whose heads the weighted sum mixes, W_O the linear
    map of the merged heads; a norm that feeds the values is a pre-norm, and a LayerNorm that alone reads the
    residual sum after W_O a post-norm."""
    mixed = next(n for n in graph if n.op is WEIGHTED_SUM)
    values = graph.node(mixed.inputs[1])
    merged = next(n for n in graph if n.op is MERGE_HEADS and mixed.key in n.inputs)
    out = next(n for n in graph if n.op is LINEAR and merged.key in n.inputs)
    residual = next(n for n in graph if n.op is RESIDUAL_ADD and out.key in n.inputs)
    after, source = graph.consumers(residual.key), graph.node(values.inputs[0])
    return BlockNodes(values, out, residual, source if source.op in NORMS else None,
                      after[0] if len(after) == 1 and after[0].op is LAYER_NORM else None)


def _rows(linear: nn.Linear, rows: tuple[int, int] | None) -> tuple[torch.Tensor, torch.Tensor]:
    """(weight, bias) of a linear map, or of a slice of a fused one's outputs; a missing bias is zeros."""
    start, stop = rows or (0, linear.weight.shape[0])
    bias = torch.zeros(stop - start) if linear.bias is None else linear.bias[start:stop]
    return linear.weight[start:stop], bias


@torch.inference_mode()
def layer_contributions(trace: Trace, layer: int, probs: np.ndarray | None = None) -> LayerContributions:
    """Layer `layer`'s contributions, checked against what the model's own modules compute from the same input:
    attn.out = the output dense of the heads' context, attn.norm = the LayerNorm of x + attn.out (pre-norm: the
    block's output x + attn.out). `probs`: the layer's attention (H, T, T) if it is already at hand."""
    block = attention_block(trace, layer)
    x = torch.from_numpy(trace.hidden_states[layer])  # (T, d)
    probs = torch.from_numpy(trace.attention(layer) if probs is None else probs)  # (H, T, T)
    source = x if block.pre_norm is None else block.pre_norm(x)  # (T, d)
    H = probs.shape[0]
    v = head_values(source, block.w_v, block.b_v, H, block.w_o.shape[1] // H)  # (H, T, d_h)
    attn_out = block.output(merge_heads(probs @ v))  # (T, d): the model's own output dense
    ln = block.post_norm
    if ln is None:
        return decompose(x, probs, block.w_v, block.b_v, block.w_o, block.b_o, None, None, None, attn_out,
                         x + attn_out, values_from=source)
    return decompose(x, probs, block.w_v, block.b_v, block.w_o, block.b_o, ln.weight, ln.bias, ln.eps, attn_out,
                     ln(x + attn_out))


@dataclass(frozen=True, eq=False)
class Mixing:
    tokens: list[str]
    ratios: dict[str, list[float] | None]  # choice of m -> one ratio per layer; None where it does not exist
    max_abs_diff: float  # the worst of both checks over all layers

    def to_json(self) -> dict:
        return {"tokens": self.tokens, "mixing": self.ratios, "max_abs_diff": self.max_abs_diff}


def mixing_ratios(trace: Trace) -> Mixing:
    """Every layer's mixing ratio for each choice of m, computing one layer at a time."""
    return collect_mixing(trace.tokens, [layer_contributions(trace, layer).summary()
                                         for layer in range(trace.num_layers)])


def collect_mixing(tokens: list[str], summaries: list[tuple[dict[str, float | None], float]]) -> Mixing:
    """Each layer's ratios side by side; a choice that no layer has (pre-norm: norm_residual_ln) is None."""
    ratios = {name: [mixing[name] for mixing, _ in summaries] for name in MIXING}
    ratios = {name: None if all(v is None for v in values) else values for name, values in ratios.items()}
    return Mixing(tokens, ratios, max((worst for _, worst in summaries), default=0.0))
