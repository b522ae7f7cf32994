"""Sums and linear maps: a sum of inputs (the embeddings), a residual add, a linear map (one term per input
dimension and a bias), and the heads put side by side again."""
from __future__ import annotations

import math

import numpy as np
from torch.nn import functional as F

from .heads import merge_heads, split_heads
from .record import Figure, Op, Series
from .telling import by_distance, row_story, tells
from .worked import Worked, as_f64, num, plus, token_labels


def compute_add(node, inputs, module, tokens):
    total = inputs[0]
    for term in inputs[1:]:
        total = total + term  # in the order the model adds them
    return total


def compute_linear(node, inputs, module, tokens):
    """x Wᵀ + b; `token`: only that token's row (the pooler); `rows`: a slice of a fused matrix's outputs
    (ModernBERT's Wqkv and Wi); `heads`: the output split into heads."""
    x = inputs[0] if node.attr("token") is None else inputs[0][node.attr("token")]
    y = module(x) if node.attr("rows") is None else F.linear(x, *weight_and_bias(node, module))
    return y if node.attr("heads") is None else split_heads(y, node.attr("heads"))


def weight_and_bias(node, module):
    """The W (F, d) and b (F,) or None that a linear node applies: a fused matrix's rows where it says so."""
    start, stop = node.attr("rows") or (0, module.weight.shape[0])
    return module.weight[start:stop], None if module.bias is None else module.bias[start:stop]


def compute_merge(node, inputs, module, tokens):
    return merge_heads(inputs[0])


def explain_added(cell) -> Worked:
    """A residual add or a sum of embeddings: one term per input."""
    terms = [(source, float(cell.input(k)[cell.index])) for k, source in enumerate(cell.node.inputs)]
    formula = " + ".join(f"{num(v)} ({label})" for label, v in terms) + f" = {num(math.fsum(v for _, v in terms))}"
    return Worked(formula, {label: v for label, v in terms}, math.fsum(v for _, v in terms), terms,
                  token_labels(cell))


def explain_linear(cell) -> Worked:
    """x · W[o, :] + b[o]: the row of the input times one row of the weight (nn.Linear keeps W as out × in)."""
    node, module = cell.node, cell.module
    x = cell.input(0)
    token = node.attr("token")
    if token is not None:
        (o,), t = cell.at, token
    elif cell.head is not None:
        (t, j), d_h = cell.at, cell.array.shape[-1]
        o = cell.head * d_h + j
    else:
        t, o = cell.at
    row = (node.attr("rows") or (0,))[0] + o  # the row of a fused matrix (ModernBERT's Wqkv, Wi)
    x_row, w_row = as_f64(x[t]), as_f64(module.weight[row])
    products = x_row * w_row
    terms = [(f"x[{k}]·W[{row},{k}]", float(p)) for k, p in enumerate(products)]
    bias = None if module.bias is None else float(as_f64(module.bias[row]))
    if bias is not None:
        terms.append(("bias", bias))
    weight = f"{node.module}.weight"
    formula = (f"Σ_k x[{t}, k] · {weight}[{row}, k] over {len(products)} dimensions = {num(products.sum())}"
               + (f"; {plus(bias)} (bias) = {num(products.sum() + bias)}" if bias is not None else ""))
    labels = {"row": cell.row(t, x), "output": f"{row} of {weight}"}
    inputs = {"x": x_row, "weight": w_row, "bias": 0.0 if bias is None else bias, "token": t, "row": row}
    return Worked(formula, inputs, math.fsum(v for _, v in terms), terms, labels)


def explain_merge_heads(cell) -> Worked:
    """Dimension c of the context is dimension c mod d_h of head c // d_h's context."""
    t, c = cell.at
    d_h = cell.input(0).shape[-1]
    head, d = divmod(c, d_h)
    value = float(cell.input(0)[head, t, d])
    formula = f"context[{t}, {c}] = head {head}'s context[{t}, {d}] = {num(value)} (head {head} fills " \
              f"dimensions {head * d_h}–{(head + 1) * d_h - 1})"
    return Worked(formula, {"head": head, "dim": d}, value, labels=token_labels(cell))


@tells(map="{each} {size} numbers times a learnt matrix{bias}.", token="Each token's",
       distance="Each relative distance's", biased=", plus a bias", unbiased=" (no bias)")
def narrate_linear(s, say) -> list[str]:
    x = np.asarray(s.input(0))
    linear = s.trace.loaded.base.get_submodule(s.node.module)
    bias = say("biased" if linear.bias is not None else "unbiased")
    each = say("distance" if by_distance(s) else "token")
    return [say("map", each=each, size=x.shape[-1], bias=bias)] + row_story(s, s.node.title)


@tells(merged="{heads} heads × {each} numbers = {width} numbers per token.")
def narrate_merge(s, say) -> list[str]:
    heads = s.trace.num_heads
    return [say("merged", heads=heads, each=s.array.shape[-1] // heads, width=s.array.shape[-1])]


@tells(lengths="For {me}: the vector carried past has length {carried:.1f}, the sub-layer adds one of length "
               "{added:.1f}, and their sum has length {total:.1f}.")
def narrate_residual(s, say) -> list[str]:
    carried, added = (np.linalg.norm(np.asarray(s.input(i), np.float64)[s.token]) for i in range(2))  # in float64,
    total = np.linalg.norm(np.asarray(s.array, np.float64)[s.token])  # as a live site's browser computes them
    return [say("lengths", me=s.me, carried=carried, added=added, total=total)]


ADD = Op("add", "the sum of its inputs", compute_add,
         explain=explain_added, drawn_as=Figure.TERMS, series=Series.SUM)


RESIDUAL_ADD = Op("residual_add", "a residual add: the block's input carried past it, plus what it computed",
                  compute_add,
                  explain=explain_added, narrate=narrate_residual, drawn_as=Figure.TERMS, series=Series.SUM)


LINEAR = Op("linear", "a linear map: x Wᵀ + b", compute_linear,
            explain=explain_linear, narrate=narrate_linear, drawn_as=Figure.TERMS, series=Series.COMPUTED)


MERGE_HEADS = Op("merge_heads", "the heads side by side again", compute_merge,
                 explain=explain_merge_heads, narrate=narrate_merge)
