"""The norms of each token's vector: LayerNorm (centred and scaled) and RMSNorm (scaled only)."""
from __future__ import annotations

import math

import numpy as np
import torch

from .record import Figure, Op, Series, apply_module
from .telling import tells
from .worked import Worked, as_f64, num, plus, token_labels


def explain_layer_norm(cell) -> Worked:
    """(x[d] − mean) / √(var + ε) · weight[d] + bias[d], mean and (biased) variance over the token's row."""
    t, d = cell.at
    module = cell.module
    x = as_f64(cell.input(0)[t])
    mean, var = x.mean(), ((x - x.mean()) ** 2).mean()
    weight = 1.0 if module.weight is None else float(as_f64(module.weight[d]))
    bias = 0.0 if getattr(module, "bias", None) is None else float(as_f64(module.bias[d]))
    normed = (x[d] - mean) / math.sqrt(var + module.eps)
    formula = (f"({num(x[d])} {plus(-mean)}) / √({num(var)} + {module.eps:g}) × {num(weight)} {plus(bias)} = "
               f"{num(normed)} × {num(weight)} {plus(bias)} = {num(normed * weight + bias)}")
    inputs = {"x": x, "mean": mean, "var": var, "eps": module.eps, "weight": weight, "bias": bias}
    return Worked(formula, inputs, normed * weight + bias, labels=token_labels(cell),
                  figure={"before": x, "after": cell.array[t], "dim": d})


def explain_rms_norm(cell) -> Worked:
    """x[d] / √(mean(x²) + ε) · weight[d]: the token's row divided by its root mean square, not centred."""
    t, d = cell.at
    module = cell.module
    x = as_f64(cell.input(0)[t])
    mean_square, eps = (x ** 2).mean(), norm_eps(module)
    weight = float(as_f64(module.weight[d]))
    normed = x[d] / math.sqrt(mean_square + eps)
    formula = (f"{num(x[d])} / √({num(mean_square)} + {eps:g}) × {num(weight)} = {num(normed)} × {num(weight)} = "
               f"{num(normed * weight)}")
    inputs = {"x": x, "mean_square": mean_square, "eps": eps, "weight": weight}
    return Worked(formula, inputs, normed * weight, labels=token_labels(cell),
                  figure={"before": x, "after": cell.array[t], "dim": d})


def norm_eps(module) -> float:
    """A norm's ε, whatever the module calls it (torch's RMSNorm: eps; the Llama-style ones: variance_epsilon)."""
    eps = getattr(module, "eps", None)
    if eps is None:  # torch's nn.RMSNorm with eps=None uses the dtype's machine epsilon
        eps = getattr(module, "variance_epsilon", None) or torch.finfo(module.weight.dtype).eps
    return float(eps)


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


@tells(norm="{me} came in with mean {mean:.2f} and standard deviation {std:.2f} over its {size} numbers (length "
             "{before:.1f}); after the norm its length is {after:.1f}.")
def narrate_norm(s, say) -> list[str]:
    x = np.asarray(s.input(0), dtype=np.float64)[s.token]
    after = np.asarray(s.array, dtype=np.float64)[s.token]
    return [say("norm", me=s.me, mean=x.mean(), std=x.std(), size=x.size, before=np.linalg.norm(x),
                after=np.linalg.norm(after))]


LAYER_NORM = Op("layer_norm", "LayerNorm: (x − mean) / √(variance + ε) × γ + β, over each token's vector",
                apply_module,
                explain=explain_layer_norm, narrate=narrate_norm, drawn_as=Figure.HISTOGRAMS, series=Series.NORMED)


RMS_NORM = Op("rms_norm", "RMSNorm: x / √(mean(x²) + ε) × γ, over each token's vector (no centring, no β)",
              apply_module,
              explain=explain_rms_norm, narrate=narrate_norm, drawn_as=Figure.HISTOGRAMS, series=Series.NORMED)


NORMS = (LAYER_NORM, RMS_NORM)  # the operations that normalise each token's vector
