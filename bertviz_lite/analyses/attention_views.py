"""BertViz's two views as numbers a page can send at any length: the head view's lines, chosen here from a trace's
attention (a pair filter, a token's own lines, words or pieces) and drawn by `attention_lines.py`'s rule (which
weights make a line), and the model view's thumbnails.

For a sentence pair, `PAIR_FILTERS` keep the lines between the two sentences one way: A is [CLS], sentence A and
its [SEP]; B is sentence B and the last [SEP] (BertViz's split).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from ..attention_lines import Lines, attention_lines
from ..stepthrough.trace import Trace
from .word_level import merge_to_words, word_groups

PAIR_FILTERS = {"All": None, "A→A": ("A", "A"), "A→B": ("A", "B"), "B→A": ("B", "A"), "B→B": ("B", "B")}


def sentence_of(sequence_ids: list[int | None]) -> np.ndarray:
    """'A' or 'B' for each token, by BertViz's split: B starts at the second sentence's first token."""
    second = [i for i, s in enumerate(sequence_ids) if s == 1]
    start = second[0] if second else len(sequence_ids)
    return np.array(["A" if i < start else "B" for i in range(len(sequence_ids))])


def pair_masks(sentences: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(queries, keys) kept by the filter `name` of PAIR_FILTERS, for tokens of `sentences` ('A'/'B' each)."""
    ends = PAIR_FILTERS[name]
    if ends is None:
        everything = np.ones(len(sentences), bool)
        return everything, everything
    return sentences == ends[0], sentences == ends[1]


def pooled_shares(probs: np.ndarray, side: int) -> np.ndarray:
    """(..., T, T) attention -> (..., n, n) with n ≤ side, for a thumbnail: queries in blocks of ⌈T / side⌉,
    a block's row the mean of its queries' rows, a key block's share the sum over its keys (as `merge_to_words`
    does for words), so that every row still sums to 1 and the scale stays 0–1 (`pooled`, in float32).

    >>> pooled_shares(np.array([[0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 1.0]]), side=2)
    array([[0.75, 0.25],
           [0.  , 1.  ]], dtype=float32)
    """
    return pooled(torch.from_numpy(np.asarray(probs, np.float32)), side).numpy()


def pooled(probs: torch.Tensor, side) -> torch.Tensor:
    """`pooled_shares` in torch, the token count read as a tensor so that a graph traced from it (the live site's
    `views`, export/analysis_graphs.py) takes any length; `side` a number or a tensor. Each block's sums as one
    (T, n) indicator matrix on either side of the attention: a row of ones times a row is its sum."""
    tokens = probs.shape[-1]
    length = torch.ones_like(probs.reshape(-1, tokens)[0]).sum()  # T, as a tensor
    step = torch.ceil(length / torch.as_tensor(side, dtype=length.dtype))
    blocks = torch.ceil(length / step)
    block_of = torch.floor(torch.arange(tokens, dtype=probs.dtype) / step)  # (T,)
    member = (block_of[:, None] == torch.arange(blocks.long(), dtype=probs.dtype)[None, :]).to(probs.dtype)  # (T, n)
    return (member.T @ probs @ member) / member.sum(dim=0)[:, None]  # (..., n, n): key blocks summed, queries averaged


@dataclass(frozen=True)
class HeadView:
    """What the head view draws: its lines, the labels of its tokens (or words), and for a focused token its
    weights under every head shown, as numbers."""
    lines: Lines
    labels: list[str]
    focus_weights: np.ndarray | None  # (H', n): the focused query's row, or the focused key's column


def units(trace: Trace, words: bool = False) -> list[str]:
    """The labels the views use: the tokens, or the words (see `word_groups`)."""
    return word_groups(trace)[1] if words else trace.tokens


def head_view_of(trace: Trace, layer: int, heads: list[int], pair_filter: str = "All", words: bool = False,
                 focus: tuple[str, int] | None = None) -> HeadView:
    """Layer `layer`'s head view: `heads`' lines, kept by the pair filter, only the focused token's where one is
    (("q", i): query i's lines; ("k", j): key j's), for tokens or for words."""
    probs, sentences = trace.attention(layer), sentence_of(trace.sequence_ids)  # (h, T, T), (T,)
    labels = trace.tokens
    if words:
        groups, labels = word_groups(trace)
        probs = np.stack([merge_to_words(p, groups) for p in probs])  # (h, W, W)
        sentences = sentences[[g[0] for g in groups]]
    queries, keys = pair_masks(sentences, pair_filter)
    weights = None
    if focus is not None:
        side, i = focus
        alone = np.arange(len(labels)) == i
        queries, keys = (queries & alone, keys) if side == "q" else (queries, keys & alone)
        weights = probs[heads, i, :] if side == "q" else probs[heads, :, i]  # (H', n)
    return HeadView(attention_lines(probs, heads, queries, keys), labels, weights)


THUMBNAIL_CELLS = 120_000  # all thumbnails together: bert-large's 384 at 14 × 14 is about 0.5 MB


def thumbnail_side(tokens: int, layers: int, heads: int) -> int:
    """How many cells a side each of the model view's layers × heads thumbnails has: the tokens, or fewer where
    all of them together would pass THUMBNAIL_CELLS, and at least 4."""
    return max(4, min(tokens, most_thumbnail_side(layers, heads)))


def most_thumbnail_side(layers: int, heads: int) -> int:
    """The longest side that keeps all the thumbnails within THUMBNAIL_CELLS."""
    return int((THUMBNAIL_CELLS / (layers * heads)) ** 0.5 * 5 / 6)


MODEL_VIEW_TITLE = "Every layer (rows) × head (columns)"
POOLED_NOTE = "<br>each {side}×{side}: attention summed over blocks of keys, averaged over blocks of queries"


def model_view_title(tokens: int, side: int) -> str:
    return MODEL_VIEW_TITLE + (POOLED_NOTE.format(side=side) if tokens > side else "")


def thumbnails(trace: Trace, side: int) -> np.ndarray:
    """(L, h, n, n): every layer's and head's attention pooled to at most `side` a side (`pooled_shares`)."""
    return np.stack([pooled_shares(trace.attention(layer), side) for layer in range(trace.num_layers)])


def lines_table(lines: Lines, labels: list[str]) -> pd.DataFrame:
    """The head view's lines as a table (its CSV download): each line's head, query, key, their tokens, weight."""
    return pd.DataFrame({"head": lines.head, "query": lines.query, "query token": [labels[i] for i in lines.query],
                         "key": lines.key, "key token": [labels[j] for j in lines.key], "weight": lines.weight})


def thumbnails_table(shares: np.ndarray) -> pd.DataFrame:
    """The model view's thumbnails (L, H, n, n) in long form (its CSV download). A page's download makes it when
    clicked, outside any page run: from the run's key and the cache, with nothing of the page (which has let go of
    its model)."""
    layers, heads, n, _ = shares.shape
    index = pd.MultiIndex.from_product([range(layers), range(heads), range(n), range(n)],
                                       names=["layer", "head", "query block", "key block"])
    return pd.DataFrame({"share": shares.ravel()}, index=index).reset_index()
