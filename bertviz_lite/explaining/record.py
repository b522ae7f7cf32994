"""What an explanation of one number is: the cell, its value, the operation that made it, the named numbers it was
made from, the terms that add up to it (where the operation is a sum), and the value computed again from exactly
those numbers, with the difference from the stored one."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..closeness import SAME_SUM
from ..ops import Figure


@dataclass(frozen=True)
class Explanation:
    step: str  # the global name: layers.2.attn.scores
    title: str  # the step's title: "Scores"
    head: int | None
    at: tuple[int, ...]  # (query, key), (token, dimension), ...
    value: float  # the stored number
    op: str
    formula: str  # one line with the real numbers
    inputs: dict  # named numbers (a number, or a list of them)
    terms: list[tuple[str, float]]  # label, value: they add up to `value` where the operation is a sum
    recomputed: float  # from `inputs` and `terms` alone
    labels: dict = field(default_factory=dict)  # what the cell's indices are: {"query": "4 bank", "key": "0 [CLS]"}
    figure: dict = field(default_factory=dict, repr=False)  # more numbers for the page's figure; not in the JSON
    drawn_as: Figure | None = None  # the kind of figure that explains it, as its operation says (Op.drawn_as)

    @property
    def abs_diff(self) -> float:
        return abs(self.recomputed - self.value)

    @property
    def holds(self) -> bool:
        """The cell computed again from these numbers agrees with the stored one, within the bound the value's own
        size sets (`closeness.SAME_SUM`)."""
        return SAME_SUM.holds(self.recomputed, self.value)

    def to_json(self) -> dict:
        return {"step": self.step, "head": self.head, "at": list(self.at), "value": self.value, "op": self.op,
                "formula": self.formula, "inputs": _plain(self.inputs),
                "terms": [{"label": label, "value": float(v)} for label, v in self.terms],
                "recomputed": self.recomputed, "abs_diff": self.abs_diff}

    def frame(self) -> pd.DataFrame:
        """The explanation's numbers in long form, for a CSV: each term, then each named input (a vector entry by
        entry), then the value and its recomputation."""
        rows = [("term", label, None, float(v)) for label, v in self.terms]
        for name, value in self.inputs.items():
            if isinstance(value, (list, tuple, np.ndarray)):
                rows += [("input", name, k, _number(v)) for k, v in enumerate(value)]
            else:
                rows.append(("input", name, None, _number(value)))
        rows += [("value", self.step, None, self.value), ("recomputed", self.step, None, self.recomputed)]
        return pd.DataFrame(rows, columns=["kind", "name", "index", "value"])


def _number(value):
    return value if isinstance(value, str) else float(value)


def _plain(value):
    """numpy numbers and arrays as JSON's numbers and lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.integer, int)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return float(value)
    return value
