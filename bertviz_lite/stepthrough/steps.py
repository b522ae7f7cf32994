"""One block's sub-steps (the embeddings, the encoder's once-per-input steps, one layer, or the pooler), in the
order of its graph, as float32 arrays, with the check of its last step against what the model itself produced."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..closeness import SAME_SUM
from ..graph.nodes import Graph, Node


class Steps(Mapping):
    """The sub-steps of one block, in order, with the graph that computes them.

    >>> steps = trace.layer(3)                        # doctest: +SKIP
    >>> steps["attn.probs"].shape                     # (heads, tokens, tokens)  # doctest: +SKIP
    (12, 11, 11)
    >>> steps.name("attn.probs"), steps.max_abs_diff  # doctest: +SKIP
    ('layers.3.attn.probs', 4.8e-07)
    >>> steps.node("attn.probs").inputs               # doctest: +SKIP
    ('attn.scores',)

    `max_abs_diff` compares the last sub-step with `reference`, what the model itself produced for this block
    (hidden_states[i + 1] for layer i); `holds` says whether every element is within `closeness.SAME_SUM` of it.
    """

    def __init__(self, graph: Graph, arrays: dict[str, np.ndarray], reference: np.ndarray | None):
        self.graph = graph
        self.block, self.layer = graph.block, graph.layer
        assert set(arrays) == set(graph.keys), f"sub-steps missing: {set(graph.keys) - set(arrays)}"
        self._arrays = {k: arrays[k] for k in graph.keys}
        self.reference = reference
        self.max_abs_diff = None if reference is None else float(np.max(np.abs(self.output - reference)))
        self.holds = None if reference is None else SAME_SUM.holds(self.output, reference)  # the check, by size

    def __getitem__(self, key: str) -> np.ndarray:
        return self._arrays[key]

    def __iter__(self):
        return iter(self._arrays)

    def __len__(self) -> int:
        return len(self._arrays)

    @property
    def output(self) -> np.ndarray:
        return self._arrays[self.graph.output.key]

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self._arrays.values())

    def name(self, key: str) -> str:
        return self.graph.name(key)

    def node(self, key: str) -> Node:
        return self.graph.node(key)

    def position(self, key: str) -> int:
        """1 for the first sub-step."""
        return self.graph.keys.index(key) + 1

    def __repr__(self) -> str:
        shapes = " → ".join(f"{k} {tuple(a.shape)}" for k, a in self._arrays.items())
        check = "" if self.max_abs_diff is None else f"; max |Δ| vs the model = {self.max_abs_diff:.2e}"
        where = f"{self.block}.{self.layer}" if self.layer is not None else self.block
        return f"Steps({where}: {shapes}{check})"
