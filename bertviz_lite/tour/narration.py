"""What the tour says about a chapter: two to four sentences with this sentence's own numbers, told by the step's
operation itself (`Op.narrate`, beside its computation and its explanation in ops/), so that no family needs its
own text.

Every number is read from the trace (`t.cache`, the model's own hidden states), never typed: "in layer 0, head 2,
'fox' puts 0.98 of its attention on 'brown', the token before it". Random weights are said first: their patterns
mean nothing.
"""
from __future__ import annotations

import numpy as np

from ..analyses.logit_lens import LogitLens
from ..analyses.residual_stream import layer_changes
from ..analyses.similarity import SentenceVectors
from ..graph.names import parse_step_name
from ..ops import head_name, key_head
from ..stepthrough.trace import Trace
from .chapters import Chapter

RANDOM = "These are random weights: the shapes and the arithmetic are real, the patterns mean nothing."
NO_WEIGHTS = "These numbers come from the tokens' positions alone: exact, and the same whatever the weights."
LAST_VECTORS = "The last layer's vectors are what the model gives."  # the output chapter, where nothing more is said


def narrate(trace: Trace, chapter: Chapter, head: int = 0, token: int = 1,
            outputs: list[str] | None = None) -> list[str]:
    """The chapter's sentences, about `head` and token `token` where it has them. `outputs` describes the output
    chapter's vector or prediction (the page computes it)."""
    token = min(max(token, 0), len(trace.tokens) - 1)
    lines = [RANDOM] if trace.loaded.warning else []
    if chapter.kind == "tokens":
        return lines + tokens_story(trace)
    if chapter.kind == "stream":
        return lines + stream_story(trace, token)
    if chapter.kind == "output":
        return lines + (outputs or [LAST_VECTORS])
    graph, key = trace.resolve(chapter.step)
    node = graph.node(key)
    if not node.op.reads_weights:  # nothing random in it: say so instead
        lines = [NO_WEIGHTS]
    array = trace.cache[chapter.step]
    query_head = min(head, trace.num_heads - 1)
    where = _where(trace, chapter.step, head_name(query_head, trace.num_heads, array.shape[0])
                   if node.has_head_axis else None)
    what = node.explains[:1].upper() + node.explains[1:]
    return lines + [f"{what}."] + node.op.narrate(Step(trace, graph, node, array, head, token, where))


class Step:
    """What a narrator reads: the step's node, its array, its inputs' arrays, the chosen head's and token's rows."""

    def __init__(self, trace: Trace, graph, node, array: np.ndarray, head: int, token: int, where: str):
        self.trace, self.graph, self.node, self.array, self.token, self.where = trace, graph, node, array, token, where
        query_head = min(head, trace.num_heads - 1)  # keys and values may have fewer heads (grouped-query)
        self.head = key_head(query_head, trace.num_heads, array.shape[0]) if node.has_head_axis else None
        self.mine = array[self.head] if self.head is not None else array  # (T, ...) for this head

    def input(self, i: int) -> np.ndarray:
        return self.trace.cache[self.graph.name(self.node.inputs[i])]

    def tok(self, i: int) -> str:
        return f"'{self.trace.tokens[i]}'"

    @property
    def me(self) -> str:
        return self.tok(self.token)


def _where(trace: Trace, name: str, head: str | None) -> str:
    block, layer, _ = parse_step_name(name)
    place = f"In layer {layer}" if block == "layers" else "Here"
    return place + (f", {head}" if head is not None else "")


def output_sentences(trace: Trace, vectors: SentenceVectors | None = None, lens: LogitLens | None = None) -> list[str]:
    """The last chapter: the masked-LM head's prediction at the first mask (`lens`), or the sentence vector."""
    if lens is not None:
        top = lens.layers[-1]
        then = ", ".join(f"'{token}' ({p:.2f})" for token, p in top[1:3])
        return [f"With its masked-LM head, the model predicts '{top[0][0]}' ({top[0][1]:.2f}) at position "
                f"{lens.position} ({trace.tokens[lens.position]}), then {then}.",
                "The figure applies the same head to every layer's vectors: the prediction forms layer by layer."]
    vector = vectors.vectors[0]
    trained = [] if vectors.trained_for_similarity else ["This model was not trained for sentence similarity."]
    return [f"The whole sentence becomes one vector of {vector.size} numbers: {vectors.how}.",
            f"Its length is {np.linalg.norm(vector.astype(np.float64)):.2f}; a sentence with a similar meaning gets a vector pointing the "
            f"same way (the Similarity page compares them).", *trained]


def tokens_story(trace: Trace) -> list[str]:
    special = [t for t, s in zip(trace.tokens, trace.sequence_ids) if s is None]
    pieces = [t for t, s, w, prev in zip(trace.tokens[1:], trace.sequence_ids[1:], trace.word_ids[1:],
                                         trace.word_ids[:-1]) if s is not None and w is not None and w == prev]
    lines = [f"The tokenizer cuts the text into {len(trace.tokens)} tokens, {len(special)} of them special "
             f"({', '.join(dict.fromkeys(special))}), and gives each the id of its row in {vocabulary_words(trace)}."]
    if pieces:
        lines.append(f"{len(pieces)} tokens continue a word cut into pieces (such as '{pieces[0]}').")
    else:
        lines.append("Every word here is a single token of the vocabulary.")
    return lines


def vocabulary_words(trace: Trace) -> str:
    """"a vocabulary of 30,522", or what stands in for a model's own."""
    return trace.loaded.stand_in_vocabulary or f"a vocabulary of {len(trace.loaded.tokenizer):,}"


def stream_story(trace: Trace, token: int) -> list[str]:
    cos = layer_changes(trace)[:, token]  # (L,)
    norms = np.linalg.norm(trace.hidden_states[:, token].astype(np.float64), axis=-1)  # (L + 1,)
    most = int(np.argmin(cos))
    name = f"'{trace.tokens[token]}'"
    return ["Every layer adds to the residual stream rather than replacing it, so a token's vector keeps much of its "
            "direction from layer to layer.",
            f"{name} changes most in layer {most} (cosine {cos[most]:.2f} between its vector before and after) and "
            f"least in layer {int(np.argmax(cos))} ({cos.max():.2f}); its length goes from {norms[0]:.1f} to "
            f"{norms[-1]:.1f}."]
