"""GTE v1.5 and multilingual (Zhang et al. 2024, "mGTE: Generalized Long-Context Text Representation and Reranking
Models"), as transformers implements them (`model_type: gte`): NomicBERT's post-norm rotary layer with biases in
attention and on W_down, a GELU-gated feed-forward (GELU(x W_gate) ⊙ (x W_up), then W_down), token types where the
config has them, and a masked-LM head of dense, GELU, LayerNorm, decoder.

The checkpoints Alibaba-NLP published declare `model_type: new` with their own code (Alibaba-NLP/new-impl), which
transformers does not implement and bertviz-lite never runs; `REMOTE_ONLY` in `families/__init__.py` says so when
one is asked for. Copies converted to `gte` load natively.
"""
from __future__ import annotations

from .bert_layout import bert_pooler, child_head, counting_positions
from .nomic_bert import rotary_notes, swiglu_parts, word_and_token_type
from .shared_parts import post_norm_rotary_layer
from .records import Family, LayerShape, TokenizerRecipe

TOKEN_CAP = 1024  # GTE reads 8,192 tokens; the app reads at most 1,024, as for ModernBERT (docs/families.md)


def _about(config) -> tuple[str, ...]:
    return (f"**rotary positions** in place of a position table (base θ {config.rope_parameters['rope_theta']:,.0f})",
            f"**a gated feed-forward**: GELU(x W_gate) ⊙ (x W_up), each {config.intermediate_size:,} wide, then "
            f"W_down",
            "post-norm, as BERT: add & norm after attention and after the feed-forward",
            f"the app reads at most **{TOKEN_CAP:,} tokens** of the model's {config.max_position_embeddings:,}")


GTE = Family(
    "GTE", ("gte",), TokenizerRecipe("unigram", ("<s>", "<pad>", "</s>", "<unk>"), "XLMRobertaTokenizer", False,
                                     vocabulary="unigram-cased", trailing=("<mask>",)),
    word_and_token_type, lambda base: list(base.layers), swiglu_parts, LayerShape(post_norm_rotary_layer),
    bert_pooler, counting_positions, child_head("lm_head"), notes=rotary_notes, about=_about, token_cap=TOKEN_CAP)
