"""A logit lens for the masked-LM task: the model's own masked-LM head applied to every hidden state at one
position, to see the prediction form layer by layer (hidden state 0 is the embeddings' output, l the output of
layer l). Where the base model normalises after its last layer (ModernBERT), the lens applies that final norm
to every hidden state before the head, as the model does to its last one: final norm -> head -> decoder.
The last layer's logits equal the masked-LM model's own, and the lens says by how much (max |Δ|).

Only a checkpoint that holds a trained masked-LM head gets a lens: an ELECTRA discriminator or a
sentence-transformers model has none, and a head initialised at load time is random, so it is refused with a
message rather than shown as if it meant something.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from ..closeness import ANOTHER_ROUTE
from ..errors import InputError
from ..loading.loader import LoadedModel
from ..stepthrough.trace import Trace
from .pieces import piece_names

TOP = 5


@dataclass(frozen=True, eq=False)
class LogitLens:
    tokens: list[str]
    position: int
    layers: list[list[tuple[str, float]]]  # for hidden state 0..L: the TOP tokens and their probabilities
    max_abs_diff: float  # the last layer's logits vs the masked-LM model's own
    holds: bool  # within closeness.ANOTHER_ROUTE of them, a bound by their size

    def to_json(self) -> dict:
        return {"tokens": self.tokens, "position": self.position,
                "layers": [{"layer": layer, "top": [{"token": t, "prob": p} for t, p in top]}
                           for layer, top in enumerate(self.layers)],
                "max_abs_diff": self.max_abs_diff}


def lens_position(trace: Trace, position: int | None = None) -> int:
    """The first [MASK] (or <mask>) when there is one, else `position`; an InputError names the way out."""
    if trace.mask_positions:
        return trace.mask_positions[0]
    if position is None:
        mask = trace.loaded.tokenizer.mask_token
        raise InputError(f"The text has no {mask} token: put {mask} where a word should be predicted, or pick "
                         f"a position.")
    if not 0 <= position < len(trace.tokens):
        raise InputError(f"There is no position {position}: the text has positions 0 to {len(trace.tokens) - 1}.")
    return position


def mlm_head_problem(loaded: LoadedModel, use: str = "the logit lens") -> str | None:
    """Why this model has no real masked-LM head for `use` (the logit lens, an attribution, the predictions after an
    intervention), or None when it has one. Asked of a skeleton (`load_skeleton`), it answers from the config
    alone, before any weights are built or read: only a head that the checkpoint lacks needs the loaded model to be
    seen. The lens's words add where else to look."""
    lens = use == "the logit lens"
    if loaded.task != "masked-lm":
        return f"{use[0].upper()}{use[1:]} needs the model loaded for the masked-LM task (task=masked-lm)."
    if loaded.weights_kind == "random-init":
        return (f"'{loaded.source}' has random weights here (it could not be downloaded), so its masked-LM head "
                f"is random too and {use} would show noise. It needs a masked-LM checkpoint from the Hub or the "
                f"local cache (prefetched while online); the bundled all-MiniLM-L6-v2 has no masked-LM head.")
    head = loaded.family.masked_lm_head(loaded.model)
    untrained = [name for name in loaded.new_parameters if name.startswith(head.prefixes)]
    if untrained:
        return (f"'{loaded.source}' has no trained masked-LM head (its checkpoint lacks {untrained[0]}, which "
                f"was initialised at random when loading): {use} would show noise. Pick a model trained with "
                f"masked-LM (bert-base-uncased, roberta-base: from the Hub, or prefetched while online)"
                + (", or look at the vocabulary pieces nearest to its vectors (the Lens page does; the command "
                   "line with --nearest)." if lens else "."))
    return None


def logit_lens(trace: Trace, position: int | None = None, top: int = TOP) -> LogitLens:
    """The masked-LM head on every hidden state at one position; see the module docstring."""
    problem = mlm_head_problem(trace.loaded)
    if problem:
        raise InputError(problem)
    return lenses_at(trace, [lens_position(trace, position)], top)[0]


@torch.inference_mode()
def lenses_at(trace: Trace, positions: list[int], top: int = TOP) -> list[LogitLens]:
    """The lens at each of `positions` (valid ones), with one forward of the masked-LM model for them all (an
    exported site holds every position's)."""
    problem = mlm_head_problem(trace.loaded)
    if problem:
        raise InputError(problem)
    loaded = trace.loaded
    head = loaded.family.masked_lm_head(loaded.model)
    own = loaded.model(**trace.model_inputs()).logits[0]  # (T, V): the masked-LM model's own forward
    lenses = []
    for position in positions:
        states = torch.from_numpy(trace.hidden_states[:, position])  # (L + 1, d)
        if head.final_norm is not None:  # ModernBERT: the last state already went through the final norm, no other
            states = torch.cat([head.final_norm(states[:-1]), states[-1:]])
        logits = head.apply(states)  # (L + 1, V)
        best = torch.softmax(logits, dim=-1).topk(top, dim=-1)  # of (L + 1, V) probabilities
        layers = [list(zip(piece_names(loaded.tokenizer, ids.tolist()), values.tolist()))
                  for values, ids in zip(best.values, best.indices)]
        lenses.append(LogitLens(trace.tokens, position, layers, float((logits[-1] - own[position]).abs().max()),
                                ANOTHER_ROUTE.holds(logits[-1].numpy(), own[position].numpy())))
    return lenses
