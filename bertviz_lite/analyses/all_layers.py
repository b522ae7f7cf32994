"""Head fingerprints, rollout and mixing ratios in one pass over the layers: each layer's attention is
computed once and serves all three (computing it three times would cost about a third of a forward pass more
at 512 tokens). The app caches the result, so the Heads, Rollout and Contributions pages of one sentence share
it; the definitions live in each analysis's own module.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..stepthrough.trace import Trace
from .contributions import Mixing, collect_mixing, layer_contributions
from .head_fingerprints import HeadFingerprints, head_statistics, stack_layers, token_kinds
from .rollout import rollout_of


@dataclass(frozen=True, eq=False)
class LayerwiseAnalyses:
    fingerprints: HeadFingerprints  # each statistic (L, H)
    rollout: np.ndarray  # (L, T, T): R after each layer
    mixing: Mixing  # each choice of m: L ratios

    @property
    def nbytes(self) -> int:
        return self.rollout.nbytes + sum(s.nbytes for s in self.fingerprints.stats.values())


def all_layers(trace: Trace) -> LayerwiseAnalyses:
    """Every layer once: its attention, then its head statistics, its rollout factor and its contributions;
    only one layer's attention (H × T × T) is held at a time."""
    is_sep, is_punct = token_kinds(trace)
    stats, means, contributions = [], [], []
    for layer in range(trace.num_layers):
        probs = trace.attention(layer)  # (H, T, T)
        stats.append(head_statistics(probs, is_sep, is_punct))
        means.append(probs.mean(axis=0))  # (T, T)
        contributions.append(layer_contributions(trace, layer, probs).summary())
    return LayerwiseAnalyses(stack_layers(trace.tokens, stats), rollout_of(np.stack(means)),
                             collect_mixing(trace.tokens, contributions))
