"""Sentence vectors and their cosine similarities: the reference notebooks' `cosine_similarity`, done the way
each model is meant to be used.

- A sentence-transformers model (its checkpoint has modules.json and a pooling config) gets exactly its own
  pipeline (`sentence_pooling.pool`), reading at most its max_seq_length tokens: what
  `SentenceTransformer.encode` returns. It was trained so that cosine means similarity.
- A plain BERT-family model gets the two vectors the notebooks use: the pooled [CLS] output (dense + tanh,
  trained for next-sentence prediction) and the mean of the last layer's token vectors. Neither was trained for
  similarity, and both put almost any two sentences close together.

>>> vectors = sentence_vectors(load_model("sentence-transformers/all-MiniLM-L6-v2"),
...                            ["the cat sat on the mat", "a cat was sitting on a rug"])  # doctest: +SKIP
>>> vectors[0].cosine().round(2)                                                         # doctest: +SKIP
array([[1.  , 0.74],
       [0.74, 1.  ]], dtype=float32)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..errors import InputError
from ..loading.loader import LoadedModel
from ..loading.sentence_config import SentencePooling
from .sentence_pooling import pool
from ..stepthrough.trace import Trace, trace

MAX_SENTENCES = 8  # a matrix a projector can still show with its numbers
# How each way makes a sentence's vector from its trace, by name (a live site's browser makes the same): the
# checkpoint's own pooling of the last layer's token vectors, their plain mean, or the pooler's output
POOLED, MEAN, POOLER = "sentence-transformers vectors", "mean token vectors", "pooled [CLS] outputs"
WAY_FROM = {POOLED: "pooling", MEAN: "mean", POOLER: "pooler"}


@dataclass(frozen=True, eq=False)
class SentenceVectors:
    """One way of making sentence vectors, applied to every sentence."""

    name: str  # short, for a title: "sentence-transformers vectors", "mean token vectors", "pooled [CLS] outputs"
    vectors: np.ndarray  # (n, d) float32, one row per sentence
    trained_for_similarity: bool
    how: str  # how a sentence's vector is made, in words

    def cosine(self) -> np.ndarray:
        """(n, n) cosine similarity of every pair of sentences."""
        vectors = torch.from_numpy(self.vectors)
        return cosine_matrix(vectors, vectors).numpy().astype(np.float32)


def cosine_matrix(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """(n, D), (m, D) -> (n, m): each pair's cosine, each vector scaled to length 1 first (a zero vector stays
    zero). A live site's browser computes a typed sentence's cosines with it too (export/analysis_graphs.py)."""
    return torch.nn.functional.normalize(a, dim=-1, eps=1e-12) @ torch.nn.functional.normalize(b, dim=-1, eps=1e-12).T


def way_vector(way: str, last: torch.Tensor, pooler: torch.Tensor | None, pooling: SentencePooling) -> torch.Tensor:
    """A sentence's vector the way `way` (a value of WAY_FROM) makes it: from its last layer's token vectors (T, d)
    by the checkpoint's pooling or their mean, or its pooler output (d,)."""
    if way == "pooling":
        return pool(last, pooling)
    return last.mean(dim=0) if way == "mean" else pooler


def sentence_vectors(loaded: LoadedModel, sentences: list[str]) -> list[SentenceVectors]:
    """The sentence vectors this model is meant to give (see the module docstring), each sentence run alone."""
    sentences = [s for s in sentences if s and s.strip()]
    if not sentences:
        raise InputError("Type at least one sentence, one per line.")
    if len(sentences) > MAX_SENTENCES:
        raise InputError(f"Compare at most {MAX_SENTENCES} sentences at a time ({len(sentences)} given).")
    pooling = loaded.sentence_pooling
    return vectors_of(loaded, [trace(loaded, s, max_tokens=pooling and pooling.max_tokens) for s in sentences])


def vectors_of(loaded: LoadedModel, traces: list[Trace]) -> list[SentenceVectors]:
    """The sentence vectors of traces already made (each read as many tokens as the model's pipeline reads)."""
    pooling = loaded.sentence_pooling

    def stacked(name: str) -> np.ndarray:  # (n, D): each sentence's vector made that way
        return np.stack([way_vector(WAY_FROM[name], torch.from_numpy(t.hidden_states[-1]),
                                    None if t.pooler_output is None else torch.from_numpy(t.pooler_output),
                                    pooling).numpy() for t in traces]).astype(np.float32)

    if pooling is not None:
        return [SentenceVectors(POOLED, stacked(POOLED), True,
                                f"{pooling.describe()}, as sentence-transformers computes it")]
    result = [SentenceVectors(MEAN, stacked(MEAN), False, "the mean of the last layer's token vectors")]
    if all(t.pooler_output is not None for t in traces):
        result.append(SentenceVectors(POOLER, stacked(POOLER), False,
                                      "the pooler's dense + tanh on the last layer's [CLS] vector"))
    return result


def vectors_of_trace(t: Trace) -> list[SentenceVectors] | None:
    """A trace's own sentence vectors, with no second forward pass; None for a sentence pair, or where the model's
    pipeline reads fewer tokens than the trace did (then `sentence_vectors` runs the sentence again)."""
    pooling = t.loaded.sentence_pooling
    limit = pooling.max_tokens if pooling is not None else None
    if t.pair is not None or (limit is not None and len(t.tokens) + t.dropped_tokens > limit):
        return None
    return vectors_of(t.loaded, [t])
