"""Positions: rotary angles and the rotation of queries and keys (RoFormer), DeBERTa's relative dot products, and
a learnt bias per bucket of distance (MPNet)."""
from __future__ import annotations

import torch

from .recipe import Recipe, call, cell, fmt, total, var, when
from .record import Figure, Op
from .telling import Telling, relation, row_story, step, tells


def compute_angles(node, inputs, module, tokens):
    """position × frequency, (T, d_h / 2), as the model's rotary module computes its cos and sin from them."""
    inv_freq = getattr(module, node.attr("inv_freq"))  # (d_h / 2,)
    return torch.arange(tokens.length)[:, None].float() * inv_freq[None, :].float()


def compute_rotate(node, inputs, module, tokens):
    """Rotary embedding: dimension m is paired with m + d_h / 2 and the pair turned by its angle."""
    x, angles = inputs  # (h, T, d_h), (T, d_h / 2)
    both = torch.cat((angles, angles), dim=-1)  # (T, d_h)
    cos, sin = both.cos() * node.attr("scaling", 1.0), both.sin() * node.attr("scaling", 1.0)
    half = x.shape[-1] // 2
    rotated_half = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated_half * sin


def compute_relative_dot(node, inputs, module, tokens):
    """DeBERTa's position terms, (h, T, T): c2p[i, j] = q_i · Kʳ[δ(i, j)] / scale, and p2c[i, j] =
    k_j · Qʳ[−δ(j, i)] / scale, each relative vector gathered by the bucketed distance, as the model gathers it."""
    content, relative, distance = inputs  # (h, T, d_h), (h, 2k, d_h), (T, T) bucketed i − j
    span = relative.shape[1] // 2
    h, T = content.shape[0], content.shape[1]
    sign = 1 if node.attr("direction") == "c2p" else -1
    row = torch.clamp(sign * distance + span, 0, 2 * span - 1).expand(h, T, T)
    gathered = torch.gather(torch.matmul(content, relative.transpose(-1, -2)), -1, row)
    return (gathered if sign == 1 else gathered.transpose(-1, -2)) / node.attr("scale")


def compute_gather_bias(node, inputs, module, tokens):
    return module(inputs[0]).permute(2, 0, 1)  # a (buckets, h) table at each pair's bucket: (h, T, T)


def rotated(node, graph, module) -> Recipe:
    """x[m] cos θ − x[m + d_h/2] sin θ (first half) or x[m] cos θ + x[m − d_h/2] sin θ (second half), θ the pair's
    angle at this token's position."""
    let = {"t": cell.at(0), "m": cell.at(1), "x": cell.input(0)[cell.head, var.t], "half": call("len", var.x) // 2,
           "pair": var.m % var.half, "other": var.pair + var.half, "theta": cell.input(1)[var.t, var.pair],
           "scaling": node.attr("scaling", 1.0), "cos": call("cos", var.theta) * var.scaling,
           "sin": call("sin", var.theta) * var.scaling, "first": var.m < var.half,
           "partner": when(var.first, var.m + var.half, var.m - var.half), "sign": when(var.first, "−", "+"),
           "xm": var.x[var.m], "xp": var.x[var.partner], "turned": var.xm * var.cos,
           "added": when(var.first, -1.0, 1.0) * var.xp * var.sin, "sum": var.turned + var.added,
           "before": call("list", var.x[var.pair], var.x[var.other])}
    return Recipe(
        let=let, formula=fmt("θ = {theta:num} rad: {xm:num} × {cos:num} {sign} {xp:num} × {sin:num} = {sum:num}"),
        terms=((fmt("x[{m}]·cos θ"), var.turned), (fmt("{sign}x[{partner}]·sin θ"), var.added)),
        inputs={"pair": var.before, "angle": var.theta, "position": var.t},
        labels={"token": cell.token(var.t), "dimension": fmt("{m} (pair {pair}: {pair} and {other})")},
        figure={"before": var.before, "angle": var.theta,
                "after": call("list", var.before[0] * var.cos - var.before[1] * var.sin,
                              var.before[1] * var.cos + var.before[0] * var.sin)})


