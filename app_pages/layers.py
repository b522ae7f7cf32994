"""Layers: the embeddings, every encoder layer sub-step by sub-step, and the pooler, each checked against the
model's own numbers; the current block drawn from its graph with the current step lit, and any cell of the step
explained from the numbers it comes from. Changing layer, head, step or cell reruns only the stepper (a fragment).

Four regions: the controls; the block's diagram; the words (the step, its check, the cell's explanation); the
canvas (the step's figures). When browsing they stack, the words beside the canvas; in lecture mode the controls
share one row, the canvas comes first and wide with the words beside it, and the diagram goes under them, so that
a step's whole figure and an explanation's result fit a 1280×720 projector. The stepper's parts are in
`app_pages/stepper/`, each handed what this run works on (`Stepping`)."""
import streamlit as st

from app_pages.shell import guarded, lecture, runs, state, turns
from app_pages.stepper.stages import VIEWS
from app_pages.stepper.stepping import Stepping, regions

SHORT = {"Embeddings": "Embed", "Positions": "Pos.", "Encoder layer": "Layer", "Pooler & similarity": "Pooler"}


def this_run(notice: bool) -> Stepping:
    """The tab's model and run (from the caches), with their banner and notices where `notice` (a full run)."""
    loaded = guarded.load_or_stop(needs_weights=True, banner=notice)
    return Stepping(loaded, *runs.run_or_stop(loaded, notice=notice))


@st.fragment
def stepper(handed: list[Stepping]) -> None:
    """The stepper, rerun alone by its own controls. A full run hands it the page's model and trace (`handed`,
    emptied here), so that the page loads the model and traces the sentence once; its own reruns take both from
    the caches again. It keeps neither: Streamlit keeps a fragment's arguments for as long as the tab is open, and
    a trace kept there would outlive the caches' bounds, one per open tab."""
    with turns.in_line():  # a click that reruns only the stepper waits in the fair line too
        try:
            step_through(handed.pop() if handed else this_run(notice=False))
        except guarded.PageEnds:  # the stepper said why it ends: the rest of the page still draws
            pass


def step_through(s: Stepping) -> None:
    r = regions(len(s.stages))
    short = SHORT if state.projector() else {}
    where = r.row[0] if r.row else r.controls
    stage = where.segmented_control("Stage", list(s.stages), default=s.stage_of(st.session_state.step),
                                    key="stage_control", format_func=lambda name: short.get(name, name))
    if stage and stage != s.stage_of(st.session_state.step):
        st.session_state.step = s.stages[stage]
    VIEWS[stage or s.stage_of(st.session_state.step)](s, r)
    state.sync_url()


first = this_run(notice=True)  # the banner and the length notice, once per full run
lecture.page_title("Layers")
if first.key.edits:
    runs.intervened_banner(first.key.edits, first.t.num_layers)
stepper([first])  # handed to the stepper's first call, which takes it out
del first  # a tab keeps this namespace: no model in it (guarded.trace_or_stop)
