"""The records a family fills in for a model, so that nothing outside `families/` asks which family it is.

- `EmbeddingParts`: the tables that are added up, the LayerNorm, and the projection some families apply;
- `LayerShape`: the ordered sub-steps of one kind of encoder layer and the functions that compute them from
  the family's own modules (a post-norm BERT layer, ModernBERT's pre-norm layer, ...);
- `AttentionBlock`: one layer's values, output matrix and LayerNorm placement, for the norm-based analysis;
- `PoolerParts`, `MaskedLMHead`, `TokenizerRecipe`, and `Family`, which holds them all.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from ..stepthrough.names import StepInfo


@dataclass(frozen=True)
class EmbeddingParts:
    word: nn.Embedding
    position: nn.Embedding | None  # DeBERTa-v3 and ModernBERT add no position table to the input
    token_type: nn.Embedding | None  # DistilBERT, MPNet, DeBERTa-v3 and ModernBERT have no token types
    norm: nn.LayerNorm
    project: nn.Linear | None  # embedding size -> hidden size: ALBERT, ELECTRA-small after the LayerNorm
    project_first: bool = False  # DeBERTa projects the sum before its LayerNorm


@dataclass(frozen=True)
class LayerInput:
    """What a layer's computation starts from: its modules, its input and the mask, with a batch of one."""

    base: nn.Module  # the base model (encoder-wide modules: relative embeddings, rotary tables)
    index: int  # which layer
    parts: object  # the family's record of this layer's modules
    x: torch.Tensor  # (1, T, d): the layer's input, hidden_states[index]
    attention_mask: torch.Tensor  # (1, T) of 0/1
    num_heads: int


@dataclass(frozen=True)
class AttentionBlock:
    """One layer's attention block as the norm-based analysis needs it, in nn.Linear's layout (y = x Wᵀ + b)."""

    w_v: torch.Tensor  # (d, d)
    b_v: torch.Tensor  # (d,)
    w_o: torch.Tensor  # (d, d)
    b_o: torch.Tensor  # (d,)
    output: Callable[[torch.Tensor], torch.Tensor]  # the model's own output dense: context (.., d) -> (.., d)
    pre_norm: Callable[[torch.Tensor], torch.Tensor] | None  # pre-norm layers: values come from LN(x)
    post_norm: nn.LayerNorm | None  # post-norm layers: LN(x + attention output) is the block's output


@dataclass(frozen=True)
class LayerShape:
    """One kind of encoder layer: its sub-steps, in order, and how they are computed.

    `run` returns every sub-step under its key (tensors with the batch dimension of one); the last sub-step is
    the layer's output. `attention` returns only the probabilities (1, h, T, T), for the analyses."""

    steps: Callable[[object, int], tuple[StepInfo, ...]]  # (config, layer) -> the layer's sub-steps
    run: Callable[[LayerInput], dict[str, torch.Tensor]]
    attention: Callable[[LayerInput], torch.Tensor]
    block: Callable[[object], AttentionBlock]  # layer parts -> its attention block
    describe: Callable[[object, int], str | None] = lambda config, i: None  # what to say about layer i


@dataclass(frozen=True)
class PoolerParts:
    dense: nn.Linear
    activation: Callable[[torch.Tensor], torch.Tensor]


@dataclass(frozen=True)
class MaskedLMHead:
    """What the masked-LM model applies to the last hidden states: (..., d) -> (..., vocabulary) logits.

    `final_norm`: a norm the base model applies after its last layer (ModernBERT), which the model's last hidden
    state already went through and every earlier one has not."""

    apply: Callable[[torch.Tensor], torch.Tensor]
    prefixes: tuple[str, ...]  # its parameters' name prefixes, to tell whether the checkpoint held them
    final_norm: nn.Module | None = None


@dataclass(frozen=True)
class TokenizerRecipe:
    """How the offline stand-in tokenizer of a family is made (see `loading/offline_tokenizer.py`)."""

    kind: str  # "wordpiece" (## pieces), "bpe" (byte-level, Ġ marks a space) or "unigram" (▁ marks a space)
    special_tokens: tuple[str, ...]  # in id order: the first gets id 0
    tokenizer_class: str  # the transformers class that applies the family's conventions
    lowercase: bool
    vocabulary: str = ""  # the shipped file's name (default: the kind)
    trailing: tuple[str, ...] = ()  # special tokens after the vocabulary (XLM-R's <mask>, DeBERTa's [MASK])
    special_ids: tuple[tuple[str, int], ...] = ()  # specials at the ids the config names (ModernBERT's 50280+)

    @property
    def vocabulary_name(self) -> str:
        return self.vocabulary or self.kind


def _no_offset(config) -> int:
    return 0


@dataclass(frozen=True)
class Family:
    name: str
    model_types: tuple[str, ...]
    tokenizer: TokenizerRecipe
    embedding_parts: Callable[[nn.Module], EmbeddingParts]
    layer_modules: Callable[[nn.Module], list[nn.Module]]  # in the order the forward runs them
    layer_parts: Callable[[nn.Module], object]  # one layer module -> the family's record of its parts
    layer: LayerShape
    pooler_parts: Callable[[nn.Module], PoolerParts | None]
    position_ids: Callable[[nn.Module, torch.Tensor], torch.Tensor]  # (1, T) ids -> (1, T) positions
    masked_lm_head: Callable[[nn.Module], MaskedLMHead]  # of the masked-LM task model
    position_offset: Callable[[object], int] = _no_offset  # positions the tokens cannot use
    shared_layers: bool = False  # one set of layer weights runs several times (ALBERT)
    final_norm: Callable[[nn.Module], nn.Module | None] = lambda base: None  # after the last layer
    encoder_steps: Callable[[nn.Module, int], dict[str, torch.Tensor]] | None = None  # computed once per input
    encoder_step_infos: tuple[StepInfo, ...] = ()
    notes: Callable[[object], tuple[str, ...]] = lambda config: ()  # what BERT's input has and this family's not
    about: Callable[[object], tuple[str, ...]] = lambda config: ()  # how its layer differs from BERT's, in brief
    token_cap: int | None = None  # the app reads at most this many tokens, below what the model could

    def max_tokens(self, config) -> int:
        """The longest input the position table allows (or the app's cap for the family, if lower)."""
        limit = config.max_position_embeddings - self.position_offset(config)
        return limit if self.token_cap is None else min(limit, self.token_cap)

    def layer_steps(self, config, i: int) -> tuple[StepInfo, ...]:
        return self.layer.steps(config, i)
