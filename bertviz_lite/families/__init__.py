"""Everything that differs between the supported encoder families, and nothing else: one module per layer
shape, each family described once (its parts, its layer as a graph of named operations, its masked-LM head, its
stand-in tokenizer).

- `bert_layout.py`: the post-norm BERT layer; BERT, RoBERTa, XLM-RoBERTa, CamemBERT, DistilBERT, ALBERT, ELECTRA;
- `mpnet.py`: BERT's layer plus a learnt relative-position bias on the scores;
- `deberta.py`: BERT's layer with disentangled scores (content and relative position apart);
- `modernbert.py`: a pre-norm layer with rotary positions, local and global attention, and GeGLU;
- `eurobert.py`: the same pre-norm layer with RMSNorm, SwiGLU and grouped-query attention (Llama's layer);
- `nomic_bert.py`, `gte.py`, `jina_v3.py`: BERT's post-norm layer with rotary attention (NomicBERT and GTE with a
  gated feed-forward, Jina-v3 with XLM-RoBERTa's plain one);
- `shared_parts.py`: what several of them share, written once (rotary attention, grouped-query heads, a gated
  feed-forward, the pre-norm layer).

Add a family with one module (or one entry in a module whose layer it shares) and one entry in `FAMILIES`.

>>> family_for_model_type("roberta").name
'RoBERTa'
>>> family_for_model_type("albert").shared_layers
True
"""
from __future__ import annotations

from ..errors import LoadError
from .bert_layout import ALBERT, BERT, CAMEMBERT, DISTILBERT, ELECTRA, ROBERTA, XLM_ROBERTA, LayerParts
from .deberta import DEBERTA
from .eurobert import EUROBERT
from .gte import GTE
from .jina_v3 import JINA_V3
from .modernbert import MODERNBERT
from .mpnet import MPNET
from .nomic_bert import NOMIC_BERT
from .records import (EmbeddingParts, Family, LayerShape, MaskedLMHead, PoolerParts, TokenizerRecipe,
                      activation_name)

FAMILIES: tuple[Family, ...] = (BERT, ROBERTA, DISTILBERT, ALBERT, ELECTRA, XLM_ROBERTA, CAMEMBERT, MPNET, DEBERTA,
                                MODERNBERT, EUROBERT, NOMIC_BERT, GTE, JINA_V3)

SUPPORTED = ", ".join(f.name for f in FAMILIES)

__all__ = ["FAMILIES", "REMOTE_ONLY", "SUPPORTED", "EmbeddingParts", "Family", "LayerParts", "LayerShape",
           "MaskedLMHead", "PoolerParts", "TokenizerRecipe", "config_summary", "family_for_config",
           "family_for_model_type"]


def family_for_model_type(model_type: str) -> Family:
    """The family of a config's `model_type`, or a LoadError that names the supported families."""
    for family in FAMILIES:
        if model_type in family.model_types:
            return family
    raise LoadError(f"'{model_type}' models are not a supported encoder; bertviz-lite explains {SUPPORTED} "
                    f"models (for example bert-base-uncased).")


# model types that published checkpoints declare and transformers does not implement: what to say about them
REMOTE_ONLY = {
    "new": "GTE v1.5 and gte-multilingual (Alibaba-NLP) declare model_type 'new', whose code lives in the "
           "Alibaba-NLP/new-impl repository; transformers does not implement it and bertviz-lite never runs a "
           "repository's code. transformers implements GTE natively as model_type 'gte': a copy converted to it "
           "(for example alibaba-nlp-community/gte-multilingual-base) loads here.",
}


def family_for_config(config) -> Family:
    """The family of a config, or a LoadError: its type is not supported, or the family refuses this config
    (a NomicBERT config whose original sizes transformers would not read, a Jina-v3 declared as XLM-RoBERTa)."""
    family = family_for_model_type(config.model_type)
    problem = family.config_problem(config)
    if problem:
        raise LoadError(problem)
    return family


def config_summary(config) -> dict[str, object]:
    """The architecture numbers people ask about, under one set of names for every family."""
    hidden = config.hidden_size
    return {
        "model_type": config.model_type,
        "layers": config.num_hidden_layers,
        "hidden_size": hidden,
        "heads": config.num_attention_heads,
        "key_value_heads": getattr(config, "num_key_value_heads", None) or config.num_attention_heads,
        "head_size": getattr(config, "head_dim", None) or hidden // config.num_attention_heads,
        "ffn_size": getattr(config, "intermediate_size", None) or getattr(config, "hidden_dim", None),
        "embedding_size": getattr(config, "embedding_size", hidden),
        "vocab_size": config.vocab_size,
        "max_positions": config.max_position_embeddings,
        "token_types": getattr(config, "type_vocab_size", 0),
        "activation": activation_name(config),
    }
