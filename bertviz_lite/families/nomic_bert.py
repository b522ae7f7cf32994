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
from .shared_parts import PostNormParts, Projection, post_norm_rotary_layer, swiglu
from .records import EmbeddingParts, Family, LayerShape, TokenizerRecipe

ORIGINAL_NAMES = {"n_embd": "hidden_size", "n_layer": "num_hidden_layers", "n_head": "num_attention_heads",
                  "n_inner": "intermediate_size", "rotary_emb_base": None}  # the original config's names
TOKEN_CAP = 1024  # of the 2,048 nomic-embed-text was trained at: one layer's h × T × T steps stay near 200 MB


def swiglu_parts(layer: nn.Module) -> PostNormParts:
    """NomicBERT's and GTE's modules: q, k, v, o projections and a gate / up / down feed-forward."""
    a = layer.self_attn
    act_input, gate, activation, down = swiglu(layer.mlp, "add & norm")
    return PostNormParts(Projection(a.q_proj), Projection(a.k_proj), Projection(a.v_proj), Projection(a.o_proj),
                         layer.post_attention_layernorm, act_input, gate, activation, down, layer.post_mlp_layernorm)


def word_and_token_type(base: nn.Module) -> EmbeddingParts:
    """NomicBERT, GTE, Jina-v3: word + token type (when the model has token types), then LayerNorm."""
    e = base.embeddings
    return EmbeddingParts(e.word_embeddings, None, getattr(e, "token_type_embeddings", None), e.LayerNorm, None)


IMPLEMENTED = {  # the original settings transformers' NomicBertModel implements, whatever the config says
    "rotary_scaling_factor": None, "rotary_emb_fraction": 1.0, "rotary_emb_interleaved": False, "prenorm": False,
    "qkv_proj_bias": False, "mlp_fc1_bias": False, "mlp_fc2_bias": False, "causal": False}


def config_problem(config) -> str | None:
    """A config written with the original names that says something transformers would not build: sizes it does
    not read, or a setting its NomicBertModel does not implement (it would silently compute another model)."""
    declared = config.to_dict()
    for original, native in ORIGINAL_NAMES.items():
        if original in declared and native is not None and declared[original] != getattr(config, native):
            return (f"This config says {original} = {declared[original]}, but transformers' NomicBertConfig "
                    f"reads {native} = {getattr(config, native)} (it does not read the original names): the model "
                    f"would be built with the wrong shape. A config with {native} set is needed.")
    said = {"rotary_emb_base": (declared.get("rotary_emb_base"), config.rope_parameters["rope_theta"]),
            "layer_norm_epsilon": (declared.get("layer_norm_epsilon"), config.layer_norm_eps),
            "activation_function": (declared.get("activation_function"), {"silu": "swiglu", "gelu": "geglu"}.get(
                config.hidden_act, config.hidden_act)),
            **{key: (declared.get(key, value), value) for key, value in IMPLEMENTED.items()}}
    for key, (value, built) in said.items():
        if value is not None and value != built and not (isinstance(value, (int, float)) and float(value) == built):
            return (f"This config says {key} = {value}, but transformers' NomicBertModel computes as if {key} = "
                    f"{built} (it does not read or implement that setting): it would be another model than the "
                    f"checkpoint's.")
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
