"""Nearest vocabulary pieces: at one position, the word pieces whose rows of the model's own word-embedding table
are nearest, by cosine, to the token's vector after the embeddings (hidden state 0) and after each layer.

This is not a prediction, and the page says so: no head turns the vector into a probability. It needs only the
model's own input table, so every model with weights whose table is as wide as its layers has it, the bundled
sentence-transformers model (which has no masked-LM head for a logit lens) included. ELECTRA and ALBERT embed in
fewer numbers and project them up before layer 0: their table and their layers are not in one space, and they
are refused with a message rather than compared through a projection we would have to choose.

What it shows: how far a layer's vector still lies in the direction of pieces of the vocabulary, its own piece
first after the embeddings, and what it drifts towards deeper in.

Our choices, not a paper's definition: plain cosine, cos(h, e_v) = h · e_v / (‖h‖ ‖e_v‖), against the raw rows
of the input table (not centred, not through any norm), the same table for every layer, every piece of the
vocabulary a candidate (special and unused pieces included).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..errors import InputError
from ..stepthrough.trace import Trace
from .logit_lens import TOP, lens_position
from .pieces import piece_names


@dataclass(frozen=True, eq=False)
class NearestPieces:
    tokens: list[str]
    position: int
    layers: list[list[tuple[str, float]]]  # for hidden state 0..L: the TOP nearest pieces and their cosines

    def to_json(self) -> dict:
        return {"tokens": self.tokens, "position": self.position,
                "layers": [{"layer": layer, "nearest": [{"token": t, "cosine": c} for t, c in near]}
                           for layer, near in enumerate(self.layers)]}


def narrower_table(loaded) -> str | None:
    """Why `loaded` has no nearest pieces (its word table is narrower than its layers), or None: asked before any
    sentence is run, so that a page can say so in a notice."""
    width, layers = loaded.model.get_input_embeddings().weight.shape[1], loaded.config.hidden_size
    if width == layers:
        return None
    return (f"{loaded.source}'s word pieces are rows of {width} numbers and its layers' vectors {layers}: it "
            f"projects its embeddings up before layer 0, so the two are not in one space and there are no nearest "
            f"pieces to show.")


def nearest_pieces(trace: Trace, position: int | None = None, top: int = TOP) -> NearestPieces:
    """The `top` pieces nearest to each hidden state at `position` (the first mask token when there is one)."""
    return nearest_at(trace, [lens_position(trace, position)], top)[0]


@torch.inference_mode()
def nearest_at(trace: Trace, positions: list[int], top: int = TOP) -> list[NearestPieces]:
    """The nearest pieces at each of `positions` (valid ones), the word table normalised once for them all (an
    exported site holds every position's)."""
    if why := narrower_table(trace.loaded):
        raise InputError(why)
    table = unit_rows(trace.loaded.model.get_input_embeddings().weight)  # (V, d)
    found = []
    for position in positions:
        states = torch.from_numpy(np.ascontiguousarray(trace.hidden_states[:, position])).float()  # (L + 1, d)
        ids, cosines = nearest_rows(states, table, top)
        layers = [list(zip(piece_names(trace.loaded.tokenizer, row.tolist()), values.tolist()))
                  for values, row in zip(cosines, ids)]
        found.append(NearestPieces(trace.tokens, position, layers))
    return found


def unit_rows(table: torch.Tensor) -> torch.Tensor:
    """(V, d): each row of the word table over its length, in float32."""
    return torch.nn.functional.normalize(table.float(), dim=-1)


def nearest_rows(states: torch.Tensor, unit_table: torch.Tensor, top: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The ids (N, top) of the rows of `unit_table` (V, d) nearest by cosine to each of `states` (N, d), and the
    cosines (N, top), the largest first. In torch, so that a live site's browser runs it too."""
    best = (torch.nn.functional.normalize(states, dim=-1) @ unit_table.T).topk(top, dim=-1)  # of (N, V) cosines
    return best.indices, best.values
