"""An intervened run of a traced sentence: the same sentence with `Edits` applied, recomputed from the first layer
they change (the states before it are the trace's own), as a `Trace` of its own. The stepper opens any of its
layers, so every number after an intervention is explained like any other; the tests check each intervention
against hooks on transformers' own modules.

>>> run = intervene(t, parse_edits(off="0.2"))              # doctest: +SKIP
>>> run.first_changed_layer, run.shift.shape                # doctest: +SKIP
(0, (7, 11))
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..graph.evaluate import evaluate
from ..stepthrough.trace import Trace
from .edits import Edits


@dataclass(frozen=True, eq=False)
class Intervened:
    trace: Trace  # the intervened run: its tokens, hidden states and every sub-step
    edits: Edits
    shift: np.ndarray  # (L + 1, T) cosine distance of each token's hidden state, before vs after

    @property
    def first_changed_layer(self) -> int:
        return self.edits.first_changed_layer

    def to_json(self) -> dict:
        return {"tokens": self.trace.tokens, "edits": self.edits.describe(), **self.edits.to_url(),
                "first_changed_layer": self.first_changed_layer, "shift": self.shift.tolist(),
                "last_hidden_state": self.trace.hidden_states[-1].tolist()}


def intervene(t: Trace, edits: Edits) -> Intervened:
    """`t` run again with `edits` (see the module docstring); an InputError names a layer, head or token that is
    not there."""
    if not edits:
        raise InputError("Choose an intervention: a head to switch off, a token to mask or a value to zero.")
    if t.edits is not None:
        raise InputError("This run is already intervened on; intervene on the sentence's own trace.")
    edits.check(t.num_layers, t.num_heads, len(t.tokens))
    run = dataclasses.replace(t, store=None, edits=edits, hidden_states=t.hidden_states.copy(),
                              **_masked(t, edits.masked))
    states = run.hidden_states  # (L + 1, T, d): filled in from the first change on
    if edits.masked:
        states[0] = _output(run, run.graph("embed"))
    for layer in range(edits.first_changed_layer, t.num_layers):
        states[layer + 1] = _output(run, run.graph("layers", layer))
    pooler = run.graph("pooler")
    if t.pooler_output is not None and pooler is not None:
        run.pooler_output = _output(run, pooler)
    return Intervened(run, edits, cosine_distances(t.hidden_states, states, edits.unchanged_states))


def _output(run: Trace, graph) -> np.ndarray:
    """The block's last step, computing only what it needs (its input is the run's hidden state so far)."""
    key = graph.output.key
    return evaluate(graph, run.loaded.base, run.token_data(), run.given, [key])[key].numpy()


def _masked(t: Trace, positions: tuple[int, ...]) -> dict:
    """The input ids and the tokens with the tokenizer's mask token at `positions`."""
    if not positions:
        return {}
    tokenizer = t.loaded.tokenizer
    if tokenizer.mask_token_id is None:
        raise InputError(f"{t.loaded.source}'s tokenizer has no mask token, so no token can be masked.")
    ids, tokens = t.input_ids.copy(), list(t.tokens)
    for i in positions:
        ids[i], tokens[i] = tokenizer.mask_token_id, tokenizer.mask_token
    return {"input_ids": ids, "tokens": tokens}


def cosine_distances(before: np.ndarray, after: np.ndarray, unchanged: int = 0) -> np.ndarray:
    """(L + 1, T): 1 − cos between each token's hidden state before and after (any leading axes: (T, d) gives
    (T,)); the first `unchanged` states are the same arrays, 0 exactly."""
    shift = np.zeros(before.shape[:-1])
    a, b = before[unchanged:].astype(np.float64), after[unchanged:].astype(np.float64)  # (changed, T, d)
    dots = (a * b).sum(-1)
    norms = np.maximum(np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1), 1e-12)
    shift[unchanged:] = np.clip(1.0 - dots / norms, 0.0, 2.0)
    return shift
