"""Tables and what a block starts from: the input a block is given, a table look-up (the embeddings), a learnt
table used whole (DeBERTa's relative embeddings)."""
from __future__ import annotations

from .recipe import TOKEN_LABELS, Recipe, call, cell, cell_index, fmt, var
from .record import Op, Series


def compute_given(node, inputs, module, tokens):
    raise AssertionError(f"{node.key} is given, not computed")  # evaluate.py fills it from the trace


def compute_lookup(node, inputs, module, tokens):
    return module(getattr(tokens, node.attr("ids")))  # (T, e): row ids[t] of the table


def compute_parameter(node, inputs, module, tokens):
    return module.weight.detach().clone()  # the table itself, copied so the trace does not hold the model


def looked_up(node, graph, module) -> Recipe:
    """Row id of the table."""
    return Recipe(let={"module": cell.module, "t": cell.at(0), "d": cell.at(1), "id": call("ids", node.attr("ids"))[var.t],
                       "value": call("table_row", var.id)[var.d]},
                  formula=fmt("{module}.weight[{id}, {d}] = {value:num}"), value=var.value,
                  inputs={"id": var.id, "token": call("token_text", var.t), "table": fmt("{module}.weight")},
                  labels=TOKEN_LABELS)


def read(node, graph, module) -> Recipe:
    """A learnt table's number, as it is."""
    at = ", ".join(f"{{a{k}}}" for k in range(len(node.axes)))
    return Recipe(let={"module": cell.module, **{f"a{k}": cell.at(k) for k in range(len(node.axes))},
                       "value": cell.weight()[tuple(cell.at(k) for k in range(len(node.axes)))]},
                  formula=fmt(f"{{module}}.weight[{at}] = {{value:num}}"), value=var.value,
                  inputs={"table": fmt("{module}.weight")})


def given(node, graph, module) -> Recipe:
    """A layer's input is the model's own output of the block before (what the step-through is checked against);
    the step-through's own value of that step is shown beside it."""
    return Recipe(let={"source": call("input_name", 0), "value": cell.input(0)[cell_index(node)],
                       "ours": call("cache", var.source)[cell_index(node)],
                       "difference": call("abs", var.value - var.ours)},
                  formula=fmt("the model's own output of {source} = {value:num} (the step-through computed "
                              "{ours:num}, |Δ| = {difference:.1e})"),
                  value=var.value, inputs={"from": var.source, "model": var.value, "step_through": var.ours},
                  labels=TOKEN_LABELS)


INPUT = Op("input", "what the block starts from: the previous block's output", compute_given,
           recipe=given, series=Series.INPUT)


LOOKUP = Op("lookup", "a table look-up: the row of a learnt table for each id", compute_lookup,
            recipe=looked_up)


PARAMETER = Op("parameter", "a learnt table, used as it is", compute_parameter,
               recipe=read)
