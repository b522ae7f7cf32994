"""Sums and linear maps: a sum of inputs (the embeddings), a residual add, a linear map (one term per input
dimension and a bias), and the heads put side by side again."""
from __future__ import annotations

from torch.nn import functional as F

from .heads import merge_heads, split_heads
from .recipe import TOKEN_LABELS, Recipe, call, cell, cell_index, fmt, literal, total, var, when
from .record import Figure, Op, Series
from .telling import Telling, by_distance, row_story, step, tells


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


def added(node, graph, module) -> Recipe:
    """A residual add or a sum of embeddings: one term per input, named by its step."""
    values = {f"v{k}": cell.input(k)[cell_index(node)] for k in range(len(node.inputs))}
    said = " + ".join(f"{{v{k}:num}} ({literal(source)})" for k, source in enumerate(node.inputs))
    return Recipe(let={**values, "total": call("fsum", call("list", *values.values()))},
                  formula=fmt(said + " = {total:num}"), value=var.total,
                  terms=tuple((source, values[f"v{k}"]) for k, source in enumerate(node.inputs)),
                  inputs={source: values[f"v{k}"] for k, source in enumerate(node.inputs)}, labels=TOKEN_LABELS)


def linear(node, graph, module) -> Recipe:
    """x · W[o, :] + b[o]: the row of the input times one row of the weight (nn.Linear keeps W as out × in); the
    pooler's only token, a head's slice of the outputs, a fused matrix's rows (ModernBERT's Wqkv, Wi) as the node
    says."""
    if node.attr("token") is not None:
        t, o = node.attr("token"), cell.at(0)
    elif node.has_head_axis:
        t, o = cell.at(0), cell.head * call("len", cell.step[0, 0]) + cell.at(1)
    else:
        t, o = cell.at(0), cell.at(1)
    biased = module.bias is not None
    return Recipe(
        let={"module": cell.module, "t": t, "r": (node.attr("rows") or (0,))[0] + o, "x": cell.input(0)[var.t],
             "w": cell.weight()[var.r],
             "b": cell.weight("bias")[var.r] if biased else 0.0, "products": var.x * var.w,
             "n": call("len", var.products), "sum": total(var.products), "biased": var.sum + var.b},
        formula=fmt("Σ_k x[{t}, k] · {module}.weight[{r}, k] over {n} dimensions = {sum:num}"
                    + ("; {b:plus} (bias) = {biased:num}" if biased else "")),
        terms=(("x[{k}]·W[{r},{k}]", var.products),) + ((("bias", var.b),) if biased else ()),
        inputs={"x": var.x, "weight": var.w, "bias": var.b, "token": var.t, "row": var.r},
        labels={"row": cell.row(var.t, cell.input(0)), "output": fmt("{r} of {module}.weight")})


def merged(node, graph, module) -> Recipe:
    """Dimension c of the context is dimension c mod d_h of head c // d_h's context."""
    return Recipe(
        let={"t": cell.at(0), "c": cell.at(1), "d_h": call("len", cell.input(0)[0, 0]), "head": var.c // var.d_h,
             "d": var.c % var.d_h, "value": cell.input(0)[var.head, var.t, var.d], "first": var.head * var.d_h,
             "last": var.first + var.d_h - 1},
        formula=fmt("context[{t}, {c}] = head {head}'s context[{t}, {d}] = {value:num} (head {head} fills "
                    "dimensions {first}–{last})"),
        value=var.value, inputs={"head": var.head, "dim": var.d}, labels=TOKEN_LABELS)


@tells(map="{each} {size} numbers times a learnt matrix{bias}.", token="Each token's",
       distance="Each relative distance's", biased=", plus a bias", unbiased=" (no bias)")
def narrate_linear(node, graph, module, say) -> Telling:
    bias = say("biased" if module.bias is not None else "unbiased")
    each = when(by_distance(), say("distance"), say("token"))
    return Telling({}, (say("map", each=each, size=call("width", step.input(0)), bias=bias), row_story(node.title)))


@tells(merged="{heads} heads × {each} numbers = {width} numbers per token.")
def narrate_merge(node, graph, module, say) -> Telling:
    width = call("width", step.array)
    return Telling({}, (say("merged", heads=step.heads, each=width // step.heads, width=width),))


@tells(lengths="For {me}: the vector carried past has length {carried:.1f}, the sub-layer adds one of length "
               "{added:.1f}, and their sum has length {total:.1f}.")
def narrate_residual(node, graph, module, say) -> Telling:
    length = lambda array: call("norm", array[step.token])  # noqa: E731 (in float64, as a live site's browser)
    return Telling({}, (say("lengths", me=step.me, carried=length(step.input(0)), added=length(step.input(1)),
                            total=length(step.array)),))


ADD = Op("add", "the sum of its inputs", compute_add,
         recipe=added, drawn_as=Figure.TERMS, series=Series.SUM)


RESIDUAL_ADD = Op("residual_add", "a residual add: the block's input carried past it, plus what it computed",
                  compute_add,
                  recipe=added, narrate=narrate_residual, drawn_as=Figure.TERMS, series=Series.SUM)


LINEAR = Op("linear", "a linear map: x Wᵀ + b", compute_linear,
            recipe=linear, narrate=narrate_linear, drawn_as=Figure.TERMS, series=Series.COMPUTED)


MERGE_HEADS = Op("merge_heads", "the heads side by side again", compute_merge,
                 recipe=merged, narrate=narrate_merge)
