"""DeBERTa-v2 and v3 (He et al. 2021, "DeBERTa: Decoding-enhanced BERT with Disentangled Attention"): BERT's
post-norm layer, but position is kept apart from content. A score is the sum of three terms, each divided by
√(3·d_h), as the model divides them (√(2·d_h) or √d_h when a model uses fewer terms):

- c2c, content to content: Q_i · K_j, what BERT computes;
- c2p, content to position: Q_i · K^r_δ(i,j), the query's content against the key's relative position;
- p2c, position to content: K_j · Q^r_δ(j,i), the key's content against the query's relative position;

so `attn.scores` = c2c + c2p + p2c + mask. δ is the distance i − j, exact up to position_buckets / 2 and
log-bucketed beyond (up to max_relative_positions); the encoder computes the distances and its shared relative
embeddings (one table, with a LayerNorm) once for all layers, and each layer projects them with its own query
and key matrices (`share_att_key`). v3 adds no absolute positions to the input (`position_biased_input: false`)
and has no token types (`type_vocab_size: 0`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from ..stepthrough.names import StepInfo
from ..stepthrough.ops import mask_bias, split_heads
from .bert_layout import (LayerParts, bert_layer_modules, child_head, counting_positions, no_pooler, post_norm_block,
                          post_norm_layer, steps_with)
from .records import EmbeddingParts, Family, LayerInput, LayerShape, MaskedLMHead, TokenizerRecipe

TERMS = ("c2p", "p2c")  # the position terms a config may name in pos_att_type, besides c2c


@dataclass(frozen=True)
class DebertaParts(LayerParts):
    attention: nn.Module = None  # DisentangledSelfAttention: the position projections and the bucket settings


def _term_infos(config) -> tuple[StepInfo, ...]:
    used = _position_terms(config)
    scale = f"√({1 + len(used)}·d_h)" if used else "√d_h"
    infos = [StepInfo("attn.c2c", "Content → content", "(h, T, T)",
                      f"Q_i · K_j / {scale}: the query's content against the key's content, as in BERT")]
    if "c2p" in used:
        infos.append(StepInfo("attn.c2p", "Content → position", "(h, T, T)",
                              f"Q_i · K^r(i − j) / {scale}: the query's content against the relative position of "
                              f"the key, from the shared relative embeddings projected by this layer's W_K"))
    if "p2c" in used:
        infos.append(StepInfo("attn.p2c", "Position → content", "(h, T, T)",
                              f"K_j · Q^r(j − i) / {scale}: the key's content against the relative position of the "
                              f"query, from the shared relative embeddings projected by this layer's W_Q"))
    return tuple(infos)


def _position_terms(config) -> tuple[str, ...]:
    if not getattr(config, "relative_attention", False):
        return ()
    named = config.pos_att_type or []
    named = named.split("|") if isinstance(named, str) else named
    return tuple(t for t in TERMS if t in named)


def _steps(config, i: int) -> tuple[StepInfo, ...]:
    terms = " + ".join(s.key.removeprefix("attn.") for s in _term_infos(config))
    scores = StepInfo("attn.scores", "Scores", "(h, T, T)", f"{terms} + the mask: position kept apart from content")
    return steps_with(_term_infos(config), scores)


def _scores(layer: LayerInput, q: torch.Tensor, k: torch.Tensor) -> dict[str, torch.Tensor]:
    """The three terms (1, h, T, T), computed as DisentangledSelfAttention computes them, and their sum."""
    att, encoder, h = layer.parts.attention, layer.base.encoder, layer.num_heads
    scale = math.sqrt(q.shape[-1] * (1 + sum(t in att.pos_att_type for t in TERMS)))
    terms = {"attn.c2c": torch.matmul(q, k.transpose(2, 3)) / scale}
    if att.relative_attention:
        span = att.pos_ebd_size
        relative = encoder.get_rel_embedding()[: 2 * span][None]  # (1, 2·span, d)
        distance = encoder.get_rel_pos(layer.x)[:, None]  # (1, 1, T, T): bucketed i − j
        T = q.shape[2]
        if "c2p" in att.pos_att_type:
            key_r = split_heads(att.key_proj(relative) if att.share_att_key else att.pos_key_proj(relative), h)
            index = torch.clamp(distance + span, 0, 2 * span - 1).expand(1, h, T, T)
            terms["attn.c2p"] = torch.gather(torch.matmul(q, key_r.transpose(2, 3)), -1, index) / scale
        if "p2c" in att.pos_att_type:
            query_r = split_heads(att.query_proj(relative) if att.share_att_key else att.pos_query_proj(relative), h)
            index = torch.clamp(-distance + span, 0, 2 * span - 1).expand(1, h, T, T)
            by_key = torch.gather(torch.matmul(k, query_r.transpose(2, 3)), -1, index)  # (1, h, T_key, T_query)
            terms["attn.p2c"] = by_key.transpose(2, 3) / scale
    terms["attn.scores"] = sum(terms.values()) + mask_bias(layer.attention_mask, q.dtype)
    return terms


_run, _attention = post_norm_layer(_scores)

ENCODER_STEPS = (
    StepInfo("relative_positions", "Relative positions", "(T, T)",
             "i − j for query i and key j, exact within position_buckets / 2 tokens and log-bucketed beyond: "
             "which row of the relative embeddings each pair uses"),
    StepInfo("rel_embeddings", "Relative embeddings", "(2k, d)",
             "one learnt vector per relative distance, shared by every layer (k = position_buckets)"),
    StepInfo("rel_norm", "Relative embeddings after LayerNorm", "(2k, d)",
             "the shared table normalised once; each layer projects it with its own W_Q and W_K"),
)


def _encoder_steps(base: nn.Module, num_tokens: int) -> dict[str, torch.Tensor]:
    encoder = base.encoder
    if not encoder.relative_attention:
        return {}
    with torch.inference_mode():
        x = torch.zeros(1, num_tokens, 1)  # only its length matters to get_rel_pos
        steps = {"relative_positions": encoder.get_rel_pos(x)[0], "rel_embeddings": encoder.rel_embeddings.weight}
        if "layer_norm" in encoder.norm_rel_ebd:
            steps["rel_norm"] = encoder.get_rel_embedding()
    return {k: v.detach().clone() for k, v in steps.items()}


def _embeddings(base: nn.Module) -> EmbeddingParts:
    e = base.embeddings
    return EmbeddingParts(e.word_embeddings, e.position_embeddings if e.position_biased_input else None,
                          e.token_type_embeddings, e.LayerNorm, e.embed_proj, project_first=True)


def _layer_parts(layer: nn.Module) -> DebertaParts:
    attn, out = layer.attention.self, layer.attention.output
    return DebertaParts(attn.query_proj, attn.key_proj, attn.value_proj, out.dense, out.LayerNorm,
                        layer.intermediate.dense, layer.intermediate.intermediate_act_fn, layer.output.dense,
                        layer.output.LayerNorm, attention=attn)


def _masked_lm_head(model: nn.Module) -> MaskedLMHead:
    """The legacy head (`cls`, BERT's) or the newer one that reuses the word embeddings (`lm_predictions`)."""
    if model.config.legacy:
        return child_head("cls")(model)
    words = model.deberta.embeddings.word_embeddings
    return MaskedLMHead(lambda h: model.lm_predictions(h, words), ("lm_predictions.",))


def _notes(config) -> tuple[str, ...]:
    notes = []
    if not getattr(config, "position_biased_input", True):
        notes.append("No position embeddings are added to the input (position_biased_input: false): DeBERTa puts "
                     "position into every layer's scores instead, as relative distances (c2p and p2c).")
    if not getattr(config, "type_vocab_size", 0):
        notes.append("No token-type embeddings (type_vocab_size: 0): the sentences of a pair are told apart only "
                     "by the [SEP] between them.")
    return tuple(notes)


def _describe(config, i: int) -> str | None:
    terms = _position_terms(config)
    if not terms:
        return "This model has no relative attention: its scores are content to content only."
    return (f"Scores: c2c + {' + '.join(terms)}, each divided by √({1 + len(terms)}·d_h); the relative distances "
            f"and embeddings are the encoder's own (stage Positions).")


def _about(config) -> tuple[str, ...]:
    terms = _position_terms(config)
    if not terms:
        return ()
    return (f"**disentangled attention**: every score is c2c + {' + '.join(terms)} (content and relative position "
            f"apart), divided by √({1 + len(terms)}·d_h)",
            f"relative distances exact up to {max(config.position_buckets // 2, 0) or 'the maximum'} tokens, "
            f"log-bucketed beyond; one shared table of relative embeddings")


DEBERTA = Family(
    "DeBERTa", ("deberta-v2",),
    TokenizerRecipe("unigram", ("[PAD]", "[CLS]", "[SEP]", "[UNK]"), "DebertaV2Tokenizer", False,
                    vocabulary="unigram-deberta", trailing=("[MASK]",)),
    _embeddings, bert_layer_modules, _layer_parts,
    LayerShape(_steps, _run, _attention, post_norm_block, _describe),
    no_pooler, counting_positions, _masked_lm_head,
    encoder_steps=_encoder_steps, encoder_step_infos=ENCODER_STEPS, notes=_notes, about=_about)
