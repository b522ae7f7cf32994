"""The pieces every encoder layer shares, written once: split into heads, the additive mask, softmax, the
context (probabilities × values, heads merged back). A residual add is `+` and a LayerNorm is the model's own
module, so they need nothing here.

Tensors keep a batch dimension of one, as the model's modules expect: (1, T, d) for token vectors and
(1, h, T, ·) per head.
"""
from __future__ import annotations

import torch


def split_heads(t: torch.Tensor, num_heads: int) -> torch.Tensor:
    """(1, T, d) -> (1, h, T, d_h): head h takes columns h·d_h to (h + 1)·d_h - 1."""
    _, T, d = t.shape
    return t.view(1, T, num_heads, d // num_heads).transpose(1, 2)


def merge_heads(t: torch.Tensor) -> torch.Tensor:
    """(1, h, T, d_h) -> (1, T, h·d_h): the heads side by side again, head 0 first."""
    _, h, T, d_h = t.shape
    return t.transpose(1, 2).reshape(1, T, h * d_h)


def mask_bias(attention_mask: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """(1, T) of 0/1 -> (1, 1, 1, T): 0 for a real key, the most negative float for padding."""
    return (1.0 - attention_mask[:, None, None, :].to(dtype)) * torch.finfo(dtype).min


def scaled_dot_products(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """Q Kᵀ / √d_h for every head: (1, h, T, d_h) x 2 -> (1, h, T, T), row = query, column = key."""
    return torch.matmul(q, k.transpose(2, 3)) * q.shape[-1] ** -0.5


def softmax_rows(scores: torch.Tensor) -> torch.Tensor:
    """Each query's row of scores -> probabilities that sum to 1."""
    return torch.softmax(scores, dim=-1)


def context(probs: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """probs (1, h, T, T) × values (1, h, T, d_h), the heads concatenated: (1, T, d)."""
    return merge_heads(torch.matmul(probs, v))
