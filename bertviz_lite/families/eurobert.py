"""EuroBERT (Boizard et al. 2025, "EuroBERT: Scaling Multilingual Encoders for European Languages"): a Llama-style
encoder, the pre-norm rotary layer of `shared_parts.py` with

- RMSNorm (x / √(mean(x²) + ε) × γ: no centring, no β) before attention and before the MLP, and after the last
  layer; no norm on the embeddings, which are the word vectors alone (no positions, no token types);
- separate W_Q, W_K, W_V, W_O, no biases; grouped-query attention where `num_key_value_heads` is below
  `num_attention_heads` (the 610m and 2.1B models: 6 key/value heads for 18 query heads; the 210m model has as many
  of each);
- SwiGLU: SiLU(x W_gate) ⊙ (x W_up), then W_down;
- a masked-LM head that is one linear map on the final norm's output.

As for ModernBERT, the model's last reported hidden state is after the final norm, so the last layer's sub-steps
end with `final.norm`.
"""
from __future__ import annotations

from torch import nn

from ..graph.nodes import ModuleNames
from ..ops import RMS_NORM
from .bert_layout import counting_positions, no_pooler
from .shared_parts import PreNormParts, Projection, pre_norm_layer, rotary_of, swiglu
from .records import EmbeddingParts, Family, LayerShape, MaskedLMHead, Nodes, TokenizerRecipe, activation_name

TOKEN_CAP = 1024  # EuroBERT reads 8,192 tokens; the app reads at most 1,024, as for ModernBERT (docs/families.md)


def _layer_parts(layer: nn.Module) -> PreNormParts:
    a, m = layer.self_attn, layer.mlp
    q, k, v = (Projection(linear, explains=f"normed input × {name}{{bias}}, split into heads")
               for linear, name in ((a.q_proj, "W_Q"), (a.k_proj, "W_K"), (a.v_proj, "W_V")))
    return PreNormParts(layer.input_layernorm, q, k, v, Projection(a.o_proj, explains="context × W_O{bias}"),
                        layer.post_attention_layernorm, *swiglu(m, "normed"))


def _graph(base: nn.Module, i: int, p: PreNormParts, names: ModuleNames) -> Nodes:
    config = base.config
    return pre_norm_layer(names, p, RMS_NORM, "RMSNorm", rotary_of(base), config.num_attention_heads,
                          activation_name(config), final_norm=base.norm, last=i == config.num_hidden_layers - 1)


def _embeddings(base: nn.Module) -> EmbeddingParts:
    return EmbeddingParts(base.embed_tokens, None, None, None, None)


def _masked_lm_head(model: nn.Module) -> MaskedLMHead:
    """One linear map on the final norm's output (see MaskedLMHead for the final norm)."""
    return MaskedLMHead(model.lm_head, ("lm_head.",), final_norm=model.model.norm)


def _notes(config) -> tuple[str, ...]:
    notes = ("The input is the word vectors alone: no position or token-type embeddings and no norm. Position enters "
             "every layer as a rotation of the queries and keys (rotary embeddings).",)
    if config.pad_token_id is not None and config.pad_token_id == config.eos_token_id:
        notes += (f"The end-of-text token (id {config.eos_token_id}) is also the padding token, so its row of the word "
                  f"table is the padding row: transformers starts it at zeros and a padding row takes no gradient. "
                  f"Where it is zeros (random weights here), that token's vector is 0, and so are its queries, keys "
                  f"and scores in layer 0: an empty row and column on the heatmaps.",)
    return notes


def _about(config) -> tuple[str, ...]:
    h, kv = config.num_attention_heads, config.num_key_value_heads
    heads = (f"**grouped-query attention**: {kv} key/value heads for {h} query heads, each shared by {h // kv}"
             if kv < h else f"{h} query heads and as many key/value heads (no grouping in this size)")
    biases = "biases" if config.attention_bias or config.mlp_bias else "no biases"
    return ("**pre-norm with RMSNorm**: before attention and before the MLP, a final norm after layer "
            f"{config.num_hidden_layers - 1}, {biases}, no norm on the embeddings",
            heads,
            f"**rotary positions** (base θ {config.rope_parameters['rope_theta']:,.0f})",
            f"**SwiGLU**: SiLU(x W_gate) ⊙ (x W_up), each {config.intermediate_size:,} wide, then W_down",
            f"the app reads at most **{TOKEN_CAP:,} tokens** of the model's {config.max_position_embeddings:,}")


EUROBERT = Family(
    "EuroBERT", ("eurobert",),
    TokenizerRecipe("bpe", (), "PreTrainedTokenizerFast", False, vocabulary="bpe-modernbert",
                    special_ids=(("<|begin_of_text|>", 128000), ("<|end_of_text|>", 128001), ("<|mask|>", 128002)),
                    roles=(("cls_token", "<|begin_of_text|>"), ("sep_token", "<|end_of_text|>"),
                           ("pad_token", "<|end_of_text|>"), ("mask_token", "<|mask|>"))),
    _embeddings, lambda base: list(base.layers), _layer_parts, LayerShape(_graph),
    no_pooler, counting_positions, _masked_lm_head, final_norm=lambda base: base.norm, notes=_notes, about=_about,
    token_cap=TOKEN_CAP)
