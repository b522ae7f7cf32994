"""Which run of the sentence a page shows, as one key (`RunKey`) built once from the URL's state: the model, the
sentence (and pair), and the model's own run, or an intervened one (a head off, a token masked, a value zeroed)
that the URL names with `off`, `mask` and `zero`, as the Interventions page writes them."""
from __future__ import annotations

import streamlit as st

from bertviz_lite import BertvizLiteError, InputError, LoadedModel, Trace
from bertviz_lite.intervening.edits import Edits, parse_edits
from bertviz_lite.intervening.run import Intervened
from bertviz_lite.serving.cache import cached_intervened
from bertviz_lite.serving.run_key import RunKey

from .guarded import computed_or_stop, trace_or_stop
from .state import set_value

EDIT_KEYS = ("off", "mask", "zero")


def edits_in_url(t: Trace, say: bool = True) -> Edits:
    """The intervention the URL names (off, mask, zero) on this sentence, its keys rewritten as the pickers write
    them; one that cannot be read, or names a layer, head or token that is not there (or a mask token the tokenizer
    lacks), gets its message (`say`), and the page goes on with the model's own run (the keys stay as typed)."""
    try:
        edits = parse_edits(*(st.session_state[key] for key in EDIT_KEYS))
        edits.check(t.num_layers, t.num_heads, len(t.tokens))
        if edits.masked and t.loaded.tokenizer.mask_token_id is None:
            raise InputError(f"{t.loaded.source}'s tokenizer has no mask token, so no token can be masked.")
        for key, written in edits.to_url().items():  # as the pickers write them ("05" is "5")
            st.session_state[key] = written
        return edits
    except BertvizLiteError as error:
        if say:
            st.error(f"The intervention in the link cannot be applied: {error}", icon=":material/edit:")
        return Edits()


def page_key(loaded: LoadedModel) -> RunKey:
    """The model's own run of the URL's sentence (and pair) through the page's model: what the page asks the
    caches for."""
    return RunKey(loaded.source, loaded.task, st.session_state.text, st.session_state.pair)


def run_or_stop(loaded: LoadedModel, notice: bool = True) -> tuple[RunKey, Trace]:
    """The run the URL names and its trace: the model's own, or an intervened run where the URL names an
    intervention (the Layers stepper opens either)."""
    key = page_key(loaded)
    t = trace_or_stop(key, notice=notice)
    edits = edits_in_url(t, say=notice)
    return (key.with_edits(edits), intervened_or_stop(key.with_edits(edits)).trace) if edits else (key, t)


def intervened_or_stop(key: RunKey) -> Intervened:
    """The key's sentence run again with its edits, from the cache; a layer, head or token that is not there is a
    message and a stop."""
    doing = f"Running {key.source} again from the first layer the intervention changes …"
    return computed_or_stop(doing, lambda: cached_intervened(key))


def intervened_banner(edits: Edits, layers: int) -> None:
    """Say that the page shows an intervened run, and which, with the model's own run one click away."""
    def own_run() -> None:
        for key in EDIT_KEYS:
            set_value(key, "")

    left, right = st.columns([5, 2], vertical_alignment="center")
    left.warning(f"Intervened run: {edits.describe()}; {edits.what_runs_again(layers)}.", icon=":material/science:")
    right.button("The model's own run", on_click=own_run, icon=":material/undo:")
