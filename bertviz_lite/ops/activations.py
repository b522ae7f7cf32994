"""Activations: the model's own function applied to each number, alone or times a gate (GeGLU, SwiGLU)."""
from __future__ import annotations

import numpy as np
import torch

from .record import Figure, Op, apply_module
from .telling import tells
from .worked import Worked, num, token_labels


def compute_gated(node, inputs, module, tokens):
    return module(inputs[0]) * inputs[1]  # act(input half) ⊙ gate half


def explain_activation(cell) -> Worked:
    """f(pre), with the model's own activation function applied to the shown number."""
    pre = float(cell.input(0)[cell.index])
    name = cell.node.attr("function", type(cell.module).__name__)
    value = apply_function(cell.module, pre)
    return Worked(f"{name}({num(pre)}) = {num(value)}", {"pre": pre, "function": name}, value,
                  labels=token_labels(cell), figure=curve(cell.module, pre))


def explain_gated_activation(cell) -> Worked:
    """f(input half) × gate half (GeGLU, SwiGLU)."""
    pre, gate = float(cell.input(0)[cell.index]), float(cell.input(1)[cell.index])
    name = cell.node.attr("function", type(cell.module).__name__)
    acted = apply_function(cell.module, pre)
    formula = f"{name}({num(pre)}) × {num(gate)} = {num(acted)} × {num(gate)} = {num(acted * gate)}"
    return Worked(formula, {"pre": pre, "gate": gate, "function": name}, acted * gate,
                  labels=token_labels(cell), figure=curve(cell.module, pre))


def apply_function(module, value: float) -> float:
    with torch.inference_mode():
        return float(module(torch.tensor([value], dtype=torch.float32))[0])


def curve(module, pre: float) -> dict:
    """The activation over a range around the point, for the page's figure."""
    reach = max(4.0, 1.5 * abs(pre))
    xs = torch.linspace(-reach, reach, 121)
    with torch.inference_mode():
        return {"curve_x": xs.numpy(), "curve_y": module(xs).numpy(), "point": pre}


@tells(shares="Of {me}'s {size} numbers, {negative:.0f}% were negative; after the activation {near_zero:.0f}% are "
               "within 0.05 of zero.")
def narrate_activation(s, say) -> list[str]:
    pre = np.asarray(s.input(0), dtype=np.float64)[s.token]
    after = np.asarray(s.array, dtype=np.float64)[s.token]
    return [say("shares", me=s.me, size=pre.size, negative=100 * (pre < 0).mean(),
                near_zero=100 * (np.abs(after) < 0.05).mean())]


ACTIVATION = Op("activation", "a function applied to each number", apply_module,
                explain=explain_activation, narrate=narrate_activation, drawn_as=Figure.CURVE)


GATED_ACTIVATION = Op("gated_activation", "act(input) ⊙ gate", compute_gated,
                      explain=explain_gated_activation, narrate=narrate_activation, drawn_as=Figure.CURVE)
