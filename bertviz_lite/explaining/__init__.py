"""Explain one number: any cell of any sub-step, computed again in front of the reader from the numbers it was
computed from (LLM Visualization's idea, on a real encoder of any supported family).

>>> e = explain(t, "layers.2.attn.scores", head=3, at=(4, 1))   # doctest: +SKIP
>>> e.formula                                                    # doctest: +SKIP
'34.1 (dots) + 0 (the key is not masked) = 4.2634'
>>> e.recomputed - e.value, sum(v for _, v in e.terms) - e.value  # doctest: +SKIP
(0.0, 0.0)

The explanation is the step's operation's own (`Op.explain`, in ops/), never the family's; the step's inputs come from
its block's graph. A step with a head axis (Q, K, V, the scores, ...) takes `head`; `at` gives the other indices:
(query, key) for a (h, T, T) step, (token, dimension) for (T, d) or (h, T, d_h), (dimension,) for the pooler.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..errors import InputError
from ..ops import head_name
from ..stepthrough.trace import Trace
from .cell import Cell
from .record import Explanation

__all__ = ["Explanation", "explain", "parse_cell"]


def explain(trace: Trace, step: str, head: int | None = None, at: Sequence[int] | str = ()) -> Explanation:
    """The explanation of `step`'s cell `at` (of head `head`); an InputError says what is wrong with the request."""
    graph, key = trace.resolve(step)
    node = graph.node(key)
    array = trace.values(graph, [key])[key]
    at = parse_cell(at) if isinstance(at, str) else tuple(at)
    headed = node.has_head_axis
    if headed:
        head = 0 if head is None else head
        if array.shape[0] < trace.num_heads and isinstance(head, int) and array.shape[0] <= head < trace.num_heads:
            raise InputError(f"{step} has {array.shape[0]} key/value heads for {trace.num_heads} query heads "
                             f"(grouped-query attention): query head {head} reads "
                             f"{head_name(head, trace.num_heads, array.shape[0])}; give that head.")
        _check_index("head", head, array.shape[0])
    elif head is not None:
        raise InputError(f"{step} has no head axis (shape {node.shape}): leave the head out.")
    shape = array.shape[1:] if headed else array.shape
    if len(at) != len(shape):
        axes = ", ".join(node.axis_names(len(shape)))
        raise InputError(f"{step} has {len(shape)} {'index' if len(shape) == 1 else 'indices'} per cell ({axes}); "
                         f"got {len(at)}: {','.join(map(str, at)) or 'none'}.")
    for name, index, size in zip(node.axis_names(len(shape)), at, shape):
        _check_index(name, index, size)
    cell = Cell(trace, graph, node, head, tuple(int(i) for i in at))
    worked = node.op.explain(cell)  # the operation explains its own cells (ops/)
    return Explanation(step=graph.name(key), title=node.title, head=head, at=cell.at, value=cell.value,
                       op=node.op.name, formula=worked.formula, inputs=worked.inputs, terms=worked.terms,
                       recomputed=float(worked.recomputed), labels=worked.labels, figure=worked.figure,
                       drawn_as=node.op.drawn_as)


def parse_cell(text: str) -> tuple[int, ...]:
    """'4,1' -> (4, 1); an InputError for anything that is not whole numbers from 0, separated by commas."""
    parts = [p.strip() for p in str(text).split(",")]
    if not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts):
        raise InputError(f"The cell {text!r} is not one: write whole numbers from 0 separated by commas, for example "
                         f"4,1 (query 4, key 1) or 4,17 (token 4, dimension 17).")
    return tuple(int(p) for p in parts)


def _check_index(name: str, index, size: int) -> None:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
        raise InputError(f"There is no {name} {index}: the {name}s run from 0 to {size - 1}.")
