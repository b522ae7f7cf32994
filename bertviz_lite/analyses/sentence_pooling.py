"""How a sentence-transformers model turns token vectors into one sentence vector, read from its own files: the one
implementation every view uses.

A sentence-transformers checkpoint is a pipeline written down in `modules.json`: the Transformer (our encoder,
reading at most `max_seq_length` tokens from `sentence_bert_config.json`), then Pooling (`1_Pooling/config.json`:
which of cls / max / mean / mean_sqrt_len_tokens / weightedmean / lasttoken, concatenated in that order), then
optionally Normalize (unit length). Every mode is a sum over tokens (`token_parts`: a linear mode weighs each
token as `sentence_config.POOLING_MODES` says; max takes each dimension from the token that holds its largest
value), so one function gives the sentence vector (`pool`, following sentence-transformers' `Pooling.forward` on
one unpadded sentence or a batch of them, differentiable), its exact split into token pairs
(`similarity_split.py`) and the attributions' target (`attributing/targets.py`). The tests check `pool` against
`SentenceTransformer.encode` and its `Pooling` module on every mode. It is written out here rather than imported
because importing sentence-transformers costs the app about 4 s.

>>> pooling = SentencePooling(modes=("mean",), normalize=True, max_tokens=256)
>>> pool(np.array([[1.0, 0.0], [3.0, 0.0]]), pooling)
array([1., 0.])
"""
from __future__ import annotations

import numpy as np
import torch

from ..loading.sentence_config import POOLING_MODES, SentencePooling, read_sentence_pooling

__all__ = ["MEAN_OF_TOKENS", "POOLING_MODES", "SentencePooling", "cosine", "pool", "pooling_of", "read_positions",
           "read_weights", "read_sentence_pooling", "token_parts"]

MEAN_OF_TOKENS = SentencePooling(("mean",), False, None)  # what a plain model's pages pool with


def pooling_of(loaded) -> SentencePooling:
    """The checkpoint's own pipeline, or the mean of the token vectors for a plain model."""
    return loaded.sentence_pooling or MEAN_OF_TOKENS


def token_parts(tokens: torch.Tensor, modes: tuple[str, ...]) -> torch.Tensor:
    """(..., T, d) -> (M, ..., T, d): each mode's vector as a sum over tokens, part i being token i's (zero where a
    mode does not read the token). Σ over the T axis is that mode's pooled vector, before Normalize."""
    T = tokens.shape[-2]
    parts = []
    for mode in modes:
        weights = POOLING_MODES[mode].weights
        if weights is None:  # max: each dimension from the token that holds its largest value
            won = tokens.argmax(dim=-2, keepdim=True)  # (..., 1, d)
            positions = torch.arange(T)[:, None]  # (T, 1)
            parts.append(torch.where(positions == won, tokens, torch.zeros((), dtype=tokens.dtype)))
        else:
            parts.append(weights(T, tokens.dtype)[:, None] * tokens)  # (..., T, d)
    return torch.stack(parts)


def pool(tokens: np.ndarray | torch.Tensor, pooling: SentencePooling) -> np.ndarray | torch.Tensor:
    """Sentence vectors from last hidden states `tokens` (..., T, d), every token real (no padding): (..., D), the
    modes concatenated, then Normalize where the pipeline has it. A numpy array in gives one out; a tensor keeps
    its gradient."""
    if isinstance(tokens, np.ndarray):
        return pool(torch.from_numpy(tokens), pooling).numpy()
    vector = torch.cat(list(token_parts(tokens, pooling.modes).sum(dim=-2)), dim=-1)  # (..., M·d)
    if pooling.normalize:
        vector = torch.nn.functional.normalize(vector, dim=-1, eps=1e-12)
    return vector


def read_weights(modes: tuple[str, ...], T: int) -> np.ndarray:
    """(T,) how much the pooled vector reads each token, summing to 1: the modes' weights, each scaled to sum to 1,
    averaged (max reads every token alike). For mean pooling, 1/T each; for [CLS] pooling, the first token alone."""
    rows = [np.full(T, 1.0 / T) if (weights := POOLING_MODES[m].weights) is None else weights(T, torch.float64).numpy()
            for m in modes]
    return np.mean([row / row.sum() for row in rows], axis=0)


def read_positions(modes: tuple[str, ...], T: int) -> torch.Tensor:
    """(R,) the positions the pooled vector reads, in order (read_weights > 0), as a graph can compute them for any
    T (export/analysis_graphs.py): every token but where each mode is [CLS] or last-token pooling."""
    read = torch.zeros(T, dtype=torch.bool)
    for mode in modes:
        weights = POOLING_MODES[mode].weights
        read = read | (torch.ones(T, dtype=torch.bool) if weights is None else weights(T, torch.float32) != 0)
    return read.nonzero()[:, 0]


def cosine(u: np.ndarray, v: np.ndarray) -> float:
    """The cosine of two vectors, with torch.nn.functional.cosine_similarity's guard against a zero vector."""
    return float(u @ v / max(float(np.linalg.norm(u) * np.linalg.norm(v)), 1e-12))
