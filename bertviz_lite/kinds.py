"""How an operation's output is shown, as two small types: the kind of figure that explains one of its cells, and
what its output is as a series of token vectors (which fixes its colour). A leaf with no torch in it, so that the
step names (`graph/names.py`) and the figures' style (`figures/style.py`) read them without loading a model's
library; the ops (`ops/record.py`'s `Op`) carry them.
"""
from __future__ import annotations

from enum import Enum


class Figure(Enum):
    """The kind of figure that explains one cell of an operation's output (`figures/explanation.py` draws each)."""

    TERMS = "terms"  # a sum: its terms as a waterfall ending at the value
    SOFTMAX_ROW = "softmax row"  # the query's row of scores and of probabilities
    HISTOGRAMS = "histograms"  # a norm: the token's row before and after
    CURVE = "curve"  # an activation: the function's curve with the point on it
    ARROWS = "arrows"  # a rotation: a pair of dimensions before and after


class Series(Enum):
    """What a series of token vectors is, which fixes its colour on every chart (`figures/style.py`)."""

    INPUT = "what a block starts from"
    WORD = "the word table's rows"
    POSITION = "the position table's rows"
    TOKEN_TYPE = "the token type table's rows"
    SUM = "a sum: the residual stream after an add"
    NORMED = "after a norm"
    COMPUTED = "what a sub-block computed, before it is added back"
