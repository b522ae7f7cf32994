"""Everything that differs between the supported encoder families, and nothing else.

The rest of bertviz_lite works on three small records that this module fills in for a model:

- `EmbeddingParts`: word, position and token-type tables, the LayerNorm, and the projection that ALBERT and
  ELECTRA apply when their embedding size is smaller than the hidden size;
- `LayerParts`: the modules of one encoder layer in the order data flows through them (the names follow the
  paper: query, key, value, ...), whatever the checkpoint calls them;
- `PoolerParts`: dense + tanh on the first token, for the families that have a pooler;
- `MaskedLMHead`: the masked-LM task model's head as one function from hidden states to vocabulary logits.

Add a family by writing those four functions for it and one `Family` entry in `FAMILIES`.

>>> family_for_model_type("roberta").name
'RoBERTa'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from .errors import LoadError


@dataclass(frozen=True)
class EmbeddingParts:
    word: nn.Embedding
    position: nn.Embedding
    token_type: nn.Embedding | None  # DistilBERT has no token types
    norm: nn.LayerNorm
    project: nn.Linear | None  # ALBERT, ELECTRA-small: embedding size -> hidden size


@dataclass(frozen=True)
class LayerParts:
    query: nn.Linear
    key: nn.Linear
    value: nn.Linear
    attn_out: nn.Linear  # dense after the heads are concatenated
    attn_norm: nn.LayerNorm  # add & norm 1
    ffn_in: nn.Linear  # d -> d_ff
    activation: Callable[[torch.Tensor], torch.Tensor]
    ffn_out: nn.Linear  # d_ff -> d
    ffn_norm: nn.LayerNorm  # add & norm 2: the layer's output


@dataclass(frozen=True)
class PoolerParts:
    dense: nn.Linear
    activation: Callable[[torch.Tensor], torch.Tensor]


@dataclass(frozen=True)
class MaskedLMHead:
    """What the masked-LM model applies to the last hidden states: (..., d) -> (..., vocabulary) logits."""

    apply: Callable[[torch.Tensor], torch.Tensor]
    prefixes: tuple[str, ...]  # its parameters' name prefixes, to tell whether the checkpoint held them


@dataclass(frozen=True)
class TokenizerRecipe:
    """How the offline stand-in tokenizer of a family is made (see `offline_tokenizer`)."""

    kind: str  # "wordpiece" (## pieces), "bpe" (byte-level, Ġ marks a space) or "unigram" (▁ marks a space)
    special_tokens: tuple[str, ...]  # in id order: the first gets id 0
    tokenizer_class: str  # the transformers class that applies the family's conventions
    lowercase: bool


@dataclass(frozen=True)
class Family:
    name: str
    model_types: tuple[str, ...]
    encoder: str  # the base model's child that holds the layers
    tokenizer: TokenizerRecipe
    embedding_parts: Callable[[nn.Module], EmbeddingParts]
    layer_modules: Callable[[nn.Module], list[nn.Module]]  # in the order the forward runs them
    layer_parts: Callable[[nn.Module], LayerParts]
    pooler_parts: Callable[[nn.Module], PoolerParts | None]
    position_ids: Callable[[nn.Module, torch.Tensor], torch.Tensor]  # (1, T) ids -> (1, T) positions
    masked_lm_head: Callable[[nn.Module], MaskedLMHead]  # of the masked-LM task model
    position_offset: Callable[[object], int] = lambda config: 0  # positions the tokens cannot use
    shared_layers: bool = False  # one set of layer weights runs several times (ALBERT)

    def max_tokens(self, config) -> int:
        """The longest input the position table allows."""
        return config.max_position_embeddings - self.position_offset(config)


# --- BERT layout: BERT, RoBERTa and ELECTRA share it -------------------------------------------------


def _bert_embeddings(base: nn.Module) -> EmbeddingParts:
    e = base.embeddings
    return EmbeddingParts(e.word_embeddings, e.position_embeddings, e.token_type_embeddings, e.LayerNorm,
                          getattr(base, "embeddings_project", None))


def _bert_layer_modules(base: nn.Module) -> list[nn.Module]:
    return list(base.encoder.layer)


def _bert_layer_parts(layer: nn.Module) -> LayerParts:
    attn, out = layer.attention.self, layer.attention.output
    return LayerParts(attn.query, attn.key, attn.value, out.dense, out.LayerNorm,
                      layer.intermediate.dense, layer.intermediate.intermediate_act_fn,
                      layer.output.dense, layer.output.LayerNorm)


def _bert_pooler(base: nn.Module) -> PoolerParts | None:
    pooler = getattr(base, "pooler", None)
    return None if pooler is None else PoolerParts(pooler.dense, pooler.activation)


def _no_pooler(base: nn.Module) -> None:
    return None


def _counting_positions(base: nn.Module, input_ids: torch.Tensor) -> torch.Tensor:
    return torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)  # (1, T)


def _roberta_positions(base: nn.Module, input_ids: torch.Tensor) -> torch.Tensor:
    """RoBERTa numbers positions from padding_idx + 1: transformers' own helper does it."""
    e = base.embeddings
    return e.create_position_ids_from_input_ids(input_ids, e.padding_idx)  # (1, T)


def _child_head(name: str) -> Callable[[nn.Module], MaskedLMHead]:
    """BERT (cls), RoBERTa (lm_head) and ALBERT (predictions) keep the whole head in one child module."""
    return lambda model: MaskedLMHead(getattr(model, name), (f"{name}.",))


