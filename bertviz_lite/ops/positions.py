"""Positions: rotary angles and the rotation of queries and keys (RoFormer), DeBERTa's relative dot products, and
a learnt bias per bucket of distance (MPNet)."""
from __future__ import annotations

import math

import numpy as np
import torch

from .record import Figure, Op
from .telling import relation, row_story, tells
from .worked import Worked, as_f64, num


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


def explain_rotation(cell) -> Worked:
    """x[m] cos θ − x[m + d_h/2] sin θ (first half) or x[m] cos θ + x[m − d_h/2] sin θ (second half), θ the pair's
    angle at this token's position."""
    (t, m), h, node = cell.at, cell.head, cell.node
    x, angles = as_f64(cell.input(0)[h, t]), as_f64(cell.input(1))
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


def explain_rotary_angles(cell) -> Worked:
    """position × frequency."""
    t, m = cell.at
    frequency = float(as_f64(getattr(cell.module, cell.node.attr("inv_freq"))[m]))
    return Worked(f"{t} × {frequency:.6g} = {num(t * frequency)} rad", {"position": t, "frequency": frequency},
                  t * frequency, labels={"token": cell.token(t), "pair": str(m)})


def explain_relative_dot(cell) -> Worked:
    """DeBERTa's c2p (q_i · Kʳ[δ(i, j)]) and p2c (Qʳ[−δ(j, i)] · k_j), each / scale: the relative vector is
    gathered by the bucketed distance of the pair."""
    (i, j), h, node = cell.at, cell.head, cell.node
    content, relative, distance = cell.input(0), cell.input(1), cell.input(2)
    span, scale = relative.shape[1] // 2, node.attr("scale")
    if node.attr("direction") == "c2p":
        delta = int(distance[i, j])
        row = int(np.clip(delta + span, 0, 2 * span - 1))
        query, key = as_f64(content[h, i]), as_f64(relative[h, row])
        said = f"q_{i} · Kʳ[δ = {delta}]"
    else:
        delta = int(distance[j, i])
        row = int(np.clip(-delta + span, 0, 2 * span - 1))
        query, key = as_f64(relative[h, row]), as_f64(content[h, j])
        delta = -delta  # the row read is span − δ(j, i): the query's offset from the key
        said = f"Qʳ[δ = {delta}] · k_{j}"
    products = query * key / scale
    terms = [(f"a[{d}]·b[{d}]/{scale:.4g}", float(p)) for d, p in enumerate(products)]
    formula = f"{said} / {scale:.4g} = {num(float(query @ key))} / {scale:.4g} = {num(float(products.sum()))}"
    inputs = {"query": query, "key": key, "scale": scale, "distance": delta, "row": row}
    return Worked(formula, inputs, math.fsum(products), terms, {"query": cell.token(i), "key": cell.token(j)})


def explain_gather_bias(cell) -> Worked:
    """A learnt number per head at the pair's bucket of distance."""
    (i, j), h = cell.at, cell.head
    bucket = int(cell.input(0)[i, j])
    value = float(as_f64(cell.module.weight[bucket, h]))
    return Worked(f"{cell.node.module}.weight[bucket {bucket}, head {h}] = {num(value)} (key {j} is {j - i:+d} "
                  f"tokens from query {i})", {"bucket": bucket, "distance": j - i}, value,
                  labels={"query": cell.token(i), "key": cell.token(j)})


@tells(turned="Each pair of dimensions is turned by an angle that grows with the position: {me} is at position "
               "{position}.")
def narrate_rotation(s, say) -> list[str]:
    return [say("turned", me=s.me, position=s.token)] + row_story(s, s.node.title)


@tells(largest="{where}, for query {me} the largest term is with key {best}{relation} ({term:.2f}); it depends on "
               "how far apart they are, not on what they say.")
def narrate_relative(s, say) -> list[str]:
    row = np.asarray(s.mine[s.token], dtype=np.float64)
    best = int(np.argmax(row))
    return [say("largest", where=s.where, me=s.me, best=s.tok(best), relation=relation(s.token, best),
                term=row[best])]


ROTARY_ANGLES = Op("rotary_angles", "the rotation angle of each pair of dimensions: position × frequency",
                   compute_angles,
                   explain=explain_rotary_angles, narrate=narrate_rotation)


ROTATION = Op("rotation", "a rotation of each pair of dimensions by its angle (rotary positions)", compute_rotate,
              explain=explain_rotation, narrate=narrate_rotation, drawn_as=Figure.ARROWS)


RELATIVE_DOT = Op("relative_dot", "a gather by relative distance: a vector's dot product with the relative "
                                  "vector at the bucketed distance of the pair, scaled", compute_relative_dot,
                  explain=explain_relative_dot, narrate=narrate_relative, drawn_as=Figure.TERMS)


GATHER_BIAS = Op("gather_bias", "a gather by relative distance: a learnt number per head for each pair's bucket",
                 compute_gather_bias,
                 explain=explain_gather_bias, narrate=narrate_relative)
