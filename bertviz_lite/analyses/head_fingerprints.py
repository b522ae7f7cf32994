"""Head fingerprints: what each attention head of each layer looks at, as Clark et al. (2019) measure it in
"What Does BERT Look At? An Analysis of BERT's Attention".

For layer l and head h with attention probabilities α (T×T, rows are queries i), each statistic is a mean over
query positions i:

- entropy: −Σ_j α_ij ln α_ij, in nats (0 · ln 0 = 0);
- cls: α_i,0, the attention to the first token ([CLS] or <s>);
- sep: Σ_j α_ij over the separator tokens j (the tokenizer's `sep_token`);
- punct: Σ_j α_ij over the punctuation tokens j (see `is_punctuation`);
- self: α_ii;
- prev: α_i,i−1, over i ≥ 1;
- next: α_i,i+1, over i ≤ T−2.

Our choice, where the paper gives none: a head is named "striking" (`striking_heads`) when one of cls, sep,
punct, self, prev or next takes at least half of its attention on average.

>>> is_punctuation("##."), is_punctuation("Ġ,"), is_punctuation("▁"), is_punctuation("a.")
(True, True, False, False)
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import numpy as np
import torch

from ..stepthrough.trace import Trace

STATS = ("entropy", "cls", "sep", "punct", "self", "prev", "next")
STAT_WORDS = {"entropy": "spreads its attention (entropy, nats)", "cls": "attends to the first token",
              "sep": "attends to the separator", "punct": "attends to punctuation", "self": "attends to itself",
              "prev": "attends to the previous token", "next": "attends to the next token"}
PIECE_MARKERS = ("##", "Ġ", "▁")  # WordPiece continuation, byte-level BPE space, SentencePiece space
STRIKING = 0.5  # at least half of a head's attention, on average, on one kind of token


def is_punctuation(token: str) -> bool:
    """With its piece marker removed, non-empty and every character in a Unicode P* category."""
    for marker in PIECE_MARKERS:
        token = token.removeprefix(marker)
    return bool(token) and all(unicodedata.category(c).startswith("P") for c in token)


@dataclass(frozen=True, eq=False)
class HeadFingerprints:
    tokens: list[str]
    stats: dict[str, np.ndarray]  # statistic -> (L, H)

    def to_json(self) -> dict:
        return {"tokens": self.tokens, "stats": {k: v.tolist() for k, v in self.stats.items()}}


def head_statistics(probs: np.ndarray, is_sep: np.ndarray, is_punct: np.ndarray) -> dict[str, np.ndarray]:
    """Every statistic for each head of one layer. probs: (H, T, T); is_sep, is_punct: (T,) booleans."""
    stats = statistics(torch.from_numpy(probs), torch.from_numpy(is_sep), torch.from_numpy(is_punct))
    return dict(zip(STATS, stats.numpy()))


def statistics(probs: torch.Tensor, is_sep: torch.Tensor, is_punct: torch.Tensor) -> torch.Tensor:
    """(7, H): each statistic of STATS, in order, for each head; probs (H, T, T), is_sep and is_punct
    (T,) booleans. In torch, so that a live site's browser runs this very function (export/analysis_graphs.py).
    With one token, prev and next are means over no query: nan."""
    mean_over_queries = lambda per_query: per_query.mean(dim=-1)  # noqa: E731  (H, T') -> (H,)
    return torch.stack([
        mean_over_queries(torch.where(probs > 0, -probs * torch.log(probs), 0.0).sum(dim=-1)),  # −Σ p ln p; 0 · ln 0 = 0
        mean_over_queries(probs[:, :, 0]),
        mean_over_queries((probs * is_sep.to(probs.dtype)).sum(dim=-1)),
        mean_over_queries((probs * is_punct.to(probs.dtype)).sum(dim=-1)),
        mean_over_queries(torch.diagonal(probs, offset=0, dim1=1, dim2=2)),
        mean_over_queries(torch.diagonal(probs, offset=-1, dim1=1, dim2=2)),  # α_i,i−1: the first sub-diagonal
        mean_over_queries(torch.diagonal(probs, offset=1, dim1=1, dim2=2)),
    ])


def token_kinds(trace: Trace) -> tuple[np.ndarray, np.ndarray]:
    """(T,) booleans: which tokens are the tokenizer's separator, which are punctuation."""
    sep = trace.loaded.tokenizer.sep_token
    return np.array([t == sep for t in trace.tokens]), np.array([is_punctuation(t) for t in trace.tokens])


def stack_layers(tokens: list[str], per_layer: list[dict[str, np.ndarray]]) -> HeadFingerprints:
    """Each layer's statistics (H,) stacked into (L, H) grids."""
    return HeadFingerprints(tokens, {s: np.stack([layer[s] for layer in per_layer]) for s in STATS})


def head_fingerprints(trace: Trace) -> HeadFingerprints:
    """The statistics of every head of every layer: each (L, H), one layer's attention at a time."""
    is_sep, is_punct = token_kinds(trace)
    return stack_layers(trace.tokens, [head_statistics(trace.attention(i), is_sep, is_punct)
                                       for i in range(trace.num_layers)])


def striking_heads(fingerprints: HeadFingerprints, most: int = 8) -> list[tuple[int, int, str, float]]:
    """(layer, head, statistic, value) of the heads with at least STRIKING of their attention on one kind of
    token, strongest first, at most `most`; each head once, under its strongest statistic (`strongest_first`)."""
    stats = torch.from_numpy(np.stack([fingerprints.stats[s] for s in STATS]).astype(np.float32))  # (7, L, H)
    order, stat, value = (t.tolist() for t in strongest_first(stats))
    heads = stats.shape[2]
    return [(index // heads, index % heads, STATS[s], v) for index, s, v in zip(order, stat, value)
            if v >= STRIKING][:most]


def strongest_first(stats: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Every head (flat: layer · H + head) in order of its strongest statistic but the entropy, largest first, equal
    values in the order of the heads; with that statistic (its index in STATS) and value. stats: (7, L, H). In
    torch, without a sort (the exporter writes none that keeps equal values in order): a head's place is how many
    heads come before it, so a live site's browser runs this very function (export/analysis_graphs.py). A statistic
    that is nan (prev and next of one token) is no head's strongest."""
    kinds = stats[1:].flatten(1)  # (6, N)
    kinds = torch.where(torch.isnan(kinds), torch.full_like(kinds, -1.0), kinds)
    value, stat = kinds.max(dim=0)  # (N,): the first of equal statistics
    n = value.shape[0]
    index = torch.arange(n)
    before = (value[None, :] > value[:, None]) | ((value[None, :] == value[:, None]) & (index[None, :] < index[:, None]))
    place = before.sum(dim=1)  # (N,): how many heads come before each
    order = torch.zeros_like(index).scatter(0, place, index)
    return order, stat[order] + 1, value[order]


def describe(layer: int, head: int, stat: str, value: float) -> str:
    """"layer 0, head 2 attends to the previous token: 0.99"."""
    return f"layer {layer}, head {head} {STAT_WORDS[stat]}: {value:.2f}"
