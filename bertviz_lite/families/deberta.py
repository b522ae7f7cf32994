"""DeBERTa-v2 and v3 (He et al. 2021, "DeBERTa: Decoding-enhanced BERT with Disentangled Attention"): BERT's
post-norm layer, but position is kept apart from content. A score is the sum of three terms, each divided by
√(3·d_h), as the model divides them (√(2·d_h) or √d_h when a model uses fewer terms):

- c2c, content to content: Q_i · K_j, what BERT computes;
- c2p, content to position: Q_i · Kʳ_δ(i,j), the query's content against the key's relative position;
- p2c, position to content: K_j · Qʳ at the query's offset i − j from the key (the paper's Qʳ_δ(j,i)), the
  key's content against the query's relative position;

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

from ..graph.nodes import ModuleNames, node
from ..ops import LAYER_NORM, LINEAR, MASK, PARAMETER, RELATIVE_DOT, SCALED_DOT, Op
from .bert_layout import (LAYERS, LayerParts, bert_layer_modules, child_head, counting_positions, no_pooler,
                          post_norm_layer)
from .records import EmbeddingParts, Family, LayerShape, MaskedLMHead, Nodes, TokenizerRecipe

TERMS = ("c2p", "p2c")  # the position terms a config may name in pos_att_type, besides c2c


@dataclass(frozen=True)
class DebertaParts(LayerParts):
    attention: nn.Module = None  # DisentangledSelfAttention: the position projections and the bucket settings


def _position_terms(config) -> tuple[str, ...]:
    if not getattr(config, "relative_attention", False):
        return ()
    named = config.pos_att_type or []
    named = named.split("|") if isinstance(named, str) else named
    return tuple(t for t in TERMS if t in named)


def _relative_positions(node, inputs, module, tokens) -> torch.Tensor:
    """(T, T): the bucketed i − j of every query i and key j, by the encoder's own function."""
    return module.get_rel_pos(torch.zeros(1, tokens.length, 1))[0]


RELATIVE_POSITIONS = Op("relative_positions", "the distance i − j, exact near by and log-bucketed beyond",
                        _relative_positions, reads_weights=False)


def _positions_graph(base: nn.Module, names: ModuleNames) -> Nodes:
    """The relative distances and the shared relative embeddings (with their LayerNorm), once for all layers."""
    encoder = base.encoder
    if not encoder.relative_attention:
        return ()
    nodes = (node("positions", "relative_positions", RELATIVE_POSITIONS, (), names(encoder)),
             node("positions", "rel_embeddings", PARAMETER, (), names(encoder.rel_embeddings)))
    if "layer_norm" in encoder.norm_rel_ebd:
        nodes += (node("positions", "rel_norm", LAYER_NORM, ("rel_embeddings",), names(encoder.LayerNorm)),)
    return nodes


def _scores(base: nn.Module, i: int, p: DebertaParts, names: ModuleNames) -> Nodes:
    """c2c, then c2p and p2c where the config names them (each from this layer's projections of the shared relative
    embeddings), each divided by √((1 + terms)·d_h) as DisentangledSelfAttention divides them; then the mask."""
    att, config = p.attention, base.config
    terms = _position_terms(config)
    d_h = config.hidden_size // config.num_attention_heads
    scale, shown = math.sqrt(d_h * (1 + len(terms))), f"√({1 + len(terms)}·d_h)" if terms else "√d_h"
    table = "positions.rel_norm" if "layer_norm" in base.encoder.norm_rel_ebd else "positions.rel_embeddings"
    h, nodes = config.num_attention_heads, []
    if "c2p" in terms:
        nodes.append(node(LAYERS, "attn.pos_key", LINEAR, (table,),
                          names(att.key_proj if att.share_att_key else att.pos_key_proj), heads=h))
    if "p2c" in terms:
        nodes.append(node(LAYERS, "attn.pos_query", LINEAR, (table,),
                          names(att.query_proj if att.share_att_key else att.pos_query_proj), heads=h))
    nodes.append(node(LAYERS, "attn.c2c", SCALED_DOT, ("attn.q", "attn.k"), scale=scale,
                      explains=f"Q_i · K_j / {shown}: the query's content against the key's content, as in BERT"))
    if "c2p" in terms:
        nodes.append(node(LAYERS, "attn.c2p", RELATIVE_DOT, ("attn.q", "attn.pos_key", "positions.relative_positions"),
                          direction="c2p", scale=scale,
                          explains=f"Q_i · Kʳ(i − j) / {shown}: the query's content against the relative position "
                                   f"of the key, from the shared relative embeddings projected by this layer's W_K"))
    if "p2c" in terms:
        nodes.append(node(LAYERS, "attn.p2c", RELATIVE_DOT, ("attn.k", "attn.pos_query", "positions.relative_positions"),
                          direction="p2c", scale=scale,
                          explains=f"K_j · Qʳ(i − j) / {shown}: the key's content against the relative position "
                                   f"of the query, from the shared relative embeddings projected by this layer's W_Q"))
    added = ("attn.c2c", *(f"attn.{t}" for t in terms))
    nodes.append(node(LAYERS, "attn.scores", MASK, added,
                      explains=f"{' + '.join(k.removeprefix('attn.') for k in added)} + the mask: position kept apart "
                               f"from content"))
    return tuple(nodes)


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
    LayerShape(post_norm_layer(_scores), _describe),
    no_pooler, counting_positions, _masked_lm_head,
    positions_graph=_positions_graph, notes=_notes, about=_about)