def _electra_head(model: nn.Module) -> MaskedLMHead:
    return MaskedLMHead(lambda h: model.generator_lm_head(model.generator_predictions(h)),
                        ("generator_predictions.", "generator_lm_head."))


# --- DistilBERT -----------------------------------------------------------------------------------


def _distilbert_embeddings(base: nn.Module) -> EmbeddingParts:
    e = base.embeddings
    return EmbeddingParts(e.word_embeddings, e.position_embeddings, None, e.LayerNorm, None)


def _distilbert_layer_modules(base: nn.Module) -> list[nn.Module]:
    return list(base.transformer.layer)


def _distilbert_head(model: nn.Module) -> MaskedLMHead:
    """transform -> activation -> LayerNorm -> projection, as DistilBertForMaskedLM.forward applies them."""
    return MaskedLMHead(lambda h: model.vocab_projector(model.vocab_layer_norm(model.activation(
        model.vocab_transform(h)))), ("vocab_transform.", "vocab_layer_norm.", "vocab_projector."))


def _distilbert_layer_parts(layer: nn.Module) -> LayerParts:
    a, f = layer.attention, layer.ffn
    return LayerParts(a.q_lin, a.k_lin, a.v_lin, a.out_lin, layer.sa_layer_norm,
                      f.lin1, f.activation, f.lin2, layer.output_layer_norm)


# --- ALBERT ---------------------------------------------------------------------------------------


def _albert_embeddings(base: nn.Module) -> EmbeddingParts:
    e = base.embeddings
    return EmbeddingParts(e.word_embeddings, e.position_embeddings, e.token_type_embeddings, e.LayerNorm,
                          base.encoder.embedding_hidden_mapping_in)


def _albert_layer_modules(base: nn.Module) -> list[nn.Module]:
    """ALBERT runs its layer groups (usually one shared layer) num_hidden_layers times, as its forward does."""
    config, groups = base.config, base.encoder.albert_layer_groups
    runs = []
    for i in range(config.num_hidden_layers):
        group = groups[int(i / (config.num_hidden_layers / config.num_hidden_groups))]
        runs.extend(group.albert_layers)
    return runs


def _albert_layer_parts(layer: nn.Module) -> LayerParts:
    a = layer.attention
    return LayerParts(a.query, a.key, a.value, a.dense, a.LayerNorm,
                      layer.ffn, layer.activation, layer.ffn_output, layer.full_layer_layer_norm)


def _albert_pooler(base: nn.Module) -> PoolerParts | None:
    return None if base.pooler is None else PoolerParts(base.pooler, base.pooler_activation)


# --- the table ------------------------------------------------------------------------------------

_WORDPIECE_UNCASED = dict(kind="wordpiece", special_tokens=("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
                          lowercase=True)

FAMILIES: tuple[Family, ...] = (
    Family("BERT", ("bert",), "encoder", TokenizerRecipe(tokenizer_class="BertTokenizer", **_WORDPIECE_UNCASED),
           _bert_embeddings, _bert_layer_modules, _bert_layer_parts, _bert_pooler, _counting_positions,
           _child_head("cls")),
    Family("RoBERTa", ("roberta",), "encoder",
           TokenizerRecipe("bpe", ("<s>", "<pad>", "</s>", "<unk>", "<mask>"), "RobertaTokenizer", False),
           _bert_embeddings, _bert_layer_modules, _bert_layer_parts, _bert_pooler, _roberta_positions,
           _child_head("lm_head"), position_offset=lambda config: config.pad_token_id + 1),
    Family("DistilBERT", ("distilbert",), "transformer",
           TokenizerRecipe(tokenizer_class="DistilBertTokenizer", **_WORDPIECE_UNCASED),
           _distilbert_embeddings, _distilbert_layer_modules, _distilbert_layer_parts, _no_pooler,
           _counting_positions, _distilbert_head),
    Family("ALBERT", ("albert",), "encoder",
           TokenizerRecipe("unigram", ("<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"), "AlbertTokenizer", True),
           _albert_embeddings, _albert_layer_modules, _albert_layer_parts, _albert_pooler, _counting_positions,
           _child_head("predictions"), shared_layers=True),
    Family("ELECTRA", ("electra",), "encoder",
           TokenizerRecipe(tokenizer_class="ElectraTokenizer", **_WORDPIECE_UNCASED),
           _bert_embeddings, _bert_layer_modules, _bert_layer_parts, _no_pooler, _counting_positions,
           _electra_head),
)

SUPPORTED = ", ".join(f.name for f in FAMILIES)


def family_for_model_type(model_type: str) -> Family:
    """The family of a config's `model_type`, or a LoadError that names the supported families."""
    for family in FAMILIES:
        if model_type in family.model_types:
            return family
    raise LoadError(f"'{model_type}' models are not a supported encoder; bertviz-lite explains {SUPPORTED} "
                    f"models (for example bert-base-uncased).")


def config_summary(config) -> dict[str, object]:
    """The architecture numbers people ask about, under one set of names for every family."""
    hidden = config.hidden_size
    return {
        "model_type": config.model_type,
        "layers": config.num_hidden_layers,
        "hidden_size": hidden,
        "heads": config.num_attention_heads,
        "head_size": hidden // config.num_attention_heads,
        "ffn_size": getattr(config, "intermediate_size", None) or getattr(config, "hidden_dim", None),
        "embedding_size": getattr(config, "embedding_size", hidden),
        "vocab_size": config.vocab_size,
        "max_positions": config.max_position_embeddings,
        "token_types": getattr(config, "type_vocab_size", 0),
        "activation": getattr(config, "hidden_act", None) or getattr(config, "activation", None),
    }
