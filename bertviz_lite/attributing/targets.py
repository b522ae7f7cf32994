"""What an attribution explains: one number the model gives for a sentence, written as a function of the
sentence's word embeddings that runs transformers' own model on `inputs_embeds` (the model adds its positions and
token types itself), in a batch, so that integrated gradients' interpolations and a deletion curve's variants each
run as one forward pass.

- `similarity_target`: the cosine of sentence A's vector with sentence B's (B held fixed), each pooled as the
  checkpoint pools (a plain model: the mean of its token vectors); f(x) is the cosine `explain-similarity` gives.
- `mlm_target`: the masked-LM logit of a vocabulary token at a mask token's position, for a model loaded for the
  masked-LM task with a trained head.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from ..analyses.logit_lens import mlm_head_problem
from ..analyses.sentence_pooling import pool, pooling_of
from ..errors import InputError
from ..loading.loader import LoadedModel
from ..loading.readable_pieces import readable_pieces
from ..stepthrough.trace import Trace, trace


@dataclass(frozen=True, eq=False)
class Target:
    name: str  # "similarity" or "mlm"
    describe: str  # in words, for the page and the command line
    trace: Trace  # the sentence explained, as the pipeline reads it
    forward: Callable[[torch.Tensor], torch.Tensor]  # word embeddings (B, T, d) -> the target (B,)
    other: Trace | None = None  # sentence B, as the pipeline reads it, for the similarity target
    position: int | None = None  # the masked position whose logit the masked-LM target reads

    @property
    def tokens(self) -> list[str]:
        return self.trace.tokens

    @property
    def special(self) -> np.ndarray:
        """(T,) booleans: the special tokens, which a baseline keeps."""
        return np.array([word is None for word in self.trace.word_ids])

    def embed(self, ids: torch.Tensor) -> torch.Tensor:
        """(B, T) ids -> (B, T, d) word embeddings: the model's own table."""
        return self.trace.loaded.base.get_input_embeddings()(ids)

    @torch.inference_mode()
    def of_ids(self, ids: torch.Tensor) -> torch.Tensor:
        """The target for each row of (B, T) ids, no gradient."""
        return self.forward(self.embed(ids))


def similarity_target(loaded: LoadedModel, text_a: str, text_b: str) -> Target:
    """The cosine of sentence A's vector (explained) with sentence B's (held fixed)."""
    pooling = pooling_of(loaded)
    a, b = (trace(loaded, text, max_tokens=pooling.max_tokens) for text in (text_a, text_b))
    other = torch.from_numpy(pool(b.hidden_states[-1].astype(np.float64), pooling)).float()  # (D,)

    def forward(embeds: torch.Tensor) -> torch.Tensor:
        out = loaded.base(inputs_embeds=embeds, **a.model_inputs(len(embeds), with_ids=False), output_hidden_states=True)
        vectors = pool(out.hidden_states[-1], pooling)  # (B, D)
        return torch.nn.functional.cosine_similarity(vectors, other[None], dim=-1, eps=1e-12)

    return Target("similarity", f"the cosine with sentence B ('{b.text[:40]}')", a, forward, b)


def target_for(loaded: LoadedModel, text: str, kind: str, other: str = "", position: int | None = None,
               token: str = "") -> Target:
    """The target a page or a command names: "similarity" to sentence `other`, or "mlm", the logit of `token` at
    `position` (default: the text's first mask token, and the model's own top prediction there)."""
    if kind == "similarity":
        if not str(other).strip():
            raise InputError("Type sentence B: the target is the cosine of the text's sentence vector with B's.")
        return similarity_target(loaded, text, other)
    if kind != "mlm":
        raise InputError(f"The target is 'similarity' or 'mlm', not {kind!r}.")
    return mlm_target(loaded, text, position, token)


def mlm_target(loaded: LoadedModel, text: str, position: int | None, token: str = "") -> Target:
    """The masked-LM logit of `token` (default: the model's top prediction) at `position` (default: the first mask
    token), which must hold the mask token."""
    if problem := mlm_head_problem(loaded, "an attribution of its masked-LM logit"):
        raise InputError(problem)
    t = trace(loaded, text)
    tokenizer = loaded.tokenizer
    masks = t.mask_positions
    position = masks[0] if position is None and masks else position
    mask = tokenizer.mask_token
    if position is None:
        raise InputError(f"The text has no {mask}: put it where a word should be predicted.")
    if not 0 <= position < len(t.tokens) or t.input_ids[position] != tokenizer.mask_token_id:
        where = f"the text has it at {', '.join(map(str, masks))}." if masks else f"put {mask} in the text."
        raise InputError(f"There is no {mask} at position {position}: {where}")
    token_id = vocabulary_id(tokenizer, token) if token else _top_prediction(loaded, t, position)
    token = token or readable_pieces(tokenizer, tokenizer.convert_ids_to_tokens([token_id]))[0]
    logits_of = loaded.model

    def forward(embeds: torch.Tensor) -> torch.Tensor:
        logits = logits_of(inputs_embeds=embeds, **t.model_inputs(len(embeds), with_ids=False)).logits  # (B, T, V)
        return logits[:, position, token_id]

    return Target("mlm", f"the masked-LM logit of '{token}' at position {position}", t, forward, position=position)


@torch.inference_mode()
def _top_prediction(loaded: LoadedModel, t: Trace, position: int) -> int:
    return int(loaded.model(**t.model_inputs()).logits[0, position].argmax())


def vocabulary_id(tokenizer, token: str) -> int:
    """The id of a vocabulary piece as stored ('sat', 'Ġsat') or as the app shows it ('▁sat'); an InputError if
    the vocabulary has no such piece."""
    vocabulary = tokenizer.get_vocab()
    for form in (token, token.replace("▁", "Ġ")):
        if form in vocabulary:
            return vocabulary[form]
    pieces = tokenizer.tokenize(" " + token.lstrip("▁"))
    if len(pieces) == 1 and pieces[0] in vocabulary and pieces[0] != tokenizer.unk_token:
        return vocabulary[pieces[0]]
    raise InputError(f"'{token}' is not in {getattr(tokenizer, 'name_or_path', 'the')} vocabulary as one piece: "
                     f"it is read as {' '.join(pieces)}. Pick one vocabulary piece.")
