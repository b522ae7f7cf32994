"""Activations: the model's own function applied to each number, alone or times a gate (GeGLU, SwiGLU)."""
from __future__ import annotations


from .recipe import TOKEN_LABELS, X, Recipe, call, cell, cell_index, fmt, var
from .record import Figure, Op, apply_module
from .telling import Telling, step, tells


def compute_gated(node, inputs, module, tokens):
    return module(inputs[0]) * inputs[1]  # act(input half) ⊙ gate half


def _acted(node, gated: bool) -> Recipe:
    """f(pre) with the model's own activation function, or f(input half) × gate half (GeGLU, SwiGLU); its figure
    the function over a range around the point."""
    let = {"pre": cell.input(0)[*cell_index(node)], "name": X(["function"]), "acted": call("act", var.pre),
           "reach": call("max", 4.0, 1.5 * call("abs", var.pre))}
    let.update(curve_x=call("linspace", -var.reach, var.reach, 121), curve_y=call("act", var.curve_x))
    if gated:
        let.update(gate=cell.input(1)[*cell_index(node)], out=var.acted * var.gate)
        said, inputs = "{name}({pre:num}) × {gate:num} = {acted:num} × {gate:num} = {out:num}", \
            {"pre": var.pre, "gate": var.gate, "function": var.name}
    else:
        let["out"] = var.acted
        said, inputs = "{name}({pre:num}) = {out:num}", {"pre": var.pre, "function": var.name}
    return Recipe(let=let, formula=fmt(said), value=var.out, inputs=inputs, labels=TOKEN_LABELS,
                  figure={"curve_x": var.curve_x, "curve_y": var.curve_y, "point": var.pre})


def activated(node, graph, module) -> Recipe:
    return _acted(node, gated=False)


def gate_activated(node, graph, module) -> Recipe:
    return _acted(node, gated=True)


@tells(shares="Of {me}'s {size} numbers, {negative:.0f}% were negative; after the activation {near_zero:.0f}% are "
               "within 0.05 of zero.")
def narrate_activation(node, graph, module, say) -> Telling:
    pre, after = step.input(0)[step.token], step.array[step.token]
    return Telling({}, (say("shares", me=step.me, size=call("size", pre), negative=100 * call("mean", pre < 0),
                            near_zero=100 * call("mean", call("abs", after) < 0.05)),))


ACTIVATION = Op("activation", "a function applied to each number", apply_module,
                recipe=activated, narrate=narrate_activation, drawn_as=Figure.CURVE)


GATED_ACTIVATION = Op("gated_activation", "act(input) ⊙ gate", compute_gated,
                      recipe=gate_activated, narrate=narrate_activation, drawn_as=Figure.CURVE)
