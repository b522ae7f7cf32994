"""What one run of the Layers stepper works on, passed to each of its parts as an argument: the model, the
sentence's trace, the once-per-input positions' steps and the stages; and where on the page each part draws."""
from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from bertviz_lite import LoadedModel, Trace
from bertviz_lite.serving.run_key import RunKey
from bertviz_lite.stepthrough.steps import Steps
from app_pages.shell import charts, lecture, state
from app_pages.shell.screen import drawn_px

LECTURE_COLUMNS = [2, 1]  # the canvas and the words on a projector: the figure about 800 px wide, so that a
# 16-token matrix writes its numbers at 14 px or more; the words column about 400 (a small gap between them)
LATER_STAGES = {"Encoder layer": "attn.probs", "Pooler & similarity": "pooler.out"}  # after the embeddings


@dataclass
class Stepping:
    """The model, the run's key and its trace, taken from the caches at each run (the page keeps none of the heavy
    ones between runs: see guarded.trace_or_stop), and the stages the stepper offers, each with the step it opens
    on."""
    loaded: LoadedModel
    key: RunKey  # the run shown: the model's own, or an intervened one
    t: Trace
    positions: Steps | None = field(init=False)  # the once-per-input steps (DeBERTa, MPNet); else None
    stages: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.positions = self.t.positions()
        embed = self.t.graph("embed")
        self.stages = {"Embeddings": embed.name(embed.output.key)}  # its last step (a LayerNorm, or EuroBERT's
        # word vectors)
        if self.positions is not None:  # what the encoder computes once per input, a stage before the layers
            self.stages["Positions"] = f"positions.{self.positions.graph.keys[0]}"
        self.stages.update(LATER_STAGES)

    def view_key(self, *parts) -> tuple:
        """A cached figure's key: the model, the sentence and the run shown (the run key), and `parts`."""
        return charts.view_key(self.loaded, self.key, *parts)

    def stage_of(self, step: str) -> str:
        if step.startswith("embed."):
            return "Embeddings"
        if step.startswith("positions.") and self.positions is not None:
            return "Positions"
        if step.startswith("pooler."):
            return "Pooler & similarity"
        return "Encoder layer"


@dataclass(frozen=True)
class Regions:
    controls: object
    diagram: object
    words: object
    canvas: object
    row: tuple = ()  # lecture mode: stage, ◀, layer, ▶, head, step in one row of controls
    canvas_px: int = charts.CHART_WIDTH_PX  # about how wide the canvas is on a 1280-pixel screen
    wide: object = None  # lecture mode: the page's width under the canvas and the words (several panels in a row)

    def picker(self):
        """Where the step picker goes: the end of the lecture row, or the controls."""
        return self.row[5] if self.row else self.controls


def regions(stages: int) -> Regions:
    """Stacked when browsing (the words beside the canvas); in lecture mode one row of controls, then the canvas
    beside the words, and the diagram under them, so that a step's figure, whole, and an explanation's result fit a
    1280×720 projector."""
    if state.projector():
        more = stages - 3  # a fourth stage (DeBERTa's, MPNet's positions) takes its room from the slider
        row = st.columns([3.1 + 0.9 * more, 0.8, 2.0 - 0.9 * more, 0.8, 1.0, 5.5], vertical_alignment="bottom")  # the
        # sub-step picker widest: "14/17 Feed-forward activation (gelu)" whole
        controls = st.container()
        canvas, words = st.columns(LECTURE_COLUMNS, gap="small")  # the step's figure first, and wide
        wide = st.container()  # under them, the page's width: a score's terms side by side
        diagram = st.container()  # then where the step sits in the block, below the fold if need be
        return Regions(controls, diagram, words, canvas, tuple(row), drawn_px(charts.column_px(LECTURE_COLUMNS, 0)),
                       wide)
    controls, diagram, columns = lecture.figure_first("diagram")  # on a phone, the figure first
    words, canvas = columns.columns([5, 6], gap="large")
    return Regions(controls, diagram, words.container(key="after-figure-words"), canvas,
                   canvas_px=drawn_px(charts.column_px([5, 6], 1)))  # a phone's width, on a phone
