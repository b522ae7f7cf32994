"""The post-norm BERT layer (Devlin et al. 2019) and the families built on it: BERT, RoBERTa, XLM-RoBERTa,
CamemBERT, DistilBERT, ALBERT and ELECTRA. MPNet and DeBERTa use the same layer with scores of their own
(`post_norm_layer` takes the nodes that make them).

One layer, as a graph of named operations: Q, K, V from the input; scaled dot products; the mask; softmax; each
head's context; the heads side by side; output dense; residual add; LayerNorm; feed-forward (d -> d_ff,
activation, d_ff -> d); residual add; LayerNorm = the layer's output.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from ..graph.nodes import ModuleNames, node
from ..ops import LINEAR, MASK, MERGE_HEADS, SCALED_DOT, SOFTMAX, WEIGHTED_SUM
from .shared_parts import LAYERS, Projection, add_and_norm_layer, feed_forward
from .records import (EmbeddingParts, Family, LayerShape, MaskedLMHead, Nodes, PoolerParts, TokenizerRecipe,
                      activation_name)


@dataclass(frozen=True)
class LayerParts:
    """The modules of one post-norm layer in the order data flows through them (names after the paper)."""

    query: nn.Linear
    key: nn.Linear
    value: nn.Linear
    attn_out: nn.Linear  # dense after the heads are concatenated
    attn_norm: nn.LayerNorm  # add & norm 1
    ffn_in: nn.Linear  # d -> d_ff
    activation: Callable[[torch.Tensor], torch.Tensor]
    ffn_out: nn.Linear  # d_ff -> d
    ffn_norm: nn.LayerNorm  # add & norm 2: the layer's output


ScoreNodes = Callable[[nn.Module, int, LayerParts, ModuleNames], Nodes]  # the nodes from Q, K to attn.scores


def plain_scores(base: nn.Module, i: int, p: LayerParts, names: ModuleNames) -> Nodes:
    """BERT's scores: Q Kᵀ / √d_h, then the mask."""
    d_h = base.config.hidden_size // base.config.num_attention_heads
    return (node(LAYERS, "attn.dots", SCALED_DOT, ("attn.q", "attn.k"), scale=math.sqrt(d_h)),
            node(LAYERS, "attn.scores", MASK, ("attn.dots",)))


def post_norm_layer(scores: ScoreNodes) -> Callable[[nn.Module, int, LayerParts, ModuleNames], Nodes]:
    """The graph of a post-norm layer whose scores come from `scores`: Q, K, V from the input; scores; softmax;
    each head's context, the heads side by side; output dense; add & norm; feed-forward; add & norm."""

    def graph(base: nn.Module, i: int, p: LayerParts, names: ModuleNames) -> Nodes:
        h, act = base.config.num_attention_heads, activation_name(base.config)
        attention = (node(LAYERS, "attn.q", LINEAR, ("input",), names(p.query), heads=h),
                     node(LAYERS, "attn.k", LINEAR, ("input",), names(p.key), heads=h),
                     node(LAYERS, "attn.v", LINEAR, ("input",), names(p.value), heads=h),
                     *scores(base, i, p, names),
                     node(LAYERS, "attn.probs", SOFTMAX, ("attn.scores",)),
                     node(LAYERS, "attn.head_context", WEIGHTED_SUM, ("attn.probs", "attn.v")),
                     node(LAYERS, "attn.context", MERGE_HEADS, ("attn.head_context",)),
                     node(LAYERS, "attn.out", LINEAR, ("attn.context",), names(p.attn_out)))
        ffn = feed_forward(names, "attn.norm", Projection(p.ffn_in), None, p.activation, act, Projection(p.ffn_out))
        return add_and_norm_layer(names, attention, p.attn_norm, ffn, p.ffn_norm)

    return graph


POST_NORM = LayerShape(post_norm_layer(plain_scores))


# --- BERT, RoBERTa (XLM-RoBERTa, CamemBERT) and ELECTRA: the same modules -----------------------------------


def bert_embeddings(base: nn.Module) -> EmbeddingParts:
    e = base.embeddings
    return EmbeddingParts(e.word_embeddings, e.position_embeddings, e.token_type_embeddings, e.LayerNorm,
                          getattr(base, "embeddings_project", None))


def bert_layer_modules(base: nn.Module) -> list[nn.Module]:
    return list(base.encoder.layer)


def bert_layer_parts(layer: nn.Module) -> LayerParts:
    attn, out = layer.attention.self, layer.attention.output
    return LayerParts(attn.query, attn.key, attn.value, out.dense, out.LayerNorm,
                      layer.intermediate.dense, layer.intermediate.intermediate_act_fn,
                      layer.output.dense, layer.output.LayerNorm)


def bert_pooler(base: nn.Module) -> PoolerParts | None:
    pooler = getattr(base, "pooler", None)
    return None if pooler is None else PoolerParts(pooler.dense, pooler.activation)


def no_pooler(base: nn.Module) -> None:
    return None


