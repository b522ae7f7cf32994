"""Layers: the embeddings, every encoder layer sub-step by sub-step, and the pooler, each checked against the
model's own numbers; the current block drawn from its graph with the current step lit, and any cell of the step
explained from the numbers it comes from. Changing layer, head, step or cell reruns only the stepper (a fragment).

Four regions: the controls; the block's diagram; the words (the step, its check, the cell's explanation); the
canvas (the step's figures). When browsing they stack, the words beside the canvas; in lecture mode the controls
share one row so that a step, its figure and an explanation fit a 1280×720 projector. The stepper's parts are in
`app_pages/stepper/`, each handed what this run works on (`Stepping`)."""
import streamlit as st

from app_pages.shell import guarded, lecture, runs, state, turns
from app_pages.stepper.stages import VIEWS
from app_pages.stepper.stepping import Stepping, regions

SHORT = {"Embeddings": "Embed", "Positions": "Pos.", "Encoder layer": "Layer", "Pooler & similarity": "Pooler"}

loaded = guarded.load_or_stop(needs_weights=True)  # the banner and the length notice, once per full run
run = runs.run_or_stop(loaded)
lecture.page_title("Layers")
if run.edits:
    runs.intervened_banner(run.edits, run.num_layers)
del loaded, run  # a tab keeps this namespace: no model in it (guarded.trace_or_stop)


@st.fragment
def stepper() -> None:
    """The stepper, rerun alone by its own controls. It takes the model and trace from the caches at each run and
    keeps neither: this page's namespace outlives a run (the fragment and the buttons' callbacks keep it for as
    long as the tab is open), and a trace kept there would outlive the caches' bounds, one per open tab."""
    with turns.in_line():  # a click that reruns only the stepper waits in the fair line too
        try:
            loaded = guarded.load_or_stop(needs_weights=True, banner=False)
            step_through(Stepping(loaded, runs.run_or_stop(loaded, notice=False)))
        except guarded.PageEnds:  # the stepper said why it ends: the rest of the page still draws
            pass


def step_through(s: Stepping) -> None:
    r = regions(len(s.stages))
    short = SHORT if state.lecture_mode() else {}
    where = r.row[0] if r.row else r.controls
    stage = where.segmented_control("Stage", list(s.stages), default=s.stage_of(st.session_state.step),
                                    key="stage_control", format_func=lambda name: short.get(name, name))
    if stage and stage != s.stage_of(st.session_state.step):
        st.session_state.step = s.stages[stage]
    VIEWS[stage or s.stage_of(st.session_state.step)](s, r)
    state.sync_url()


stepper()
