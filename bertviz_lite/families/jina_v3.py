"""Jina-embeddings-v3 (Sturua et al. 2024, "jina-embeddings-v3: Multilingual Embeddings With Task LoRA"), as
transformers implements it (`model_type: jina_embeddings_v3`): XLM-RoBERTa's post-norm layer and plain GELU
feed-forward with rotary positions in place of the position table (base θ 20,000), positions counted from 0.

The published jinaai/jina-embeddings-v3 declares `model_type: xlm-roberta` with `position_embedding_type: rotary`
and remote code for its LoRA adapters: read as a plain XLM-RoBERTa it would be the wrong model (no rotation, a
position table that was never trained). `bert_layout.rotary_xlm_roberta` refuses such a config with what to use instead.
transformers' native class has no task adapters; it is the base model.
"""
from __future__ import annotations

from torch import nn

from .bert_layout import SENTENCEPIECE_ROBERTA, bert_pooler, child_head, counting_positions
from .nomic_bert import rotary_notes, word_and_token_type
from .shared_parts import PostNormParts, Projection, post_norm_rotary_layer
from .records import Family, LayerShape, TokenizerRecipe

TOKEN_CAP = 512  # Jina-v3 reads 8,192; at 24 layers × 1,024 wide, 512 keeps a trace near bert-large's
# (docs/families.md)


def _layer_parts(layer: nn.Module) -> PostNormParts:
    a, m = layer.self_attn, layer.mlp
    return PostNormParts(Projection(a.q_proj), Projection(a.k_proj), Projection(a.v_proj), Projection(a.o_proj),
                         layer.post_attention_layernorm, Projection(m.fc1), None, m.activation_fn, Projection(m.fc2),
                         layer.post_mlp_layernorm)


def _about(config) -> tuple[str, ...]:
    return (f"**rotary positions** in place of RoBERTa's position table (base θ "
            f"{config.rope_parameters['rope_theta']:,.0f}), counted from 0",
            "XLM-RoBERTa's post-norm layer and GELU feed-forward otherwise",
            f"the app reads at most **{TOKEN_CAP:,} tokens** of the model's {config.max_position_embeddings:,}")


JINA_V3 = Family(
    "Jina-v3", ("jina_embeddings_v3",),
    TokenizerRecipe(tokenizer_class="XLMRobertaTokenizer", **SENTENCEPIECE_ROBERTA),
    word_and_token_type, lambda base: list(base.layers), _layer_parts, LayerShape(post_norm_rotary_layer),
    bert_pooler, counting_positions, child_head("lm_head"), notes=rotary_notes, about=_about, token_cap=TOKEN_CAP)
