"""Attention's own operations: the scaled dot products of queries and keys, the mask added to them, the softmax
of each row, and the weighted sum of the values (each query head reading its key/value head)."""
from __future__ import annotations

import math

import numpy as np
import torch

from .heads import head_name, key_head, shared_heads
from .record import Figure, Op, Tokens
from .sums import compute_add
from .telling import relation, tells
from .worked import MASKED_BELOW, Worked, as_f64, num, plus


def compute_scaled_dot(node, inputs, module, tokens):
    q, k = inputs  # (h, T, d_h), (h_kv, T, d_h): h_kv < h with grouped-query attention
    return torch.matmul(q, shared_heads(k, q.shape[0]).transpose(-1, -2)) / node.attr("scale")  # (h, T_q, T_k)


def visible(node, tokens: Tokens) -> torch.Tensor:
    """(T, T) booleans: query i may see key j (a real token, within the window of a local layer)."""
    allowed = tokens.attention_mask.bool()[None, :].expand(tokens.length, -1)
    window = node.attr("window")
    if window is not None:
        positions = torch.arange(tokens.length)
        allowed = allowed & ((positions[:, None] - positions[None, :]).abs() <= window)
    return allowed


def mask_bias(node, tokens: Tokens, dtype: torch.dtype) -> torch.Tensor:
    """(T, T): 0 where the query may see the key, the most negative float where it may not."""
    return torch.where(visible(node, tokens), 0.0, torch.finfo(dtype).min).to(dtype)


def compute_mask(node, inputs, module, tokens):
    return compute_add(node, inputs, module, tokens) + mask_bias(node, tokens, inputs[0].dtype)  # (h, T, T)


def compute_softmax(node, inputs, module, tokens):
    return torch.softmax(inputs[0], dim=-1)


def compute_weighted_sum(node, inputs, module, tokens):
    """Σ_j p_ij v_j; an intervention (`bertviz_lite/intervening/`) sets `zeroed_values` (tokens whose value vectors
    are zero in every head, value zeroing) and `heads_off` (query heads whose context is zero, as transformers'
    old head_mask made it)."""
    probs, values = inputs  # (h, T, T), (h_kv, T, d_h)
    zeroed, off = node.attr("zeroed_values", ()), node.attr("heads_off", ())
    if zeroed:
        values = values.clone()
        values[:, list(zeroed)] = 0
    context = torch.matmul(probs, shared_heads(values, probs.shape[0]))  # (h, T, d_h)
    if off:
        context[list(off)] = 0
    return context


def shared_head(cell, k: int = 1) -> tuple[int, str]:
    """The head of input k (keys, values) that the cell's query head reads, and words for it where it differs
    (grouped-query attention: "key head 1 of 2, shared by query heads 2–3")."""
    heads, shared = cell.input(0).shape[0], cell.input(k).shape[0]
    return key_head(cell.head, heads, shared), "" if shared == heads else f" ({head_name(cell.head, heads, shared)})"


def explain_scaled_dot(cell) -> Worked:
    """q_i · k_j / scale, one term per head dimension; k from the key head this query head reads."""
    (i, j), h, scale = cell.at, cell.head, cell.node.attr("scale")
    kh, shared = shared_head(cell)
    q, k = as_f64(cell.input(0)[h, i]), as_f64(cell.input(1)[kh, j])
    products = q * k / scale
    terms = [(f"q[{d}]·k[{d}]/{scale:.4g}", float(p)) for d, p in enumerate(products)]
    dot = float(q @ k)
    formula = f"q_{i} · k_{j}{shared} / {scale:.4g} = {num(dot)} / {scale:.4g} = {num(dot / scale)}"
    return Worked(formula, {"query": q, "key": k, "scale": scale, "key_head": kh}, math.fsum(products), terms,
                  {"query": cell.token(i), "key": cell.token(j)}, {"row": query_row(cell, h, i)})


def explain_mask(cell) -> Worked:
    """The scores: a scaled dot product's terms per dimension, each added step as one term under its key, and the
    mask (0, or the most negative float where the query may not see the key)."""
    (i, j), h = cell.at, cell.head
    terms, inputs, said, row = [], {}, [], None
    for k, source in enumerate(cell.node.inputs):
        node = cell.input_node(k)
        if node is not None and node.op is SCALED_DOT:
            dot = explain_scaled_dot(cell.at_node(node))
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


def explain_softmax(cell) -> Worked:
    """exp(s_ij − max) / Σ_k exp(s_ik − max) over the query's row of scores."""
    (i, j), h = cell.at, cell.head
    row = as_f64(cell.input(0)[h, i])
    top = row.max()
    exps = np.exp(row - top)
    p = exps[j] / exps.sum()
    formula = (f"exp({num(row[j])} − {num(top)}) / Σ_k exp(s_{i},k − {num(top)}) = {num(exps[j])} / "
               f"{num(exps.sum())} = {num(p)}")
    inputs = {"scores_row": row, "max": top, "exp_row": exps, "sum_exp": exps.sum()}
    return Worked(formula, inputs, float(p), labels={"query": cell.token(i), "key": cell.token(j)})


