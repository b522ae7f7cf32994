"""Attention rollout (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers"): how much of each
input token has reached each position after l layers, if attention alone moved information.

For layer l with head attentions α^h: Ã_l = the rows of (0.5 · mean_h α^h + 0.5 · I), normalised to sum to 1
(the identity stands for the residual connection). Then R = Ã_{L−1} ··· Ã_1 Ã_0, and after layer l,
R_l = Ã_l ··· Ã_0. Row i of R_l is token i's input mixture: how much of it comes from each input token j.

>>> rollout_of(np.array([[[1.0, 0.0], [1.0, 0.0]]]))[0]   # one layer: token 1 attends only to token 0
array([[1. , 0. ],
       [0.5, 0.5]], dtype=float32)
"""
from __future__ import annotations

import numpy as np
import torch

from ..stepthrough.trace import Trace


def residual_attention(mean_attention: torch.Tensor) -> torch.Tensor:
    """Ã = rows of (0.5 · A + 0.5 · I) normalised to sum to 1. mean_attention: (T, T), the mean over heads."""
    identity = torch.eye(mean_attention.shape[-1], dtype=mean_attention.dtype)
    mixed = 0.5 * mean_attention + 0.5 * identity
    return mixed / mixed.sum(dim=-1, keepdim=True)


def rollout_steps(mean_attentions: torch.Tensor) -> torch.Tensor:
    """R after each layer, (L, T, T) float32, from each layer's head-averaged attention (L, T, T): the products in
    float64. In torch, so that a live site's browser runs this very function (export/analysis_graphs.py)."""
    product = torch.eye(mean_attentions.shape[-1], dtype=torch.float64)  # (T, T): R before layer 0
    rollouts = []
    for attention in mean_attentions:
        product = residual_attention(attention.to(torch.float64)) @ product  # Ã_l · (Ã_{l−1} ··· Ã_0)
        rollouts.append(product.to(torch.float32))
    return torch.stack(rollouts)


def rollout_of(mean_attentions: np.ndarray) -> np.ndarray:
    """`rollout_steps` on arrays: (L, T, T) -> (L, T, T)."""
    return rollout_steps(torch.from_numpy(mean_attentions)).numpy()


def attention_rollout(trace: Trace) -> np.ndarray:
    """(L, T, T) float32: [l] is the rollout after layer l, so [-1] is R over the whole stack (the products
    are taken in float64, so that rows still sum to 1 after many layers)."""
    return rollout_of(np.stack([trace.attention(i).mean(axis=0) for i in range(trace.num_layers)]))
