"""What an operation is, as one record: its name and meaning, how it computes a sub-step from its inputs, how it
explains one cell of that sub-step, how the tour tells of it (and what it asks first), and the kind of figure that
explains a cell. Each kind of operation lives in one module of this package (`tables`, `sums`, `attention`,
`norms`, `activations`, `positions`), with its parts side by side; a family that needs an operation no other family
has defines its `Op` in its own module, with what parts it has (`explain` defaults to computing the cell again,
`narrate` to the step's numbers, `ask` to no question).

The parts take what they read as arguments and import no trace, page or figure: `compute(node, inputs, module,
tokens)`; `explain(cell)` (the cell's node, indices, inputs and module, and its trace's tokens: `explaining/cell.py`)
and `narrate(step)` (the chapter's node, arrays, head and token, and its trace: `tour/narration.py`) are handed
objects that the explainer and the tour build; an op reads from them only through their attributes."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from ..kinds import Figure, Series
from .telling import plain
from .worked import Worked, num
from .working import worked_out


@dataclass(frozen=True)
class Tokens:
    """The input as the operations need it: (T,) tensors."""

    input_ids: torch.Tensor
    token_type_ids: torch.Tensor
    position_ids: torch.Tensor
    attention_mask: torch.Tensor  # 1 for a real token

    def __len__(self) -> int:
        return len(self.input_ids)

    @property
    def length(self):
        """How many tokens, as the ids' size: a number, or under torch.export a symbol (len() would fix the length
        an exported graph reads to the example's)."""
        return self.input_ids.shape[0]


Compute = Callable[["Node", list[torch.Tensor], "nn.Module | None", Tokens], torch.Tensor]  # noqa: F821


def recomputed(cell) -> Worked:
    """Any other operation (a family's own, such as a bucketing of distances): computed again on its inputs by the
    operation itself, its cell read."""
    with torch.inference_mode():
        inputs = [torch.from_numpy(np.asarray(cell.input(k))) for k in range(len(cell.node.inputs))]
        again = cell.node.op.compute(cell.node, inputs, cell.module, cell.trace.token_data())
    value = float(again[cell.index])
    where = {}
    if len(cell.at) == 2 and cell.array.shape[-2:] == (len(cell.trace.tokens),) * 2:
        where = {"query position": cell.at[0], "key position": cell.at[1], "i - j": cell.at[0] - cell.at[1]}
    return Worked(f"{cell.node.op.meaning}: {num(value)}", where, value)


def from_recipe(cell) -> Worked:
    """A cell explained by its operation's recipe (`recipe.py`), as a site's browser explains it."""
    return worked_out(cell.node.op.recipe(cell.node, cell.graph, cell.module), cell)


def apply_module(node, inputs, module, tokens):
    """The model's own module (a norm, an activation) on the one input: a computation many ops share."""
    return module(inputs[0])


@dataclass(frozen=True)
class Op:
    name: str
    meaning: str  # one line for people
    compute: Compute
    recipe: Callable[[Any, Any, Any], Any] | None = None  # (node, graph, module) -> recipe.Recipe: how a cell is explained,
    # as data that the app and a site's browser work out alike
    explain: Callable[[Any], Worked] | None = None  # one cell, from the numbers it is made of: by default the
    # recipe's, else the cell computed again
    narrate: Callable[[Any], list[str]] = plain  # the tour's sentences, with the sentence's own numbers
    ask: Callable[[Any, Any, Any], Any] | None = None  # (node, graph, module) -> asking.Asking or None: the question
    # a lecture asks before it shows the step (ops/asking.py), beside the narrator that tells of the same numbers
    drawn_as: Figure | None = None  # the figure that explains a cell; None: the formula says it all
    series: Series | None = None  # what its output is as a series of token vectors, where a chart draws one
    whole_row: bool = False  # a cell's explanation can also show the query's whole row (BertViz's neuron view)
    gives_probabilities: bool = False  # each row is a distribution (0 to 1, summing to 1): drawn as attention
    reads_weights: bool = True  # False: computed from the positions alone (DeBERTa's i − j), the same whatever the
    # weights, so random weights take nothing from it
    scale: str = ""  # the colour scale its numbers are drawn on (a name in figures/style.py SCALES), one per step on
    # every page, the app's and an exported site's; "" for the usual: shares from 0 for a distribution, else diverging

    def __post_init__(self) -> None:
        if self.explain is None:
            object.__setattr__(self, "explain", from_recipe if self.recipe else recomputed)
        if not self.scale:
            object.__setattr__(self, "scale", "share" if self.gives_probabilities else "signed")

    def __repr__(self) -> str:
        return f"Op({self.name})"
