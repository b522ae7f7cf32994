"""The parts that several of today's encoders share, each written once as nodes of a layer's graph:

- `rotary_attention`: queries, keys and values (from one fused matrix or three), rotary positions (Su et al. 2021,
  RoFormer: each query and key turned, pair of dimensions by pair, by an angle that grows with its position), the
  scores with an optional local window, softmax, context, the output map. Keys and values may have fewer heads
  than the queries (grouped-query attention, Ainslie et al. 2023): each key/value head is then read by
  h / h_kv neighbouring query heads (`ops.key_head`);
- `feed_forward`: act(x W_in) ⊙ (x W_gate), then W_out (GeGLU, SwiGLU; Shazeer 2020), or BERT's plain one;
- `pre_norm_layer`: the two joined in a pre-norm layer (a norm before each sub-block, none after the residual add,
  a final norm after the last layer): ModernBERT and EuroBERT;
- `add_and_norm_layer`: BERT's add & norm after each sub-block, around any attention and feed-forward: the BERT
  layout's families, and with rotary attention (`post_norm_rotary_layer`) NomicBERT, GTE and Jina-v3.

Families describe their modules in a `PreNormParts` or `PostNormParts` (or call the parts themselves) and say
nothing twice.
"""
from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from ..graph.names import WORDS
from ..graph.nodes import ModuleNames, Node, node
from ..ops import (ACTIVATION, GATED_ACTIVATION, INPUT, LAYER_NORM, LINEAR, MASK, MERGE_HEADS, RESIDUAL_ADD,
                   RMS_NORM, ROTARY_ANGLES, ROTATION, SCALED_DOT, SOFTMAX, WEIGHTED_SUM, Op)
from .records import Nodes, activation_name

LAYERS = "layers"
SHORT = {LAYER_NORM.name: "LN", RMS_NORM.name: "RMS"}  # a norm's box in the diagram


@dataclass(frozen=True)
class Projection:
    """A linear map, or the slice `rows` of a fused one's outputs (ModernBERT's Wqkv and Wi), with what it is."""

    linear: nn.Linear
    rows: tuple[int, int] | None = None
    explains: str | None = None  # "{bias}" in it says " + b" or " (no bias)", as the map has one or not
    title: str | None = None
    short: str | None = None  # its box in the diagram

    @property
    def width(self) -> int:
        """How many outputs it gives: its rows of the fused map, or all of the map's."""
        return self.linear.out_features if self.rows is None else self.rows[1] - self.rows[0]


@dataclass(frozen=True)
class Rotary:
    """Where a layer's rotation angles come from: the model's rotary module and the name of its inverse-frequency
    buffer, its base θ, and the factor its cos and sin are scaled by."""

    module: nn.Module
    inv_freq: str
    theta: float
    scaling: float = 1.0


def _projection(key: str, source: str, p: Projection, names: ModuleNames, heads: int | None = None) -> Node:
    """A linear step; its standard words say "(no bias)" where the model's map has none (NomicBERT, EuroBERT)."""
    bias = p.linear.bias is not None
    explains = None if p.explains is None else p.explains.format(bias=" + b" if bias else " (no bias)")
    if explains is None and not bias:
        explains = re.sub(r" \+ b_\w+", " (no bias)", WORDS[LAYERS][key].explains)
    return node(LAYERS, key, LINEAR, (source,), names(p.linear), explains=explains, title=p.title, short=p.short,
                heads=heads, rows=p.rows)


def head_sizes(q: Projection, k: Projection, heads: int) -> tuple[int, int]:
    """(key/value heads, head size), read off the model's own maps: the head size is W_Q's outputs per head, and
    W_K gives that many per key head."""
    d_h = q.width // heads
    return k.width // d_h, d_h


def _shared(n: Node, heads: int, kv_heads: int) -> Node:
    """A key or value node as grouped-query attention has it: h_kv heads, each read by h / h_kv query heads."""
    if kv_heads == heads:
        return n
    said = (f"{n.explains.split(', split into')[0]}, split into {kv_heads} heads" if n.op is LINEAR
            else n.explains.rstrip("."))
    return dataclasses.replace(n, axes=("h_kv", "T", "d_h"), explains=(
        f"{said}, each read by {heads // kv_heads} query heads (grouped-query attention)"))


