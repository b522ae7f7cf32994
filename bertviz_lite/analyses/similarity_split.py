"""Why two sentences are similar: their cosine split exactly into token pairs.

A sentence vector is made from the last layer's token vectors by pooling, and every pooling mode is a sum over
tokens: the mean is Σ_i h_i / n, [CLS] is h_0 alone, max takes each dimension from the token that holds its largest
value. Write each mode's vector as u_m = Σ_i a_mi (a_mi: token i's part, a (d,) row) and u as the concatenation of
the modes; then

    cos(u, v) = ⟨u, v⟩ / (‖u‖ ‖v‖) = Σ_i Σ_j  Σ_m ⟨a_mi, b_mj⟩ / (‖u‖ ‖v‖)

so cell (i, j) is one exact number and the cells add up to the cosine. For mean pooling that is
⟨h_i, g_j⟩ / (n · m · ‖u‖ · ‖v‖). Normalizing does not change a cosine, so the split is the same with or without it.

Max pooling is split the same way and is exact too, but it says something else: a cell is the dot product over
the dimensions that token i won in u and token j won in v, so a token that wins no dimension gets nothing however
close it is to the other sentence (and changing one token can change which dimensions every token wins). The page
says so. A plain model's pooled [CLS] output is one token's vector through dense + tanh, with nothing to split:
for a plain model the split is of the mean of its token vectors.

>>> split = split_vectors(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0, 0.0]]), ("mean",), False)
>>> split.pairs.round(4).tolist(), round(split.cosine, 4)
([[0.7071], [0.0]], 0.7071)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..errors import InputError
from ..loading.loader import LoadedModel
from ..loading.sentence_config import SentencePooling
from .sentence_pooling import pooling_of, read_positions, token_parts
from ..stepthrough.trace import Trace, trace
from .word_level import word_groups



# The split's caption, as templates a live site's browser fills the same way (export/similarity.py)
CAPTION = "**The {cells} cells add up to {total}; the cosine{how} is {cosine}.** Strongest pairs: {strongest}."
STRONG_PAIR = "'{a}' ↔ '{b}' gives {value}"
STRONGEST = 3  # the pairs the caption names
NOT_POOLED = (" of the mean token vectors (this model has no pooling of its own; its pooled [CLS] output is one "
              "token's vector, with nothing to split)")


@dataclass(frozen=True, eq=False)
class SimilaritySplit:
    """A cosine and its exact split into token pairs."""

    cosine: float  # of the two sentence vectors
    pooling: tuple[str, ...]  # the modes, in the order they are concatenated
    normalized: bool  # the pipeline ends in Normalize (the cosine is the same either way)
    tokens_a: list[str]  # the tokens the pooling reads, in order (specials where the pooling reads them)
    tokens_b: list[str]
    pairs: np.ndarray  # (len(tokens_a), len(tokens_b)) float64: the cells add up to `cosine`
    positions_a: list[int]  # each row's position in sentence A's trace
    positions_b: list[int]

    @property
    def by_selection(self) -> bool:
        """Max pooling's cells are the dimensions each pair won, not a weighting of the pair (module docstring)."""
        return "max" in self.pooling

    @property
    def total(self) -> float:
        """Σ of the cells: the cosine, to rounding."""
        return float(self.pairs.sum())

    def caption(self, pooled: bool) -> str:
        """The check and the strongest pairs in words (markdown); `pooled`: the model pools its own sentence vector
        (else the split is of the mean token vectors)."""
        strongest = "; ".join(STRONG_PAIR.format(a=x, b=y, value=f"{value:+.3f}") for x, y, value in self.strongest())
        return CAPTION.format(cells=self.pairs.size, total=f"{self.total:.4f}", how="" if pooled else NOT_POOLED,
                              cosine=f"{self.cosine:.4f}", strongest=strongest)

    def strongest(self, most: int = STRONGEST) -> list[tuple[str, str, float]]:
        """The cells largest in size, (token of A, token of B, value), largest first."""
        flat = by_size(torch.from_numpy(self.pairs)).numpy()[:most]
        rows, cols = np.unravel_index(flat, self.pairs.shape)
        return [(self.tokens_a[i], self.tokens_b[j], float(self.pairs[i, j])) for i, j in zip(rows, cols)]

    def to_json(self) -> dict:
        return {"cosine": self.cosine, "pooling": list(self.pooling), "normalized": self.normalized,
                "tokens_a": self.tokens_a, "tokens_b": self.tokens_b, "pairs": self.pairs.tolist()}


def explain_similarity(loaded: LoadedModel, text_a: str, text_b: str, words: bool = False) -> SimilaritySplit:
    """Trace both sentences as the model's pipeline reads them and split their cosine (see the module docstring);
    `words`: added up over each word's pieces."""
    pooling = loaded.sentence_pooling
    limit = pooling.max_tokens if pooling is not None else None
    a, b = trace(loaded, text_a, max_tokens=limit), trace(loaded, text_b, max_tokens=limit)
    split = split_traces(a, b)
    return word_level_split(split, a, b) if words else split


