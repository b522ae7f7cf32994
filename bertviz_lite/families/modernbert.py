"""ModernBERT (Warner et al. 2024, "Smarter, Better, Faster, Longer"): a pre-norm encoder layer.

- LayerNorm *before* attention and before the MLP (layer 0 has none before attention: the embeddings were
  just normalised); the residual stream itself is never normalised until the final norm after the last layer;
- one fused Wqkv gives queries, keys and values; no biases anywhere;
- rotary position embeddings: each query and key is turned, pair of dimensions by pair, by an angle that grows
  with its position; a rotation keeps every vector's length, and the dot product of a rotated query and key then
  depends on how far apart they are, so position enters the scores as angles, not as an added vector;
- global attention every `global_attn_every_n_layers` layers (from layer 0), and elsewhere a window of
  `local_attention` tokens: each token sees the local_attention / 2 tokens on each side;
- GeGLU feed-forward: Wi gives an input half and a gate half, then act(input) ⊙ gate, then Wo;
- an embedding LayerNorm (no positions, no token types in the input), a final norm, no pooler.

The last layer's output as the model reports it (hidden_states[L], last_hidden_state) is after the final norm, so
the last layer's sub-steps end with `final.norm`.
"""
from __future__ import annotations

from torch import nn

from ..graph.nodes import ModuleNames
from ..ops import LAYER_NORM
from .bert_layout import counting_positions, no_pooler
from .shared_parts import PreNormParts, Projection, Rotary, pre_norm_layer
from .records import EmbeddingParts, Family, LayerShape, MaskedLMHead, Nodes, TokenizerRecipe, activation_name

TOKEN_CAP = 1024  # ModernBERT reads 8,192 tokens; see docs/families.md for why the app reads 1,024
GLOBAL = "full_attention"


def _layer_parts(layer: nn.Module) -> PreNormParts:
    """ModernBERT's modules as a pre-norm layer's: Q, K, V are thirds of one fused Wqkv, the GeGLU's input and gate
    halves of one Wi (no biases in the published configs); layer 0's attention norm is an identity."""
    d, d_ff = layer.attn.Wqkv.in_features, layer.mlp.Wi.out_features // 2
    thirds = [Projection(layer.attn.Wqkv, (n * d, (n + 1) * d), f"the {which} third of normed × Wqkv{{bias}}, "
                                                                 f"split into heads")
              for n, which in enumerate(("first", "second", "last"))]
    return PreNormParts(
        None if isinstance(layer.attn_norm, nn.Identity) else layer.attn_norm, *thirds,
        Projection(layer.attn.Wo, explains="context × Wo{bias}"), layer.mlp_norm,
        Projection(layer.mlp.Wi, (0, d_ff), "the first half of normed × Wi{bias}: the pre-activation",
                   "GeGLU input half"),
        Projection(layer.mlp.Wi, (d_ff, 2 * d_ff), None, "GeGLU gate half"), layer.mlp.act,
        Projection(layer.mlp.Wo, explains="the gated activations × Wo{bias}: back to d"))


def _is_global(config, i: int) -> bool:
    return config.layer_types[i] == GLOBAL


def _half_window(config) -> int:
    return config.local_attention // 2


def _graph(base: nn.Module, i: int, p: PreNormParts, names: ModuleNames) -> Nodes:
    """The pre-norm rotary layer (`shared_parts.pre_norm_layer`) with LayerNorms, global or local attention by layer
    (each kind with its own rotary base θ), GeGLU, and the final norm after the last layer."""
    config = base.config
    h = config.num_attention_heads
    kind = config.layer_types[i]
    rotary = Rotary(base.rotary_emb, f"{kind}_inv_freq", config.rope_parameters[kind]["rope_theta"],
                    getattr(base.rotary_emb, f"{kind}_attention_scaling"))
    return pre_norm_layer(names, p, LAYER_NORM, "LayerNorm", rotary, h, activation_name(config),
                          window=None if _is_global(config, i) else _half_window(config),
                          final_norm=base.final_norm, last=i == config.num_hidden_layers - 1)


def _describe(config, i: int) -> str:
    theta = config.rope_parameters[config.layer_types[i]]["rope_theta"]
    if _is_global(config, i):
        return (f"Layer {i} is global: every token sees every other (one layer in "
                f"{config.global_attn_every_n_layers}, from layer 0); rotary base θ = {theta:,.0f}.")
    return (f"Layer {i} is local: each token sees {_half_window(config)} tokens on each side (a "
            f"{config.local_attention}-token window: on a text longer than {2 * _half_window(config) + 1} tokens, a "
            f"band along the heatmap's diagonal); rotary base θ = {theta:,.0f}.")


def _embeddings(base: nn.Module) -> EmbeddingParts:
    e = base.embeddings
    return EmbeddingParts(e.tok_embeddings, None, None, e.norm, None)


def _masked_lm_head(model: nn.Module) -> MaskedLMHead:
    """final norm -> head (dense, activation, norm) -> decoder; see MaskedLMHead for the final norm."""
    return MaskedLMHead(lambda h: model.decoder(model.head(h)), ("head.", "decoder."),
                        final_norm=model.model.final_norm)


def _notes(config) -> tuple[str, ...]:
    return ("No position or token-type embeddings are added to the input: position enters every layer as a "
            "rotation of the queries and keys (rotary embeddings), and a pair is told apart only by [SEP].",)


def _about(config) -> tuple[str, ...]:
    every = config.global_attn_every_n_layers
    return (f"**pre-norm**: LayerNorm before attention and before the MLP, a final norm after layer "
            f"{config.num_hidden_layers - 1}, no biases",
            f"**global attention in one layer of {every}** (0, {every}, {2 * every}, ...), elsewhere a window of "
            f"**{config.local_attention} tokens** ({_half_window(config)} on each side)",
            "**rotary positions**: queries and keys are turned by angles that grow with position (base θ "
            f"{config.rope_parameters[GLOBAL]['rope_theta']:,.0f} in global layers)",
            f"**GeGLU**: Wi gives {2 * config.intermediate_size:,} = 2 × {config.intermediate_size:,} numbers, an "
            f"input half and a gate half; GELU(input) ⊙ gate goes through Wo",
            f"the app reads at most **{TOKEN_CAP:,} tokens** of the model's {config.max_position_embeddings:,}")


MODERNBERT = Family(
    "ModernBERT", ("modernbert",),
    TokenizerRecipe("bpe", (), "PreTrainedTokenizerFast", False, vocabulary="bpe-modernbert",
                    special_ids=(("[UNK]", 50280), ("[CLS]", 50281), ("[SEP]", 50282), ("[PAD]", 50283),
                                 ("[MASK]", 50284))),
    _embeddings, lambda base: list(base.layers), _layer_parts, LayerShape(_graph, _describe),
    no_pooler, counting_positions, _masked_lm_head, final_norm=lambda base: base.final_norm, notes=_notes,
    about=_about, token_cap=TOKEN_CAP)
