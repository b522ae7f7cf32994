"""What the model gives before and after an intervention, for the same sentence: the masked-LM head's top
predictions at a position (where the checkpoint holds a trained masked-LM head), and the sentence vector's cosine to
the original (where the checkpoint is a sentence-transformers model, pooled as it pools). Both read the last hidden
states of two traces, the model's own run and an intervened one (`bertviz_lite/intervening/`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..stepthrough.trace import Trace
from .logit_lens import mlm_head_problem
from .pieces import piece_names
from .sentence_pooling import cosine, pool
from .similarity_split import reads_as_the_pipeline

TOP = 5


@dataclass(frozen=True, eq=False)
class OutputChange:
    position: int | None  # where the masked-LM predictions are read (None: none were)
    before: list[tuple[str, float]]  # the TOP predictions and their probabilities, the model's own run
    after: list[tuple[str, float]]  # the same for the intervened run
    sentence_cosine: float | None  # cos(sentence vector before, after), for a sentence-transformers checkpoint
    # (None for a sentence pair, or a text longer than its pipeline reads)
    mlm_problem: str | None  # why there are no predictions, or None


def output_change(before: Trace, after: Trace) -> OutputChange:
    """The masked-LM predictions at the first token the intervention masked (else the text's own first mask token),
    and the sentence vectors' cosine."""
    pooling = before.loaded.sentence_pooling
    vector_cosine = None
    if pooling is not None and before.pair is None and reads_as_the_pipeline(before, pooling):
        vector_cosine = cosine(*(pool(t.hidden_states[-1].astype(np.float64), pooling) for t in (before, after)))
    problem = mlm_head_problem(before.loaded, "its predictions")
    masked = after.edits.masked if after.edits is not None else ()
    position = min(masked) if masked else next(iter(after.mask_positions), None)
    if problem is not None or position is None:
        return OutputChange(None, [], [], vector_cosine, problem)
    return OutputChange(position, _predictions(before, position), _predictions(after, position), vector_cosine, None)


@torch.inference_mode()
def _predictions(t: Trace, position: int) -> list[tuple[str, float]]:
    head = t.loaded.family.masked_lm_head(t.loaded.model)
    logits = head.apply(torch.from_numpy(t.hidden_states[-1, position])[None])[0]  # (V,): the last state is normed
    best = torch.softmax(logits, dim=-1).topk(TOP)
    return list(zip(piece_names(t.loaded.tokenizer, best.indices.tolist()), best.values.tolist()))
