"""One flat naming scheme for every sub-step the explorer shows, built in one place.

A name is `<block>.<step>` with the layer number inside `layers`:

>>> step_name("embed", "norm")
'embed.norm'
>>> step_name("layers", "attn.probs", layer=3)
'layers.3.attn.probs'
>>> parse_step_name("layers.3.attn.probs")
('layers', 3, 'attn.probs')
>>> [s.key for s in LAYER_STEPS][:4]
['input', 'attn.q', 'attn.k', 'attn.v']

`LAYER_STEPS` is the post-norm BERT layer's list (BERT, RoBERTa, DistilBERT, ALBERT, ELECTRA). Other families
describe their own layer in `families/` (a trace's `layer_steps(i)` gives the list for its model), with keys
from `LAYER_KEYS`: the keys BERT's layer shares keep their meaning, and what is new gets a new key.

Shapes use T for tokens, d for the hidden size, e for the embedding size (= d except ALBERT, ELECTRA-small),
h for heads, d_h = d / h for the head size and d_ff for the feed-forward size.
"""
from __future__ import annotations

from dataclasses import dataclass

BLOCKS = ("embed", "encoder", "layers", "pooler")


@dataclass(frozen=True)
class StepInfo:
    key: str  # name inside its block
    title: str  # short label for people
    shape: str  # symbolic shape
    explains: str  # one line: what it is and how it is computed


EMBEDDING_STEPS = (
    StepInfo("word", "Word embeddings", "(T, e)", "the row of the word table for each token id"),
    StepInfo("position", "Position embeddings", "(T, e)", "the row of the position table for each position"),
    StepInfo("token_type", "Token type embeddings", "(T, e)", "the row for sentence A (0) or sentence B (1)"),
    StepInfo("sum", "Sum", "(T, e)", "word + token type + position"),
    StepInfo("norm", "LayerNorm", "(T, e)", "each token vector set to mean 0 and variance 1, then scaled and "
                                            "shifted by learnt weights"),
    StepInfo("project", "Projection", "(T, d)", "a linear map from the embedding size e to the hidden size d"),
)

LAYER_STEPS = (
    StepInfo("input", "Layer input", "(T, d)", "the previous layer's output (the embeddings for layer 0)"),
    StepInfo("attn.q", "Queries Q", "(h, T, d_h)", "input × W_Q + b_Q: one d × d matrix, split into h heads of d_h"),
    StepInfo("attn.k", "Keys K", "(h, T, d_h)", "input × W_K + b_K, split into heads"),
    StepInfo("attn.v", "Values V", "(h, T, d_h)", "input × W_V + b_V, split into heads"),
    StepInfo("attn.scores", "Scores", "(h, T, T)", "Q Kᵀ / √d_h plus the mask (0 for real tokens, a huge "
                                                   "negative number for padding); row = query, column = key"),
    StepInfo("attn.probs", "Attention (softmax)", "(h, T, T)", "softmax of each row of the scores: how much each "
                                                               "token takes from every other; rows sum to 1"),
    StepInfo("attn.context", "Context", "(T, d)", "probs × V for every head, the heads concatenated back to d"),
    StepInfo("attn.out", "Attention output", "(T, d)", "context × W_O + b_O (dense)"),
    StepInfo("attn.residual", "Residual add", "(T, d)", "layer input + attention output"),
    StepInfo("attn.norm", "Add & norm", "(T, d)", "LayerNorm of the residual sum"),
    StepInfo("ffn.act", "Feed-forward (activation)", "(T, d_ff)", "activation(add & norm × W_1 + b_1): d widened "
                                                                  "to d_ff, usually 4 × d"),
    StepInfo("ffn.out", "Feed-forward output", "(T, d)", "the activations × W_2 + b_2: back to d"),
    StepInfo("ffn.residual", "Residual add", "(T, d)", "add & norm + feed-forward output"),
    StepInfo("ffn.norm", "Add & norm = layer output", "(T, d)", "LayerNorm of the residual sum: the layer's output"),
)

POOLER_STEPS = (
    StepInfo("dense", "Pooler dense", "(d,)", "the first token's final vector × W + b"),
    StepInfo("out", "Pooled output", "(d,)", "tanh of the dense output: BERT's sentence vector"),
)

STEPS_BY_BLOCK = {"embed": EMBEDDING_STEPS, "layers": LAYER_STEPS, "pooler": POOLER_STEPS}

# Every key of every family's layer, in one scheme: a family's module describes the steps, this names them.
LAYER_KEYS = frozenset(s.key for s in LAYER_STEPS) | {
    "attn.position_bias",  # MPNet: the learnt relative-position bias added to every score
    "attn.c2c", "attn.c2p", "attn.p2c",  # DeBERTa: the three terms of its disentangled score
    "attn.pre_norm", "attn.q_rot", "attn.k_rot",  # ModernBERT: LayerNorm first, rotary positions on q and k
    "ffn.pre_norm", "ffn.in", "ffn.gate",  # ModernBERT: LayerNorm first, GeGLU's input and gate halves
    "final.norm",  # ModernBERT: the norm after the last layer, part of that layer's output
}
ENCODER_KEYS = frozenset({"relative_positions", "rel_embeddings", "rel_norm"})  # DeBERTa, once per input
KEYS_BY_BLOCK = {"embed": frozenset(s.key for s in EMBEDDING_STEPS), "encoder": ENCODER_KEYS,
                 "layers": LAYER_KEYS, "pooler": frozenset(s.key for s in POOLER_STEPS)}


def step_name(block: str, key: str, layer: int | None = None) -> str:
    """The global name of a sub-step."""
    if block not in BLOCKS:
        raise ValueError(f"unknown block {block!r}: one of {BLOCKS}")
    if (block == "layers") != (layer is not None):
        raise ValueError("a layer number goes with the 'layers' block, and only with it")
    return f"{block}.{layer}.{key}" if block == "layers" else f"{block}.{key}"


def parse_step_name(name: str) -> tuple[str, int | None, str]:
    """(block, layer or None, key) from a global name; ValueError when it is not one."""
    block, _, rest = name.partition(".")
    layer = None
    if block == "layers":
        number, _, rest = rest.partition(".")
        if not number.isdigit():
            raise ValueError(f"{name!r}: expected layers.<number>.<step>")
        layer = int(number)
    if block not in KEYS_BY_BLOCK or rest not in KEYS_BY_BLOCK[block]:
        raise ValueError(f"{name!r} is not a sub-step name (for example layers.0.attn.probs)")
    return block, layer, rest


def step_info(block: str, key: str) -> StepInfo:
    """The StepInfo of a BERT-layout sub-step (other layers: the family's own list)."""
    return next(s for s in STEPS_BY_BLOCK[block] if s.key == key)
