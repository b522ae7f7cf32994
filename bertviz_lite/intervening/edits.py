"""What an intervention changes, written as the URL and the command line write it, checked against the model and
the sentence, and applied to a layer's graph.

- a head switched off, `off=2.3` (layer.head): that query head's context (P·V, before the output projection) is
  zero, which is what transformers' old `head_mask` did. With grouped-query attention it is a query head; for
  DeBERTa its context already holds the position terms (they are in P).
- a token masked, `mask=5`: the input id at that position becomes the tokenizer's mask token; its position and
  token type stay.
- a value zeroed, `zero=3:4` (layer:token): in that layer, the token's value vector is zero in every head before
  P·V (value zeroing, Mohebbi et al. 2023).

Each is set on the layer's weighted-sum node (`attrs`), so the op computes it and explains a cell with it, and
the stepper, the checks and the explanations of an intervened layer read the same graph as any other.

>>> edits = parse_edits("2.3,4.1", "", "3:4")
>>> edits.heads_off, edits.zeroed, edits.first_changed_layer, edits.describe()
(((2, 3), (4, 1)), ((3, 4),), 2, 'head 3 of layer 2 off; head 1 of layer 4 off; the value of token 4 zeroed in layer 3')
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import InputError
from ..graph.nodes import Graph
from ..ops import WEIGHTED_SUM


@dataclass(frozen=True)
class Edits:
    heads_off: tuple[tuple[int, int], ...] = ()  # (layer, query head)
    masked: tuple[int, ...] = ()  # token positions
    zeroed: tuple[tuple[int, int], ...] = ()  # (layer, token) whose value vector is zero in that layer

    def __bool__(self) -> bool:
        return bool(self.heads_off or self.masked or self.zeroed)

    @property
    def first_changed_layer(self) -> int | None:
        """The first encoder layer recomputed: 0 for a masked token (the embeddings change), else the first layer
        with a head off or a value zeroed; None for no edit."""
        if self.masked:
            return 0
        layers = [layer for layer, _ in self.heads_off + self.zeroed]
        return min(layers) if layers else None

    @property
    def unchanged_states(self) -> int:
        """How many of the hidden states (transformers' numbering: 0 the embeddings, l + 1 layer l's output) come
        before the first change and are the trace's own."""
        return 0 if self.masked or self.first_changed_layer is None else self.first_changed_layer + 1

    def in_layer(self, layer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(heads off, tokens zeroed) in one layer."""
        return (tuple(sorted({h for l, h in self.heads_off if l == layer})),
                tuple(sorted({j for l, j in self.zeroed if l == layer})))

    def applied_to(self, graph: Graph) -> Graph:
        """A layer's graph with this layer's heads off and values zeroed set on its weighted-sum node; any other
        block or layer as it is."""
        if graph.block != "layers":
            return graph
        off, zeroed = self.in_layer(graph.layer)
        if not (off or zeroed):
            return graph
        nodes = tuple(dataclasses.replace(n, attrs={**n.attrs, "heads_off": off, "zeroed_values": zeroed})
                      if n.op is WEIGHTED_SUM else n for n in graph.nodes)
        return Graph(graph.block, graph.layer, nodes)

    def check(self, layers: int, heads: int, tokens: int) -> None:
        """An InputError naming the first layer, head or token that is not there."""
        for layer, head in self.heads_off:
            _in_range(layer, layers, "layer", "layers")
            _in_range(head, heads, "head", "heads")
        for layer, token in self.zeroed:
            _in_range(layer, layers, "layer", "layers")
            _in_range(token, tokens, "token", "tokens (positions)")
        for token in self.masked:
            _in_range(token, tokens, "token", "tokens (positions)")

    def what_runs_again(self, layers: int) -> str:
        """Which blocks the intervened run computes again and which are the model's own, in words."""
        first = self.first_changed_layer
        if self.masked:
            return "the embeddings and every layer are run again"
        if first == 0:
            return "every layer is run again (the embeddings are the model's own)"
        return (f"layers {first} to {layers - 1} are run again; the embeddings and layers 0 to {first - 1} are the "
                f"model's own")

    def describe(self) -> str:
        parts = ([f"head {h} of layer {layer} off" for layer, h in self.heads_off]
                 + [f"token {i} masked" for i in self.masked]
                 + [f"the value of token {j} zeroed in layer {layer}" for layer, j in self.zeroed])
        return "; ".join(parts) or "no intervention"

    def to_url(self) -> dict[str, str]:
        """The URL keys that write these edits (off, mask, zero)."""
        return {"off": ",".join(f"{layer}.{h}" for layer, h in self.heads_off),
                "mask": ",".join(str(i) for i in self.masked),
                "zero": ",".join(f"{layer}:{j}" for layer, j in self.zeroed)}


def _in_range(value: int, count: int, what: str, plural: str) -> None:
    if not 0 <= value < count:
        raise InputError(f"There is no {what} {value}: this model and sentence have {plural} 0 to {count - 1}.")


def parse_edits(off: str = "", mask: str = "", zero: str = "") -> Edits:
    """Edits from their written form: off "2.3,4.1" (layer.head), mask "5,7" (positions), zero "3:4" (layer:token);
    an InputError says which part cannot be read and how to write it."""
    return Edits(tuple(_pairs(off, ".", "a head to switch off as layer.head, e.g. 2.3")),
                 tuple(sorted({_number(part, "a token to mask as its position, e.g. 5") for part in _parts(mask)})),
                 tuple(_pairs(zero, ":", "a value to zero as layer:token, e.g. 3:4")))


def _parts(text: str) -> list[str]:
    return [part.strip() for part in str(text or "").split(",") if part.strip()]


def _pairs(text: str, separator: str, how: str) -> list[tuple[int, int]]:
    pairs = []
    for part in _parts(text):
        first, mark, second = part.partition(separator)
        if not mark:
            raise InputError(f"{part!r} cannot be read: write {how}.")
        pair = (_number(first, how), _number(second, how))
        if pair not in pairs:
            pairs.append(pair)
    return sorted(pairs)


def _number(text: str, how: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise InputError(f"{text.strip()!r} is not a whole number: write {how}.") from None
