"""A recipe (`recipe.py`) worked out on one cell, in float64: the app's explanation of a cell; and a narrator's
`telling.Telling` worked out on a tour chapter's step (`told`). The browser's
`frontend/src/recipe.js` is the same evaluator word for word (the front end's unit tests hold the two to the same
results on every family's recipes), so what a word means is said once, here:

- the cell: `at_index k` (its k-th index), `rank`, `head`, `step` (its step's array), `input k`, `attr name
  default`, `module` (its name), `weight part` (the module's weight or bias; null where it has none), `eps` (a
  norm's ε), `function` (an activation's name), `buffer name` (a module's buffer: rotary frequencies), `ids name`
  (the input's ids), `table_row id` (a row of the looked-up table), `cache name` (a step of the run by its global
  name), `token i` ("4 bank"), `token_text i`, `row i of` (a row named as the step names its rows);
- numbers, elementwise on vectors: `+ - * / // % < ==` (Python's floor division and modulo), `min max abs exp
  sqrt cos sin log floor clip f32` (f32: rounded to float32, as the model computed it), `act` (the module's
  activation, in float32 as the model applies it), `linspace a b n`;
- a vector's: `sum` (left to right), `fsum` (exact), `mean` (the sum over the length), `dot`, `max_of`, `len`;
- a tour chapter's step (`told`, on tour/narration.py's Step or Stream): `mine` (the chosen head's part of the
  step), `chosen` (the token), `where`, `heads`, `length` (how many tokens), `tok i` ("'bank'"), `cosines` and
  `lengths` (the residual stream's);
- a row's or a step's: `argmax v [allowed]` and `argmin` (the first, numpy's way), `top v k` (the k largest, equal
  ones in order), `seen` (not masked), `finite` (the finite numbers, flat), `std`, `norm`, `size`, `ndim`, `flat`,
  `min_of`, `width` (the last axis's size), `shape_text` (a Python tuple), `<=`, `!=`;
- a figure's leaves (figures/template.py; ops/figure_words.py says each): `round x` (Python's, to even), `ceil`,
  `range n`, `repeat value n`, `zip a b` (pairs), `pick k a b ...` (the k-th), `part flat counts k` (the k-th run of a
  flat array cut into runs of `counts`), `cat a b ...` (one after another), `slice v start stop`, `which mask` (the
  indices where it is true), `taken v indices`, `index values items` (where each item is in `values`), `cells rows`
  (row after row), `rows_of items width`, `line_counts texts`, `one_line texts`, `numeric texts` (1 where a text is a
  number), `thousandths x`, `has texts part` (1 where a text, or each text, holds `part`), `each items say` (what
  `say` gives for each item `k`), `chars text` (as drawn), `escaped text`, `unescaped text`, `cut label longest`,
  `wrapped text width` (its lines), `merged part more` (a figure's part with more keys), `unique items` (each once, in
  order), `interp x xs ys`;
- `if c a b`, `quote value` (as it is), `str x`, `int x`, `list ...`, `fmt template [fields]` (the names bound so
  far, and the fields given; `{x:num}` writes a formula's number, `{x:plus}` a term added), `joined sep items say` (what `say` says of each
  item `k`, joined), `v name`, `terms_sum` (the exact sum of the terms so far)."""
from __future__ import annotations

import functools
import math
import operator
import re
import string

import numpy as np
import torch

from .figure_words import FIGURE_WORDS, each_of
from .heads import head_name
from .reading import mask_bias, norm_eps
from .recipe import Recipe, tree_of
from .telling import Telling
from .worked import MASKED_BELOW, Worked, as_f64, num, plus


class _Formulas(string.Formatter):
    """str.format, with `num` and `plus`: how a formula writes its numbers (worked.py)."""

    def format_field(self, value, format_spec):
        if format_spec == "num":
            return num(value)
        if format_spec == "plus":
            return plus(value)
        return super().format_field(value, format_spec)


FORMULAS = _Formulas()
_OURS = re.compile(r":(num|plus)\}")  # a template that needs FORMULAS' own specifications

_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
               "//": operator.floordiv, "%": operator.mod, "<": operator.lt, "<=": operator.le, "==": operator.eq,
               "!=": operator.ne,
               "min": np.minimum, "max": np.maximum}
_ELEMENTWISE = {"abs": np.abs, "exp": np.exp, "sqrt": np.sqrt, "cos": np.cos, "sin": np.sin, "log": np.log,
                "floor": np.floor, "ceil": np.ceil, "log10": np.log10, "f32": lambda x: np.asarray(x, np.float32).astype(np.float64)}


