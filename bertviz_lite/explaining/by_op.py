"""How each operation explains one of its cells: the numbers it was computed from, the terms that add up to it
where the operation is a sum, and the value computed again from those numbers alone (in float64), so that the
explanation checks itself against the stored value. One function per operation (`EXPLAINERS`, keyed by the op's
name, never by the family); an operation without one is computed again whole and its cell read.

Rules shared with the JSON of `bertviz-lite explain` (see docs/explaining.md): a linear map has one term per input
dimension and a `bias` term; a score one term per head dimension, a `mask` term and one term per added step under
that step's key; a context one term per key; a residual add two.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

from ..graph.ops import MASK, MASKED_BELOW, SCALED_DOT, SOFTMAX, head_name, key_head, mask_bias
from .cell import Cell

@dataclass
class Worked:
    """An operation's account of one cell."""

    formula: str
    inputs: dict
    recomputed: float
    terms: list[tuple[str, float]] = field(default_factory=list)
    labels: dict = field(default_factory=dict)
    figure: dict = field(default_factory=dict)


def num(value: float) -> str:
    """A number as a formula shows it: 4 decimals, or 4 significant digits when large; the mask's most negative
    float as −∞."""
    if value <= MASKED_BELOW:
        return "−∞"
    return f"{value:.4f}" if abs(value) < 1e4 else f"{value:.4g}"


def plus(value: float) -> str:
    """'+ 0.0532' or '− 0.0532': a term added in a formula."""
    return f"− {num(-value)}" if value < 0 else f"+ {num(value)}"


def _f64(array) -> np.ndarray:
    """float64 numbers from an array or a model's tensor (the parameters need no gradient here)."""
    return np.asarray(array.detach() if isinstance(array, torch.Tensor) else array, dtype=np.float64)


# --- sums ---------------------------------------------------------------------------------------------------


def linear(cell: Cell) -> Worked:
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
    x_row, w_row = _f64(x[t]), _f64(module.weight[row])
    products = x_row * w_row
    terms = [(f"x[{k}]·W[{row},{k}]", float(p)) for k, p in enumerate(products)]
    bias = None if module.bias is None else float(_f64(module.bias[row]))
    if bias is not None:
        terms.append(("bias", bias))
    weight = f"{node.module}.weight"
    formula = (f"Σ_k x[{t}, k] · {weight}[{row}, k] over {len(products)} dimensions = {num(products.sum())}"
               + (f"; {plus(bias)} (bias) = {num(products.sum() + bias)}" if bias is not None else ""))
    labels = {"row": cell.row(t, x), "output": f"{row} of {weight}"}
    inputs = {"x": x_row, "weight": w_row, "bias": 0.0 if bias is None else bias, "token": t, "row": row}
    return Worked(formula, inputs, math.fsum(v for _, v in terms), terms, labels)


def shared_head(cell: Cell, k: int = 1) -> tuple[int, str]:
    """The head of input k (keys, values) that the cell's query head reads, and words for it where it differs
    (grouped-query attention: "key head 1 of 2, shared by query heads 2–3")."""
    heads, shared = cell.input(0).shape[0], cell.input(k).shape[0]
    return key_head(cell.head, heads, shared), "" if shared == heads else f" ({head_name(cell.head, heads, shared)})"


def scaled_dot(cell: Cell) -> Worked:
    """q_i · k_j / scale, one term per head dimension; k from the key head this query head reads."""
    (i, j), h, scale = cell.at, cell.head, cell.node.attr("scale")
    kh, shared = shared_head(cell)
    q, k = _f64(cell.input(0)[h, i]), _f64(cell.input(1)[kh, j])
    products = q * k / scale
    terms = [(f"q[{d}]·k[{d}]/{scale:.4g}", float(p)) for d, p in enumerate(products)]
    dot = float(q @ k)
    formula = f"q_{i} · k_{j}{shared} / {scale:.4g} = {num(dot)} / {scale:.4g} = {num(dot / scale)}"
    return Worked(formula, {"query": q, "key": k, "scale": scale, "key_head": kh}, math.fsum(products), terms,
                  {"query": cell.token(i), "key": cell.token(j)}, {"row": query_row(cell, h, i)})


