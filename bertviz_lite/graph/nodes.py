"""A block of the model (the embeddings, one encoder layer, the pooler) as a small graph of named operations.

A `Node` is one sub-step: its operation (`bertviz_lite/ops/`), the earlier sub-steps it reads (its inputs, by key inside the
block or by global name outside it: `input`, `attn.q`, `positions.rel_norm`), the module of the model it applies
and the parameters that module holds, by their own names (`encoder.layer.2.attention.self.query.weight`), and the
settings the operation needs (`attrs`: heads, a scale, a window). A family describes each of its blocks once as
such a graph; the step-through evaluates it (`evaluate.py`), the diagram draws it, the explanations read a cell's
inputs from it, and nothing else keeps a table of which step feeds which.

>>> from bertviz_lite.ops import ADD, INPUT
>>> g = Graph("layers", 2, (node("layers", "input", INPUT, ("layers.1.ffn.norm",)),
...                         node("layers", "attn.residual", ADD, ("input", "input"))))
>>> g.name("attn.residual"), g.edges()
('layers.2.attn.residual', [('layers.1.ffn.norm', 'input'), ('input', 'attn.residual'), ('input', 'attn.residual')])
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from torch import nn

from ..ops import Op, Series
from .names import WORDS, is_step_name, step_name

HEAD_AXES = ("h", "h_kv")  # a first axis of heads: the queries' h, or the keys' and values' h_kv


@dataclass(frozen=True)
class Node:
    key: str  # name inside its block
    op: Op  # what it computes (bertviz_lite/ops/)
    inputs: tuple[str, ...] = ()  # earlier sub-steps: keys of this block, or global names of other blocks
    module: str | None = None  # the model's module it applies, by its name in the base model
    params: tuple[str, ...] = ()  # the parameters (and buffers) it reads, by their own names
    attrs: dict = field(default_factory=dict)  # the operation's settings
    title: str = ""
    short: str = ""  # its box in the diagram
    axes: tuple[str, ...] = ()  # its symbolic shape, one symbol per axis: ("h", "T", "d_h")
    explains: str = ""
    series: Series | None = None  # what it is as a series of token vectors (its colour on a chart), if anything

    def attr(self, name: str, default=None):
        return self.attrs.get(name, default)

    @property
    def shape(self) -> str:
        """The symbolic shape as people read it: "(h, T, d_h)", "(d,)"."""
        return f"({', '.join(self.axes)}{',' if len(self.axes) == 1 else ''})"

    @property
    def has_head_axis(self) -> bool:
        """Whether the first axis is the heads: h of them, or h_kv for the keys and values of grouped-query
        attention."""
        return bool(self.axes) and self.axes[0] in HEAD_AXES

    @property
    def token_by_token(self) -> bool:
        """One number per query and key (by the axes, not by an array's size: T may equal d_h)."""
        return self.axes[-2:] == ("T", "T")

    def axis_names(self, count: int) -> list[str]:
        """What each of a cell's `count` indices means (the head's left out): T is a token, d a dimension."""
        symbols = list(self.axes[1:] if self.has_head_axis else self.axes)
        if symbols.count("T") == 2:
            return ["query", "key"]
        names = {"T": "token", "2k": "relative distance row"}
        return [names.get(s, "dimension") for s in symbols][:count] + ["index"] * max(0, count - len(symbols))

    def to_json(self) -> dict:
        settings = {k: v for k, v in self.attrs.items() if isinstance(v, (int, float, str, bool, list, tuple))}
        return {"key": self.key, "op": self.op.name, "title": self.title, "short": self.short, "shape": self.shape,
                "explains": self.explains, "inputs": list(self.inputs), "module": self.module,
                "params": list(self.params), "attrs": settings}


def node(block: str, key: str, op, inputs: Iterable[str] = (), uses: dict | None = None,
         explains: str | None = None, title: str | None = None, short: str | None = None, **attrs) -> Node:
    """A Node with the standard words of its key (`names.WORDS`), unless the family says otherwise; `uses` is what
    `ModuleNames(module)` returns for the module it applies."""
    words = WORDS[block][key]
    return Node(key, op, tuple(inputs), attrs=attrs, title=title or words.title, short=short or words.short,
                axes=words.axes, explains=explains or words.explains, series=words.series or op.series,
                **(uses or {}))


@dataclass(frozen=True)
class Graph:
    """The nodes of one block in the order they are computed; the last node is the block's output."""

    block: str
    layer: int | None
    nodes: tuple[Node, ...]

    def __post_init__(self):
        seen: set[str] = set()
        for n in self.nodes:
            for source in n.inputs:
                if source not in seen and not self.is_outside(source):
                    raise ValueError(f"{self.name(n.key)} reads {source!r}, which is neither an earlier step of "
                                     f"its block nor a step name")
            seen.add(n.key)

    def __iter__(self):
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def __contains__(self, key: str) -> bool:
        return any(n.key == key for n in self.nodes)

    @property
    def keys(self) -> list[str]:
        return [n.key for n in self.nodes]

    @property
    def output(self) -> Node:
        return self.nodes[-1]

    def node(self, key: str) -> Node:
        for n in self.nodes:
            if n.key == key:
                return n
        raise KeyError(f"{key!r} is not a step of {self.block}")

    def name(self, key: str) -> str:
        """The global name of one of this block's keys (an input from outside keeps its own name)."""
        return key if self.is_outside(key) else step_name(self.block, key, self.layer)

    def is_outside(self, source: str) -> bool:
        """Whether an input names a step of another block (a global name) rather than a key of this one."""
        return source not in {n.key for n in self.nodes} and is_step_name(source)

    def edges(self) -> list[tuple[str, str]]:
        """(source, key) for every input of every node: a key of this block, or a global name from outside."""
        return [(source, n.key) for n in self.nodes for source in n.inputs]

    def ancestors(self, keys: Iterable[str], known: Iterable[str] = ()) -> set[str]:
        """The keys of this block that `keys` need, themselves included; a `known` key needs nothing more."""
        needed, todo, known = set(), list(keys), set(known)
        while todo:
            key = todo.pop()
            if key in needed or self.is_outside(key):
                continue
            needed.add(key)
            if key not in known:
                todo.extend(self.node(key).inputs)
        return needed

    def consumers(self, key: str) -> list[Node]:
        """The nodes that read `key`."""
        return [n for n in self.nodes if key in n.inputs]

    def to_json(self) -> dict:
        return {"block": self.block, "layer": self.layer, "nodes": [n.to_json() for n in self.nodes],
                "edges": [list(e) for e in self.edges()]}


class ModuleNames:
    """Each module's own name in the base model, found by the module object itself, so that a family can point at
    its modules through the records it already has (an ALBERT layer run twelve times keeps its one name).

    Calling it on a module gives the `uses` of a node: its name and the names of the parameters it holds."""

    def __init__(self, base: nn.Module):
        self._names = {id(m): name for name, m in base.named_modules()}

    def __call__(self, module: nn.Module, *extra: str) -> dict:
        name = self._names[id(module)]
        own = tuple(f"{name}.{p}" if name else p for p, _ in module.named_parameters(recurse=False))
        return {"module": name, "params": own + tuple(f"{name}.{e}" for e in extra)}
