"""One flat naming scheme for every sub-step the explorer shows, built in one place, and the words that go with
each name.

A name is `<block>.<step>` with the layer number inside `layers`:

>>> step_name("embed", "norm")
'embed.norm'
>>> step_name("layers", "attn.probs", layer=3)
'layers.3.attn.probs'
>>> parse_step_name("layers.3.attn.probs")
('layers', 3, 'attn.probs')
>>> WORDS["layers"]["attn.dots"].title
'Scaled dot products'

Each family describes its layer as a graph of these steps (`families/`); `WORDS` gives every key its title, its
label in the diagram, its symbolic shape and a sentence, which a family may say otherwise where its step differs.
The keys BERT's layer has keep their meaning in every family, and what is new gets a new key.

Shapes use T for tokens, d for the hidden size, e for the embedding size (= d except ALBERT, ELECTRA-small),
h for heads, d_h = d / h for the head size, d_ff for the feed-forward size and k for relative-position buckets.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..deprecation import renamed
from ..kinds import Series

BLOCKS = ("embed", "positions", "layers", "pooler")
OLD_BLOCKS = {"encoder": "positions"}  # earlier spellings, still read (`todays_block`): a saved link keeps working


@dataclass(frozen=True)
class Words:
    title: str  # short label for people
    short: str  # the box in the layer diagram: a symbol or a word or two
    axes: tuple[str, ...]  # the symbolic shape, one symbol per axis: ("h", "T", "d_h")
    explains: str  # one line: what it is and how it is computed
    series: Series | None = None  # what the step is as a series of token vectors, where its op does not say


W = Words
WORDS: dict[str, dict[str, Words]] = {
    "embed": {
        "word": W("Word embeddings", "word", ("T", "e"), "the row of the word table for each token id", Series.WORD),
        "position": W("Position embeddings", "position", ("T", "e"), "the row of the position table for each position",
                      Series.POSITION),
        "token_type": W("Token type embeddings", "type", ("T", "e"), "the row for sentence A (0) or sentence B (1)",
                        Series.TOKEN_TYPE),
        "sum": W("Sum", "+", ("T", "e"), "word + token type + position"),
        "norm": W("LayerNorm", "LN", ("T", "e"), "each token vector set to mean 0 and variance 1, then scaled and "
                                               "shifted by learnt weights"),
        "project": W("Projection", "W_e", ("T", "d"), "a linear map from the embedding size e to the hidden size d"),
    },
    "positions": {
        "relative_positions": W("Relative positions", "δ(i, j)", ("T", "T"),
                                "the distance i − j for query i and key j, exact within position_buckets / 2 tokens and "
                                "log-bucketed beyond: which row of the relative embeddings each pair uses"),
        "rel_embeddings": W("Relative embeddings", "R", ("2k", "d"),
                            "one learnt vector per relative distance, shared by every layer (k = position_buckets)"),
        "rel_norm": W("Relative embeddings after LayerNorm", "LN(R)", ("2k", "d"),
                      "the shared table normalised once; each layer projects it with its own W_Q and W_K"),
        "relative_buckets": W("Relative-position buckets", "bucket", ("T", "T"),
                              "the distance j − i of key j from query i put into a bucket: exact near by, "
                              "logarithmic far away, before and after kept apart"),
    },
    "layers": {
        "input": W("Layer input", "x", ("T", "d"), "the previous layer's output (the embeddings for layer 0)"),
        "attn.pre_norm": W("LayerNorm before attention", "LN", ("T", "d"),
                           "LayerNorm of the layer input; the residual stream itself stays unnormalised"),
        "attn.q": W("Queries Q", "Q", ("h", "T", "d_h"),
                    "input × W_Q + b_Q: one d × d matrix, split into h heads of d_h"),
        "attn.k": W("Keys K", "K", ("h", "T", "d_h"), "input × W_K + b_K, split into heads"),
        "attn.v": W("Values V", "V", ("h", "T", "d_h"), "input × W_V + b_V, split into heads"),
        "attn.angles": W("Rotation angles", "θ", ("T", "d_h / 2"),
                         "position × frequency for each pair of dimensions: the angle each pair is turned by"),
        "attn.q_rot": W("Queries, rotated", "Q rot", ("h", "T", "d_h"),
                        "each pair of dimensions of Q turned by its angle (rotary); a rotation keeps each vector's "
                        "length and puts position into angles"),
        "attn.k_rot": W("Keys, rotated", "K rot", ("h", "T", "d_h"),
                        "K turned the same way: the angle between Q_i and K_j shifts with i − j alone"),
        "attn.pos_key": W("Position keys", "Kʳ", ("h", "2k", "d_h"),
                          "the shared relative embeddings × this layer's W_K: one key per relative distance"),
        "attn.pos_query": W("Position queries", "Qʳ", ("h", "2k", "d_h"),
                            "the shared relative embeddings × this layer's W_Q: one query per relative distance"),
        "attn.dots": W("Scaled dot products", "QKᵀ/√d", ("h", "T", "T"),
                       "Q_i · K_j / √d_h for every query i and key j, before the mask; row = query, column = key"),
        "attn.c2c": W("Content → content", "c2c", ("h", "T", "T"), "Q_i · K_j / scale: content against content"),
        "attn.c2p": W("Content → position", "c2p", ("h", "T", "T"),
                      "Q_i · Kʳ(i − j) / scale: the query's content against the key's relative position"),
        "attn.p2c": W("Position → content", "p2c", ("h", "T", "T"),
                      "K_j · Qʳ(i − j) / scale: the key's content against the query's relative position"),
        "attn.position_bias": W("Relative-position bias", "bias", ("h", "T", "T"),
                                "a learnt number per head for the bucket of key j's distance from query i"),
        "attn.scores": W("Scores", "scores", ("h", "T", "T"),
                         "the dot products plus the mask (0 for a key the query may see, the most negative number "
                         "otherwise); row = query, column = key"),
        "attn.probs": W("Attention (softmax)", "softmax", ("h", "T", "T"),
                        "softmax of each row of the scores: how much each token takes from every other; rows sum to 1"),
        "attn.head_context": W("Context per head", "P·V", ("h", "T", "d_h"),
                               "each head's probabilities × its values: Σ_j p_ij v_j"),
        "attn.context": W("Context", "concat", ("T", "d"), "the heads' contexts side by side again: head h fills "
                                                         "dimensions h·d_h to (h + 1)·d_h − 1"),
        "attn.out": W("Attention output", "W_O", ("T", "d"), "context × W_O + b_O (dense)"),
        "attn.residual": W("Residual add (attention)", "+", ("T", "d"), "layer input + attention output"),
        "attn.norm": W("Add & norm", "LN", ("T", "d"), "LayerNorm of the residual sum"),
        "ffn.pre_norm": W("LayerNorm before the MLP", "LN", ("T", "d"), "LayerNorm of the residual sum"),
        "ffn.in": W("Feed-forward in", "W₁", ("T", "d_ff"),
                    "add & norm × W_1 + b_1: d widened to d_ff, usually 4 × d, before the activation"),
        "ffn.gate": W("Gate half", "gate", ("T", "d_ff"), "the second half of normed × Wi: what the activation is "
                                                        "multiplied by"),
        "ffn.act": W("Feed-forward (activation)", "act", ("T", "d_ff"), "the activation of each number of ffn.in"),
        "ffn.out": W("Feed-forward output", "W₂", ("T", "d"), "the activations × W_2 + b_2: back to d"),
        "ffn.residual": W("Residual add (feed-forward)", "+", ("T", "d"), "add & norm + feed-forward output"),
        "ffn.norm": W("Add & norm = layer output", "LN", ("T", "d"),
                      "LayerNorm of the residual sum: the layer's output"),
        "final.norm": W("Final LayerNorm = model output", "LN", ("T", "d"),
                        "the norm after the last layer: the model's last hidden state"),
    },
    "pooler": {
        "dense": W("Pooler dense", "W_p", ("d",), "the first token's final vector × W + b"),
        "out": W("Pooled output", "tanh", ("d",), "tanh of the dense output: BERT's sentence vector"),
    },
}
del W

KEYS_BY_BLOCK = {block: frozenset(words) for block, words in WORDS.items()}


def step_name(block: str, key: str, layer: int | None = None) -> str:
    """The global name of a sub-step."""
    if block not in BLOCKS:
        raise ValueError(f"unknown block {block!r}: one of {BLOCKS}")
    if (block == "layers") != (layer is not None):
        raise ValueError("a layer number goes with the 'layers' block, and only with it")
    return f"{block}.{layer}.{key}" if block == "layers" else f"{block}.{key}"


def todays_block(block: str) -> str:
    """A block's name as it is spelled today; an earlier spelling (`encoder`) is read with a DeprecationWarning."""
    if block in OLD_BLOCKS:
        renamed(f"the block {block!r}", f"{OLD_BLOCKS[block]!r}")
    return OLD_BLOCKS.get(block, block)


