"""What the Interventions page says of a run, written once for the app's page and an exported site's: the headline
(what was done and which token moved most), which attention cannot change, the figures' titles and the value
zeroing's caption.

>>> small(0.25), small(0.000123456)
('0.2500', '0.000123')
"""
from __future__ import annotations

import numpy as np

from .edits import Edits

SHIFT_TITLE = "How far each token's hidden state moved"
BEFORE_AFTER_TITLE = "Layer {layer}, head {head}: attention before and after"
SENTENCE_COSINE = "Sentence vector: cosine to the original"
AXES = ("token", "rests on")  # the value zeroing's rows and columns


def head_label(value: str) -> str:
    """A head as a picker names it: "2.3" is "layer 2 · head 3"."""
    return "layer {} · head {}".format(*value.split("."))


def small(x: float) -> str:
    """A distance as a person reads it: 4 decimals, or 3 significant digits below 0.001 (random weights move
    little)."""
    return f"{x:.4f}" if x == 0 or x >= 1e-3 else f"{x:.3g}"


def headline(edits: Edits, tokens: list[str], shift: np.ndarray) -> str:
    """What was done, and the token the last layer moved most (its cosine distance, and the mean over tokens).
    `shift`: (L + 1, T), `Intervened.shift`."""
    token = int(shift[-1].argmax())
    which = f"'{tokens[token]}'" + (f" (token {token}, masked)" if token in edits.masked else f" (token {token})")
    return (f"**{edits.describe().capitalize()}.** After the last layer {which} moved most: cosine distance "
            f"{small(shift[-1, token])} (mean {small(shift[-1].mean())}).")


def predictions(change, tokens: list[str]) -> str:
    """The masked-LM head's top predictions before and after (`analyses.output_change.OutputChange`)."""
    return (f"Masked-LM top {len(change.before)} at {change.position} {tokens[change.position]}: before "
            + ", ".join(f"'{w}' {p:.2f}" for w, p in change.before) + "; after "
            + ", ".join(f"'{w}' {p:.2f}" for w, p in change.after) + ".")


def unchanged_attention(edits: Edits) -> str:
    """Which layers' attention the intervention cannot change: a masked token changes every layer's; an edit after
    the softmax leaves the attention of the layers up to the first it changes as it was."""
    if edits.masked:
        return "A masked token changes every layer's attention."
    first = edits.first_changed_layer
    layers = "layer 0" if first == 0 else f"layers 0 to {first}"
    return (f"The attention of {layers} cannot change: the intervention acts after "
            f"{'its' if first == 0 else 'their'} softmax.")


def value_zeroing_titles(layer: int) -> tuple[str, str]:
    """The value zeroing map's title and its rollout's, side by side."""
    return "value zeroing", f"value zeroing rolled out to layer {layer}"


def value_zeroing_caption(layer: int, tokens: int) -> str:
    return (f"Value zeroing (Mohebbi et al. 2023), of the model's own run: row i, column j is how far token i's "
            f"output of layer {layer} moves (cosine distance) when token j's value vector is zeroed in that layer, "
            f"each row divided by its sum: {tokens} runs of the layer, {tokens * (layer + 1)} for the rollout to "
            f"layer {layer}, as the paper's code rolls out: C_l · … · C_0.")
