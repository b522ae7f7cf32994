"""Attention's own operations: the scaled dot products of queries and keys, the mask added to them, the softmax
of each row, and the weighted sum of the values (each query head reading its key/value head)."""
from __future__ import annotations

import torch

from .asking import Asking
from .heads import head_name, key_head, shared_heads
from .reading import mask_bias
from .recipe import X, Recipe, call, cell, fmt, literal, total, var, when
from .record import Figure, Op, from_recipe
from .sums import compute_add
from .telling import Telling, relation, said, step, tells
from .worked import MASKED_BELOW, Worked, as_f64


def compute_scaled_dot(node, inputs, module, tokens):
    q, k = inputs  # (h, T, d_h), (h_kv, T, d_h): h_kv < h with grouped-query attention
    return torch.matmul(q, shared_heads(k, q.shape[0]).transpose(-1, -2)) / node.attr("scale")  # (h, T_q, T_k)


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
    (grouped-query attention: "key/value head 1 of 2, shared by query heads 2–3")."""
    heads, shared = cell.input(0).shape[0], cell.input(k).shape[0]
    return key_head(cell.head, heads, shared), "" if shared == heads else f" ({head_name(cell.head, heads, shared)})"


def _read_head(queries: X, keys: X) -> dict:
    """The key/value head the cell's query head reads (`heads.key_head`), and words for it where it is shared."""
    return {"kv_head": cell.head // (call("len", queries) // call("len", keys)),
            "shared": when(call("len", queries) == call("len", keys), "",
                           fmt(" (") + call("head_name", cell.head, call("len", queries), call("len", keys)) + ")")}


def _dot(queries: X, keys: X) -> dict:
    """q_i · k_j / scale of the cell (i, j), one product per head dimension."""
    return {**_read_head(queries, keys), "i": cell.at(0), "j": cell.at(1), "qi": queries[cell.head, var.i],
            "kj": keys[var.kv_head, var.j], "products": var.qi * var.kj / var.scale, "dot": call("dot", var.qi, var.kj),
            "scaled": var.dot / var.scale}


_DOT_SAID = "q_{i} · k_{j}{shared} / {scale:.4g} = {dot:num} / {scale:.4g} = {scaled:num}"
_DOT_TERM = "q[{k}]·k[{k}]/{scale:.4g}"
_QUERY_KEY = {"query": cell.token(cell.at(0)), "key": cell.token(cell.at(1))}


def scaled_dot(node, graph, module) -> Recipe:
    """q_i · k_j / scale, one term per head dimension; k from the key head this query head reads."""
    return Recipe(let={"scale": node.attr("scale"), **_dot(cell.input(0), cell.input(1))}, formula=fmt(_DOT_SAID),
                  terms=((_DOT_TERM, var.products),),
                  inputs={"query": var.qi, "key": var.kj, "scale": var.scale, "key_head": var.kv_head},
                  labels=_QUERY_KEY)


def masked(node, graph, module) -> Recipe:
    """The scores: a scaled dot product's terms per dimension, each added step as one term under its key, and the
    mask (0, or the most negative float where the query may not see the key)."""
    let, said, terms, inputs = {}, [], [], {}
    for k, source in enumerate(node.inputs):
        made = graph.node(source) if source in graph else None
        if made is not None and made.op is SCALED_DOT:
            let.update(scale=made.attr("scale"), **_dot(call("source", made.inputs[0]), call("source", made.inputs[1])))
            said.append(_DOT_SAID)
            terms.append((_DOT_TERM, var.products))
            inputs.update(query=var.qi, key=var.kj, scale=var.scale)
        else:
            let[f"v{k}"] = cell.input(k)[cell.head, cell.at(0), cell.at(1)]
            said.append(f"{{v{k}:{'plus' if said else 'num'}}} ({literal(source.removeprefix('attn.'))})")
            terms.append((source, getattr(var, f"v{k}")))
    let["mask"] = call("mask_bias", cell.at(0), cell.at(1))
    return Recipe(let=let, formula=fmt("; ".join(said) + "; ") + when(var.mask == 0, "+ 0 (the key is not masked)",
                                                                        "+ −∞ (the key is masked)")
                  + fmt(" = {terms_sum:num}"),
                  terms=(*terms, ("mask", var.mask)), inputs={**inputs, "mask": var.mask}, labels=_QUERY_KEY)


