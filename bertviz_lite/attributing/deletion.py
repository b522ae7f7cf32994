"""Which attribution to trust for this sentence: every method's ranking of the tokens tested the way the literature
tests it, by deletion. The tokens a method ranks highest are replaced by the baseline token one by one (special
tokens stay), the target recomputed after each: the faster the target falls, the more faithful the ranking. The
area over the perturbation curve (AOPC; Samek et al. 2017, "Evaluating the visualization of what a deep neural
network has learned") sums that fall: (1 / (K + 1)) Σ_{k=0..K} (f(x) − f(x with its top k replaced)), K the
number of non-special tokens. A random order (seeded) is the floor. Beyond MAX_STEPS words the curve replaces
them in equal steps of ⌈K / MAX_STEPS⌉ (as ERASER's bins do), and the mean is over those points: each method then
costs at most MAX_STEPS + 1 forward passes, however long the sentence (our choice; Samek et al. replace one region
at a time).

The methods, each a score per token of the sentence explained:
- integrated gradients and gradient × input (`gradients`);
- raw attention: the last layer's, mean over heads, in the row that the target reads (the rows weighted as the
  pooling weighs the tokens, `sentence_pooling.read_weights`: their mean for a mean-pooled sentence vector, the
  first token's row for [CLS] pooling; the masked position's row for a masked-LM logit);
- attention rollout (Abnar & Zuidema 2020) in that row;
- the norm-based contributions (Kobayashi et al. 2021: ‖g_i(c_ij + δ_ij x_i)‖, or ‖c_ij + δ_ij x_i‖ where no
  LayerNorm follows the attention) rolled out the same way: each layer's matrix with its rows normalised to sum to
  1, multiplied layer by layer (no identity added: the residual is inside the matrix), read in that row — our
  choice, as the paper gives one layer;
- value zeroing rolled out (Mohebbi et al. 2023, `intervening.value_zeroing`), in that row;
- for the similarity target, the exact pair split (`analyses.similarity_split`) summed over sentence B, per token
  of sentence A.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..analyses.contributions import layer_contributions
from ..analyses.rollout import attention_rollout
from ..analyses.sentence_pooling import pooling_of, read_weights
from ..analyses.similarity_split import split_traces
from ..intervening.value_zeroing import value_zeroing, value_zeroing_rollout
from .gradients import attribute, baseline_ids
from .targets import Target

BATCH = 16  # variants of the sentence per forward pass
MAX_STEPS = 16  # points of a deletion curve after f(x): beyond, several words go at each step
RANDOM_SEED = 0


@dataclass(frozen=True, eq=False)
class Faithfulness:
    target: str
    f_x: float
    curves: dict[str, np.ndarray]  # method -> (K + 1,) target values, [0] = f(x), [-1] = every token replaced
    orders: dict[str, list[int]]  # method -> the positions in the order they were replaced

    @property
    def counts(self) -> list[int]:
        """How many words each point of every curve has replaced (`replaced_counts`)."""
        return replaced_counts(len(next(iter(self.orders.values()))))

    @property
    def aopc(self) -> dict[str, float]:
        return {method: aopc(curve) for method, curve in self.curves.items()}

    def most_faithful(self) -> tuple[str, float]:
        """(the method with the largest AOPC, by how much it beats the next best method, random aside)."""
        ranked = sorted(((v, m) for m, v in self.aopc.items() if m != "random"), reverse=True)
        return ranked[0][1], ranked[0][0] - (ranked[1][0] if len(ranked) > 1 else self.aopc["random"])

    def to_json(self) -> dict:
        return {"deletion": {m: c.tolist() for m, c in self.curves.items()}, "aopc": self.aopc,
                "orders": self.orders}


def aopc(curve: np.ndarray) -> float:
    """(1 / (K + 1)) Σ_k (f(x) − f(x_k)): the mean fall of the target over the curve.

    >>> aopc(np.array([1.0, 0.5, 0.0]))
    0.5
    """
    return float(np.mean(curve[0] - curve))


def deletion_curve(target: Target, scores: np.ndarray, baseline: str = "pad") -> tuple[np.ndarray, list[int]]:
    """The target after replacing 0, s, 2s, …, K of the non-special tokens, highest score first (s = 1 up to
    MAX_STEPS words), and the order. Ties keep the sentence's order."""
    words = np.flatnonzero(~target.special)
    order = [int(i) for i in words[np.argsort(-scores[words], kind="stable")]]
    ids, base = torch.from_numpy(target.trace.input_ids), baseline_ids(target, baseline)
    counts = replaced_counts(len(order))
    variants = ids[None].repeat(len(counts), 1)  # (points, T)
    for row, count in enumerate(counts):
        variants[row, order[:count]] = base[order[:count]]
    values = torch.cat([target.of_ids(variants[start:start + BATCH]) for start in range(0, len(variants), BATCH)])
    return values.double().numpy(), order


