"""A figure's leaves as the rules that fit it to a screen read and set them (figures/screens.py, fit.py): each rule
is written once, as expressions (ops/recipe.py), over the leaves it reads. On a figure the app draws, a `Sheet` works
each one out as it is set, and sets the figure's leaf (the app's figures). Where the leaves depend on a sentence that
only a site's browser will have (a typed one), the figure is a skeleton built for a sample sentence, the leaves that
depend on the sentence are `named` by expressions over its names, and the sheet keeps what the rules set from them
as a template's names and fills (figures/template.py), which the browser works out with the same words: the site
fits a typed sentence's figure by the app's rules, with none of its own.

A rule reads a leaf with `get` (a number or text as it is; a list or an array quoted, so that expressions take
it), sets one with `set`, and names a value it reads more than once with `bind` (in a template, once, by name; in
the app, worked out at once). It branches on the numbers with `when`, never with Python's `if`: a skeleton's
numbers are a sample's. What a rule reads of the figure's shape (its axes, its traces, a title that is there) is the
skeleton's, the same for every sentence.

>>> import plotly.graph_objects as go
>>> from bertviz_lite.ops.recipe import var
>>> fig = go.Figure(layout=dict(height=300))
>>> sheet = Sheet(fig, named={("layout", "height"): 100 + 20 * var.n})
>>> sheet.set(("layout", "height"), call("min", sheet.get("layout", "height"), 515))
>>> template = sheet.template()
>>> from bertviz_lite.figures.template import filled
>>> filled(template, {"n": 30})["layout"]["height"], filled(template, {"n": 10})["layout"]["height"]
(515, 300)
>>> Sheet(go.Figure(layout=dict(height=300))).set(("layout", "height"), 250)  # the app's: set at once
"""
from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..ops.recipe import X, call, tree_of, when
from .template import Path, value_of

__all__ = ["Sheet", "call", "most", "when"]


class Sheet:
    """A figure's leaves, set by rules: at once (the app's figure), or as a template's (`named`: the leaves that
    depend on a sentence, by path, as expressions over its names)."""

    def __init__(self, fig: go.Figure, named: dict[Path, Any] | None = None):
        self.fig = fig
        self.is_template = named is not None
        self.lets: list[tuple[str, X]] = []
        self.fills: dict[Path, X] = {}
        self.vanishing: set[Path] = set()  # filled leaves that a sentence may leave out (a null value)
        self._named: dict[Path, X] = {}
        self._once: dict[Any, Any] = {}
        for path, expression in (named or {}).items():
            self.set(path, expression)

    def get(self, *path) -> Any:
        """The leaf at `path`: its expression where it depends on the sentence, else its value (a list or an array
        quoted, as an expression takes it; None where the figure leaves it to Plotly)."""
        if path in self._named:
            return self._named[path]
        return quoted(leaf(self.fig, path))

    def known(self, *path) -> Any:
        """The leaf's value, for a rule not yet written as expressions: refused where it depends on the sentence."""
        if path in self._named:
            raise ValueError(f"{list(path)} depends on the sentence: the rule that reads it must be an expression")
        return leaf(self.fig, path)

    def value(self, value) -> Any:
        """`value` worked out, for a rule not yet written as expressions: refused where it depends on the
        sentence."""
        found = self.bind(value)
        if isinstance(found, X) and not is_constant(found.tree):
            raise ValueError("A rule that is not written as expressions reads a leaf that depends on the sentence")
        return value_of(found, {}) if isinstance(found, X) else found

    def bind(self, value) -> Any:
        """`value` worked out once: at once where it depends on no sentence (always, in the app), else as a name a
        template binds (a figure's rule that several leaves read)."""
        if not isinstance(value, X):
            return value
        if not self.is_template or is_constant(value.tree):
            return quoted(value_of(value, {}))
        name = f"_{len(self.lets)}"
        self.lets.append((name, value))
        return X(["v", name])

    def once(self, key, build) -> Any:
        """`build()` bound the first time `key` is asked for, the same value after (what a rule reads of labels
        that the fitting leaves as they are)."""
        if key not in self._once:
            self._once[key] = self.bind(build())
        return self._once[key]

    def set(self, path: Path, value, vanishes: bool = False) -> None:
        """The leaf at `path` set to `value`; `vanishes`: a sentence may make it null, and the template then leaves
        it out."""
        value = self.bind(value)
        if isinstance(value, X) and not is_constant(value.tree):
            self._named[path] = self.fills[path] = value
            if vanishes:
                self.vanishing.add(path)
            return
        self._named.pop(path, None)
        self.fills.pop(path, None)
        self.vanishing.discard(path)
        set_leaf(self.fig, path, value_of(value, {}) if isinstance(value, X) else value)

    def set_when(self, condition, path: Path, value) -> None:
        """The leaf set to `value` where `condition` holds, else left as it is (or out, where it was)."""
        self.set(path, when(condition, value, self.get(*path)), vanishes=True)

    def template(self, figure: dict | None = None, drops: dict[Path, X] | None = None) -> dict:
        """The figure as a template (figures/template.py): the skeleton (`figure`: its JSON as a site draws it, else
        Plotly's), the names the rules bound, the leaves they fill, and the null ones left out (and `drops`: parts
        left out where their expression holds)."""
        figure = figure if figure is not None else self.fig.to_plotly_json()
        for path in self.fills:  # the sample's own values, which every sentence's fill replaces: not sent
            part = figure
            for key in path[:-1]:
                part = part.get(key) if isinstance(part, dict) else part[key] if len(part) > key else None
                if part is None:
                    break
            if isinstance(part, dict) and path[-1] in part:
                part[path[-1]] = None
        return {"figure": figure, "lets": [[name, tree_of(x)] for name, x in self.lets],
                "fills": [[list(path), tree_of(x)] for path, x in self.fills.items()],
                "drops": [[list(path), ["==", tree_of(self.fills[path]), None]] for path in self.vanishing]
                + [[list(path), tree_of(x)] for path, x in (drops or {}).items()]}


def most(*values) -> Any:
    """The largest of `values`, as an expression (max takes two at a time, as numpy's does)."""
    found = values[0]
    for value in values[1:]:
        found = call("max", found, value)
    return found


def is_constant(tree) -> bool:
    """Whether an expression names nothing (a quoted part is a value)."""
    if not isinstance(tree, list) or not tree:
        return True
    if tree[0] == "quote":
        return True
    if tree[0] == "v":
        return False
    return all(is_constant(t) for t in tree[1:] if not isinstance(t, dict)) and all(
        is_constant(v) for t in tree[1:] if isinstance(t, dict) for v in t.values())


def quoted(value) -> Any:
    """A leaf's value as an expression takes it: a list or an array quoted (a plain list would read as an
    expression), anything else as it is."""
    if isinstance(value, np.ndarray):
        return X(["quote", value])
    if isinstance(value, (list, tuple)):
        return X(["quote", [list(v) if isinstance(v, tuple) else v for v in value]])
    return value


def leaf(fig: go.Figure, path: Path) -> Any:
    part = fig.data if path[0] == "data" else fig.layout
    for key in path[1:]:
        part = part[key]
    return part


def set_leaf(fig: go.Figure, path: Path, value) -> None:
    parent = leaf(fig, path[:-1]) if len(path) > 2 else (fig.data if path[0] == "data" else fig.layout)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    parent[path[-1]] = value