def relative_dot(cell: Cell) -> Worked:
    """DeBERTa's c2p (q_i · K^r[δ(i, j)]) and p2c (Q^r[−δ(j, i)] · k_j), each / scale: the relative vector is
    gathered by the bucketed distance of the pair."""
    (i, j), h, node = cell.at, cell.head, cell.node
    content, relative, distance = cell.input(0), cell.input(1), cell.input(2)
    span, scale = relative.shape[1] // 2, node.attr("scale")
    if node.attr("direction") == "c2p":
        delta = int(distance[i, j])
        row = int(np.clip(delta + span, 0, 2 * span - 1))
        query, key = _f64(content[h, i]), _f64(relative[h, row])
        said = f"q_{i} · K^r[δ = {delta}]"
    else:
        delta = int(distance[j, i])
        row = int(np.clip(-delta + span, 0, 2 * span - 1))
        query, key = _f64(relative[h, row]), _f64(content[h, j])
        delta = -delta  # the row read is span − δ(j, i): the query's offset from the key
        said = f"Q^r[δ = {delta}] · k_{j}"
    products = query * key / scale
    terms = [(f"a[{d}]·b[{d}]/{scale:.4g}", float(p)) for d, p in enumerate(products)]
    formula = f"{said} / {scale:.4g} = {num(float(query @ key))} / {scale:.4g} = {num(float(products.sum()))}"
    inputs = {"query": query, "key": key, "scale": scale, "distance": delta, "row": row}
    return Worked(formula, inputs, math.fsum(products), terms, {"query": cell.token(i), "key": cell.token(j)})


def masked_sum(cell: Cell) -> Worked:
    """The scores: a scaled dot product's terms per dimension, each added step as one term under its key, and the
    mask (0, or the most negative float where the query may not see the key)."""
    (i, j), h = cell.at, cell.head
    terms, inputs, said, row = [], {}, [], None
    for k, source in enumerate(cell.node.inputs):
        node = cell.input_node(k)
        if node is not None and node.op is SCALED_DOT:
            dot = scaled_dot(cell.at_node(node))
            terms += dot.terms
            inputs.update(query=dot.inputs["query"], key=dot.inputs["key"], scale=dot.inputs["scale"])
            said.append(dot.formula)
            row = dot.figure["row"]
        else:
            value = float(cell.input(k)[h, i, j])
            terms.append((source, value))
            said.append(f"{plus(value) if said else num(value)} ({source.removeprefix('attn.')})")
    mask = float(mask_bias(cell.node, cell.trace.token_data(), torch.float32)[i, j])
    terms.append(("mask", mask))
    inputs["mask"] = mask
    total = sum(v for _, v in terms) if mask else math.fsum(v for _, v in terms)
    formula = "; ".join(said) + f"; {plus(mask) if mask > MASKED_BELOW else '+ −∞'} (mask) = {num(total)}"
    return Worked(formula, inputs, total, terms, {"query": cell.token(i), "key": cell.token(j)},
                  {"row": row} if row is not None else {})


def weighted_sum(cell: Cell) -> Worked:
    """Σ_j p_ij · v_j[d], one term per key."""
    (i, d), h = cell.at, cell.head
    vh, shared = shared_head(cell)
    probs, values = _f64(cell.input(0)[h, i]), _f64(cell.input(1)[vh, :, d])
    terms = [(f"p[{i},{j}]·v[{j},{d}] ({cell.trace.tokens[j]})", float(p * v))
             for j, (p, v) in enumerate(zip(probs, values))]
    formula = f"Σ_j p[{i}, j] · v[j, {d}]{shared} over {len(probs)} keys = {num(float(probs @ values))}"
    return Worked(formula, {"probs_row": probs, "values": values, "value_head": vh}, math.fsum(v for _, v in terms),
                  terms,
                  {"query": cell.token(i), "dimension": str(d)})


