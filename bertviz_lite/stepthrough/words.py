"""What the stepper says of a block's check and of a cell explained: the app's Layers page and an exported site's
stepper fill these same templates (the site is handed them with the model's data: export/steps.py), so that the
two say the same, a computed sentence's too."""
from __future__ import annotations

CHECK = ("Recomputed by hand, every sub-step of the block; its output compared with the model's own {against}: "
         "max |Δ| = {diff}")
AGAINST = {"embed": "hidden_states[0] (the input of layer 0)",
           "layers": "hidden_states[{after}] (this layer's output: {title})", "pooler": "pooler_output"}
SHARED = "Computed once from the sentence's length and shared by every layer."  # a block with nothing to check
RESULT = "From these numbers: {recomputed:.6g}; stored {value:.6g} (|Δ| {diff})"  # a cell computed again, in a line
RESULT_IN_FULL = "Computed again from these numbers: {recomputed:.6g} (the step-through's {value:.6g}, |Δ| = {diff})"
STEPPER = {"check": CHECK, "shared": SHARED, "result": RESULT}  # what a site's stepper says


def against(graph) -> str:
    """What a block's output is checked against: the model's own hidden state or pooler output."""
    return AGAINST[graph.block].format(after=(graph.layer or 0) + 1, title=graph.output.title)


def difference(x: float, digits: int = 1) -> str:
    """A check's difference in exponent notation, "9.5e−07", as every template's {diff}: a minus sign, not a
    hyphen, which a line may break after (a phone cut "9.5e-" from "07"). A site writes it so too
    (frontend/src/numbers.js difference).

    >>> difference(9.5e-07), difference(0.0), difference(3e-05, 0)
    ('9.5e−07', '0.0e+00', '3e−05')
    """
    return f"{x:.{digits}e}".replace("-", "−")