def worked_out(recipe: Recipe, c) -> Worked:
    """The recipe's account of cell `c` (explaining/cell.py)."""
    env = bound(recipe.let, c)
    terms = []
    for label, expression in recipe.terms:
        value = evaluate(tree_of(expression), c, env)
        if value is None:
            continue
        if np.ndim(value) and isinstance(label, str) and not _OURS.search(label):  # a plain template: str.format's,
            terms += [(label.format(**env, k=k), v) for k, v in enumerate(np.ravel(value).tolist())]  # in C, 10x faster
        elif np.ndim(value):
            terms += [(_label(label, c, {**env, "k": k}), float(v)) for k, v in enumerate(np.ravel(value))]
        else:
            terms.append((label if isinstance(label, str) else evaluate(tree_of(label), c, env), float(value)))
    env["terms_sum"] = math.fsum(v for _, v in terms)
    value = env["terms_sum"] if recipe.value is None else evaluate(tree_of(recipe.value), c, env)
    formula = evaluate(tree_of(recipe.formula), c, env)
    return Worked(formula, _named(recipe.inputs, c, env), value, terms, _named(recipe.labels, c, env),
                  _named(recipe.figure, c, env))


def _named(expressions: dict, c, env: dict) -> dict:
    """Named expressions' values, those that are null left out."""
    values = {name: _plain(evaluate(tree_of(e), c, env)) for name, e in expressions.items()}
    return {name: v for name, v in values.items() if v is not None}


def told(telling: Telling, s) -> list[str]:
    """A narrator's sentences (`telling.Telling`) worked out on a chapter's step `s` (tour/narration.py Step)."""
    env = bound(telling.let, s)
    return [said for sentence in telling.sentences if (said := evaluate(tree_of(sentence), s, env)) is not None]


def told_over(telling: Telling, names: dict) -> list[str]:
    """A telling worked out over named values alone (a chapter that is no step's: the tokens', the sentence
    vector's)."""
    env = bound_over(telling.let, names)
    return [said for sentence in telling.sentences if (said := evaluate(tree_of(sentence), None, env)) is not None]


def bound(let: dict, c, names: dict | None = None) -> dict:
    """The names a recipe, a telling or an asking binds, in order, each able to use those before it (and `names`,
    given)."""
    env: dict = dict(names or {})
    for name, expression in let.items():
        env[name] = _plain(evaluate(tree_of(expression), c, env))
    return env


def bound_over(let: dict, names: dict) -> dict:
    """The names bound over named values alone (a chapter that is no step's)."""
    return bound(let, None, names)


def _label(label, c, env: dict) -> str:
    """A vector's term's label: a template, or an expression, with `k` its entry."""
    return FORMULAS.format(label, **env) if isinstance(label, str) else evaluate(tree_of(label), c, env)


def evaluate(tree, c, env: dict):
    """One expression's value: a number, a string, a numpy array, or None."""
    if not isinstance(tree, list):
        return tree
    word, args = tree[0], tree[1:]
    if word == "if":
        return evaluate(args[1] if evaluate(args[0], c, env) else args[2], c, env)
    if word == "fmt":  # a template, with the fields it is given (if any) over the names bound so far
        fields = {k: _plain(evaluate(v, c, env)) for k, v in (args[1] if len(args) > 1 else {}).items()}
        return FORMULAS.format(args[0], **{**env, **fields})
    if word == "joined":  # separator, items, what each item k says
        return str(evaluate(args[0], c, env)).join(
            str(evaluate(args[2], c, {**env, "k": int(k)})) for k in np.ravel(evaluate(args[1], c, env)))
    if word == "each":  # items, what each item k gives: a list (numbers: an array)
        return each_of([_plain(evaluate(args[1], c, {**env, "k": int(k)}))
                        for k in np.ravel(evaluate(args[0], c, env))])
    if word == "v":
        return env[args[0]]
    if word == "quote":  # a value as it is (a figure's part: its lists are not expressions)
        return args[0]
    if word == "terms_sum":
        return env["terms_sum"]
    values = [evaluate(a, c, env) for a in args]
    if word in _ARITHMETIC:
        return _plain(_ARITHMETIC[word](*values))
    if word in _ELEMENTWISE:
        return _plain(_ELEMENTWISE[word](np.asarray(values[0])))
    found = _WORDS[word](c, *values)
    return found if word in _WHOLE else _plain(found)  # a whole array as it is: the rows a recipe reads of it are
    # made float64 as they are read (`at`), not the whole weight matrix at every click


def _at(c, array, *indices):
    if array is None:
        return None
    if isinstance(array, list) and len(indices) == 1:  # a list's item (a label), not a copy of it as an array
        return array[int(indices[0])]
    return np.asarray(array)[tuple(slice(None) if i is None else int(i) for i in indices)]


def _activation(c, x):
    with torch.inference_mode():
        return c.module(torch.as_tensor(np.atleast_1d(x), dtype=torch.float32)).double().numpy().reshape(np.shape(x))


def _mask_bias(c, i, j):
    return float(mask_bias(c.node, c.trace.token_data(), torch.float32)[int(i), int(j)])


def _zeroed(c, values, tokens):
    values = np.array(values, np.float64)
    values[np.asarray(tokens, int)] = 0.0
    return values


_WHOLE = {"weight", "buffer", "input", "source", "step", "cache", "mine", "cosines", "lengths", "part"}  # words that give a whole array


def _numpy(tensor) -> np.ndarray:
    """A module's tensor as numpy's, on the same memory."""
    return tensor.detach().numpy()


def _left_to_right(values) -> float:
    return functools.reduce(operator.add, np.ravel(values).tolist(), 0.0)


