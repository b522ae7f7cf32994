"""The head view's lines: one per attention weight α^h_ij, from query i to key j, for the chosen heads, as a short
list that a page can send at any length. A leaf (numpy and torch): the analyses choose the lines from a trace, the
figures draw them, and neither needs the other. The rules are torch code (`kept_lines`, `opacity_tenths`,
`line_segments`), which a live site's browser runs as the `views` graph (export/analysis_graphs.py), so that a typed
sentence's head view is drawn by the app's own rules.

A weight below `MIN_WEIGHT` is not drawn (its line would be all but transparent). Above `FULL_LENGTH` tokens only
the strongest `MOST_PER_QUERY` lines of each query and head are kept, so that a 512-token view stays small; how
many were left out is counted, and the page says so (equal weights at the cut: the earlier key first). Both
thresholds are our choice (BertViz draws every weight).

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
import torch

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
    chosen = np.ascontiguousarray(chosen, np.float32)  # the numbers the lines are drawn from
    kept = kept_lines(torch.from_numpy(chosen), min_weight).numpy()
    h, i, j = np.nonzero(kept)
    return Lines(head=np.asarray(heads)[h], query=i, key=j, weight=chosen[h, i, j],
                 left_out=int((chosen >= min_weight).sum() - kept.sum()),
                 most_per_query=MOST_PER_QUERY if n > FULL_LENGTH else None)


def kept_lines(weights: torch.Tensor, min_weight: float = MIN_WEIGHT) -> torch.Tensor:
    """Which weights (..., T, T) make a line: at least `min_weight`, and past FULL_LENGTH tokens among their row's
    MOST_PER_QUERY strongest, the earlier key first among equals. Written without the token count as a Python
    number, so that a graph traced from it takes any length."""
    strong = weights >= min_weight
    most = MOST_PER_QUERY
    filler = torch.full_like(weights[..., :1], -1.0)  # (..., T, 1)
    padded = torch.cat([weights, *[filler] * most], dim=-1)  # a row shorter than `most` still has `most`
    least = padded.topk(most, dim=-1).values[..., -1:]  # (..., T, 1): the weakest of the row's strongest
    above, tied = weights > least, weights == least
    quota = most - above.sum(dim=-1, keepdim=True)  # room left for weights equal to it, the earlier first
    top = above | (tied & (tied.long().cumsum(dim=-1) <= quota))
    length = torch.ones_like(weights[..., :1, :]).sum(dim=-1, keepdim=True)  # (..., 1, 1): T, as a tensor
    return strong & (top | (length <= FULL_LENGTH))


def opacity_tenths(weights: torch.Tensor) -> torch.Tensor:
    """A line's opacity in tenths, its weight rounded (in float32): 0.05 -> 1, 1.0 -> 10."""
    return torch.clamp(torch.floor(weights.float() * 10 + 0.5), 1, 10)


def line_segments(tenths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The head view's lines as Plotly draws them: tenths (H, T, T), each line's opacity tenth (0: no line) ->
    (x, y, points): for each head and tenth, strongest first, its lines from query to key in order, each as three
    points (the query's side, the key's, a break: x 0, 1, NaN; y the query, the key, NaN), and how many points each
    (head, tenth) has, (H, 10): a trace each, whose points follow one another in x and y. Sorted on the lines alone
    (a key unique to each), not on a (H, 10, T, T) mask: 512 tokens' lines cost what they hold."""
    where = torch.nonzero(tenths)  # (n, 3): head, query, key, in that order
    tenth = tenths[where[:, 0], where[:, 1], where[:, 2]].long()  # (n,)
    group = where[:, 0] * 10 + (10 - tenth)  # each line's (head, tenth), the strongest tenth first
    rank = group * where.shape[0] + torch.arange(where.shape[0])  # unique: within a group, the lines' order
    where = where[torch.argsort(rank)].float()
    points = torch.zeros(tenths.shape[0] * 10, dtype=torch.long).scatter_add(0, group, torch.full_like(group, 3))
    gap = torch.full_like(where[:, :1], float("nan"))
    y = torch.cat([where[:, 1:3], gap], dim=1).reshape(-1)  # (3n,)
    x = torch.cat([torch.zeros_like(gap), torch.ones_like(gap), gap], dim=1).reshape(-1)
    return x, y, points.reshape(-1, 10)
