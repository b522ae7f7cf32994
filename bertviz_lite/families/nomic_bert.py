"""NomicBERT (Nussbaum et al. 2024, "Nomic Embed: Training a Reproducible Long Context Text Embedder"): BERT's
post-norm layer with

- rotary positions in place of a position table (base θ 1,000), so the input is LayerNorm(word + token type);
- SwiGLU: SiLU(x W_gate) ⊙ (x W_up), then W_down; no biases in attention or the feed-forward;
- BERT's masked-LM head (`cls`), no pooler.

The published nomic-embed-text checkpoints declare `model_type: nomic_bert` with remote code in `auto_map`;
transformers maps the type to its own NomicBertModel and converts the original weight names (`Wqkv`, `fc11`, ...)
when it loads them, so no remote code runs. Their config keeps the original names (`n_embd`, `n_layer`, ...), which
NomicBertConfig does not read: `config_problem` refuses a config whose original sizes disagree with what
transformers would build.
"""
from __future__ import annotations

from torch import nn

from .bert_layout import WORDPIECE_UNCASED, bert_pooler, child_head, counting_positions
from .pieces import PostNormParts, Projection, post_norm_rotary_layer
from .records import EmbeddingParts, Family, LayerShape, TokenizerRecipe

ORIGINAL_NAMES = {"n_embd": "hidden_size", "n_layer": "num_hidden_layers", "n_head": "num_attention_heads",
                  "n_inner": "intermediate_size", "rotary_emb_base": None}  # the original config's names
TOKEN_CAP = 1024  # of the 2,048 nomic-embed-text was trained at: one layer's h × T × T steps stay near 200 MB


def swiglu_parts(layer: nn.Module) -> PostNormParts:
    """NomicBERT's and GTE's modules: q, k, v, o projections and a gate / up / down feed-forward."""
    a, m = layer.self_attn, layer.mlp
    return PostNormParts(Projection(a.q_proj), Projection(a.k_proj), Projection(a.v_proj), Projection(a.o_proj),
                         layer.post_attention_layernorm,
                         Projection(m.gate_proj, title="gate_proj", explains="add & norm × W_gate: what goes through "
                                                                             "the activation"),
                         Projection(m.up_proj, title="up_proj", explains="add & norm × W_up: what the activation is "
                                                                         "multiplied by"),
                         m.act_fn, Projection(m.down_proj, explains="the gated activations × W_down: back to d"),
                         layer.post_mlp_layernorm)


def word_and_token_type(base: nn.Module) -> EmbeddingParts:
    """NomicBERT, GTE, Jina-v3: word + token type (when the model has token types), then LayerNorm."""
    e = base.embeddings
    return EmbeddingParts(e.word_embeddings, None, getattr(e, "token_type_embeddings", None), e.LayerNorm, None)


def config_problem(config) -> str | None:
    """A config written with the original names that disagree with what transformers builds from it."""
    for original, native in ORIGINAL_NAMES.items():
        if original in config.to_dict() and native is not None and config.to_dict()[original] != getattr(config, native):
            return (f"This config says {original} = {config.to_dict()[original]}, but transformers' NomicBertConfig "
                    f"reads {native} = {getattr(config, native)} (it does not read the original names): the model "
                    f"would be built with the wrong shape. A config with {native} set is needed.")
    theta = config.to_dict().get("rotary_emb_base")
    if theta is not None and float(theta) != float(config.rope_parameters["rope_theta"]):
        return (f"This config says rotary_emb_base = {theta}, but transformers' NomicBertConfig uses rope_theta = "
                f"{config.rope_parameters['rope_theta']}: the rotary angles would be wrong. A config with "
                f"rope_parameters set is needed.")
    return None


def rotary_notes(config) -> tuple[str, ...]:
    return ("No position embeddings are added to the input: position enters every layer as a rotation of the queries "
            "and keys (rotary embeddings).",)


def _about(config) -> tuple[str, ...]:
    return (f"**rotary positions** in place of a position table (base θ {config.rope_parameters['rope_theta']:,.0f})",
            f"**SwiGLU**: SiLU(x W_gate) ⊙ (x W_up), each {config.intermediate_size:,} wide, then W_down; no "
            f"biases",
            "post-norm, as BERT: add & norm after attention and after the feed-forward")


NOMIC_BERT = Family(
    "NomicBERT", ("nomic_bert",), TokenizerRecipe(tokenizer_class="BertTokenizer", **WORDPIECE_UNCASED),
    word_and_token_type, lambda base: list(base.layers), swiglu_parts, LayerShape(post_norm_rotary_layer),
    bert_pooler, counting_positions, child_head("cls"), notes=rotary_notes, about=_about, token_cap=TOKEN_CAP,
    config_problem=config_problem)