def softmaxed(node, graph, module) -> Recipe:
    """exp(s_ij − max) / Σ_k exp(s_ik − max) over the query's row of scores."""
    return Recipe(
        let={"i": cell.at(0), "j": cell.at(1), "row": cell.input(0)[cell.head, var.i], "top": call("max_of", var.row),
             "exps": call("exp", var.row - var.top), "total": total(var.exps), "p": var.exps[var.j] / var.total,
             "s": var.row[var.j], "e": var.exps[var.j]},
        formula=fmt("exp({s:num} − {top:num}) / Σ_k exp(s_{i},k − {top:num}) = {e:num} / {total:num} = {p:num}"),
        value=var.p, inputs={"scores_row": var.row, "max": var.top, "exp_row": var.exps, "sum_exp": var.total},
        labels=_QUERY_KEY)


def weighted(node, graph, module) -> Recipe:
    """Σ_j p_ij · v_j[d], one term per key; under an intervention, a zeroed value's term is 0 and a head switched
    off gives 0 (the formula says which)."""
    zeroed, off = list(node.attr("zeroed_values", ())), list(node.attr("heads_off", ()))
    values = cell.input(1)[var.kv_head, :, var.d]
    let = {**_read_head(cell.input(0), cell.input(1)), "i": cell.at(0), "d": cell.at(1),
           "probs": cell.input(0)[cell.head, var.i],
           "values": call("zeroed", values, call("list", *zeroed)) if zeroed else values,
           "n": call("len", var.probs), "sum": call("dot", var.probs, var.values),
           "h": cell.head, "off": call("in", cell.head, call("list", *off)) if off else False}
    label = (fmt("p[{i},{k}]·v[{k},{d}] (") + call("token_text", var.k)
             + (when(call("in", var.k, call("list", *zeroed)), ", value zeroed", "") if zeroed else "") + ")")
    zeroed_words = f", the value of token {', '.join(map(str, zeroed))} zeroed in this run" if zeroed else ""
    return Recipe(
        let=let, formula=when(var.off, fmt("head {h} is switched off in this run: its context is 0 (the "
                                           "weighted sum is not added)"),
                              fmt(f"Σ_j p[{{i}}, j] · v[j, {{d}}]{{shared}} over {{n}} keys{zeroed_words} = "
                                  "{sum:num}")),
        value=when(var.off, 0.0, call("terms_sum")), terms=((label, when(var.off, None, var.probs * var.values)),),
        inputs={"probs_row": var.probs, "values": var.values, "value_head": var.kv_head},
        labels={"query": cell.token(var.i), "dimension": call("str", var.d)})


def explain_scaled_dot(c) -> Worked:
    """The recipe's account, and the query's whole row (BertViz's neuron view) for the app's figure."""
    worked = from_recipe(c)
    worked.figure["row"] = query_row(c, c.head, c.at[0])
    return worked


def explain_mask(c) -> Worked:
    """The recipe's account, and the whole row of the scaled dot product it adds, where it adds one."""
    worked = from_recipe(c)
    dots = [c.input_node(k) for k in range(len(c.node.inputs)) if (n := c.input_node(k)) and n.op is SCALED_DOT]
    if dots:
        worked.figure["row"] = query_row(c.at_node(dots[0]), c.head, c.at[0])
    return worked


def query_row(cell, head: int, i: int) -> dict:
    """BertViz's neuron view, with numbers: q_i ⊙ k_j / scale for every key j (T, d_h), their sums, and, where the
    block has them, the query's scores and probabilities (the whole row of the softmax's explanation)."""
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


def _highest(say) -> X:
    """The chosen query's highest and lowest score among the keys it may see."""
    row, seen = step.mine[step.token], call("seen", step.mine[step.token])
    best, worst = call("argmax", row, seen), call("argmin", row, seen)
    return say("highest", where=step.where, me=step.me, best=step.tok(best), high=row[best], worst=step.tok(worst),
               low=row[worst])


_HIGHEST = "{where}, query {me} scores key {best} highest ({high:.2f}) and {worst} lowest ({low:.2f})."


@tells(highest=_HIGHEST, next="The softmax that follows turns these scores into weights.")
def narrate_scores(node, graph, module, say) -> Telling:
    return Telling({}, (_highest(say), say("next")))


@tells(none="Nothing is masked here: every one of the {total} query–key pairs may be seen.",
       some="{masked} of the {total} query–key pairs are masked (blank in the figure): those keys are out of the "
            "query's sight.", highest=_HIGHEST)
def narrate_mask(node, graph, module, say) -> Telling:
    let = {"masked": call("int", call("sum", step.mine <= MASKED_BELOW)), "total": call("size", step.mine)}
    return Telling(let, (when(var.masked == 0, say("none"), say("some")), _highest(say)))


@tells(row="{where}, {me} puts {weight:.2f} of its attention on {best}{relation}; its row adds up to {total:.2f}.",
       strongest="The strongest weight of this head: {query} → {key}, {weight:.2f}.")