def split_traces(a: Trace, b: Trace) -> SimilaritySplit:
    """The split for two traces of single sentences, pooled as the checkpoint pools (a plain model: the mean of the
    token vectors, the vector the Similarity page shows first)."""
    if a.pair is not None or b.pair is not None:
        raise InputError("The similarity split compares two single sentences; leave the second sentence empty.")
    pooling = pooling_of(a.loaded)
    for t in (a, b):
        if not reads_as_the_pipeline(t, pooling):
            raise InputError(f"The checkpoint's pipeline reads at most {pooling.max_tokens} tokens, not "
                             f"{len(t.tokens)}: trace the sentence with max_tokens={pooling.max_tokens} "
                             f"(explain_similarity does).")
    split = split_vectors(a.hidden_states[-1], b.hidden_states[-1], pooling.modes, pooling.normalize)
    return _named(split, a.tokens, b.tokens)


def reads_as_the_pipeline(t: Trace, pooling: SentencePooling) -> bool:
    """Whether the trace holds the tokens the checkpoint's pipeline reads: the text's, up to its max_seq_length
    (none: the model's own limit)."""
    limit = min(pooling.max_tokens or t.loaded.max_tokens, t.loaded.max_tokens)
    return len(t.tokens) == min(len(t.tokens) + t.dropped_tokens, limit)


def split_vectors(a: np.ndarray, b: np.ndarray, modes: tuple[str, ...], normalize: bool) -> SimilaritySplit:
    """The split of two sentences' last-layer token vectors a (n, d) and b (m, d); tokens unnamed."""
    a64, b64 = (torch.from_numpy(h.astype(np.float64)) for h in (a, b))
    pairs, cosine = split_tensors(a64, b64, modes)
    rows, cols = (read_positions(modes, len(h)).tolist() for h in (a, b))  # the positions pooling reads
    return SimilaritySplit(float(cosine), modes, normalize, [], [], pairs.numpy()[np.ix_(rows, cols)], rows, cols)


def split_tensors(a: torch.Tensor, b: torch.Tensor, modes: tuple[str, ...]) -> tuple[torch.Tensor, torch.Tensor]:
    """Token vectors a (n, d) and b (m, d) -> every token pair's cell (n, m) and the cosine (): the module
    docstring's split, in torch so that a live site's browser runs it as a graph (export/analysis_graphs.py)."""
    parts_a, parts_b = token_parts(a, modes), token_parts(b, modes)  # (M, n, d), (M, m, d)
    u, v = parts_a.sum(dim=1).reshape(-1), parts_b.sum(dim=1).reshape(-1)  # the concatenated sentence vectors
    scale = u.norm().clamp_min(1e-12) * v.norm().clamp_min(1e-12)
    return torch.einsum("mid,mjd->ij", parts_a, parts_b) / scale, u @ v / scale


def by_size(cells: torch.Tensor) -> torch.Tensor:
    """The cells' flat indices, largest in size first (the strongest pairs): a top-k of them all, which a graph exports
    for any number of cells (a sort does not)."""
    sizes = cells.abs().reshape(-1)
    return sizes.topk(sizes.shape[0]).indices


def _named(split: SimilaritySplit, tokens_a: list[str], tokens_b: list[str]) -> SimilaritySplit:
    return SimilaritySplit(split.cosine, split.pooling, split.normalized, [tokens_a[i] for i in split.positions_a],
                           [tokens_b[j] for j in split.positions_b], split.pairs, split.positions_a,
                           split.positions_b)


def word_level_split(split: SimilaritySplit, a: Trace, b: Trace) -> SimilaritySplit:
    """The cells added up over each word's pieces (rows and columns): a words-by-words split that still adds up to
    the cosine, named by the words (a special token stays a word of its own; a position is the word's first)."""
    rows, row_words = _groups(a, split.positions_a)
    cols, col_words = _groups(b, split.positions_b)
    by_row = np.stack([split.pairs[g].sum(axis=0) for g in rows])  # (W_a, m)
    pairs = np.stack([by_row[:, g].sum(axis=1) for g in cols], axis=1)  # (W_a, W_b)
    return SimilaritySplit(split.cosine, split.pooling, split.normalized, row_words, col_words, pairs,
                           [split.positions_a[g[0]] for g in rows], [split.positions_b[g[0]] for g in cols])


def _groups(t: Trace, positions: list[int]) -> tuple[list[list[int]], list[str]]:
    """word_groups of the trace, kept to the positions the split has, as indices into its rows."""
    where = {p: k for k, p in enumerate(positions)}
    groups, words = [], []
    for group, word in zip(*word_groups(t)):
        kept = [where[p] for p in group if p in where]
        if kept:
            groups.append(kept)
            words.append(word)
    return groups, words