def rotary_attention(names: ModuleNames, source: str, q: Projection, k: Projection, v: Projection,
                     out: Projection, rotary: Rotary, heads: int, kv_heads: int, head_size: int,
                     window: int | None = None) -> Nodes:
    """From the (normed) layer input `source` to the attention output: Q, K, V split into heads (K and V into
    kv_heads), rotation angles, rotated Q and K, scaled dot products, the mask (a window of `window` tokens on
    each side, or none), softmax, each head's context, the heads side by side, the output map."""
    return (
        _projection("attn.q", source, q, names, heads),
        _shared(_projection("attn.k", source, k, names, kv_heads), heads, kv_heads),
        _shared(_projection("attn.v", source, v, names, kv_heads), heads, kv_heads),
        node(LAYERS, "attn.angles", ROTARY_ANGLES, (), names(rotary.module, rotary.inv_freq), inv_freq=rotary.inv_freq,
             explains=f"position × frequency for each pair of dimensions (m and m + d_h / 2), the frequencies "
                      f"θ^(−2m / d_h) with base θ = {rotary.theta:,.0f}"),
        node(LAYERS, "attn.q_rot", ROTATION, ("attn.q", "attn.angles"), scaling=rotary.scaling),
        _shared(node(LAYERS, "attn.k_rot", ROTATION, ("attn.k", "attn.angles"), scaling=rotary.scaling), heads,
                kv_heads),
        node(LAYERS, "attn.dots", SCALED_DOT, ("attn.q_rot", "attn.k_rot"), scale=math.sqrt(head_size),
             explains="Q_rot,i · K_rot,j / √d_h: the rotated vectors, whose rotation adds to the dot product a part "
                      "that "
                     "depends on i − j alone"
                      + ("" if kv_heads == heads else "; each query head with the key head it shares")),
        node(LAYERS, "attn.scores", MASK, ("attn.dots",), window=window,
             explains="the dot products plus the mask; " + (
                 "every token attends to every token" if window is None else
                 f"keys more than {window} tokens away are masked (a local layer)")),
        node(LAYERS, "attn.probs", SOFTMAX, ("attn.scores",)),
        node(LAYERS, "attn.head_context", WEIGHTED_SUM, ("attn.probs", "attn.v")),
        node(LAYERS, "attn.context", MERGE_HEADS, ("attn.head_context",)),
        _projection("attn.out", "attn.context", out, names),
    )


def feed_forward(names: ModuleNames, source: str, act_input: Projection, gate: Projection | None,
                 activation: Callable[[torch.Tensor], torch.Tensor], activation_name: str, out: Projection) -> Nodes:
    """act(source × W_in) ⊙ (source × W_gate), then × W_out: the activated half, the half that multiplies it,
    their product, and the map back to d. Without a `gate`, BERT's act(source × W_1 + b_1) × W_2 + b_2."""
    if gate is None:
        return (_projection("ffn.in", source, act_input, names),
                node(LAYERS, "ffn.act", ACTIVATION, ("ffn.in",), names(activation), function=activation_name,
                     title=f"Feed-forward activation ({activation_name})",
                     explains=f"{activation_name} of each number of ffn.in"),
                _projection("ffn.out", "ffn.act", out, names))
    return (
        _projection("ffn.in", source, act_input, names),
        _projection("ffn.gate", source, gate, names),
        node(LAYERS, "ffn.act", GATED_ACTIVATION, ("ffn.in", "ffn.gate"), names(activation), function=activation_name,
             title="Gated activation", explains=f"{activation_name}({act_input.title or 'ffn.in'}) ⊙ "
                                                f"{gate.title or 'ffn.gate'}"),
        _projection("ffn.out", "ffn.act", out, names),
    )


def add_and_norm_layer(names: ModuleNames, attention: Nodes, attn_norm: nn.Module, ffn: Nodes,
                    ffn_norm: nn.Module) -> Nodes:
    """BERT's post-norm layer around its two sub-blocks: the layer input, the attention's nodes (from `input` to
    attn.out), add & norm, the feed-forward's nodes (from attn.norm to ffn.out), add & norm = the layer's output."""
    return (node(LAYERS, "input", INPUT), *attention,
            node(LAYERS, "attn.residual", RESIDUAL_ADD, ("input", "attn.out")),
            node(LAYERS, "attn.norm", LAYER_NORM, ("attn.residual",), names(attn_norm)),
            *ffn,
            node(LAYERS, "ffn.residual", RESIDUAL_ADD, ("attn.norm", "ffn.out")),
            node(LAYERS, "ffn.norm", LAYER_NORM, ("ffn.residual",), names(ffn_norm)))


