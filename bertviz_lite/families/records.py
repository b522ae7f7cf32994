"""The records a family fills in for a model, so that nothing outside `families/` asks which family it is.

- `EmbeddingParts`: the tables that are added up, the LayerNorm, and the projection some families apply;
- `LayerShape`: one kind of encoder layer as a graph of named operations on the family's own modules (a post-norm
  BERT layer, ModernBERT's pre-norm layer, ...);
- `PoolerParts`, `MaskedLMHead`, `TokenizerRecipe`, and `Family`, which holds them all.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from ..graph.nodes import ModuleNames, Node


@dataclass(frozen=True)
class EmbeddingParts:
    word: nn.Embedding
    position: nn.Embedding | None  # DeBERTa-v3 and ModernBERT add no position table to the input
    token_type: nn.Embedding | None  # DistilBERT, MPNet, DeBERTa-v3 and ModernBERT have no token types
    norm: nn.LayerNorm | None  # EuroBERT has none: each layer normalises its own input
    project: nn.Linear | None  # embedding size -> hidden size: ALBERT, ELECTRA-small after the LayerNorm
    project_first: bool = False  # DeBERTa projects the sum before its LayerNorm


Nodes = tuple[Node, ...]


@dataclass(frozen=True)
class LayerShape:
    """One kind of encoder layer as a graph of named operations (`graph/`): `graph(base, i, parts, names)` gives
    layer i's nodes in the order they are computed, the last one the layer's output, from the family's record of
    the layer's modules (`parts`) and their names in the base model (`names`, a `ModuleNames`)."""

    graph: Callable[[nn.Module, int, object, ModuleNames], Nodes]
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
    roles: tuple[tuple[str, str], ...] = (("unk_token", "[UNK]"), ("cls_token", "[CLS]"), ("sep_token", "[SEP]"),
                                          ("pad_token", "[PAD]"), ("mask_token", "[MASK]"))  # of the special_ids

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
    positions_graph: Callable[[nn.Module, ModuleNames], Nodes] = lambda base, names: ()  # once per input, every layer reads it
    notes: Callable[[object], tuple[str, ...]] = lambda config: ()  # what BERT's input has and this family's not
    about: Callable[[object], tuple[str, ...]] = lambda config: ()  # how its layer differs from BERT's, in brief
    token_cap: int | None = None  # the app reads at most this many tokens, below what the model could
    config_problem: Callable[[object], str | None] = lambda config: None  # why a config of the type is refused

    def max_tokens(self, config) -> int:
        """The longest input the position table allows (or the app's cap for the family, if lower)."""
        limit = config.max_position_embeddings - self.position_offset(config)
        return limit if self.token_cap is None else min(limit, self.token_cap)



def activation_name(config) -> str:
    """The feed-forward activation's name in the config, whatever the family calls the setting."""
    return str(getattr(config, "hidden_act", None) or getattr(config, "hidden_activation", None)
               or getattr(config, "activation", None))