def counting_positions(base: nn.Module, input_ids: torch.Tensor) -> torch.Tensor:
    return torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)  # (1, T)


def roberta_positions(base: nn.Module, input_ids: torch.Tensor) -> torch.Tensor:
    """RoBERTa numbers positions from padding_idx + 1: transformers' own helper does it."""
    e = base.embeddings
    return e.create_position_ids_from_input_ids(input_ids, e.padding_idx)  # (1, T)


def roberta_offset(config) -> int:
    return config.pad_token_id + 1


def child_head(name: str) -> Callable[[nn.Module], MaskedLMHead]:
    """BERT (cls), RoBERTa (lm_head) and ALBERT (predictions) keep the whole head in one child module."""
    return lambda model: MaskedLMHead(getattr(model, name), (f"{name}.",))


def _electra_head(model: nn.Module) -> MaskedLMHead:
    return MaskedLMHead(lambda h: model.generator_lm_head(model.generator_predictions(h)),
                        ("generator_predictions.", "generator_lm_head."))


# --- DistilBERT ------------------------------------------------------------------------------------------


def word_and_position_embeddings(base: nn.Module) -> EmbeddingParts:
    """DistilBERT and MPNet: a word table and a position table, no token types."""
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


# --- ALBERT ----------------------------------------------------------------------------------------------


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


# --- XLM-RoBERTa configs that are not XLM-RoBERTa ------------------------------------------------------------


def rotary_xlm_roberta(config) -> str | None:
    """An XLM-RoBERTa config that is really Jina-v3 (rotary positions, LoRA adapters in remote code)."""
    if getattr(config, "position_embedding_type", "absolute") == "rotary" or "XLMRobertaLoRA" in (
            config.architectures or ()):
        return ("This config says xlm-roberta, but its model uses rotary positions and LoRA adapters from custom code "
                "(jinaai/jina-embeddings-v3): read as XLM-RoBERTa it would be the wrong model, and bertviz-lite never "
                "runs a repository's code. transformers implements it natively as model_type jina_embeddings_v3: "
                "a copy converted to it loads here.")
    return None


# --- the families ----------------------------------------------------------------------------------------

WORDPIECE_UNCASED = dict(kind="wordpiece", special_tokens=("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
                         lowercase=True)
_BERT_MODULES = dict(embedding_parts=bert_embeddings, layer_modules=bert_layer_modules,
                     layer_parts=bert_layer_parts, layer=POST_NORM)
_ROBERTA = dict(_BERT_MODULES, pooler_parts=bert_pooler, position_ids=roberta_positions,
                masked_lm_head=child_head("lm_head"), position_offset=roberta_offset)
SENTENCEPIECE_ROBERTA = dict(kind="unigram", special_tokens=("<s>", "<pad>", "</s>", "<unk>"), lowercase=False,
                             vocabulary="unigram-cased", trailing=("<mask>",))  # XLM-R, CamemBERT: <mask> last

BERT = Family("BERT", ("bert",), TokenizerRecipe(tokenizer_class="BertTokenizer", **WORDPIECE_UNCASED),
              pooler_parts=bert_pooler, position_ids=counting_positions, masked_lm_head=child_head("cls"),
              **_BERT_MODULES)
ROBERTA = Family("RoBERTa", ("roberta",),
                 TokenizerRecipe("bpe", ("<s>", "<pad>", "</s>", "<unk>", "<mask>"), "RobertaTokenizer", False),
                 **_ROBERTA)
XLM_ROBERTA = Family("XLM-RoBERTa", ("xlm-roberta",),
                     TokenizerRecipe(tokenizer_class="XLMRobertaTokenizer", **SENTENCEPIECE_ROBERTA),
                     **_ROBERTA, config_problem=rotary_xlm_roberta)
CAMEMBERT = Family("CamemBERT", ("camembert",),
                   TokenizerRecipe(tokenizer_class="CamembertTokenizer", **SENTENCEPIECE_ROBERTA),
                   **_ROBERTA)
DISTILBERT = Family("DistilBERT", ("distilbert",),
                    TokenizerRecipe(tokenizer_class="DistilBertTokenizer", **WORDPIECE_UNCASED),
                    word_and_position_embeddings, _distilbert_layer_modules, _distilbert_layer_parts, POST_NORM,
                    no_pooler, counting_positions, _distilbert_head)
ALBERT = Family("ALBERT", ("albert",),
                TokenizerRecipe("unigram", ("<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"), "AlbertTokenizer", True),
                _albert_embeddings, _albert_layer_modules, _albert_layer_parts, POST_NORM, _albert_pooler,
                counting_positions, child_head("predictions"), shared_layers=True)
ELECTRA = Family("ELECTRA", ("electra",), TokenizerRecipe(tokenizer_class="ElectraTokenizer", **WORDPIECE_UNCASED),
                 pooler_parts=no_pooler, position_ids=counting_positions, masked_lm_head=_electra_head,
                 **_BERT_MODULES)