def added(cell: Cell) -> Worked:
    """A residual add or a sum of embeddings: one term per input."""
    terms = [(source, float(cell.input(k)[cell.index])) for k, source in enumerate(cell.node.inputs)]
    formula = " + ".join(f"{num(v)} ({label})" for label, v in terms) + f" = {num(math.fsum(v for _, v in terms))}"
    return Worked(formula, {label: v for label, v in terms}, math.fsum(v for _, v in terms), terms,
                  _token_labels(cell))


# --- element-wise and row-wise ------------------------------------------------------------------------------


def softmax(cell: Cell) -> Worked:
    """exp(s_ij − max) / Σ_k exp(s_ik − max) over the query's row of scores."""
    (i, j), h = cell.at, cell.head
    row = _f64(cell.input(0)[h, i])
    top = row.max()
    exps = np.exp(row - top)
    p = exps[j] / exps.sum()
    formula = (f"exp({num(row[j])} − {num(top)}) / Σ_k exp(s_{i},k − {num(top)}) = {num(exps[j])} / "
               f"{num(exps.sum())} = {num(p)}")
    inputs = {"scores_row": row, "max": top, "exp_row": exps, "sum_exp": exps.sum()}
    return Worked(formula, inputs, float(p), labels={"query": cell.token(i), "key": cell.token(j)})


def merge_heads(cell: Cell) -> Worked:
    """Dimension c of the context is dimension c mod d_h of head c // d_h's context."""
    t, c = cell.at
    d_h = cell.input(0).shape[-1]
    head, d = divmod(c, d_h)
    value = float(cell.input(0)[head, t, d])
    formula = f"context[{t}, {c}] = head {head}'s context[{t}, {d}] = {num(value)} (head {head} fills " \
              f"dimensions {head * d_h}–{(head + 1) * d_h - 1})"
    return Worked(formula, {"head": head, "dim": d}, value, labels=_token_labels(cell))


def layer_norm(cell: Cell) -> Worked:
    """(x[d] − mean) / √(var + ε) · weight[d] + bias[d], mean and (biased) variance over the token's row."""
    t, d = cell.at
    module = cell.module
    x = _f64(cell.input(0)[t])
    mean, var = x.mean(), ((x - x.mean()) ** 2).mean()
    weight = 1.0 if module.weight is None else float(_f64(module.weight[d]))
    bias = 0.0 if getattr(module, "bias", None) is None else float(_f64(module.bias[d]))
    normed = (x[d] - mean) / math.sqrt(var + module.eps)
    formula = (f"({num(x[d])} {plus(-mean)}) / √({num(var)} + {module.eps:g}) × {num(weight)} {plus(bias)} = "
               f"{num(normed)} × {num(weight)} {plus(bias)} = {num(normed * weight + bias)}")
    inputs = {"x": x, "mean": mean, "var": var, "eps": module.eps, "weight": weight, "bias": bias}
    return Worked(formula, inputs, normed * weight + bias, labels=_token_labels(cell),
                  figure={"before": x, "after": cell.array[t], "dim": d})


def rms_norm(cell: Cell) -> Worked:
    """x[d] / √(mean(x²) + ε) · weight[d]: the token's row divided by its root mean square, not centred."""
    t, d = cell.at
    module = cell.module
    x = _f64(cell.input(0)[t])
    mean_square, eps = (x ** 2).mean(), _norm_eps(module)
    weight = float(_f64(module.weight[d]))
    normed = x[d] / math.sqrt(mean_square + eps)
    formula = (f"{num(x[d])} / √({num(mean_square)} + {eps:g}) × {num(weight)} = {num(normed)} × {num(weight)} = "
               f"{num(normed * weight)}")
    inputs = {"x": x, "mean_square": mean_square, "eps": eps, "weight": weight}
    return Worked(formula, inputs, normed * weight, labels=_token_labels(cell),
                  figure={"before": x, "after": cell.array[t], "dim": d})


def _norm_eps(module) -> float:
    """A norm's ε, whatever the module calls it (torch's RMSNorm: eps; the Llama-style ones: variance_epsilon)."""
    eps = getattr(module, "eps", None)
    if eps is None:  # torch's nn.RMSNorm with eps=None uses the dtype's machine epsilon
        eps = getattr(module, "variance_epsilon", None) or torch.finfo(module.weight.dtype).eps
    return float(eps)