def narrate_softmax(node, graph, module, say) -> Telling:
    row = step.mine[step.token]
    let = {"best": call("argmax", row), "strongest": call("argmax", step.mine), "keys": call("width", step.mine)}
    query, key = var.strongest // var.keys, var.strongest % var.keys
    return Telling(let, (say("row", where=step.where, me=step.me, weight=row[var.best], best=step.tok(var.best),
                             relation=relation(step.token, var.best), total=call("sum", row)),
                         say("strongest", query=step.tok(query), key=step.tok(key), weight=step.mine[query, key])))


@tells(context="{where}, the context of {me} is Σ p v over every key: {terms} + … ({keys} keys).",
       term="{weight:.2f} × v({key})", between=" + ")
def narrate_context(node, graph, module, say) -> Telling:
    let = {"probs": step.input(0)[step.head, step.token]}  # (T,): the chosen head's row
    terms = call("joined", say("between"), call("top", var.probs, 3),  # equal weights: the earlier key first
                 say("term", weight=var.probs[var.k], key=step.tok(var.k)))
    return Telling(let, (say("context", where=step.where, me=step.me, terms=terms, keys=call("len", var.probs)),))


ASKS = {"sum": "{where}, the softmax comes next: what will the weights in the row of {me} add up to?",
        "sum_decides": "A softmax makes every row add up to 1: the weights of {me} add up to {total:.2f}, whatever "
                       "its scores add up to ({scores:.2f}).",
        "sum_choice": "{value:.2f}",
        "top": "{where}, which token does {me} put the most attention on?",
        "top_decides": "{me} puts {weight:.2f} of its attention on {best}{relation}."}  # a lecture's questions


def ask_row_sum(node, graph, module) -> Asking | None:
    """Before the softmax (the scores it reads): what its row will add up to. The choices are 1, what the scores
    add up to now and how many keys the row sees; the right one is the sum of the softmax of the row."""
    if not any(n.op is SOFTMAX for n in graph.consumers(node.key)):
        return None
    row = step.mine[step.token]
    seen = call("which", call("seen", row))
    let = {"seen_scores": call("taken", row, seen),
           "exps": call("exp", var.seen_scores - call("max_of", var.seen_scores)),
           "total": call("fsum", var.exps / call("sum", var.exps)), "scores": call("sum", var.seen_scores),
           "sums": call("cat", var.total, var.scores, call("len", seen))}  # (3,): the softmax's, the scores', the keys
    return Asking(let, said(ASKS["sum"], where=step.where, me=step.me), call("abs", var.sums - var.total), None,
                  said(ASKS["sum_choice"], value=var.sums[var.k]), ASKS["sum_choice"], fewest=True, line="{label}",
                  apart="{label}",  # two sums that print alike are no choice: not asked
                  decides=said(ASKS["sum_decides"], me=step.me), order=var.sums)  # the right one: nearest the sum


def ask_top_key(node, graph, module) -> Asking:
    """After the softmax: which token the chosen token attends to most (the runners-up by weight)."""
    row = step.mine[step.token]
    return Asking({"row": row}, said(ASKS["top"], where=step.where, me=step.me), var.row, 0 < var.row,
                  step.tok(var.k), "{value:.2f}",
                  decides=said(ASKS["top_decides"], me=step.me, weight=var.row[var.right], best=step.tok(var.right),
                               relation=relation(step.token, var.right)))


SCALED_DOT = Op("scaled_dot", "a scaled dot product: q_i · k_j / scale for every query and key", compute_scaled_dot,
                recipe=scaled_dot, explain=explain_scaled_dot, narrate=narrate_scores, drawn_as=Figure.TERMS, whole_row=True)


MASK = Op("mask", "the sum of its inputs plus the mask: 0 where the query may see the key, the most negative "
                  "number where it may not", compute_mask,
          recipe=masked, explain=explain_mask, narrate=narrate_mask, ask=ask_row_sum, drawn_as=Figure.TERMS,
          whole_row=True)


SOFTMAX = Op("softmax", "softmax of each row: exp(s_ij) / Σ_k exp(s_ik)", compute_softmax,
             recipe=softmaxed, narrate=narrate_softmax, ask=ask_top_key, drawn_as=Figure.SOFTMAX_ROW,
             gives_probabilities=True)


WEIGHTED_SUM = Op("weighted_sum", "a weighted sum of the values: Σ_j p_ij v_j", compute_weighted_sum,
                  recipe=weighted, narrate=narrate_context, drawn_as=Figure.TERMS)