_CELL_WORDS = {  # what the cell reads
    "at_index": lambda c, k: c.at[k], "rank": lambda c: len(c.at), "head": lambda c: c.head,
    "step": lambda c: c.array, "input": lambda c, k: c.input(k), "source": lambda c, name: c.source(name),
    "input_name": lambda c, k: c.node.inputs[k], "attr": lambda c, name, default: c.node.attr(name, default),
    "module": lambda c: c.node.module, "eps": lambda c: norm_eps(c.module),
    "weight": lambda c, part: None if getattr(c.module, part, None) is None else _numpy(getattr(c.module, part)),
    "function": lambda c: c.node.attr("function", type(c.module).__name__),
    "buffer": lambda c, name: _numpy(getattr(c.module, name)),
    "ids": lambda c, name: getattr(c.trace.token_data(), name).numpy(),
    "table_row": lambda c, row: as_f64(c.module.weight[int(row)]), "cache": lambda c, name: c.trace.cache[name],
    "token": lambda c, i: c.token(int(i)), "token_text": lambda c, i: c.trace.tokens[int(i)],
    "row": lambda c, i, of=None: c.row(int(i), of), "mask_bias": _mask_bias,
    "head_name": lambda c, h, heads, count: head_name(h, heads, count),
}
_NUMBER_WORDS = {  # what is computed from it
    "at": _at, "act": _activation, "zeroed": _zeroed, "linspace": lambda c, a, b, n: np.linspace(a, b, int(n)),
    "clip": lambda c, x, low, high: np.clip(x, low, high), "sum": lambda c, v: _left_to_right(v),
    "fsum": lambda c, v: math.fsum(np.ravel(v).tolist()), "mean": lambda c, v: _left_to_right(v) / np.size(v),
    "dot": lambda c, u, v: _left_to_right(np.ravel(u) * np.ravel(v)), "max_of": lambda c, v: float(np.max(v)),
    "len": lambda c, v: len(v), "str": lambda c, x: str(x), "int": lambda c, x: int(x),
    "list": lambda c, *items: np.asarray(items, np.float64), "in": lambda c, x, items: x in list(items),
}
_STEP_WORDS = {  # what a tour chapter's step reads (tour/narration.py Step)
    "mine": lambda s: s.mine, "chosen": lambda s: s.token, "where": lambda s: s.where,
    "heads": lambda s: s.trace.num_heads, "length": lambda s: len(s.trace.tokens), "tok": lambda s, i: s.tok(int(i)),
    "cosines": lambda s: s.cosines, "lengths": lambda s: s.lengths,  # the residual stream's (tour/narration.py)
}
_VECTOR_WORDS = {  # what a narrator finds in a row or a step
    "argmax": lambda c, v, allowed=None: _first(v, allowed, np.argmax, -np.inf),
    "argmin": lambda c, v, allowed=None: _first(v, allowed, np.argmin, np.inf),
    "top": lambda c, v, k: np.argsort(-np.ravel(v), kind="stable")[:int(k)],
    "seen": lambda c, v: np.isfinite(v) & (np.asarray(v) > MASKED_BELOW),
    "std": lambda c, v: float(np.std(np.asarray(v, np.float64))),
    "norm": lambda c, v: float(np.linalg.norm(np.asarray(v, np.float64))), "size": lambda c, v: int(np.size(v)),
    "ndim": lambda c, v: int(np.ndim(v)), "flat": lambda c, v: np.ravel(np.asarray(v, np.float64)),
    "min_of": lambda c, v: float(np.min(v)), "width": lambda c, v: int(np.shape(v)[-1]),
    "finite": lambda c, v: _finite(v),
    "shape_text": lambda c, v: str(tuple(np.shape(v))),
}
_FIGURE_WORDS = {**FIGURE_WORDS,  # what a figure's template fills its leaves with (figures/template.py)
                 "part": lambda c, flat, counts, k: _part(flat, counts, int(k))}
_WORDS = {**_CELL_WORDS, **_NUMBER_WORDS, **_STEP_WORDS, **_VECTOR_WORDS, **_FIGURE_WORDS}


def _finite(values) -> np.ndarray:
    """The numbers that are not NaN or infinite, flat (a single 0 where there are none)."""
    flat = np.ravel(np.asarray(values, np.float64))
    flat = flat[np.isfinite(flat)]
    return flat if flat.size else np.zeros(1)


def _part(flat, counts, k: int) -> np.ndarray:
    """The k-th run of `flat`, cut into runs of `counts` (flattened) one after another."""
    counts = np.ravel(np.asarray(counts)).astype(int)
    start = int(counts[:k].sum())
    return np.asarray(flat)[start: start + counts[k]]


def _first(values, allowed, find, fill) -> int:
    """The first index of the largest (or smallest) of `values`, flattened, among those `allowed` (all if None)."""
    values = np.ravel(np.asarray(values, np.float64))
    return int(find(values if allowed is None else np.where(np.ravel(allowed), values, fill)))


def _plain(value):
    """numpy's scalars as Python's (an int prints as one), arrays as float64 arrays, the rest as it is."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.dtype != np.float64:
        return value.astype(np.float64)
    return value
