"""What the stepper says of a block's check and of a cell explained: the app's Layers page and an exported site's
stepper fill these same templates (the site is handed them with the model's data: export/steps.py), so that the
two say the same, a computed sentence's too."""
from __future__ import annotations

CHECK = ("Recomputed by hand, every sub-step of the block; its output compared with the model's own {against}: "
         "max |Δ| = {diff:.1e}")
AGAINST = {"embed": "hidden_states[0] (the input of layer 0)",
           "layers": "hidden_states[{after}] (this layer's output: {title})", "pooler": "pooler_output"}
SHARED = "Computed once from the sentence's length and shared by every layer."  # a block with nothing to check
RESULT = "From these numbers: {recomputed:.6g}; stored {value:.6g} (|Δ| {diff:.0e})"  # a cell computed again, in a line
RESULT_IN_FULL = "Computed again from these numbers: {recomputed:.6g} (the step-through's {value:.6g}, |Δ| = {diff:.1e})"
STEPPER = {"check": CHECK, "shared": SHARED, "result": RESULT}  # what a site's stepper says


def against(graph) -> str:
    """What a block's output is checked against: the model's own hidden state or pooler output."""
    return AGAINST[graph.block].format(after=(graph.layer or 0) + 1, title=graph.output.title)
