"""Where each box of a block's diagram goes, read from its graph: a node's column is one more than the furthest of
the steps it reads (so data flows left to right), and the nodes of one column share it, one above the other. What
the block reads from another block (DeBERTa's relative positions, MPNet's buckets) gets a box of its own in a row
above, just before its first reader; a layer's input stands for the layer before.

>>> from bertviz_lite.graph.nodes import Graph, node
>>> from bertviz_lite.ops import INPUT, LINEAR, RESIDUAL_ADD
>>> g = Graph("layers", 0, (node("layers", "input", INPUT), node("layers", "attn.q", LINEAR, ("input",)),
...                         node("layers", "attn.k", LINEAR, ("input",)),
...                         node("layers", "attn.residual", RESIDUAL_ADD, ("input", "attn.q"))))
>>> [(b.key, b.column, b.row) for b in diagram_layout(g).boxes]
[('input', 0, 0.0), ('attn.q', 1, -0.425), ('attn.k', 1, 0.425), ('attn.residual', 2, 0.0)]
"""
from __future__ import annotations

from dataclasses import dataclass

from .names import WORDS, parse_step_name
from .nodes import Graph
from ..ops import INPUT, RESIDUAL_ADD


ROW_STEP = 0.85  # rows between the boxes of one column


@dataclass(frozen=True)
class Box:
    key: str  # a key of the block, or the global name of a step of another block
    short: str
    title: str
    op: str
    column: int
    row: float  # 0 on the main line; negative above
    outside: bool = False  # a step of another block


@dataclass(frozen=True)
class Layout:
    boxes: tuple[Box, ...]
    edges: tuple[tuple[str, str], ...]  # (source, key) between drawn boxes
    residual_adds: frozenset[str] = frozenset()  # where a path that skipped ahead joins again

    def is_residual(self, source: str, key: str) -> bool:
        """Whether an edge is the residual stream carried past the steps between."""
        boxes = {b.key: b for b in self.boxes}
        return key in self.residual_adds and boxes[key].column - boxes[source].column > 1

    @property
    def columns(self) -> int:
        return 1 + max(b.column for b in self.boxes)


def diagram_layout(graph: Graph) -> Layout:
    column: dict[str, int] = {}
    for node in graph:
        local = [column[s] for s in node.inputs if s in column]
        column[node.key] = 1 + max(local) if local else 0
    outside: dict[str, int] = {}
    for node in graph:
        if node.op is INPUT:
            continue
        for source in node.inputs:
            if source not in graph:
                outside[source] = min(outside.get(source, column[node.key] - 1), column[node.key] - 1)
    by_column: dict[int, list[str]] = {}
    for node in graph:
        by_column.setdefault(column[node.key], []).append(node.key)
    boxes = []
    for node in graph:
        keys = by_column[column[node.key]]
        row = ROW_STEP * (keys.index(node.key) - (len(keys) - 1) / 2)
        boxes.append(Box(node.key, node.short, node.title, node.op.name, column[node.key], row))
    top = min((b.row for b in boxes), default=0.0) - ROW_STEP
    for name, col in outside.items():
        block, _, key = parse_step_name(name)
        boxes.append(Box(name, WORDS[block][key].short, f"{WORDS[block][key].title}: {name}, from another block",
                         "outside", col, top, outside=True))
    first = min(b.column for b in boxes)  # an outside box may stand before column 0
    boxes = [Box(b.key, b.short, b.title, b.op, b.column - first, b.row, b.outside) for b in boxes]
    edges = tuple((s, n.key) for n in graph if n.op is not INPUT for s in n.inputs)
    return Layout(tuple(boxes), edges, frozenset(n.key for n in graph if n.op is RESIDUAL_ADD))
