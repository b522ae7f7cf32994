"""Tables and what a block starts from: the input a block is given, a table look-up (the embeddings), a learnt
table used whole (DeBERTa's relative embeddings)."""
from __future__ import annotations

from .record import Op, Series
from .worked import Worked, as_f64, num, token_labels


def compute_given(node, inputs, module, tokens):
    raise AssertionError(f"{node.key} is given, not computed")  # evaluate.py fills it from the trace


def compute_lookup(node, inputs, module, tokens):
    return module(getattr(tokens, node.attr("ids")))  # (T, e): row ids[t] of the table


def compute_parameter(node, inputs, module, tokens):
    return module.weight.detach().clone()  # the table itself, copied so the trace does not hold the model


def explain_lookup(cell) -> Worked:
    """Row id of the table."""
    t, d = cell.at
    ids = getattr(cell.trace.token_data(), cell.node.attr("ids"))
    row = int(ids[t])
    value = float(as_f64(cell.module.weight[row, d]))
    return Worked(f"{cell.node.module}.weight[{row}, {d}] = {num(value)}",
                  {"id": row, "token": cell.trace.tokens[t], "table": f"{cell.node.module}.weight"}, value,
                  labels=token_labels(cell))


def explain_parameter(cell) -> Worked:
    value = float(as_f64(cell.module.weight[cell.at]))
    return Worked(f"{cell.node.module}.weight[{', '.join(map(str, cell.at))}] = {num(value)}",
                  {"table": f"{cell.node.module}.weight"}, value)


def explain_given(cell) -> Worked:
    """A layer's input is the model's own output of the block before (what the step-through is checked against);
    the step-through's own value of that step is shown beside it."""
    source = cell.node.inputs[0]
    value = float(cell.input(0)[cell.index])
    ours = float(cell.trace.cache[source][cell.index])
    formula = (f"the model's own output of {source} = {num(value)} (the step-through computed {num(ours)}, "
               f"|Δ| = {abs(value - ours):.1e})")
    return Worked(formula, {"from": source, "model": value, "step_through": ours}, value, labels=token_labels(cell))


INPUT = Op("input", "what the block starts from: the previous block's output", compute_given,
           explain=explain_given, series=Series.INPUT)


LOOKUP = Op("lookup", "a table look-up: the row of a learnt table for each id", compute_lookup,
            explain=explain_lookup)


PARAMETER = Op("parameter", "a learnt table, used as it is", compute_parameter,
               explain=explain_parameter)