def activation(cell: Cell) -> Worked:
    """f(pre), with the model's own activation function applied to the shown number."""
    pre = float(cell.input(0)[cell.index])
    name = cell.node.attr("function", type(cell.module).__name__)
    value = _apply(cell.module, pre)
    return Worked(f"{name}({num(pre)}) = {num(value)}", {"pre": pre, "function": name}, value,
                  labels=_token_labels(cell), figure=_curve(cell.module, pre))


def gated_activation(cell: Cell) -> Worked:
    """f(input half) × gate half (GeGLU, SwiGLU)."""
    pre, gate = float(cell.input(0)[cell.index]), float(cell.input(1)[cell.index])
    name = cell.node.attr("function", type(cell.module).__name__)
    acted = _apply(cell.module, pre)
    formula = f"{name}({num(pre)}) × {num(gate)} = {num(acted)} × {num(gate)} = {num(acted * gate)}"
    return Worked(formula, {"pre": pre, "gate": gate, "function": name}, acted * gate,
                  labels=_token_labels(cell), figure=_curve(cell.module, pre))


def _apply(module, value: float) -> float:
    with torch.inference_mode():
        return float(module(torch.tensor([value], dtype=torch.float32))[0])


def _curve(module, pre: float) -> dict:
    """The activation over a range around the point, for the page's figure."""
    reach = max(4.0, 1.5 * abs(pre))
    xs = torch.linspace(-reach, reach, 121)
    with torch.inference_mode():
        return {"curve_x": xs.numpy(), "curve_y": module(xs).numpy(), "point": pre}


def rotation(cell: Cell) -> Worked:
    """x[m] cos θ − x[m + d_h/2] sin θ (first half) or x[m] cos θ + x[m − d_h/2] sin θ (second half), θ the pair's
    angle at this token's position."""
    (t, m), h, node = cell.at, cell.head, cell.node
    x, angles = _f64(cell.input(0)[h, t]), _f64(cell.input(1))
    half = x.shape[0] // 2
    pair = m % half
    theta, scaling = float(angles[t, pair]), node.attr("scaling", 1.0)
    cos, sin = math.cos(theta) * scaling, math.sin(theta) * scaling
    if m < half:
        partner, sign = m + half, -1.0
    else:
        partner, sign = m - half, 1.0
    terms = [(f"x[{m}]·cos θ", x[m] * cos), (f"{'−' if sign < 0 else '+'}x[{partner}]·sin θ", sign * x[partner] * sin)]
    formula = (f"θ = {num(theta)} rad: {num(x[m])} × {num(cos)} {'−' if sign < 0 else '+'} {num(x[partner])} × "
               f"{num(sin)} = {num(terms[0][1] + terms[1][1])}")
    before = (x[pair], x[pair + half])
    after = (before[0] * cos - before[1] * sin, before[1] * cos + before[0] * sin)
    inputs = {"pair": [before[0], before[1]], "angle": theta, "position": t}
    return Worked(formula, inputs, math.fsum(v for _, v in terms), [(k, float(v)) for k, v in terms],
                  {"token": cell.token(t), "dimension": f"{m} (pair {pair}: {pair} and {pair + half})"},
                  {"before": before, "after": after, "angle": theta})


def rotary_angles(cell: Cell) -> Worked:
    """position × frequency."""
    t, m = cell.at
    frequency = float(_f64(getattr(cell.module, cell.node.attr("inv_freq"))[m]))
    return Worked(f"{t} × {frequency:.6g} = {num(t * frequency)} rad", {"position": t, "frequency": frequency},
                  t * frequency, labels={"token": cell.token(t), "pair": str(m)})


def lookup(cell: Cell) -> Worked:
    """Row id of the table."""
    t, d = cell.at
    ids = getattr(cell.trace.token_data(), cell.node.attr("ids"))
    row = int(ids[t])
    value = float(_f64(cell.module.weight[row, d]))
    return Worked(f"{cell.node.module}.weight[{row}, {d}] = {num(value)}",
                  {"id": row, "token": cell.trace.tokens[t], "table": f"{cell.node.module}.weight"}, value,
                  labels=_token_labels(cell))


