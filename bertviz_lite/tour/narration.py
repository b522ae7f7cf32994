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
import torch

from ..analyses.residual_stream import turns
from ..analyses.similarity import SentenceVectors
from ..graph.names import parse_step_name
from ..ops import head_name, key_head
from ..ops.recipe import X, call, var, when
from ..ops.telling import Telling, quoted, said, step
from ..ops.working import told, told_over
from ..stepthrough.trace import Trace
from .chapters import Chapter

RANDOM = "These are random weights: the shapes and the arithmetic are real, the patterns mean nothing."
NO_WEIGHTS = "These numbers come from the tokens' positions alone: exact, and the same whatever the weights."
LAST_VECTORS = "The last layer's vectors are what the model gives."  # the output chapter, where nothing more is said
# The chapters that are not one step's, told in these words (a live site's browser fills them too: export/tour.py)
STORIES = {
    "step": {"layer": "In layer {layer}", "here": "Here", "head": "{place}, {head}", "explains": "{what}."},  # a
    # step's chapter: where it is, and what the step does
    "tokens": {"cut": "The tokenizer cuts the text into {tokens} tokens, {special} of them special ({names}), and gives "
                      "each the id of its row in {vocabulary}.",
               "pieces": "{pieces} tokens continue a word cut into pieces (such as '{first}').",
               "whole": "Every word here is a single token of the vocabulary.",
               "between": ", "},
    "stream": {"adds": "Every layer adds to the residual stream rather than replacing it, so a token's vector keeps "
                       "much of its direction from layer to layer.",
               "turns": "{token} changes most in layer {most} (cosine {lowest:.2f} between its vector before and "
                        "after) and least in layer {least} ({highest:.2f}); its length goes from {first:.1f} to "
                        "{last:.1f}."},
    "output": {"vector": "The whole sentence becomes one vector of {size} numbers: {how}.",
               "length": "Its length is {length:.2f}; a sentence with a similar meaning gets a vector pointing the "
                         "same way (the Similarity page compares them).",
               "untrained": "This model was not trained for sentence similarity.",
               "predicts": "With its masked-LM head, the model predicts '{token}' ({p:.2f}) at position {position} "
                           "({at}), then {then}.",
               "then": "'{token}' ({p:.2f})",
               "layers": "The figure applies the same head to every layer's vectors: the prediction forms layer by "
                         "layer."},
}


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
    s = chapter_step(trace, chapter, head, token)
    if not s.node.op.reads_weights:  # nothing random in it: say so instead
        lines = [NO_WEIGHTS]
    what = s.node.explains[:1].upper() + s.node.explains[1:]
    return lines + [STORIES["step"]["explains"].format(what=what)] + told(telling_of(trace, s.graph, s.node), s)


def chapter_step(trace: Trace, chapter: Chapter, head: int, token: int) -> Step:
    """What a step's chapter reads (its narrator and its question): the step, the chosen head's and token's rows."""
    graph, key = trace.resolve(chapter.step)
    node = graph.node(key)
    array = trace.cache[chapter.step]
    query_head = min(head, trace.num_heads - 1)
    where = _where(trace, chapter.step, head_name(query_head, trace.num_heads, array.shape[0])
                   if node.has_head_axis else None)
    return Step(trace, graph, node, array, head, token, where)


def step_module(trace: Trace, node):
    """The model's module a step's operation reads (its narrator, its question), or None."""
    return None if node.module is None else trace.loaded.base.get_submodule(node.module)


def telling_of(trace: Trace, graph, node) -> Telling:
    """What the step's operation says of it, as the expressions its words name (ops/telling.py)."""
    return node.op.narrate(node, graph, step_module(trace, node))


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
        return quoted(self.trace.tokens[i])

    @property
    def me(self) -> str:
        return self.tok(self.token)


def _where(trace: Trace, name: str, head: str | None) -> str:
    block, layer, _ = parse_step_name(name)
    said = STORIES["step"]
    place = said["layer"].format(layer=layer) if block == "layers" else said["here"]
    return place if head is None else said["head"].format(place=place, head=head)


