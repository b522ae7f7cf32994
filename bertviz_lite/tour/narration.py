"""What the tour says about a chapter: two to four sentences with this sentence's own numbers, one narrator per
operation (as the explanations have one explainer per op), so that no family needs its own text.

Every number is read from the trace (`t.cache`, the model's own hidden states), never typed: "in layer 0, head 2,
'fox' puts 0.98 of its attention on 'brown', the token before it". Random weights are said first: their patterns
mean nothing.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..analyses.logit_lens import LogitLens
from ..analyses.residual_stream import layer_changes
from ..analyses.similarity import SentenceVectors
from ..graph.names import parse_step_name
from ..graph.ops import MASKED_BELOW, head_name, key_head
from ..stepthrough.trace import Trace
from .chapters import Chapter

RANDOM = "These are random weights: the shapes and the arithmetic are real, the patterns mean nothing."


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
        return lines + (outputs or ["The last layer's vectors are what the model gives."])
    graph, key = trace.resolve(chapter.step)
    node = graph.node(key)
    array = trace.cache[chapter.step]
    query_head = min(head, trace.num_heads - 1)
    where = _where(trace, chapter.step, head_name(query_head, trace.num_heads, array.shape[0])
                   if node.has_head_axis else None)
    story = NARRATORS.get(node.op.name, _plain)
    what = node.explains[:1].upper() + node.explains[1:]
    return lines + [f"{what}."] + story(Step(trace, graph, node, array, head, token, where))


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


def _relation(i: int, j: int) -> str:
    if j == i:
        return ", itself"
    if j == i - 1:
        return ", the token before it"
    if j == i + 1:
        return ", the token after it"
    return f", {abs(i - j)} tokens {'before' if j < i else 'after'} it"


def _by_distance(s: Step) -> bool:
    """Whether the step's rows are relative distances (DeBERTa's position queries and keys), not tokens."""
    return s.mine.ndim == 2 and s.mine.shape[0] != len(s.trace.tokens)


def _row_story(s: Step, what: str, unit: str = "") -> list[str]:
    if _by_distance(s):  # rows δ = -k .. k-1: tell of the distance the chosen token has to the token before it
        row, whose = s.mine[s.mine.shape[0] // 2 + 1], "distance δ = 1 (a key one token before its query)"
    else:
        row, whose = s.mine[s.token], s.me
    row = np.asarray(row, dtype=np.float64).ravel()
    top = int(np.argmax(row))
    return [f"{s.where}, {what} of {whose}: {row.size} numbers, from {row.min():.2f} to {row.max():.2f}; the "
            f"largest is number {top} ({row[top]:.2f}{unit})."]


def _linear(s: Step) -> list[str]:
    x = np.asarray(s.input(0))
    d_in = x.shape[-1]
    linear = s.trace.loaded.base.get_submodule(s.node.module)
    bias = ", plus a bias" if linear.bias is not None else " (no bias)"
    each = "Each relative distance's" if _by_distance(s) else "Each token's"
    return [f"{each} {d_in} numbers times a learnt matrix{bias}."] + _row_story(s, s.node.title)


def _scores(s: Step) -> list[str]:
    row = np.asarray(s.mine[s.token], dtype=np.float64)
    seen = np.isfinite(row) & (row > MASKED_BELOW)
    best, worst = int(np.argmax(np.where(seen, row, -np.inf))), int(np.argmin(np.where(seen, row, np.inf)))
    return [f"{s.where}, query {s.me} scores key {s.tok(best)} highest ({row[best]:.2f}) and {s.tok(worst)} lowest "
            f"({row[worst]:.2f}).", "The softmax that follows turns these scores into weights."]


def _mask(s: Step) -> list[str]:
    masked = int((np.asarray(s.mine) <= MASKED_BELOW).sum())
    total = int(np.prod(s.mine.shape))
    if masked == 0:
        return [f"Nothing is masked here: every one of the {total} query–key pairs may be seen."] + _scores(s)[:1]
    return [f"{masked} of the {total} query–key pairs are masked (blank in the figure): those keys are out of "
            f"the query's sight."] + _scores(s)[:1]


def _softmax(s: Step) -> list[str]:
    row = np.asarray(s.mine[s.token], dtype=np.float64)
    best = int(np.argmax(row))
    strongest = np.unravel_index(int(np.argmax(s.mine)), s.mine.shape)
    return [f"{s.where}, {s.me} puts {row[best]:.2f} of its attention on {s.tok(best)}"
            f"{_relation(s.token, best)}; its row adds up to {row.sum():.2f}.",
            f"The strongest weight of this head: {s.tok(strongest[0])} → {s.tok(strongest[1])}, "
            f"{s.mine[strongest]:.2f}."]


def _context(s: Step) -> list[str]:
    probs = s.trace.cache[s.graph.name(s.node.inputs[0])]
    row = np.asarray(probs[s.head][s.token], dtype=np.float64)  # (T,)
    top = np.argsort(-row)[:3]
    terms = " + ".join(f"{row[j]:.2f} × v({s.tok(j)})" for j in top)
    return [f"{s.where}, the context of {s.me} is Σ p v over every key: {terms} + … ({len(row)} keys)."]


def _merge(s: Step) -> list[str]:
    heads = s.trace.num_heads
    return [f"{heads} heads × {s.array.shape[-1] // heads} numbers = {s.array.shape[-1]} numbers per token."]


def _residual(s: Step) -> list[str]:
    carried, added = (np.linalg.norm(np.asarray(s.input(i))[s.token]) for i in range(2))
    total = np.linalg.norm(np.asarray(s.array)[s.token])
    return [f"For {s.me}: the vector carried past has length {carried:.1f}, the sub-layer adds one of length "
            f"{added:.1f}, and their sum has length {total:.1f}."]


def _layer_norm(s: Step) -> list[str]:
    x = np.asarray(s.input(0), dtype=np.float64)[s.token]
    after = np.asarray(s.array, dtype=np.float64)[s.token]
    return [f"{s.me} came in with mean {x.mean():.2f} and standard deviation {x.std():.2f} over its {x.size} "
            f"numbers (length {np.linalg.norm(x):.1f}); after the norm its length is {np.linalg.norm(after):.1f}."]


def _activation(s: Step) -> list[str]:
    pre = np.asarray(s.input(0), dtype=np.float64)[s.token]
    after = np.asarray(s.array, dtype=np.float64)[s.token]
    return [f"Of {s.me}'s {pre.size} numbers, {100 * (pre < 0).mean():.0f}% were negative; after the activation "
            f"{100 * (np.abs(after) < 0.05).mean():.0f}% are within 0.05 of zero."]


def _rotation(s: Step) -> list[str]:
    return [f"Each pair of dimensions is turned by an angle that grows with the position: {s.me} is at position "
            f"{s.token}."] + _row_story(s, s.node.title)


def _relative(s: Step) -> list[str]:
    row = np.asarray(s.mine[s.token], dtype=np.float64)
    best = int(np.argmax(row))
    return [f"{s.where}, for query {s.me} the largest term is with key {s.tok(best)}{_relation(s.token, best)} "
            f"({row[best]:.2f}); it depends on how far apart they are, not on what they say."]


def _plain(s: Step) -> list[str]:
    if s.mine.ndim == 2:
        return _row_story(s, s.node.title)
    return [f"Its shape: {tuple(s.array.shape)}."]


NARRATORS: dict[str, Callable[[Step], list[str]]] = {
    "linear": _linear, "scaled_dot": _scores, "mask": _mask, "softmax": _softmax, "weighted_sum": _context,
    "merge_heads": _merge, "residual_add": _residual, "layer_norm": _layer_norm, "rms_norm": _layer_norm,
    "activation": _activation, "gated_activation": _activation, "rotation": _rotation, "rotary_angles": _rotation,
    "relative_dot": _relative, "gather_bias": _relative}


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
            f"Its length is {np.linalg.norm(vector):.2f}; a sentence with a similar meaning gets a vector pointing the "
            f"same way (the Similarity page compares them).", *trained]


def tokens_story(trace: Trace) -> list[str]:
    special = [t for t, s in zip(trace.tokens, trace.sequence_ids) if s is None]
    pieces = [t for t, s, w, prev in zip(trace.tokens[1:], trace.sequence_ids[1:], trace.word_ids[1:],
                                         trace.word_ids[:-1]) if s is not None and w is not None and w == prev]
    vocabulary = f"a vocabulary of {len(trace.loaded.tokenizer):,}"
    if stand_in := trace.loaded.stand_in_vocabulary:
        vocabulary = stand_in
    lines = [f"The tokenizer cuts the text into {len(trace.tokens)} tokens, {len(special)} of them special "
             f"({', '.join(dict.fromkeys(special))}), and gives each the id of its row in {vocabulary}."]
    if pieces:
        lines.append(f"{len(pieces)} tokens continue a word cut into pieces (such as '{pieces[0]}').")
    else:
        lines.append("Every word here is a single token of the vocabulary.")
    return lines


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
