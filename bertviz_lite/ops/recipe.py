"""How an operation explains one cell, declared as data (`Recipe`): the numbers the cell reads (its inputs, its
indexing), what is computed from them, the terms that add up to it, and its formula as a template. Python
(`ops/working.py`) and a site's browser (`frontend/src/recipe.js`) evaluate the same recipe, so an explanation is
written once, in the operation's module, and a site explains a cell of any sentence (an exported one from disk, or
one typed on a live site) with no function per operation of its own.

A recipe's expressions are trees, written here with Python's operators and handed over as JSON lists: an
operation's name first, then its arguments; a bare number or string is itself. `cell.at(0)`, `cell.head`,
`cell.input(1)[h, i]`, `total(products)`, `fmt("{x:num}")`: the vocabulary is the few things cells need (see
`working.py` for each word's meaning), and both evaluators take no other.

>>> x = cell.input(0)[var.t]
>>> (x * 2).tree
['*', ['at', ['input', 0], ['v', 't']], 2]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class X:
    """An expression of a recipe: a JSON tree that both evaluators read alike."""

    __hash__ = None  # == builds an expression

    def __init__(self, tree: Any):
        self.tree = tree

    def _with(self, name: str, *others) -> X:
        return X([name, self.tree, *(tree_of(o) for o in others)])

    def __add__(self, other): return self._with("+", other)
    def __radd__(self, other): return X(["+", tree_of(other), self.tree])
    def __sub__(self, other): return self._with("-", other)
    def __rsub__(self, other): return X(["-", tree_of(other), self.tree])
    def __mul__(self, other): return self._with("*", other)
    def __rmul__(self, other): return X(["*", tree_of(other), self.tree])
    def __truediv__(self, other): return self._with("/", other)
    def __rtruediv__(self, other): return X(["/", tree_of(other), self.tree])
    def __floordiv__(self, other): return self._with("//", other)
    def __mod__(self, other): return self._with("%", other)
    def __neg__(self): return X(["-", 0, self.tree])
    def __lt__(self, other): return self._with("<", other)
    def __le__(self, other): return self._with("<=", other)
    def __gt__(self, other): return X(["<", tree_of(other), self.tree])
    def __ge__(self, other): return X(["<=", tree_of(other), self.tree])
    def __eq__(self, other): return self._with("==", other)  # type: ignore[override]
    def __ne__(self, other): return self._with("!=", other)  # type: ignore[override]

    def __getitem__(self, index) -> X:
        """Indexing, numpy's way: a number per axis, or `:` for the whole axis."""
        indices = index if isinstance(index, tuple) else (index,)
        return X(["at", self.tree, *(None if isinstance(i, slice) else tree_of(i) for i in indices)])


def tree_of(value) -> Any:
    return value.tree if isinstance(value, X) else value


def call(name: str, *args) -> X:
    return X([name, *(tree_of(a) for a in args)])


class _Names:
    """`var.t`: a name the recipe's `let` bound."""

    def __getattr__(self, name: str) -> X:
        return X(["v", name])


var = _Names()


class _Cell:
    """What a cell is and reads: its indices, its head, its node's inputs, attributes and module."""

    head = X(["head"])
    step = X(["step"])  # the cell's step, as the run computed it
    module = X(["module"])  # the module's name: "encoder.layer.0.attention.self.query"
    rank = X(["rank"])  # how many indices the cell has (its head not counted)

    @staticmethod
    def at(k: int) -> X:
        return X(["at_index", k])

    @staticmethod
    def input(k: int) -> X:
        return X(["input", k])

    @staticmethod
    def attr(name: str, default=None) -> X:
        return X(["attr", name, default])

    @staticmethod
    def weight(part: str = "weight") -> X:
        """The module's weight or bias (null where it has none)."""
        return X(["weight", part])

    @staticmethod
    def token(position) -> X:
        """'4 bank': a position named by its token."""
        return call("token", position)

    @staticmethod
    def row(index, of=None) -> X:
        """A row named as the cell's step names it: by its token, its distance, or its number."""
        return call("row", index, of)


cell = _Cell()


def fmt(template: str, **fields) -> X:
    """A template filled with the recipe's names and `fields` (expressions) (`str.format` fields; `num` and `plus`
    write a formula's numbers: `working.py`)."""
    return X(["fmt", template, {k: tree_of(v) for k, v in fields.items()}] if fields else ["fmt", template])


def when(condition, then, otherwise=None) -> X:
    return call("if", condition, then, otherwise)


def total(vector) -> X:
    """Σ, left to right."""
    return call("sum", vector)


@dataclass(frozen=True)
class Recipe:
    """An operation's explanation of a cell. `let`: names bound in order (each may use the ones before);
    `formula`: a string; `value`: the cell computed again (None: the exact sum of the terms); `terms`: (label,
    number or vector) pairs, a vector one term per entry, its label filled with `k`, a null term left out;
    `inputs`, `labels`, `figure`: named expressions for the page."""

    let: dict[str, X]
    formula: X
    value: X | None = None
    terms: tuple[tuple[str | X, X], ...] = ()
    inputs: dict[str, X] = field(default_factory=dict)
    labels: dict[str, X] = field(default_factory=dict)
    figure: dict[str, X] = field(default_factory=dict)

    def to_json(self) -> dict:
        trees = lambda named: {k: tree_of(v) for k, v in named.items()}  # noqa: E731
        return {"let": [[k, tree_of(v)] for k, v in self.let.items()], "formula": tree_of(self.formula),
                "value": tree_of(self.value), "terms": [[tree_of(label), tree_of(v)] for label, v in self.terms],
                "inputs": trees(self.inputs), "labels": trees(self.labels), "figure": trees(self.figure)}


def cell_index(node) -> tuple[X, ...]:
    """The cell's index into its step's array, the head first where the step has one."""
    rank = len(node.axes) - node.has_head_axis
    return ((cell.head,) if node.has_head_axis else ()) + tuple(cell.at(k) for k in range(rank))


def literal(text: str) -> str:
    """A name put in a template as it is (module and step names have no braces)."""
    assert "{" not in text and "}" not in text, text
    return text


TOKEN_LABELS = {"row": when(cell.rank == 2, cell.row(cell.at(0))),  # a (token, dimension) cell, or a (dimension,) one
                "dimension": when(cell.rank == 2, call("str", cell.at(1)),
                                  when(cell.rank == 1, call("str", cell.at(0))))}
