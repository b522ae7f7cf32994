"""The linear maps just after a layer's first norm (the feed-forward's first matrix, or its gate and up projections)
for many variants of the layer that differ from the model's own run by a sum of a few known vectors, at the cost
of those vectors rather than of every variant's every token.

Value zeroing runs T variants of a layer; in variant j, token i's projected context loses
r_ji = Σ_h p^h_ij u^h_j (u^h_j = W_O^h v^h_j, one vector per token and head), and so does the norm's input, which
is the residual stream plus that context. A norm is a centring (LayerNorm; RMSNorm does not centre), a division by
one number per row and an affine map (`ops.norms`: `centred`, `scale`, `gain_and_shift`), and centring is linear,
so for a linear map W, b after the norm, with G = W diag(γ):

    W · norm(z − r) + b = (G · centred(z) − Σ_h p^h_ij · G · centred(u^h_j)) / scale(z − r) + (W β + b)

G · centred(u^h_j) is T · h vectors, T · h · d · F multiplications, where running W on every variant would take
T · T · d · F: 5× fewer at 64 tokens and 12 heads, for what is half of a layer's work. Only the one number per row,
scale(z − r), is taken from each variant's own input. Worth it where the tokens outnumber the heads (`worth_it`).
The T · h vectors (T · h · F floats a map: 75 MB at 512 tokens on bert-base) are kept while the layer's variants
run; `CHUNK_FLOATS` bounds the variants, not them.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from ..graph.nodes import Graph, Node
from ..ops import LINEAR, NORMS, RESIDUAL_ADD
from ..ops.norms import centred, gain_and_shift, scale
from ..ops.sums import weight_and_bias


@dataclass(frozen=True)
class PastTheNorm:
    """The first norm that `changed` reaches through residual adds alone, and the linear maps that read it."""
    norm: Node
    linears: tuple[Node, ...]


def past_the_norm(graph: Graph, changed: str) -> PastTheNorm | None:
    """The norm and linear maps after `changed` in `graph`, or None where the layer is not built so: the norm's
    input must be `changed` plus what the variants share, through residual adds alone (an add both of whose inputs
    read `changed` is not), and a linear map must read the norm."""
    added = {changed}  # the keys that are `changed` plus something that the variants share
    affected = {changed}  # every key that reads `changed`, however
    for node in graph.nodes:
        reads = [source in affected for source in node.inputs]
        if node.op is RESIDUAL_ADD and sum(reads) == 1 and any(source in added for source in node.inputs):
            added.add(node.key)
        elif node.op in NORMS and node.inputs[0] in added:
            linears = tuple(n for n in graph.consumers(node.key)
                            if n.op is LINEAR and n.attr("token") is None and n.attr("heads") is None)
            return PastTheNorm(node, linears) if linears else None
        if any(reads):
            affected.add(node.key)
    return None


def worth_it(tokens: int, heads: int) -> bool:
    """T · h · d · F (the parts) + T · d · F (the own input) + T · T · h · F (the parts weighed, per variant)
    multiplications against T · T · d · F: fewer where T (d − h) > d (h + 1), about where T > h + 1."""
    return tokens > heads + 1


class LinearsPastTheNorm:
    """The linear maps after the norm for variants whose norm input is the own one less Σ_h p^h_ij u^h_j."""

    def __init__(self, found: PastTheNorm, base, norm_input: torch.Tensor, parts: torch.Tensor):
        """`norm_input` (T, d): the model's own input of the norm; `parts` (T, h, d): u^h_j, what zeroing token j's
        value takes from the context through head h."""
        self.found = found
        self.module = base.get_submodule(found.norm.module)
        gain, shift = gain_and_shift(self.module, norm_input.shape[-1])  # (d,), (d,)
        own, parts = centred(found.norm.op, norm_input), centred(found.norm.op, parts)  # (T, d), (T, h, d)
        self.maps = {}  # linear key -> (G · centred(own) (T, F), G · centred(parts) (T, h, F), W β + b (F,))
        for node in found.linears:
            weight, bias = weight_and_bias(node, base.get_submodule(node.module))  # (F, d), (F,) or None
            scaled = weight.detach() * gain  # (F, d): G = W diag(γ)
            constant = weight.detach() @ shift + (0 if bias is None else bias.detach())  # (F,): W β + b
            self.maps[node.key] = (own @ scaled.T, (parts.flatten(0, 1) @ scaled.T).unflatten(0, parts.shape[:2]),
                                   constant)

    def outputs(self, norm_inputs: torch.Tensor, probs: torch.Tensor, zeroed: torch.Tensor) -> dict[str, torch.Tensor]:
        """{linear key: (J, T, F)} for the variants of the J tokens `zeroed`, whose norm inputs are `norm_inputs`
        (J, T, d): variant j took Σ_h probs[h, i, j] · u^h_j from token i (`probs` (h, T, J))."""
        divisor = scale(self.found.norm.op, self.module, norm_inputs)  # (J, T, 1)
        weights = (probs.permute(2, 1, 0) / -divisor).contiguous()  # (J, T, h): −p^h_ij / scale
        return {key: torch.addcdiv(constant, own, divisor).baddbmm_(weights, parts[zeroed])  # (J, T, F), in place:
                for key, (own, parts, constant) in self.maps.items()}  # no second (J, T, F) array