def parameter(cell: Cell) -> Worked:
    value = float(_f64(cell.module.weight[cell.at]))
    return Worked(f"{cell.node.module}.weight[{', '.join(map(str, cell.at))}] = {num(value)}",
                  {"table": f"{cell.node.module}.weight"}, value)


def gather_bias(cell: Cell) -> Worked:
    """A learnt number per head at the pair's bucket of distance."""
    (i, j), h = cell.at, cell.head
    bucket = int(cell.input(0)[i, j])
    value = float(_f64(cell.module.weight[bucket, h]))
    return Worked(f"{cell.node.module}.weight[bucket {bucket}, head {h}] = {num(value)} (key {j} is {j - i:+d} "
                  f"tokens from query {i})", {"bucket": bucket, "distance": j - i}, value,
                  labels={"query": cell.token(i), "key": cell.token(j)})


def given(cell: Cell) -> Worked:
    """A layer's input is the model's own output of the block before (what the step-through is checked against);
    the step-through's own value of that step is shown beside it."""
    source = cell.node.inputs[0]
    value = float(cell.input(0)[cell.index])
    ours = float(cell.trace.cache[source][cell.index])
    formula = (f"the model's own output of {source} = {num(value)} (the step-through computed {num(ours)}, "
               f"|Δ| = {abs(value - ours):.1e})")
    return Worked(formula, {"from": source, "model": value, "step_through": ours}, value, labels=_token_labels(cell))


def recomputed(cell: Cell) -> Worked:
    """Any other operation (a family's own, such as a bucketing of distances): computed again on its inputs by the
    operation itself, its cell read."""
    with torch.inference_mode():
        inputs = [torch.from_numpy(np.asarray(cell.input(k))) for k in range(len(cell.node.inputs))]
        again = cell.node.op.compute(cell.node, inputs, cell.module, cell.trace.token_data())
    value = float(again[cell.index])
    where = {}
    if len(cell.at) == 2 and cell.array.shape[-2:] == (len(cell.trace.tokens),) * 2:
        where = {"query position": cell.at[0], "key position": cell.at[1], "i - j": cell.at[0] - cell.at[1]}
    return Worked(f"{cell.node.op.meaning}: {num(value)}", where, value)


def _token_labels(cell: Cell) -> dict:
    """A (row, dimension) cell named: the row by its token (or distance), the dimension by its number."""
    if len(cell.at) == 2:
        return {"row": cell.row(cell.at[0]), "dimension": str(cell.at[1])}
    return {"dimension": str(cell.at[0])} if len(cell.at) == 1 else {}


def query_row(cell: Cell, head: int, i: int) -> dict:
    """BertViz's neuron view, with numbers: q_i ⊙ k_j / scale for every key j (T, d_h), their sums, and, where the
    block has them, the query's scores and probabilities (the whole row of the softmax)."""
    scale = cell.node.attr("scale")
    q, keys = _f64(cell.input(0)[head, i]), _f64(cell.input(1)[shared_head(cell)[0]])
    row = {"products": q[None, :] * keys / scale, "dots": keys @ q / scale}
    masks = [n for n in cell.graph.consumers(cell.node.key) if n.op is MASK]
    if masks:
        scores = masks[0]
        row["scores"] = cell.source(scores.key)[head, i]
        softmaxes = [n for n in cell.graph.consumers(scores.key) if n.op is SOFTMAX]
        if softmaxes:
            row["probs"] = cell.source(softmaxes[0].key)[head, i]
    return row


EXPLAINERS = {"linear": linear, "scaled_dot": scaled_dot, "relative_dot": relative_dot, "mask": masked_sum,
              "weighted_sum": weighted_sum, "add": added, "residual_add": added, "softmax": softmax,
              "merge_heads": merge_heads, "layer_norm": layer_norm, "rms_norm": rms_norm, "activation": activation,
              "gated_activation": gated_activation, "rotation": rotation, "rotary_angles": rotary_angles,
              "lookup": lookup, "parameter": parameter, "gather_bias": gather_bias, "input": given}