def swiglu(mlp: nn.Module, source: str) -> tuple[Projection, Projection, nn.Module, Projection]:
    """A gate / up / down feed-forward (EuroBERT, NomicBERT, GTE): the activated map, the one it multiplies, the
    activation and the map back to d, each with its own name in the diagram."""
    return (Projection(mlp.gate_proj, title="SwiGLU gate (gate_proj)", short="W_gate",
                       explains=f"{source} × W_gate{{bias}}: what goes through the activation"),
            Projection(mlp.up_proj, title="SwiGLU up (up_proj)", short="W_up",
                       explains=f"{source} × W_up{{bias}}: what the activation is multiplied by"),
            mlp.act_fn, Projection(mlp.down_proj, explains="the gated activations × W_down{bias}: back to d",
                                   short="W_down"))


@dataclass(frozen=True)
class PostNormParts:
    """One post-norm rotary layer's modules (NomicBERT, GTE, Jina-v3): BERT's layer with rotated Q and K."""

    q: Projection
    k: Projection
    v: Projection
    out: Projection
    attn_norm: nn.Module
    act_input: Projection
    gate: Projection | None  # None: a plain feed-forward (Jina-v3)
    activation: Callable[[torch.Tensor], torch.Tensor]
    ffn_out: Projection
    ffn_norm: nn.Module


def rotary_of(base: nn.Module) -> Rotary:
    """The model's one rotary module (`base.rotary_emb`) with its base θ from the config."""
    return Rotary(base.rotary_emb, "inv_freq", base.config.rope_parameters["rope_theta"],
                  base.rotary_emb.attention_scaling)


def post_norm_rotary_layer(base: nn.Module, i: int, p: PostNormParts, names: ModuleNames) -> Nodes:
    """The graph of a post-norm layer with rotary attention and a (gated or plain) feed-forward."""
    h = base.config.num_attention_heads
    attention = rotary_attention(names, "input", p.q, p.k, p.v, p.out, rotary_of(base), h, *head_sizes(p.q, p.k, h))
    ffn = feed_forward(names, "attn.norm", p.act_input, p.gate, p.activation, activation_name(base.config), p.ffn_out)
    return add_and_norm_layer(names, attention, p.attn_norm, ffn, p.ffn_norm)


@dataclass(frozen=True)
class PreNormParts:
    """One pre-norm layer's modules, as the family finds them."""

    attn_norm: nn.Module | None  # None where the layer has none (ModernBERT's layer 0: the embeddings were normed)
    q: Projection
    k: Projection
    v: Projection
    out: Projection
    mlp_norm: nn.Module
    act_input: Projection
    gate: Projection
    activation: Callable[[torch.Tensor], torch.Tensor]
    ffn_out: Projection


def pre_norm_layer(names: ModuleNames, p: PreNormParts, norm: Op, norm_name: str, rotary: Rotary, heads: int,
                   activation_name: str, window: int | None = None, final_norm: nn.Module | None = None,
                   last: bool = False) -> Nodes:
    """norm, rotary attention, residual add; norm, gated feed-forward, residual add; on the last layer the final
    norm, which the model's reported last hidden state has been through."""
    nodes = [node(LAYERS, "input", INPUT)]
    normed = "input"
    if p.attn_norm is not None:
        nodes.append(node(LAYERS, "attn.pre_norm", norm, ("input",), names(p.attn_norm),
                          title=f"{norm_name} before attention", short=SHORT[norm.name],
                          explains=f"{norm_name} of the layer input; the residual stream itself stays unnormalised"))
        normed = "attn.pre_norm"
    nodes += rotary_attention(names, normed, p.q, p.k, p.v, p.out, rotary, heads, *head_sizes(p.q, p.k, heads),
                              window)
    nodes += [node(LAYERS, "attn.residual", RESIDUAL_ADD, ("input", "attn.out"),
                   explains="layer input + attention output: no norm after it"),
              node(LAYERS, "ffn.pre_norm", norm, ("attn.residual",), names(p.mlp_norm),
                   title=f"{norm_name} before the MLP", explains=f"{norm_name} of the residual sum",
                   short=SHORT[norm.name])]
    nodes += feed_forward(names, "ffn.pre_norm", p.act_input, p.gate, p.activation, activation_name, p.ffn_out)
    nodes.append(node(LAYERS, "ffn.residual", RESIDUAL_ADD, ("attn.residual", "ffn.out"),
                      title=None if last else "Residual add = layer output",
                      explains="attention's residual sum + feed-forward output: the layer's output"))
    if last and final_norm is not None:
        nodes.append(node(LAYERS, "final.norm", norm, ("ffn.residual",), names(final_norm),
                          title=f"Final {norm_name} = model output", short=SHORT[norm.name]))
    return tuple(nodes)

