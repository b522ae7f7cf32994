"""A figure as a template: the app's figure (Plotly's JSON, as a site draws it) with the leaves that depend on the
sentence named as expressions (ops/recipe.py's, over the sentence's names: its length `n`, its labels, a graph's
outputs), so that a live site draws a sentence typed there by the app's own figure code and rules, filling the
leaves (frontend/src/template.js) with the evaluator that works out explanations (recipe.js), and nothing of its own.

A template is {"figure": ..., "lets": [[name, tree]], "fills": [[path, tree]], "drops": [[path, tree]]}: the lets
(optional) bind names that several leaves read, once; each fill sets the leaf at its path (keys and list indices)
to its expression's value; then each drop whose expression is true leaves its list item or key out (a line trace
with no line, a note that is not needed), and a part so emptied is left out. `filled` does
it in Python, as the browser does: the tests hold a filled template to the figure the app builds for the same
sentence, leaf for leaf. A value quoted in a template is copied into each figure filled, never shared.

>>> t = {"figure": {"layout": {"height": 0}, "data": [{"y": []}, {"y": []}]},
...      "fills": [[["layout", "height"], ["*", 10, ["v", "n"]]], [["data", 0, "y"], ["range", ["v", "n"]]]],
...      "drops": [[["data", 1], ["<", 0, ["v", "n"]]]]}
>>> filled(t, {"n": 3})
{'layout': {'height': 30}, 'data': [{'y': [0, 1, 2]}]}
"""
from __future__ import annotations

import copy
from typing import Any

import numpy as np

from ..ops.recipe import tree_of
from ..ops.working import evaluate

Path = tuple  # keys and list indices, from the figure's top


def value_of(expression, names: dict) -> Any:
    """An expression's value over `names` (a figure's rule: `head_view`'s sizes, a template's fill)."""
    return evaluate(tree_of(expression), None, names)


def filled(template: dict, names: dict) -> dict:
    """The template's figure with its leaves set from `names` (and the names its `lets` bind from them first, each
    once, in order) and its drops left out (a new figure, as JSON)."""
    figure = copy.deepcopy(template["figure"])
    names = dict(names)
    for name, tree in template.get("lets", []):
        names[name] = value_of(tree, names)
    for path, tree in template["fills"]:
        _set(figure, path, _json(copy.deepcopy(value_of(tree, names))))  # a quoted part: the figure's own copy
    for path in sorted((p for p, tree in template["drops"] if value_of(tree, names)), reverse=True):
        items = _get(figure, path[:-1])
        del items[path[-1]]  # the last first: an earlier item's index stays true
        if not items:  # as Plotly leaves out an emptied part
            del _get(figure, path[:-2])[path[-2]]
    return figure


def template_of(cases: list[dict], which, fills: dict[Path, Any], drops: dict[Path, Any] | None = None) -> dict:
    """A template from the figure built for each of a few cases (a layer's title, a pooled thumbnail's note):
    every leaf on which they differ picks its value by `which` (an expression giving the case's number); `fills`
    and `drops` by path."""
    picks: dict[Path, Any] = {}
    _differing(cases, (), set(fills), picks, which, {*fills, *(drops or {})})
    return {"figure": cases[0], "fills": [[list(p), tree_of(t)] for p, t in {**picks, **fills}.items()],
            "drops": [[list(p), tree_of(t)] for p, t in (drops or {}).items()]}


def _differing(cases: list, path: Path, filled_paths: set, picks: dict, which, guarded: set) -> None:
    """Where the cases differ: the deepest dicts and lists of one shape in all of them, and the leaves; a part whose
    shape differs (a title wrapped in one case only) is picked whole."""
    first = cases[0]
    if path in filled_paths:
        return
    if all(isinstance(c, dict) and c.keys() == first.keys() for c in cases):
        for key in first:
            _differing([c[key] for c in cases], (*path, key), filled_paths, picks, which, guarded)
    elif (all(isinstance(c, list) and len(c) == len(first) for c in cases)
          and any(isinstance(v, (dict, list)) for v in first)):
        for k in range(len(first)):
            _differing([c[k] for c in cases], (*path, k), filled_paths, picks, which, guarded)
    elif any(c != first for c in cases[1:]):
        if any(p[: len(path)] == path for p in guarded):  # a part picked whole would lose them
            raise ValueError(f"The cases' figures differ in shape at {list(path)}, where a leaf is filled or dropped")
        picks[path] = ["pick", tree_of(which), *(["quote", c] for c in cases)]


def _get(figure, path):
    for key in path:
        figure = figure[key]
    return figure


def _set(figure, path, value) -> None:
    """The leaf at `path` set, the dicts on the way made where the figure has none (a default Plotly leaves out)."""
    for key in path[:-1]:
        figure = figure.setdefault(key, {}) if isinstance(figure, dict) else figure[key]
    figure[path[-1]] = value


def _json(value):
    """A value as JSON holds it: arrays as lists (NaN kept: the tests compare them as a browser reads them)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer, np.floating)):
        return value.item()
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value
