"""Word level: a token-by-token matrix merged into a word-by-word one, as Clark et al. (2019) do for attention.
Attention *to* a word is the sum over its pieces (columns add), attention *from* a word the mean over its pieces
(rows average), so rows still sum to 1. The same merge serves rollout and norm-based contributions.

>>> merge_to_words(np.array([[0.5, 0.25, 0.25], [0.2, 0.4, 0.4], [0.0, 0.5, 0.5]]), [[0], [1, 2]])
array([[0.5, 0.5],
       [0.1, 0.9]])
"""
from __future__ import annotations

import numpy as np

from ..stepthrough.trace import Trace

PIECE_MARKERS = ("##", "Ġ", "▁")


def word_groups(trace: Trace) -> tuple[list[list[int]], list[str]]:
    """Token positions of each word, in order, and each word as its pieces spell it; every special token is a
    word of its own. Words are told apart by (sentence, word index), so a pair's two sentences never merge."""
    groups, labels, last = [], [], None
    for i, (sentence, word, token) in enumerate(zip(trace.sequence_ids, trace.word_ids, trace.tokens)):
        key = None if word is None else (sentence, word)
        if key is not None and key == last:
            groups[-1].append(i)
            labels[-1] += _strip(token)
        else:
            groups.append([i])
            labels.append(token if key is None else _strip(token))
        last = key
    return groups, labels


def _strip(token: str) -> str:
    for marker in PIECE_MARKERS:
        token = token.removeprefix(marker)
    return token


def merge_to_words(matrix: np.ndarray, groups: list[list[int]]) -> np.ndarray:
    """(T, T) -> (W, W): columns summed over each word's pieces, then rows averaged over them."""
    to_words = np.stack([matrix[:, g].sum(axis=1) for g in groups], axis=1)  # (T, W)
    return np.stack([to_words[g].mean(axis=0) for g in groups])  # (W, W)
