"""How a sentence-transformers model turns token vectors into one sentence vector, read from its own files.

A sentence-transformers checkpoint is a pipeline written down in `modules.json`: the Transformer (our encoder,
reading at most `max_seq_length` tokens from `sentence_bert_config.json`), then Pooling (`1_Pooling/config.json`:
which of cls / max / mean / mean_sqrt_len_tokens / weightedmean / lasttoken, concatenated in that order), then
optionally Normalize (unit length). `pool` recomputes that pipeline for one unpadded sentence, following
sentence-transformers' `Pooling.forward`; the tests check it against `SentenceTransformer.encode`. It is
written out here rather than imported because importing sentence-transformers costs the app about 4 s.

>>> pooling = SentencePooling(modes=("mean",), normalize=True, max_tokens=256)
>>> pool(np.array([[1.0, 0.0], [3.0, 0.0]]), pooling)
array([1., 0.])
"""
from __future__ import annotations

import numpy as np

from ..loading.sentence_config import MODE_WORDS, SentencePooling, read_sentence_pooling

__all__ = ["MODE_WORDS", "SentencePooling", "pool", "read_sentence_pooling"]


def pool(tokens: np.ndarray, pooling: SentencePooling) -> np.ndarray:
    """One sentence's vector from its last hidden states `tokens` (T, d), every token real (no padding)."""
    T = tokens.shape[0]
    parts = []
    for mode in pooling.modes:
        if mode == "cls":
            parts.append(tokens[0])
        elif mode == "max":
            parts.append(tokens.max(axis=0))
        elif mode == "mean":
            parts.append(tokens.sum(axis=0) / T)
        elif mode == "mean_sqrt_len_tokens":
            parts.append(tokens.sum(axis=0) / np.sqrt(T))
        elif mode == "weightedmean":
            weights = np.arange(1, T + 1, dtype=tokens.dtype)[:, None]  # (T, 1): 1, 2, ..., T
            parts.append((tokens * weights).sum(axis=0) / weights.sum())
        elif mode == "lasttoken":
            parts.append(tokens[-1])
    vector = np.concatenate(parts)  # (d * len(modes),)
    if pooling.normalize:
        vector = vector / max(float(np.linalg.norm(vector)), 1e-12)  # torch.nn.functional.normalize's eps
    return vector
