"""Which figure a tour chapter shows, from the trace: a step's array for the chosen head (a token × token matrix
as a heatmap, vectors as a window of their first 64 numbers, which its axis names), the residual stream's cosines, and the masked-LM
prediction or the sentence vector. The tokens chapter draws chips, not a figure."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..analyses.logit_lens import LogitLens
from ..analyses.residual_stream import layer_changes
from ..analyses.similarity import SentenceVectors
from ..ops import key_head
from ..ops.recipe import call, var, when
from ..figures import attention_heatmap, lens_grid, matrix_window, stream_changes, vector_bars
from ..figures.template import value_of
from ..stepthrough.trace import Trace
from .chapters import Chapter

# The figures' titles (a typed sentence's tour on a live site fills the same)
FIGURE_TITLES = {"stream": "How much each layer turns each token's vector (cosine before/after)",
                 "vector": "The sentence vector ({name})", "head": "{title}, head {head}",
                 "shared_head": "{title}, key/value head {shared} (read by query head {head})"}
LECTURE_PX = 470  # a chapter's figure on a projector, under the chapter's picker (and a random-weights line), within
# 720 px; the diagram goes under it


def chapter_figure(trace: Trace, chapter: Chapter, head: int = 0, vectors: SentenceVectors | None = None,
                   lens: LogitLens | None = None, token: int | None = None) -> go.Figure | None:
    """The chapter's figure, or None where it has none (the tokens; a step that is not a matrix). The output
    chapter shows the masked-LM prediction forming (`lens`) where there is one, else the sentence vector. `token`:
    the token the narration speaks of, whose largest number (the one it names) is outlined."""
    if chapter.kind == "stream":
        return stream_changes(layer_changes(trace), trace.tokens, FIGURE_TITLES["stream"])
    if chapter.kind == "output" and lens is not None:
        return lens_grid(lens.layers, f"The masked-LM head's top {len(lens.layers[0])} at position {lens.position}, "
                                      f"layer by layer")
    if chapter.kind == "output":
        return None if vectors is None else vector_bars(vectors.vectors[0],
                                                        FIGURE_TITLES["vector"].format(name=vectors.name))
    if chapter.kind != "step":
        return None
    node, array = trace.graph_node(chapter.step), trace.cache[chapter.step]
    title = node.title
    if node.has_head_axis:
        query_head = min(head, trace.num_heads - 1)  # keys and values may have fewer heads (grouped-query)
        heads = array.shape[0]
        shared = key_head(query_head, trace.num_heads, heads)
        array = array[shared]  # (T, ...)
        title = FIGURE_TITLES["head" if heads == trace.num_heads else "shared_head"].format(
            title=node.title, head=query_head, shared=shared)
    T = len(trace.tokens)
    if node.token_by_token:  # (not a (T, d_h) array that happens to be square)
        unit = ("attention" if node.op.gives_probabilities else "score") if node.has_head_axis else node.short
        return attention_heatmap(np.asarray(array, np.float32), trace.tokens, title, unit,
                                 chosen=_largest(array, token), scale=node.op.scale)
    if array.ndim == 2:  # per token, or per relative distance δ = i − j (DeBERTa's position queries and keys)
        span = array.shape[0] // 2
        by_token = array.shape[0] == T
        rows = trace.tokens if by_token else [f"δ = {i - span}" for i in range(array.shape[0])]
        return matrix_window(np.asarray(array), rows, 0, title,  # its axis says which numbers are shown
                             chosen=_largest(array, token) if by_token else None)
    return None


_ROW = var.z[var.token, :]
LARGEST = when(call("==", var.token, None), None, when(var.token < call("len", var.z), call(
    "cat", var.token, call("argmax", _ROW, call("seen", _ROW))), None))  # (token, the column of its largest number,
# masked ones aside) in the matrix `z`: the cell the narration names, outlined; a typed sentence's tour on a live
# site outlines the same


def _largest(array: np.ndarray, token: int | None) -> tuple[int, int] | None:
    """LARGEST in `array`: the cell the narration names."""
    found = value_of(LARGEST, {"z": np.asarray(array, np.float64), "token": token})
    return None if found is None else (int(found[0]), int(found[1]))
