"""One cell of one sub-step, with what its explanation reads: the step's node in its block's graph, the arrays of
its inputs (as the step-through computed from them), the model's module it applies, and the input's tokens."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from torch import nn

from ..graph.nodes import Graph, Node
from ..stepthrough.trace import Trace


@dataclass(frozen=True)
class Cell:
    trace: Trace
    graph: Graph
    node: Node
    head: int | None
    at: tuple[int, ...]

    @property
    def name(self) -> str:
        return self.graph.name(self.node.key)

    @cached_property
    def array(self) -> np.ndarray:
        return self.trace.values(self.graph, [self.node.key])[self.node.key]

    @property
    def value(self) -> float:
        return float(self.array[self.index])

    @property
    def index(self) -> tuple[int, ...]:
        """The cell's index into the step's array: the head first where the step has one."""
        return self.at if self.head is None else (self.head, *self.at)

    def input(self, k: int) -> np.ndarray:
        """The k-th input's array: a step of this block, or what the block reads from outside it, exactly as the
        step-through used it (a layer's input is the model's own hidden state)."""
        return self.source(self.node.inputs[k])

    def source(self, name: str) -> np.ndarray:
        if name in self.graph:
            return self.trace.values(self.graph, [name])[name]
        return self.trace.given(name).numpy()

    def input_node(self, k: int) -> Node | None:
        """The k-th input's node where it is a step of this block, else None."""
        name = self.node.inputs[k]
        return self.graph.node(name) if name in self.graph else None

    @property
    def module(self) -> nn.Module | None:
        return None if self.node.module is None else self.trace.loaded.base.get_submodule(self.node.module)

    def token(self, position: int) -> str:
        return f"{position} {self.trace.tokens[position]}"

    def row(self, index: int, of: np.ndarray | None = None) -> str:
        """A row of a (T, ·) array named by its token; of a table of relative distances (2k rows), by its
        distance; otherwise by its number. `of`: the array (default this step's, head axis dropped)."""
        rows = (self.array if of is None else of).shape[-2]
        if rows == len(self.trace.tokens) and "T" in self.node.axes:
            return self.token(index)
        if "2k" in self.node.axes:
            return f"{index} (δ = {index - rows // 2})"
        return str(index)

    def at_node(self, node: Node, at: tuple[int, ...] | None = None) -> Cell:
        """The same cell (or `at`) in another node of this block, with the same head."""
        return Cell(self.trace, self.graph, node, self.head, self.at if at is None else at)
