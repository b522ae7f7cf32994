"""What the analyses' pages ask before they show their figure (issue 57, `ask=1`), made from the numbers the figure
then shows, as the tour's chapters ask (ops/asking.py): which head of a layer does what the Heads page measures most
(Clark et al.'s fingerprint: the previous token, in the default lecture), which sentence is closest in meaning to
the first (the cosine of the model's own sentence vectors), and which token pair adds most to two sentences' cosine
(its exact split).
"""
from __future__ import annotations

import numpy as np

from ..ops.asking import Asking, Question, asked_over
from ..ops.recipe import call, var, when
from ..ops.telling import said
from .head_fingerprints import STAT_WORDS, HeadFingerprints

ASKS = {"head": "In layer {layer}, which head {does} most, on average over this sentence?",
        "head_choice": "head {k}",
        "head_decides": "In layer {layer}, head {right} {does} most: {value:.2f}.",
        "closest": "Which sentence is closest in meaning to sentence 1 (\u201c{first}\u201d)?",
        "highest": "Which sentence's vector has the highest cosine with sentence 1's (\u201c{first}\u201d)?",  # a model
        # not trained for similarity: its cosine does not measure meaning
        "closest_choice": "{n}: \u201c{text}\u201d",
        "closest_decides": "Sentence {n} is closest to sentence 1: cosine {value:.2f}.",
        "pair": "Which token pair adds most to the cosine of sentences {a} and {b}?",
        "pair_choice": "'{token_a}' ({i}) · '{token_b}' ({j})",
        "pair_decides": "'{token_a}' ({i}) · '{token_b}' ({j}) adds {value:.3f} of their cosine, {cosine:.3f}."}


def _head_asking() -> Asking:
    """Which head of `layer` has the largest `grid` number (L, H): the Heads page's statistic."""
    row = var.grid[var.layer]
    return Asking({"row": row}, said(ASKS["head"]), var.row, None, said(ASKS["head_choice"]), "{value:.2f}",
                  decides=said(ASKS["head_decides"], value=var.row[var.right]))


def _closest_asking() -> Asking:
    """Which other sentence has the largest cosine with the first (`cosines`, (n, n)); the first is no choice."""
    row = var.cosines[0]
    question = when(var.trained, said(ASKS["closest"], first=var.texts[0]), said(ASKS["highest"], first=var.texts[0]))
    return Asking({"row": row}, question, var.row,
                  call("range", call("len", var.row)) != 0,
                  said(ASKS["closest_choice"], n=var.k + 1, text=var.texts[var.k]), "{value:.2f}",
                  decides=said(ASKS["closest_decides"], n=var.right + 1, value=var.row[var.right]))


def _pair_asking() -> Asking:
    """Which cell of the split (T_a, T_b) adds most to the cosine: the token pairs, flattened."""
    width = call("len", var.tokens_b)
    named = {"token_a": var.tokens_a[var.k // width], "token_b": var.tokens_b[var.k % width],
             "i": var.k // width, "j": var.k % width}
    best = {"token_a": var.tokens_a[var.right // width], "token_b": var.tokens_b[var.right % width],
            "i": var.right // width, "j": var.right % width}
    return Asking({"cells": call("flat", var.pairs)}, said(ASKS["pair"]), var.cells, None,
                  said(ASKS["pair_choice"], **named), "{value:.3f}",
                  decides=said(ASKS["pair_decides"], **best, value=var.cells[var.right]))


HEAD_ASKING, CLOSEST_ASKING, PAIR_ASKING = _head_asking(), _closest_asking(), _pair_asking()


def head_question(fingerprints: HeadFingerprints, stat: str, layer: int) -> Question | None:
    """Which head of `layer` scores highest on `stat` (the Heads page's grid, its row for the layer)."""
    return asked_over(HEAD_ASKING, {"grid": np.asarray(fingerprints.stats[stat], np.float64), "layer": layer,
                                    "does": stat_does(stat)})


def stat_does(stat: str) -> str:
    """What a head does that `stat` measures, as the question says it: "attends to the previous token"."""
    return STAT_WORDS[stat].split(" (")[0]


def closest_question(cosines: np.ndarray, texts: list[str], trained: bool = True) -> Question | None:
    """Which sentence is closest to the first, by the cosine the Similarity page's matrix shows (in meaning, where
    the model was `trained` for similarity; else asked as the highest cosine)."""
    return asked_over(CLOSEST_ASKING, {"cosines": np.asarray(cosines, np.float64), "texts": list(texts),
                                       "trained": trained})


def pair_question(pairs: np.ndarray, tokens_a: list[str], tokens_b: list[str], a: int, b: int,
                  cosine: float) -> Question | None:
    """Which token pair adds most to the cosine of sentences `a` and `b` (numbered from 1), by their split."""
    return asked_over(PAIR_ASKING, {"pairs": np.asarray(pairs, np.float64), "tokens_a": list(tokens_a),
                                    "tokens_b": list(tokens_b), "a": a, "b": b, "cosine": float(cosine)})
