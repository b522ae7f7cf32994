"""An operation's account of one cell (`Worked`), and how its formulas write numbers."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

MASKED_BELOW = float(torch.finfo(torch.float32).min) / 2  # a score this low was masked: softmax gives it 0


@dataclass
class Worked:
    """An operation's account of one cell."""

    formula: str
    inputs: dict
    recomputed: float
    terms: list[tuple[str, float]] = field(default_factory=list)
    labels: dict = field(default_factory=dict)
    figure: dict = field(default_factory=dict)


def num(value: float) -> str:
    """A number as a formula shows it: 4 decimals, or 4 significant digits when large; the mask's most negative
    float as −∞."""
    if value <= MASKED_BELOW:
        return "−∞"
    return f"{value:.4f}" if abs(value) < 1e4 else f"{value:.4g}"


def plus(value: float) -> str:
    """'+ 0.0532' or '− 0.0532': a term added in a formula."""
    return f"− {num(-value)}" if value < 0 else f"+ {num(value)}"


def as_f64(array) -> np.ndarray:
    """float64 numbers from an array or a model's tensor (the parameters need no gradient here)."""
    return np.asarray(array.detach() if isinstance(array, torch.Tensor) else array, dtype=np.float64)
