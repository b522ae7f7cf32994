"""What operations read besides their inputs, shared by their computations and their recipes' words
(`working.py`): which keys a query may see (the mask), and a norm's ε whatever its module calls it. `tokens` is
a `record.Tokens` (not imported: record reads this module through `working`)."""
from __future__ import annotations

import torch


def visible(node, tokens) -> torch.Tensor:
    """(T, T) booleans: query i may see key j (a real token, within the window of a local layer)."""
    allowed = tokens.attention_mask.bool()[None, :].expand(tokens.length, -1)
    window = node.attr("window")
    if window is not None:
        positions = torch.arange(tokens.length)
        allowed = allowed & ((positions[:, None] - positions[None, :]).abs() <= window)
    return allowed


def mask_bias(node, tokens, dtype: torch.dtype) -> torch.Tensor:
    """(T, T): 0 where the query may see the key, the most negative float where it may not."""
    return torch.where(visible(node, tokens), 0.0, torch.finfo(dtype).min).to(dtype)


def norm_eps(module) -> float:
    """A norm's ε, whatever the module calls it (torch's RMSNorm: eps; the Llama-style ones: variance_epsilon)."""
    eps = getattr(module, "eps", None)
    if eps is None:  # torch's nn.RMSNorm with eps=None uses the dtype's machine epsilon
        eps = getattr(module, "variance_epsilon", None) or torch.finfo(module.weight.dtype).eps
    return float(eps)