def output_sentences(trace: Trace, vectors: SentenceVectors | None = None, lens: LogitLens | None = None) -> list[str]:
    """The last chapter: the masked-LM head's prediction at the first mask (`lens`), or the sentence vector."""
    said = STORIES["output"]
    if lens is not None:
        top = lens.layers[-1]
        then = ", ".join(said["then"].format(token=token, p=p) for token, p in top[1:3])
        return [said["predicts"].format(token=top[0][0], p=top[0][1], position=lens.position,
                                        at=trace.tokens[lens.position], then=then), said["layers"]]
    return told_over(VECTOR_TELLING, {"vector": vectors.vectors[0].astype(np.float64), "how": vectors.how,
                                      "trained": vectors.trained_for_similarity})


def tokens_story(trace: Trace) -> list[str]:
    return told_over(TOKENS_TELLING, tokens_named(trace))


def tokens_named(trace: Trace) -> dict:
    """What the tokens' chapter reads: the tokens, which are special (1: no sentence's), which continue a word cut
    into pieces (1), and the vocabulary's words (a site's browser names a typed sentence's alike: tour.js)."""
    ids, words = trace.sequence_ids, trace.word_ids
    pieces = [0.0] + [float(s is not None and w is not None and w == prev)
                      for s, w, prev in zip(ids[1:], words[1:], words[:-1])]
    return {"tokens": list(trace.tokens), "special": np.asarray([float(s is None) for s in ids]),
            "pieces": np.asarray(pieces), "vocabulary": vocabulary_words(trace)}


def _stories_tellings() -> tuple[Telling, Telling]:
    """The tokens' chapter and the sentence vector's, as tellings over named numbers (`told_over`): the special
    tokens counted and named once each, the first word cut into pieces; the vector's size and length."""
    tokens, output = STORIES["tokens"], STORIES["output"]
    special = call("unique", call("taken", var.tokens, var.special_at))
    said_tokens = Telling({"special_at": call("which", var.special), "pieces_at": call("which", var.pieces)}, (
        said(tokens["cut"], tokens=call("len", var.tokens), special=call("len", var.special_at),
             names=call("joined", tokens["between"], call("range", call("len", special)), special[var.k])),
        when(call("<", 0, call("len", var.pieces_at)), said(tokens["pieces"], pieces=call("len", var.pieces_at),
                                                             first=var.tokens[var.pieces_at[0]]), tokens["whole"])))
    said_output = Telling({}, (said(output["vector"], size=call("len", var.vector)),
                               said(output["length"], length=call("norm", var.vector)),
                               when(var.trained, None, output["untrained"])))
    return said_tokens, said_output


TOKENS_TELLING, VECTOR_TELLING = _stories_tellings()


def vocabulary_words(trace: Trace) -> str:
    """"a vocabulary of 30,522", or what stands in for a model's own."""
    return trace.loaded.stand_in_vocabulary or f"a vocabulary of {len(trace.loaded.tokenizer):,}"


def stream_story(trace: Trace, token: int) -> list[str]:
    return told(stream_telling(), Stream(trace, token))


def stream_telling() -> Telling:
    """The residual stream's chapter: which layer turns the chosen token's vector most and least, and how long the
    vector grows, from `Stream`'s numbers (a live site's browser runs the same function as a graph)."""
    words = STORIES["stream"]
    let = {"cos": X(["cosines"])[:, step.token], "lengths": X(["lengths"])[:, step.token],
           "most": call("argmin", var.cos), "least": call("argmax", var.cos)}
    return Telling(let, (words["adds"], said(words["turns"], token=step.me, most=var.most, lowest=var.cos[var.most],
                                             least=var.least, highest=call("max_of", var.cos), first=var.lengths[0],
                                             last=var.lengths[call("len", var.lengths) - 1])))


class Stream:
    """What the residual stream's chapter reads (analyses/residual_stream.py turns): how much each layer turns each
    token's vector (L, T), each vector's length (L + 1, T), the chosen token."""

    def __init__(self, trace: Trace, token: int):
        cosines, lengths = turns(torch.from_numpy(trace.hidden_states))
        self.trace, self.token, self.cosines, self.lengths = trace, token, cosines.numpy(), lengths.numpy()

    def tok(self, i: int) -> str:
        return quoted(self.trace.tokens[i])
