"""Trace a sentence (or a pair) through an encoder: tokens, the model's own hidden states, and on request the
step-through of the embeddings, of any layer, and of the pooler.

>>> t = trace(load_model("bert-base-uncased"), "this is a 12212121 test sentence")   # doctest: +SKIP
>>> t.tokens                                                                          # doctest: +SKIP
['[CLS]', 'this', 'is', 'a', '122', '##12', '##12', '##1', 'test', 'sentence', '[SEP]']
>>> t.layer(0)["attn.probs"].shape, t.layer(0).max_abs_diff < 1e-5                   # doctest: +SKIP
((12, 11, 11), True)

One forward pass keeps only the hidden states (13 × T × 768 floats for bert-base: 20 MB at 512 tokens).
A layer's sub-steps (about 46 MB at 512 tokens for bert-base, most of it the two h × T × T attention arrays)
are computed each time `layer(i)` is called and belong to the caller: keeping all of them for all layers
would take about 560 MB per sentence.

No hooks are installed and the model is only read, so any number of threads can trace on one shared model.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from ..errors import InputError
from ..families import AttentionBlock, LayerInput
from ..loading.loader import LoadedModel
from .names import StepInfo
from .steps import Steps, attention_probs, embedding_step_infos, embedding_steps, layer_steps, pooler_steps


@dataclass(eq=False)
class Trace:
    text: str
    pair: str | None
    tokens: list[str]
    input_ids: np.ndarray  # (T,) int64
    token_type_ids: np.ndarray  # (T,) 0 for sentence A, 1 for B (all 0 where the family has no segments)
    attention_mask: np.ndarray  # (T,) 1 for real tokens
    sequence_ids: list[int | None]  # 0 / 1 for the sentence a token came from, None for special tokens
    word_ids: list[int | None]  # the word of its sentence a token is a piece of, None for special tokens
    dropped_tokens: int  # how many tokens truncation removed
    max_tokens: int
    hidden_states: np.ndarray  # (L + 1, T, d): the model's own; [0] is the input of layer 0
    pooler_output: np.ndarray | None  # (d,) the model's own, where it has a pooler
    loaded: LoadedModel | None = field(repr=False)  # None only while it waits in the app's trace cache

    @property
    def num_layers(self) -> int:
        return self.hidden_states.shape[0] - 1

    @property
    def num_heads(self) -> int:
        return self.loaded.config.num_attention_heads

    @property
    def notice(self) -> str | None:
        """What the reader must be told about the input, or None."""
        if self.dropped_tokens:
            total = len(self.tokens) + self.dropped_tokens
            return (f"The input is {total:,} tokens long but the model reads at most {self.max_tokens:,}: "
                    f"the last {self.dropped_tokens:,} tokens were dropped.")
        return None

    @property
    def nbytes(self) -> int:
        """Array memory this trace keeps (what stays in a cache)."""
        arrays = (self.input_ids, self.token_type_ids, self.attention_mask, self.hidden_states, self.pooler_output)
        return sum(a.nbytes for a in arrays if a is not None)

    def embeddings(self) -> Steps:
        """word (+ token type) (+ position) -> sum -> LayerNorm (-> projection), checked against hidden_states[0]."""
        base, family = self.loaded.base, self.loaded.family
        ids = torch.from_numpy(self.input_ids)[None]  # (1, T)
        arrays = embedding_steps(family.embedding_parts(base), ids, torch.from_numpy(self.token_type_ids)[None],
                                 family.position_ids(base, ids))
        return Steps("embed", None, arrays, self.hidden_states[0], embedding_step_infos(arrays))

    def encoder(self) -> Steps | None:
        """What the encoder computes once for all layers (DeBERTa's relative positions and embeddings), or None."""
        family = self.loaded.family
        if family.encoder_steps is None:
            return None
        arrays = family.encoder_steps(self.loaded.base, len(self.tokens))
        return Steps("encoder", None, arrays, None, family.encoder_step_infos)

    def _check_layer(self, i: int) -> None:
        if not (isinstance(i, int) and 0 <= i < self.num_layers):
            raise InputError(f"There is no layer {i}: this model has layers 0 to {self.num_layers - 1}.")

    def layer_parts(self, i: int):
        """The modules of layer i in its family's record (for ALBERT, the shared layer as run the i-th time)."""
        self._check_layer(i)
        family = self.loaded.family
        return family.layer_parts(family.layer_modules(self.loaded.base)[i])

    def layer_steps(self, i: int) -> tuple[StepInfo, ...]:
        """Layer i's sub-steps, in order, as its family describes them."""
        self._check_layer(i)
        return self.loaded.family.layer_steps(self.loaded.config, i)

    def layer_note(self, i: int) -> str | None:
        """What is particular to layer i (ModernBERT: local or global attention), or None."""
        self._check_layer(i)
        return self.loaded.family.layer.describe(self.loaded.config, i)

    def attention_block(self, i: int) -> AttentionBlock:
        """Layer i's values, output matrix and LayerNorm placement, for the norm-based analysis."""
        return self.loaded.family.layer.block(self.layer_parts(i))

    def _layer_input(self, i: int) -> LayerInput:
        self._check_layer(i)
        x = torch.from_numpy(self.hidden_states[i])[None]  # (1, T, d)
        return LayerInput(self.loaded.base, i, self.layer_parts(i), x, torch.from_numpy(self.attention_mask)[None],
                          self.num_heads)

    def attention(self, i: int) -> np.ndarray:
        """Layer i's attention probabilities (h, T, T) alone, from its input hidden_states[i]."""
        return attention_probs(self.loaded.family.layer, self._layer_input(i)).numpy()

    def layer(self, i: int) -> Steps:
        """Layer i's sub-steps from its input hidden_states[i], checked against hidden_states[i + 1]."""
        arrays = layer_steps(self.loaded.family.layer, self._layer_input(i))
        arrays["input"] = self.hidden_states[i]  # the same numbers; keep the view instead of a copy
        return Steps("layers", i, arrays, self.hidden_states[i + 1], self.layer_steps(i))

    def pooler(self) -> Steps | None:
        """dense + tanh on the first token, checked against the model's pooler_output; None without a pooler."""
        parts = self.loaded.family.pooler_parts(self.loaded.base)
        if parts is None or self.pooler_output is None:
            return None
        return Steps("pooler", None, pooler_steps(parts, torch.from_numpy(self.hidden_states[-1])[None]),
                     self.pooler_output)

    def check(self) -> list[float]:
        """max |step-through - model| for every layer, computing each layer once and letting it go."""
        return [self.layer(i).max_abs_diff for i in range(self.num_layers)]


def _clean(text: str | None, what: str) -> str:
    if text is None or not str(text).strip():
        raise InputError(f"The {what} is empty: type a sentence, for example 'this is a test sentence'.")
    return str(text)


def trace(loaded: LoadedModel, text: str, pair: str | None = None, max_tokens: int | None = None) -> Trace:
    """Tokenize `text` (and `pair`, the second sentence, if given) and run the base model once.

    `max_tokens` reads fewer tokens than the model could (sentence-transformers reads at most its
    max_seq_length)."""
    text = _clean(text, "text")
    pair = None if pair is None or not str(pair).strip() else str(pair)
    tokenizer, base = loaded.tokenizer, loaded.base
    limit = loaded.max_tokens if max_tokens is None else min(max_tokens, loaded.max_tokens)
    full_length = len(tokenizer(text, pair, truncation=False, verbose=False)["input_ids"])
    enc = tokenizer(text, pair, truncation=True, max_length=limit, return_tensors="pt",
                    return_token_type_ids=True)
    ids, mask = enc["input_ids"], enc["attention_mask"]  # (1, T) each
    types = enc.get("token_type_ids", torch.zeros_like(ids))  # (1, T)
    inputs = {"input_ids": ids, "attention_mask": mask}
    if loaded.uses_token_types:
        inputs["token_type_ids"] = types
    with torch.inference_mode():
        out = base(**inputs, output_hidden_states=True)
    hidden = torch.stack(out.hidden_states)[:, 0]  # (L + 1, T, d)
    pooled = getattr(out, "pooler_output", None)
    return Trace(
        text=text, pair=pair,
        tokens=tokenizer.convert_ids_to_tokens(ids[0].tolist()),
        input_ids=ids[0].numpy(), token_type_ids=types[0].numpy(), attention_mask=mask[0].numpy(),
        sequence_ids=enc.sequence_ids(0), word_ids=enc.word_ids(0), dropped_tokens=full_length - ids.shape[1],
        max_tokens=limit, hidden_states=hidden.numpy(),
        pooler_output=None if pooled is None else pooled[0].numpy(), loaded=loaded)
