"""The post-norm BERT layer (Devlin et al. 2019) and the families built on it: BERT, RoBERTa, XLM-RoBERTa,
CamemBERT, DistilBERT, ALBERT and ELECTRA. MPNet and DeBERTa use the same layer with scores of their own
(`post_norm_layer` takes them as a function).

One layer: Q, K, V from the input; scores; softmax; context; output dense; add & norm; feed-forward
(d -> d_ff, activation, d_ff -> d); add & norm = the layer's output.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from ..stepthrough.names import LAYER_STEPS, StepInfo
from ..stepthrough.ops import context, mask_bias, scaled_dot_products, softmax_rows, split_heads
from .records import (AttentionBlock, EmbeddingParts, Family, LayerInput, LayerShape, MaskedLMHead, PoolerParts,
                      TokenizerRecipe)


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


ScoreTerms = Callable[[LayerInput, torch.Tensor, torch.Tensor], dict[str, torch.Tensor]]


def plain_scores(layer: LayerInput, q: torch.Tensor, k: torch.Tensor) -> dict[str, torch.Tensor]:
    """BERT's scores: Q Kᵀ / √d_h + mask, (1, h, T, T)."""
    return {"attn.scores": scaled_dot_products(q, k) + mask_bias(layer.attention_mask, q.dtype)}


def post_norm_layer(scores: ScoreTerms) -> tuple[Callable, Callable]:
    """(run, attention) of a post-norm layer whose scores come from `scores`, which returns its own terms
    (if any) and then "attn.scores"."""

    def queries_keys(layer: LayerInput) -> tuple[torch.Tensor, torch.Tensor]:
        p, h = layer.parts, layer.num_heads
        return split_heads(p.query(layer.x), h), split_heads(p.key(layer.x), h)  # (1, h, T, d_h) each

    def attention(layer: LayerInput) -> torch.Tensor:
        q, k = queries_keys(layer)
        return softmax_rows(scores(layer, q, k)["attn.scores"])  # (1, h, T, T)

    def run(layer: LayerInput) -> dict[str, torch.Tensor]:
        p, x = layer.parts, layer.x
        q, k = queries_keys(layer)
        v = split_heads(p.value(x), layer.num_heads)  # (1, h, T, d_h)
        terms = scores(layer, q, k)  # each (1, h, T, T)
        probs = softmax_rows(terms["attn.scores"])  # (1, h, T, T), rows sum to 1
        mixed = context(probs, v)  # (1, T, d)
        attn_out = p.attn_out(mixed)  # (1, T, d)
        steps = {"input": x, "attn.q": q, "attn.k": k, "attn.v": v, **terms, "attn.probs": probs,
                 "attn.context": mixed, "attn.out": attn_out, "attn.residual": x + attn_out}
        steps["attn.norm"] = p.attn_norm(steps["attn.residual"])  # (1, T, d)
        steps["ffn.act"] = p.activation(p.ffn_in(steps["attn.norm"]))  # (1, T, d_ff)
        steps["ffn.out"] = p.ffn_out(steps["ffn.act"])  # (1, T, d)
        steps["ffn.residual"] = steps["attn.norm"] + steps["ffn.out"]  # (1, T, d)
        steps["ffn.norm"] = p.ffn_norm(steps["ffn.residual"])  # (1, T, d): the layer's output
        return steps

    return run, attention


def post_norm_block(parts: LayerParts) -> AttentionBlock:
    return AttentionBlock(parts.value.weight, parts.value.bias, parts.attn_out.weight, parts.attn_out.bias,
                          parts.attn_out, pre_norm=None, post_norm=parts.attn_norm)


def steps_with(extra: tuple[StepInfo, ...], scores: StepInfo | None = None) -> tuple[StepInfo, ...]:
    """BERT's layer steps with `extra` steps just before the scores (and the scores explained anew)."""
    at = [s.key for s in LAYER_STEPS].index("attn.scores")
    return (*LAYER_STEPS[:at], *extra, scores or LAYER_STEPS[at], *LAYER_STEPS[at + 1:])


_run, _attention = post_norm_layer(plain_scores)
POST_NORM = LayerShape(lambda config, i: LAYER_STEPS, _run, _attention, post_norm_block)


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


# --- the families ----------------------------------------------------------------------------------------

WORDPIECE_UNCASED = dict(kind="wordpiece", special_tokens=("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
                         lowercase=True)
_BERT_MODULES = dict(embedding_parts=bert_embeddings, layer_modules=bert_layer_modules,
                     layer_parts=bert_layer_parts, layer=POST_NORM)
_ROBERTA = dict(_BERT_MODULES, pooler_parts=bert_pooler, position_ids=roberta_positions,
                masked_lm_head=child_head("lm_head"), position_offset=roberta_offset)
_SENTENCEPIECE_ROBERTA = dict(kind="unigram", special_tokens=("<s>", "<pad>", "</s>", "<unk>"), lowercase=False,
                              vocabulary="unigram-cased", trailing=("<mask>",))  # XLM-R, CamemBERT: <mask> last

BERT = Family("BERT", ("bert",), TokenizerRecipe(tokenizer_class="BertTokenizer", **WORDPIECE_UNCASED),
              pooler_parts=bert_pooler, position_ids=counting_positions, masked_lm_head=child_head("cls"),
              **_BERT_MODULES)
ROBERTA = Family("RoBERTa", ("roberta",),
                 TokenizerRecipe("bpe", ("<s>", "<pad>", "</s>", "<unk>", "<mask>"), "RobertaTokenizer", False),
                 **_ROBERTA)
XLM_ROBERTA = Family("XLM-RoBERTa", ("xlm-roberta",),
                     TokenizerRecipe(tokenizer_class="XLMRobertaTokenizer", **_SENTENCEPIECE_ROBERTA),
                     **_ROBERTA)
CAMEMBERT = Family("CamemBERT", ("camembert",),
                   TokenizerRecipe(tokenizer_class="CamembertTokenizer", **_SENTENCEPIECE_ROBERTA),
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
