"""The norms of each token's vector: LayerNorm (centred and scaled) and RMSNorm (scaled only)."""
from __future__ import annotations

import torch

from .reading import norm_eps
from .recipe import TOKEN_LABELS, X, Recipe, call, cell, fmt, var, when
from .record import Figure, Op, Series, apply_module
from .telling import ROW_STORY, Telling, by_distance, step, tells, told_row


def _normed(node, module, centred: bool) -> Recipe:
    """(x[d] − mean) / √(var + ε) · γ[d] + β[d] (LayerNorm: the mean and the biased variance over the token's
    row),
    or x[d] / √(mean(x²) + ε) · γ[d] (RMSNorm: no centring, no β)."""
    gain = 1.0 if module.weight is None else cell.weight()[var.d]
    shift = cell.weight("bias")[var.d] if centred and getattr(module, "bias", None) is not None else 0.0
    let = {"t": cell.at(0), "d": cell.at(1), "x": cell.input(0)[var.t], "eps": X(["eps"]), "w": gain, "b": shift}
    if centred:
        let.update(mean=call("mean", var.x), spread=call("mean", (var.x - var.mean) * (var.x - var.mean)),
                   negative_mean=-var.mean, normed=(var.x[var.d] - var.mean) / call("sqrt", var.spread + var.eps))
        said = ("({xd:num} {negative_mean:plus}) / √({spread:num} + {eps:g}) × {w:num} {b:plus} = {normed:num} × "
                "{w:num} {b:plus}")
        inputs = {"x": var.x, "mean": var.mean, "var": var.spread, "eps": var.eps, "weight": var.w, "bias": var.b}
    else:
        let.update(mean_square=call("mean", var.x * var.x),
                   normed=var.x[var.d] / call("sqrt", var.mean_square + var.eps))
        said = "{xd:num} / √({mean_square:num} + {eps:g}) × {w:num} = {normed:num} × {w:num}"
        inputs = {"x": var.x, "mean_square": var.mean_square, "eps": var.eps, "weight": var.w}
    let.update(xd=var.x[var.d], out=var.normed * var.w + var.b)
    return Recipe(let=let, formula=fmt(said + " = {out:num}"), value=var.out, inputs=inputs, labels=TOKEN_LABELS,
                  figure={"before": var.x, "after": cell.step[var.t], "dim": var.d})


def layer_normed(node, graph, module) -> Recipe:
    return _normed(node, module, centred=True)


def rms_normed(node, graph, module) -> Recipe:
    return _normed(node, module, centred=False)


def centred(op: Op, x: torch.Tensor) -> torch.Tensor:
    """x (…, d) centred as the norm centres it: less each row's mean for LayerNorm, unchanged for RMSNorm. With
    `scale` and `gain_and_shift`, norm(x) = γ ⊙ centred(x) / scale(x) + β. Centring is linear (the centred rows of a
    sum are the sum of the centred parts), so a linear map after the norm can be applied to the parts of its input:
    value zeroing's many small changes of one layer (`intervening.past_the_norm`)."""
    return x - x.mean(-1, keepdim=True) if op is LAYER_NORM else x


def scale(op: Op, module, x: torch.Tensor) -> torch.Tensor:
    """(…, 1): the number each row of x (…, d) is divided by, √(mean(centred(x)²) + ε)."""
    if op is LAYER_NORM:
        return torch.sqrt(torch.var(x, dim=-1, keepdim=True, correction=0) + norm_eps(module))
    return torch.sqrt(torch.linalg.vector_norm(x, dim=-1, keepdim=True).square_() / x.shape[-1] + norm_eps(module))


def gain_and_shift(module, d: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A norm's γ and β (d,): ones and zeros where the module has none (RMSNorm has no β, some LayerNorms no bias)."""
    weight, bias = module.weight, getattr(module, "bias", None)
    return (torch.ones(d) if weight is None else weight.detach(),
            torch.zeros(d) if bias is None else bias.detach())


@tells(norm="{me} came in with mean {mean:z.2f} and standard deviation {std:.2f} over its {size} numbers (length "
             "{before:.1f}); after the norm its length is {after:.1f}.")
def narrate_norm(node, graph, module, say) -> Telling:
    """Of the chosen token's row, or where the rows are distances (DeBERTa's relative embeddings), of the distance
    row that a row's story tells of."""
    x = step.input(0)[told_row()]
    distance = ROW_STORY["distance"][:1].upper() + ROW_STORY["distance"][1:]  # it starts the sentence
    me = when(by_distance(), distance, step.me)
    return Telling({}, (say("norm", me=me, mean=call("mean", x), std=call("std", x), size=call("size", x),
                            before=call("norm", x), after=call("norm", step.array[told_row()])),))


LAYER_NORM = Op("layer_norm", "LayerNorm: (x − mean) / √(variance + ε) × γ + β, over each token's vector",
                apply_module,
                recipe=layer_normed, narrate=narrate_norm, drawn_as=Figure.HISTOGRAMS, series=Series.NORMED)


RMS_NORM = Op("rms_norm", "RMSNorm: x / √(mean(x²) + ε) × γ, over each token's vector (no centring, no β)",
              apply_module,
              recipe=rms_normed, narrate=narrate_norm, drawn_as=Figure.HISTOGRAMS, series=Series.NORMED)


NORMS = (LAYER_NORM, RMS_NORM)  # the operations that normalise each token's vector
