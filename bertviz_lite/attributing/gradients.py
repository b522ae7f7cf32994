"""Gradient × input and integrated gradients (Sundararajan et al. 2017, "Axiomatic Attribution for Deep Networks")
with respect to the word embeddings, through Captum, which implements both; it is imported here, when an
attribution is asked for, so that the app's first page and `--help` do not pay for it.

Per token, the attribution is summed over the embedding dimensions (signed), with its L2 norm beside it. The
integrated gradients' baseline is the same sequence with every non-special token replaced by the pad token (or the
mask token): its embedding differs from the input's only where a word was, so a special token's attribution is 0.
Completeness: the attributions add up to f(x) − f(baseline), up to the integral's approximation (Captum's
Gauss-Legendre rule with `steps` points); the gap is reported beside them.

Where a model's pad embedding is zero and is normalised before anything is added to it (DeBERTa-v3, EuroBERT:
no absolute positions), every point of the path but the baseline itself is the whole sentence scaled, which the
norm undoes: the target jumps at the baseline, and no number of steps makes integrated gradients complete. That is
measured (`jumps_at_baseline`), and then the mask token is the baseline, and the result says why.

>>> result = attribute(similarity_target(loaded, "the cat sat", "a kitten sat"), "ig")   # doctest: +SKIP
>>> abs(result.completeness_gap) <= 0.01 * abs(result.f_x - result.f_baseline)          # doctest: +SKIP
True
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..errors import InputError
from .targets import Target

METHODS = {"ig": "integrated gradients", "grad-input": "gradient × input"}
BASELINES = ("pad", "mask")
JUMP = 0.2  # a target that moves this share of f(x) − f(baseline) in the path's first hundredth jumps there


@dataclass(frozen=True, eq=False)
class Attribution:
    method: str  # "ig" or "grad-input"
    target: str  # what is explained, in words
    tokens: list[str]
    scores: np.ndarray  # (T,) float64: each token's attribution, summed over the embedding dimensions
    norms: np.ndarray  # (T,) the L2 norm of each token's attribution vector
    f_x: float
    f_baseline: float
    steps: int | None  # integrated gradients' points (None for gradient × input)
    baseline: str  # "pad" or "mask"
    note: str = ""  # why the baseline is not the one asked for, if it is not
    notice: str | None = None  # what the reader must be told about the input (tokens dropped), or None

    @property
    def total(self) -> float:
        return float(self.scores.sum())

    @property
    def completeness_gap(self) -> float:
        """Σ attributions − (f(x) − f(baseline)): 0 for exact integrated gradients."""
        return self.total - (self.f_x - self.f_baseline)

    def to_json(self) -> dict:
        return {"method": self.method, "target": self.target, "tokens": self.tokens, "scores": self.scores.tolist(),
                "norms": self.norms.tolist(), "f_x": self.f_x, "f_baseline": self.f_baseline, "sum": self.total,
                "completeness_gap": self.completeness_gap, "steps": self.steps, "baseline": self.baseline,
                "note": self.note}


def baseline_ids(target: Target, baseline: str = "pad") -> torch.Tensor:
    """(T,) the input ids with every non-special token replaced by the pad (or mask) token."""
    if baseline not in BASELINES:
        raise InputError(f"The baseline is 'pad' or 'mask', not {baseline!r}.")
    tokenizer = target.trace.loaded.tokenizer
    replacement = tokenizer.pad_token_id if baseline == "pad" else tokenizer.mask_token_id
    if replacement is None:
        raise InputError(f"{target.trace.loaded.source}'s tokenizer has no {baseline} token; pick the other baseline.")
    ids = torch.from_numpy(target.trace.input_ids.copy())
    ids[torch.from_numpy(~target.special)] = replacement
    return ids


def attribute(target: Target, method: str = "ig", steps: int = 32, baseline: str = "pad") -> Attribution:
    """One method's attributions of `target` to the tokens (see the module docstring)."""
    from captum.attr import InputXGradient, IntegratedGradients  # here: importing Captum takes a while

    if method not in METHODS:
        raise InputError(f"The method is one of {', '.join(METHODS)}, not {method!r}.")
    if not 1 <= steps <= 512:
        raise InputError(f"Integrated gradients takes 1 to 512 steps, not {steps}.")
    ids = torch.from_numpy(target.trace.input_ids)[None]  # (1, T)
    with torch.no_grad():
        x, x0 = target.embed(ids), target.embed(baseline_ids(target, baseline)[None])  # (1, T, d) each
    f_x, f_baseline = _values(target, x, x0)
    note = ""
    if method == "ig" and baseline == "pad" and jumps_at_baseline(target, x, x0, f_x, f_baseline):
        baseline, note = "mask", ("From the pad baseline the target jumps at once (the pad embedding is zero and is "
                                  "normalised before anything is added to it), so integrated gradients could not be "
                                  "complete: the mask token is the baseline here.")
        with torch.no_grad():
            x0 = target.embed(baseline_ids(target, baseline)[None])
        f_x, f_baseline = _values(target, x, x0)
    if method == "ig":
        attributions = IntegratedGradients(target.forward).attribute(x, baselines=x0, n_steps=steps,
                                                                     internal_batch_size=steps)
    else:
        attributions = InputXGradient(target.forward).attribute(x.clone().requires_grad_(True))
    vectors = attributions[0].detach().double()  # (T, d)
    return Attribution(method, target.describe, target.tokens, vectors.sum(-1).numpy(),
                       vectors.norm(dim=-1).numpy(), f_x, f_baseline, steps if method == "ig" else None, baseline,
                       note, target.trace.notice)


@torch.inference_mode()
def _values(target: Target, x: torch.Tensor, x0: torch.Tensor) -> tuple[float, float]:
    """(f(x), f(x0)) in one batch."""
    f_x, f_0 = target.forward(torch.cat([x, x0])).tolist()
    return f_x, f_0


@torch.inference_mode()
def jumps_at_baseline(target: Target, x: torch.Tensor, x0: torch.Tensor, f_x: float, f_0: float) -> bool:
    """Whether the target moves more than JUMP of f(x) − f(x0) within the path's first hundredth (a norm's ε keeps
    the very first steps small: RMSNorm(αx) reaches the sentence's own direction by α ≈ √ε / rms(x))."""
    first = float(target.forward(x0 + 1e-2 * (x - x0))[0])
    return abs(first - f_0) > JUMP * max(abs(f_x - f_0), 1e-12)