def parse_step_name(name: str) -> tuple[str, int | None, str]:
    """(block, layer or None, key) from a global name; ValueError when it is not one. An earlier block name
    (`encoder.rel_norm`) is read as today's (`positions.rel_norm`)."""
    block, _, rest = str(name).partition(".")
    block = todays_block(block)
    layer = None
    if block == "layers":
        number, _, rest = rest.partition(".")
        if not number.isdigit():
            raise ValueError(f"{name!r}: expected layers.<number>.<step>")
        layer = int(number)
    if block not in KEYS_BY_BLOCK or rest not in KEYS_BY_BLOCK[block]:
        raise ValueError(f"{name!r} is not a sub-step name (for example layers.0.attn.probs)")
    return block, layer, rest


def canonical_step_name(name: str) -> str:
    """A step's name as it is spelled today (`encoder.rel_norm` -> `positions.rel_norm`); anything else as given.

    >>> canonical_step_name("encoder.relative_positions"), canonical_step_name("nope")
    ('positions.relative_positions', 'nope')
    """
    try:
        block, layer, key = parse_step_name(name)
    except ValueError:
        return name
    return step_name(block, key, layer)


def is_step_name(name: str) -> bool:
    try:
        parse_step_name(name)
    except ValueError:
        return False
    return True
