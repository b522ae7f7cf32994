"""When two computations of one number agree: within `atol + rtol·|x|` of the reference x, as numpy's `allclose`.

Two float32 computations of the same value (another summation order, another kernel, another runtime) differ by a
few of float32's steps, and a float32 step grows with the value: it is 1.2e-7 at 1 and 1.5e-5 at 200 (a hidden
state of bert-base or MiniLM holds values past 200 in a few dimensions). A bound fixed in absolute terms is then too
loose for small values or fails large ones on another machine: 1e-4 failed `ffn.out` on a CPU whose kernels summed
1,536 terms of size 10–100 in another order (issue 54). So every check of one float32 computation against another
is bounded by the reference's own size, with an absolute floor for values near 0, where the relative bound
vanishes while the terms summed need not. What is exact stays exact: a check that compares a number with itself
(a value read back, an index, a count) asks for equality, not for these.

>>> SAME_SUM.holds(200.001, 200.0), SAME_SUM.holds(0.001, 0.0)
(True, False)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tolerance:
    atol: float  # the floor, for references near 0
    rtol: float  # a fraction of the reference's size

    def excess(self, got, expected) -> float:
        """The worst |got − expected| as a fraction of its bound: at most 1 where every element agrees (0 for empty
        arrays; equal infinities, such as a mask's, agree)."""
        got, expected = np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
        with np.errstate(invalid="ignore"):
            apart = np.where(got == expected, 0.0, np.abs(got - expected))  # inf − inf would be nan
        return float(np.max(apart / (self.atol + self.rtol * np.abs(expected)), initial=0.0))

    def holds(self, got, expected) -> bool:
        return self.excess(got, expected) <= 1.0

    def assert_close(self, got, expected, what: str = "") -> None:
        """numpy's own assertion with these constants (its message names the worst elements)."""
        np.testing.assert_allclose(got, expected, rtol=self.rtol, atol=self.atol, err_msg=what)

    def to_json(self) -> dict[str, float]:
        return {"atol": self.atol, "rtol": self.rtol}


SAME_SUM = Tolerance(atol=1e-5, rtol=1e-5)
"""The same arithmetic again from the same float32 inputs, in another order or precision: an explanation's terms
summed in float64 against the stored cell, the step-through's block (the model's own modules called one by one)
against the model's own forward in the same process, and likewise a live site's browser checking a typed sentence's
blocks against the model's own forward in the same run. Measured: the bundled model's blocks are exact (0) and a cell
within 5e-7; every family's tiny model within 0.13 of the bound (EuroBERT's layers, 5.7e-6); 1e-5 relative is 84
float32 steps, and 1e-5 the floor that the app's checks always had."""

ANOTHER_ROUTE = Tolerance(atol=1e-4, rtol=1e-5)
"""The whole model by another route: another runtime's kernels (onnxruntime in Python, its WebAssembly build in a
browser) against PyTorch, or a layer decomposed and summed back over its tokens and heads (norm-based contributions,
the logit lens through the masked-LM head). The differences compound over layers and hundreds of terms. Measured on
the bundled model through onnxruntime (three sentences of 3 to 106 tokens, every sub-step): at most 9.6e-6 on values
under 1 (the floor is 10 times that, the bound issue 46 set), and at most 1.8e-6 relative past it (the largest
difference, 9.2e-5, on a value of 221), so 1e-5 relative leaves a margin of 5; issue 54 saw 1.5e-4 on values of
10 to 100 with another CPU's kernels, which 1e-4 alone failed."""
