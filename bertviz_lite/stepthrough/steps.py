"""The step-through: each sub-step computed from the previous one with the model's own modules, as the
reference notebooks do by hand, and the result checked against what the model itself produced.

The functions take the parts the family found and tensors with a batch of one; they return every intermediate,
batch dimension dropped, under the keys of `names.py`. A layer's computation is its family's own
(`families/`); the pieces all layers share are in `ops.py`.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import torch

from ..families.records import EmbeddingParts, LayerInput, LayerShape, PoolerParts
from .names import STEPS_BY_BLOCK, StepInfo, step_name


@torch.inference_mode()
def embedding_steps(parts: EmbeddingParts, input_ids: torch.Tensor, token_type_ids: torch.Tensor,
                    position_ids: torch.Tensor) -> dict[str, torch.Tensor]:
    """word (+ token type) (+ position) -> LayerNorm (-> projection); inputs are (1, T) ids. A family with
    nothing to add to the word vectors (ModernBERT, DeBERTa-v3) goes straight to the LayerNorm."""
    out = {"word": parts.word(input_ids)[0]}  # (T, e)
    if parts.position is not None:
        out["position"] = parts.position(position_ids)[0]  # (T, e)
    total = out["word"]
    if parts.token_type is not None:
        out["token_type"] = parts.token_type(token_type_ids)[0]  # (T, e)
        total = total + out["token_type"]
    if "position" in out:
        total = total + out["position"]  # added in the order transformers adds them
    if len(out) > 1:
        out["sum"] = total  # (T, e)
    if parts.project is not None and parts.project_first:
        total = out["project"] = parts.project(total)  # (T, d)
    out["norm"] = parts.norm(total)  # (T, e) or (T, d)
    if parts.project is not None and not parts.project_first:
        out["project"] = parts.project(out["norm"])  # (T, d)
    return out


def embedding_step_infos(arrays: Mapping[str, object]) -> tuple[StepInfo, ...]:
    """The embedding steps a model has, the sum explained with exactly what it adds up."""
    added = [name for key, name in (("word", "word"), ("token_type", "token type"), ("position", "position"))
             if key in arrays]
    infos = [StepInfo(s.key, s.title, s.shape, " + ".join(added)) if s.key == "sum" else s
             for s in STEPS_BY_BLOCK["embed"] if s.key in arrays]
    keys = list(arrays)  # in the order they were computed: the projection may come before the LayerNorm
    return tuple(sorted(infos, key=lambda s: keys.index(s.key)))


@torch.inference_mode()
def layer_steps(shape: LayerShape, layer: LayerInput) -> dict[str, torch.Tensor]:
    """One encoder layer, sub-step by sub-step, as its family computes it; batch dimension dropped."""
    return {key: t[0] for key, t in shape.run(layer).items()}


@torch.inference_mode()
def attention_probs(shape: LayerShape, layer: LayerInput) -> torch.Tensor:
    """Only one layer's attention probabilities (h, T, T): what the analyses need, at a fraction of the cost
    of the whole step-through."""
    return shape.attention(layer)[0]


@torch.inference_mode()
def pooler_steps(parts: PoolerParts, last_hidden: torch.Tensor) -> dict[str, torch.Tensor]:
    """dense + tanh on the first token. last_hidden: (1, T, d)."""
    dense = parts.dense(last_hidden[:, 0])  # (1, d)
    return {"dense": dense[0], "out": parts.activation(dense)[0]}  # (d,) each


def _array(value: torch.Tensor | np.ndarray) -> np.ndarray:
    return value.numpy() if isinstance(value, torch.Tensor) else value


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
                 reference: np.ndarray | None, infos: tuple[StepInfo, ...] | None = None):
        self.block, self.layer = block, layer
        self.infos = STEPS_BY_BLOCK[block] if infos is None else infos  # the sub-steps, in order
        order = [s.key for s in self.infos if s.key in arrays]
        assert len(order) == len(arrays), f"sub-steps without a description: {set(arrays) - set(order)}"
        self._arrays = {k: _array(arrays[k]) for k in order}
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
        return next(s for s in self.infos if s.key == key)

    def position(self, key: str) -> int:
        """1 for the first sub-step."""
        return list(self._arrays).index(key) + 1

    def __repr__(self) -> str:
        shapes = " → ".join(f"{k} {tuple(a.shape)}" for k, a in self._arrays.items())
        check = "" if self.max_abs_diff is None else f"; max |Δ| vs the model = {self.max_abs_diff:.2e}"
        where = f"{self.block}.{self.layer}" if self.layer is not None else self.block
        return f"Steps({where}: {shapes}{check})"
