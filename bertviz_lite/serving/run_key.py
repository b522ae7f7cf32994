"""What one page run computes from, as one hashable key: the model (its source and task), the sentence (and the
second sentence), and the intervention, if any. A page builds it once from its URL state
(`app_pages/shell/runs.py`); the trace, a layer's sub-steps, the analyses and the figures are all asked for by it
(`cache.py`), so that no page passes a model around as strings and every store is keyed the same way.

>>> key = RunKey("bert-base-uncased", "base", "the bank of the river")
>>> key.model, key.with_text("the river bank").text, key.with_task("masked-lm").task
(('bert-base-uncased', 'base'), 'the river bank', 'masked-lm')
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # not at run time: the warm-up reads keys before torch is imported (serving/warmup.py)
    from ..intervening.edits import Edits


@dataclass(frozen=True)
class RunKey:
    source: str  # the model: a Hub id, a local directory or a preset
    task: str  # "base", "masked-lm", …: which of the model's classes is loaded
    text: str
    pair: str | None = None  # the second sentence, if any
    edits: Edits | None = None  # an intervention (a head off, a token masked, a value zeroed); None: the model's own

    def __post_init__(self) -> None:
        object.__setattr__(self, "pair", self.pair or None)  # an empty second sentence is none
        object.__setattr__(self, "edits", self.edits or None)  # an empty intervention is the model's own run

    @property
    def model(self) -> tuple[str, str]:
        """(source, task): what the model cache is asked for."""
        return self.source, self.task

    @property
    def own(self) -> RunKey:
        """The model's own run of the same sentence."""
        return replace(self, edits=None)

    def with_text(self, text: str, pair: str | None = None) -> RunKey:
        """Another sentence through the same model (the model's own run)."""
        return replace(self, text=text, pair=pair, edits=None)

    def with_task(self, task: str) -> RunKey:
        """The same run through the model loaded for another task (the lens reads the masked-LM head)."""
        return replace(self, task=task)

    def with_edits(self, edits: Edits | None) -> RunKey:
        return replace(self, edits=edits)
