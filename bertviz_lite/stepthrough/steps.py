"""The step-through: each sub-step computed from the previous one with the model's own modules, as the
reference notebooks do by hand, and the result checked against what the model itself produced.

The functions take the parts the family adapter found and tensors with a batch of one; they return every
intermediate, batch dimension dropped, under the keys of `names.py`.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import torch

from ..families import EmbeddingParts, LayerParts, PoolerParts
from .names import STEPS_BY_BLOCK, StepInfo, step_info, step_name


@torch.inference_mode()
def embedding_steps(parts: EmbeddingParts, input_ids: torch.Tensor, token_type_ids: torch.Tensor,
                    position_ids: torch.Tensor) -> dict[str, torch.Tensor]:
    """word + token type + position -> LayerNorm (-> projection); inputs are (1, T) ids."""
    out = {"word": parts.word(input_ids)[0]}  # (T, e)
    out["position"] = parts.position(position_ids)[0]  # (T, e)
    total = out["word"]
    if parts.token_type is not None:
        out["token_type"] = parts.token_type(token_type_ids)[0]  # (T, e)
        total = total + out["token_type"]
    out["sum"] = total + out["position"]  # (T, e), added in the order transformers adds them
    out["norm"] = parts.norm(out["sum"])  # (T, e)
    if parts.project is not None:
        out["project"] = parts.project(out["norm"])  # (T, d)
    return out


def split_heads(t: torch.Tensor, num_heads: int) -> torch.Tensor:
    """(1, T, d) -> (1, h, T, d_h): head h takes columns h·d_h to (h + 1)·d_h - 1."""
    _, T, d = t.shape
    return t.view(1, T, num_heads, d // num_heads).transpose(1, 2)


def attention_scores(parts: LayerParts, x: torch.Tensor, attention_mask: torch.Tensor,
                     num_heads: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """q, k (1, h, T, d_h) and the scaled, masked scores (1, h, T, T) of one layer; x: (1, T, d)."""
    q, k = split_heads(parts.query(x), num_heads), split_heads(parts.key(x), num_heads)
    mask_bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min  # (1, 1, 1, T)
    return q, k, torch.matmul(q, k.transpose(2, 3)) * q.shape[-1] ** -0.5 + mask_bias


@torch.inference_mode()
def attention_probs(parts: LayerParts, x: torch.Tensor, attention_mask: torch.Tensor,
                    num_heads: int) -> torch.Tensor:
    """Only one layer's attention probabilities (h, T, T): what the analyses need, at a fraction of the cost
    of the whole step-through."""
    return torch.softmax(attention_scores(parts, x, attention_mask, num_heads)[2], dim=-1)[0]


@torch.inference_mode()
def layer_steps(parts: LayerParts, x: torch.Tensor, attention_mask: torch.Tensor,
                num_heads: int) -> dict[str, torch.Tensor]:
    """One encoder layer, sub-step by sub-step. x: (1, T, d) layer input; attention_mask: (1, T) of 0/1."""
    _, T, d = x.shape
    q, k, scores = attention_scores(parts, x, attention_mask, num_heads)  # (1, h, T, d_h) x 2, (1, h, T, T)
    v = split_heads(parts.value(x), num_heads)  # (1, h, T, d_h)
    probs = torch.softmax(scores, dim=-1)  # (1, h, T, T), rows sum to 1
    context = torch.matmul(probs, v).transpose(1, 2).reshape(1, T, d)  # (1, h, T, d_h) -> (1, T, d)
    attn_out = parts.attn_out(context)  # (1, T, d)
    attn_residual = x + attn_out  # (1, T, d)
    attn_norm = parts.attn_norm(attn_residual)  # (1, T, d)
    ffn_act = parts.activation(parts.ffn_in(attn_norm))  # (1, T, d_ff)
    ffn_out = parts.ffn_out(ffn_act)  # (1, T, d)
    ffn_residual = attn_norm + ffn_out  # (1, T, d)
    output = parts.ffn_norm(ffn_residual)  # (1, T, d)
    steps = (x, q, k, v, scores, probs, context, attn_out, attn_residual, attn_norm, ffn_act, ffn_out,
             ffn_residual, output)
    return {info.key: t[0] for info, t in zip(STEPS_BY_BLOCK["layers"], steps)}


@torch.inference_mode()
def pooler_steps(parts: PoolerParts, last_hidden: torch.Tensor) -> dict[str, torch.Tensor]:
    """dense + tanh on the first token. last_hidden: (1, T, d)."""
    dense = parts.dense(last_hidden[:, 0])  # (1, d)
    return {"dense": dense[0], "out": parts.activation(dense)[0]}  # (d,) each


class Steps(Mapping):
    """The sub-steps of one block (the embeddings, one layer, or the pooler), in order, as float32 arrays.

    >>> steps = trace.layer(3)                        # doctest: +SKIP
    >>> steps["attn.probs"].shape                     # (heads, tokens, tokens)  # doctest: +SKIP
    (12, 11, 11)
    >>> steps.name("attn.probs"), steps.max_abs_diff  # doctest: +SKIP
    ('layers.3.attn.probs', 4.8e-07)

    `max_abs_diff` compares the last sub-step with `reference`, what the model itself produced for this block
    (hidden_states[i + 1] for layer i).
    """

    def __init__(self, block: str, layer: int | None, arrays: dict[str, torch.Tensor | np.ndarray],
                 reference: np.ndarray | None):
        self.block, self.layer = block, layer
        self._arrays = {k: v.numpy() if isinstance(v, torch.Tensor) else v for k, v in arrays.items()}
        self.reference = reference
        last = self._arrays[next(reversed(self._arrays))]
        self.max_abs_diff = None if reference is None else float(np.max(np.abs(last - reference)))

    def __getitem__(self, key: str) -> np.ndarray:
        return self._arrays[key]

    def __iter__(self):
        return iter(self._arrays)

    def __len__(self) -> int:
        return len(self._arrays)

    @property
    def output(self) -> np.ndarray:
        return self._arrays[next(reversed(self._arrays))]

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self._arrays.values())

    def name(self, key: str) -> str:
        return step_name(self.block, key, self.layer)

    def info(self, key: str) -> StepInfo:
        return step_info(self.block, key)

    def __repr__(self) -> str:
        shapes = " → ".join(f"{k} {tuple(a.shape)}" for k, a in self._arrays.items())
        check = "" if self.max_abs_diff is None else f"; max |Δ| vs the model = {self.max_abs_diff:.2e}"
        where = f"{self.block}.{self.layer}" if self.layer is not None else self.block
        return f"Steps({where}: {shapes}{check})"