def replaced_counts(words: int) -> list[int]:
    """How many words each point of a curve has replaced: 0, 1, …, K, or 0, s, 2s, …, K beyond MAX_STEPS words.

    >>> replaced_counts(3), replaced_counts(40)[:4], replaced_counts(40)[-1]
    ([0, 1, 2, 3], [0, 3, 6, 9], 40)
    """
    step = -(-words // MAX_STEPS)
    return sorted({*range(0, words, step), words})


def reading_row(target: Target) -> np.ndarray:
    """(T,) weights over a token-by-token matrix's rows: the row(s) the target reads (see the module docstring)."""
    T = len(target.tokens)
    if target.name == "mlm":
        return np.eye(T)[target.position]
    return read_weights(pooling_of(target.trace.loaded).modes, T)


def _normalised_rows(matrix: np.ndarray) -> np.ndarray:
    return matrix / np.maximum(matrix.sum(axis=-1, keepdims=True), 1e-12)


def method_scores(target: Target, steps: int = 32, baseline: str = "pad", other=None,
                  with_value_zeroing: bool = True) -> dict[str, np.ndarray]:
    """Every method's score per token of the sentence explained (see the module docstring); `other` is sentence B's
    trace for the similarity target's exact split (default: the target's own)."""
    t, row = target.trace, reading_row(target)
    other = target.other if other is None else other
    scores = {"integrated gradients": attribute(target, "ig", steps, baseline).scores,
              "gradient × input": attribute(target, "grad-input", steps, baseline).scores,
              "raw attention": row @ t.attention(t.num_layers - 1).mean(axis=0),
              "attention rollout": row @ attention_rollout(t)[-1].astype(np.float64)}
    contributions = []
    for layer in range(t.num_layers):
        c = layer_contributions(t, layer)
        contributions.append(_normalised_rows(c.norm_residual_ln if c.norm_residual_ln is not None
                                              else c.norm_residual))
    scores["contributions rolled out"] = row @ value_zeroing_rollout(np.stack(contributions))[-1]
    if with_value_zeroing:
        maps = np.stack([value_zeroing(t, layer) for layer in range(t.num_layers)])
        scores["value zeroing rolled out"] = row @ value_zeroing_rollout(maps)[-1]
    if target.name == "similarity" and other is not None:
        split = split_traces(t, other)
        exact = np.zeros(len(t.tokens))
        exact[split.positions_a] = split.pairs.sum(axis=1)
        scores["exact pair split"] = exact
    scores["random"] = np.random.default_rng(RANDOM_SEED).random(len(t.tokens))
    return scores


def faithfulness(target: Target, scores: dict[str, np.ndarray], baseline: str = "pad") -> Faithfulness:
    """Each method's deletion curve on `target`."""
    curves, orders = {}, {}
    for method, s in scores.items():
        curves[method], orders[method] = deletion_curve(target, np.asarray(s, dtype=np.float64), baseline)
    return Faithfulness(target.describe, float(curves[next(iter(curves))][0]), curves, orders)