def explain_weighted_sum(cell) -> Worked:
    """Σ_j p_ij · v_j[d], one term per key; under an intervention, a zeroed value's term is 0 and a head switched
    off gives 0 (the formula says which)."""
    (i, d), h = cell.at, cell.head
    vh, shared = shared_head(cell)
    probs, values = as_f64(cell.input(0)[h, i]), as_f64(cell.input(1)[vh, :, d]).copy()
    zeroed = list(cell.node.attr("zeroed_values", ()))
    values[zeroed] = 0.0
    if h in cell.node.attr("heads_off", ()):
        return Worked(f"head {h} is switched off in this run: its context is 0 (the weighted sum is not added)",
                      {"probs_row": probs, "values": values, "value_head": vh}, 0.0,
                      labels={"query": cell.token(i), "dimension": str(d)})
    terms = [(f"p[{i},{j}]·v[{j},{d}] ({cell.trace.tokens[j]}{', value zeroed' if j in zeroed else ''})",
              float(p * v)) for j, (p, v) in enumerate(zip(probs, values))]
    zeroed_words = f", the value of token {', '.join(map(str, zeroed))} zeroed in this run" if zeroed else ""
    formula = (f"Σ_j p[{i}, j] · v[j, {d}]{shared} over {len(probs)} keys{zeroed_words} = "
               f"{num(float(probs @ values))}")
    return Worked(formula, {"probs_row": probs, "values": values, "value_head": vh}, math.fsum(v for _, v in terms),
                  terms,
                  {"query": cell.token(i), "dimension": str(d)})


def query_row(cell, head: int, i: int) -> dict:
    """BertViz's neuron view, with numbers: q_i ⊙ k_j / scale for every key j (T, d_h), their sums, and, where the
    block has them, the query's scores and probabilities (the whole row of the explain_softmax)."""
    scale = cell.node.attr("scale")
    q, keys = as_f64(cell.input(0)[head, i]), as_f64(cell.input(1)[shared_head(cell)[0]])
    row = {"products": q[None, :] * keys / scale, "dots": keys @ q / scale}
    masks = [n for n in cell.graph.consumers(cell.node.key) if n.op is MASK]
    if masks:
        scores = masks[0]
        row["scores"] = cell.source(scores.key)[head, i]
        softmaxes = [n for n in cell.graph.consumers(scores.key) if n.op is SOFTMAX]
        if softmaxes:
            row["probs"] = cell.source(softmaxes[0].key)[head, i]
    return row


@tells(highest="{where}, query {me} scores key {best} highest ({high:.2f}) and {worst} lowest ({low:.2f}).",
       next="The softmax that follows turns these scores into weights.")
def narrate_scores(s, say) -> list[str]:
    row = np.asarray(s.mine[s.token], dtype=np.float64)
    seen = np.isfinite(row) & (row > MASKED_BELOW)
    best, worst = int(np.argmax(np.where(seen, row, -np.inf))), int(np.argmin(np.where(seen, row, np.inf)))
    return [say("highest", where=s.where, me=s.me, best=s.tok(best), high=row[best], worst=s.tok(worst),
                low=row[worst]), say("next")]


@tells(none="Nothing is masked here: every one of the {total} query–key pairs may be seen.",
       some="{masked} of the {total} query–key pairs are masked (blank in the figure): those keys are out of the "
            "query's sight.")
def narrate_mask(s, say) -> list[str]:
    masked = int((np.asarray(s.mine) <= MASKED_BELOW).sum())
    total = int(np.prod(s.mine.shape))
    said = say("none", total=total) if masked == 0 else say("some", masked=masked, total=total)
    return [said] + narrate_scores(s)[:1]


@tells(row="{where}, {me} puts {weight:.2f} of its attention on {best}{relation}; its row adds up to {total:.2f}.",
       strongest="The strongest weight of this head: {query} → {key}, {weight:.2f}.")
def narrate_softmax(s, say) -> list[str]:
    row = np.asarray(s.mine[s.token], dtype=np.float64)
    best = int(np.argmax(row))
    strongest = np.unravel_index(int(np.argmax(s.mine)), s.mine.shape)
    return [say("row", where=s.where, me=s.me, weight=row[best], best=s.tok(best), relation=relation(s.token, best),
                total=row.sum()),
            say("strongest", query=s.tok(strongest[0]), key=s.tok(strongest[1]), weight=s.mine[strongest])]


@tells(context="{where}, the context of {me} is Σ p v over every key: {terms} + … ({keys} keys).",
       term="{weight:.2f} × v({key})", between=" + ")
def narrate_context(s, say) -> list[str]:
    probs = s.trace.cache[s.graph.name(s.node.inputs[0])]
    row = np.asarray(probs[s.head][s.token], dtype=np.float64)  # (T,)
    top = np.argsort(-row, kind="stable")[:3]  # equal weights: the earlier key first
    terms = say("between").join(say("term", weight=row[j], key=s.tok(j)) for j in top)
    return [say("context", where=s.where, me=s.me, terms=terms, keys=len(row))]


SCALED_DOT = Op("scaled_dot", "a scaled dot product: q_i · k_j / scale for every query and key", compute_scaled_dot,
                explain=explain_scaled_dot, narrate=narrate_scores, drawn_as=Figure.TERMS, whole_row=True)


MASK = Op("mask", "the sum of its inputs plus the mask: 0 where the query may see the key, the most negative "
                  "number where it may not", compute_mask,
          explain=explain_mask, narrate=narrate_mask, drawn_as=Figure.TERMS, whole_row=True)


SOFTMAX = Op("softmax", "softmax of each row: exp(s_ij) / Σ_k exp(s_ik)", compute_softmax,
             explain=explain_softmax, narrate=narrate_softmax, drawn_as=Figure.SOFTMAX_ROW, gives_probabilities=True)


WEIGHTED_SUM = Op("weighted_sum", "a weighted sum of the values: Σ_j p_ij v_j", compute_weighted_sum,
                  explain=explain_weighted_sum, narrate=narrate_context, drawn_as=Figure.TERMS)