def angled(node, graph, module) -> Recipe:
    """position × frequency."""
    return Recipe(let={"t": cell.at(0), "m": cell.at(1), "frequency": call("buffer", node.attr("inv_freq"))[var.m],
                       "angle": var.t * var.frequency},
                  formula=fmt("{t} × {frequency:.6g} = {angle:num} rad"), value=var.angle,
                  inputs={"position": var.t, "frequency": var.frequency},
                  labels={"token": cell.token(var.t), "pair": call("str", var.m)})


def relative(node, graph, module) -> Recipe:
    """DeBERTa's c2p (q_i · Kʳ[δ(i, j)]) and p2c (Qʳ[−δ(j, i)] · k_j), each / scale: the relative vector is
    gathered by the bucketed distance of the pair."""
    content, positions, distance = cell.input(0), cell.input(1), cell.input(2)
    let = {"i": cell.at(0), "j": cell.at(1), "scale": node.attr("scale"), "span": call("len", positions[0]) // 2}
    if node.attr("direction") == "c2p":
        let.update(delta=distance[var.i, var.j], r=call("clip", var.delta + var.span, 0, 2 * var.span - 1),
                   a=content[cell.head, var.i], b=positions[cell.head, var.r])
        said = "q_{i} · Kʳ[δ = {delta}]"
    else:  # the row read is span − δ(j, i): the query's offset from the key
        let.update(delta=-distance[var.j, var.i], r=call("clip", var.delta + var.span, 0, 2 * var.span - 1),
                   a=positions[cell.head, var.r], b=content[cell.head, var.j])
        said = "Qʳ[δ = {delta}] · k_{j}"
    let.update(products=var.a * var.b / var.scale, dot=call("dot", var.a, var.b), sum=total(var.products))
    return Recipe(let=let, formula=fmt(said + " / {scale:.4g} = {dot:num} / {scale:.4g} = {sum:num}"),
                  terms=(("a[{k}]·b[{k}]/{scale:.4g}", var.products),),
                  inputs={"query": var.a, "key": var.b, "scale": var.scale, "distance": var.delta, "row": var.r},
                  labels={"query": cell.token(var.i), "key": cell.token(var.j)})


def biased(node, graph, module) -> Recipe:
    """A learnt number per head at the pair's bucket of distance."""
    return Recipe(let={"module": cell.module, "i": cell.at(0), "j": cell.at(1), "h": cell.head,
                       "bucket": cell.input(0)[var.i, var.j],
                       "value": cell.weight()[var.bucket, var.h], "distance": var.j - var.i},
                  formula=fmt("{module}.weight[bucket {bucket}, head {h}] = {value:num} (key {j} is {distance:+d} "
                              "tokens from query {i})"),
                  value=var.value, inputs={"bucket": var.bucket, "distance": var.distance},
                  labels={"query": cell.token(var.i), "key": cell.token(var.j)})


@tells(turned="Each pair of dimensions is turned by an angle that grows with the position: {me} is at position "
               "{position}.")
def narrate_rotation(node, graph, module, say) -> Telling:
    return Telling({}, (say("turned", me=step.me, position=step.token), row_story(node.title)))


@tells(largest="{where}, for query {me} the largest term is with key {best}{relation} ({term:.2f}); it depends on "
               "how far apart they are, not on what they say.")
def narrate_relative(node, graph, module, say) -> Telling:
    row = step.mine[step.token]
    best = call("argmax", row)
    return Telling({}, (say("largest", where=step.where, me=step.me, best=step.tok(best),
                            relation=relation(step.token, best), term=row[best]),))


ROTARY_ANGLES = Op("rotary_angles", "the rotation angle of each pair of dimensions: position × frequency",
                   compute_angles,
                   recipe=angled, narrate=narrate_rotation)


ROTATION = Op("rotation", "a rotation of each pair of dimensions by its angle (rotary positions)", compute_rotate,
              recipe=rotated, narrate=narrate_rotation, drawn_as=Figure.ARROWS)


RELATIVE_DOT = Op("relative_dot", "a gather by relative distance: a vector's dot product with the relative "
                                  "vector at the bucketed distance of the pair, scaled", compute_relative_dot,
                  recipe=relative, narrate=narrate_relative, drawn_as=Figure.TERMS)


GATHER_BIAS = Op("gather_bias", "a gather by relative distance: a learnt number per head for each pair's bucket",
                 compute_gather_bias,
                 recipe=biased, narrate=narrate_relative)
