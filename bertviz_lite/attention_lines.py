"""The head view's lines: one per attention weight α^h_ij, from query i to key j, for the chosen heads, as a short
list that a page can send at any length. A leaf (numpy only): the analyses choose the lines from a trace, the
figures draw them, and neither needs the other.

A weight below `MIN_WEIGHT` is not drawn (its line would be all but transparent). Above `FULL_LENGTH` tokens only
the strongest `MOST_PER_QUERY` lines of each query and head are kept, so that a 512-token view stays small; how
many were left out is counted, and the page says so. Both thresholds are our choice (BertViz draws every weight).

>>> probs = np.array([[[0.9, 0.1], [0.02, 0.98]]])   # one head, two tokens
>>> lines = attention_lines(probs, heads=[0])
>>> lines.query.tolist(), lines.key.tolist(), lines.left_out
([0, 0, 1], [0, 1, 1], 0)
>>> lines.weight
array([0.9 , 0.1 , 0.98], dtype=float32)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MIN_WEIGHT = 0.05  # lines fainter than this are not drawn
FULL_LENGTH = 64  # up to this many tokens, every line of at least MIN_WEIGHT
MOST_PER_QUERY = 6  # beyond it, the strongest lines of each query and head


@dataclass(frozen=True)
class Lines:
    """Parallel arrays, one entry per line drawn."""
    head: np.ndarray  # (n,) int
    query: np.ndarray  # (n,) int: the token (or word) the line starts from
    key: np.ndarray  # (n,) int: the token it reads
    weight: np.ndarray  # (n,) float32: α^head_query,key
    left_out: int  # lines of at least MIN_WEIGHT not drawn because only the strongest per query were kept
    most_per_query: int | None  # the cap that was applied, or None


def attention_lines(probs: np.ndarray, heads: list[int], queries: np.ndarray | None = None,
                    keys: np.ndarray | None = None, min_weight: float = MIN_WEIGHT) -> Lines:
    """The lines of `heads` from probs (h, T, T); `queries` and `keys`, boolean (T,), keep the lines that start and
    end where they are True (a token's own lines, a pair filter)."""
    n = probs.shape[-1]
    queries = np.ones(n, bool) if queries is None else queries
    keys = np.ones(n, bool) if keys is None else keys
    chosen = probs[heads] * queries[None, :, None] * keys[None, None, :]  # (H', T, T), zero where filtered out
    strong = chosen >= min_weight
    cap = MOST_PER_QUERY if n > FULL_LENGTH else None
    kept = strong
    if cap is not None:
        strongest = np.argpartition(-chosen, cap - 1, axis=-1)[..., :cap]  # (H', T, cap): each row's strongest
        top = np.zeros_like(strong)
        np.put_along_axis(top, strongest, True, axis=-1)
        kept = strong & top
    h, i, j = np.nonzero(kept)
    return Lines(head=np.asarray(heads)[h], query=i, key=j, weight=chosen[h, i, j].astype(np.float32),
                 left_out=int(strong.sum() - kept.sum()), most_per_query=cap)
