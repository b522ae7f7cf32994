"""The guided tour's chapters: the model walked through in the order it computes, read from its own graphs, so
that each family's tour has its own steps (DeBERTa's three score terms and relative positions, ModernBERT's
rotation and window, MPNet's position bias) with no table per family.

The order: the text and its tokens; the embeddings; what the encoder computes once (where it does); one layer
sub-step by sub-step; the residual stream through all layers; what the model gives.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ops import INPUT
from ..stepthrough.trace import Trace


# The chapters' titles, and what a link to a chapter the tour has not says (the app's tour and an exported site's,
# a typed sentence's too, fill the same templates)
TITLES = {"tokens": "The text becomes tokens", "embed": "Embeddings: {title}", "positions": "Positions: {title}",
          "layer": "Layer {layer}: {title}", "stream": "The residual stream through every layer",
          "output": "What the model gives"}
NO_CHAPTER = "There is no chapter '{asked}': this tour has chapters 1 to {count}. Showing chapter 1."


@dataclass(frozen=True)
class Chapter:
    kind: str  # "tokens", "step", "stream" or "output"
    title: str
    step: str | None = None  # the global name of the sub-step a "step" chapter shows


def chapters(trace: Trace, layer: int) -> list[Chapter]:
    """Every chapter of the tour of `trace` through layer `layer`, in order (the page counts them from 1)."""
    embed = trace.graph("embed")
    out = [Chapter("tokens", TITLES["tokens"]),
           Chapter("step", TITLES["embed"].format(title=embed.output.title), embed.name(embed.output.key))]
    positions = trace.graph("positions")
    if positions is not None:
        out += [Chapter("step", TITLES["positions"].format(title=n.title), positions.name(n.key)) for n in positions]
    block = trace.graph("layers", layer)
    out += [Chapter("step", TITLES["layer"].format(layer=layer, title=n.title), block.name(n.key))
            for n in block if n.op is not INPUT]
    return out + [Chapter("stream", TITLES["stream"]), Chapter("output", TITLES["output"])]
