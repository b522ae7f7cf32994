"""An open tab keeps no numbers and no model beyond the caches' bounds.

Streamlit keeps a page's namespace for as long as its tab is open: the functions defined in the page hold it (a
fragment to rerun, a button's callback, a download's deferred data). A trace kept there outlives the trace cache's
bound, one per open tab: a soak of 160 sentences held 45 traces alive with 16 cached (2026-11-23); a model kept
there outlives the model cache's, one per model with an open tab. So once the caches let go, nothing of a session
may hold them.

What AppTest can see: the fragment and the widgets' callbacks and labels keep the namespace here as on a server,
but AppTest drops its media manager after each run, and with it the downloads' deferred callables. So a page that
holds its namespace only through a download (tokens, contributions, contexts, similarity) passes with or without
its `del`; the browser test of the model view's CSV and `bench --load`'s soak cover the server."""
import gc

import pytest
import streamlit as st

from bertviz_lite.loading.loader import LoadedModel
from bertviz_lite.stepthrough.trace import Trace

from tiny_models import save_tiny_model
from apptest import open_page

PAGES_WITH_A_TRACE = ["layers", "tokens", "attention", "heads", "rollout", "contributions", "lens", "contexts",
                      "compare", "tour"]


def alive(kind: type, **wanted) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects()
               if isinstance(o, kind) and all(getattr(o, name) == value for name, value in wanted.items()))


@pytest.fixture(scope="module")
def own_model(tmp_path_factory) -> str:
    """A tiny model no other test loads: the models of this source alive are this module's."""
    return save_tiny_model("bert", str(tmp_path_factory.mktemp("own_bert")), seed=7)


@pytest.mark.parametrize("page", PAGES_WITH_A_TRACE)
def test_a_tab_keeps_no_trace_once_the_cache_lets_go(page, tiny_dirs):
    text = f"a sentence only the {page} page reads"
    at = open_page(page, model=tiny_dirs["bert"], **{"sentence_a" if page == "contexts" else "text": text})
    assert not at.exception, [e.value for e in at.exception]
    assert alive(Trace, text=text) >= 1  # the cache holds it (what the count below would find if a session kept it)
    st.cache_resource.clear()  # what eviction does: the caches let go of every trace and view
    assert alive(Trace, text=text) == 0
    assert at is not None  # the session stays open through the check


@pytest.mark.parametrize("page", PAGES_WITH_A_TRACE + ["similarity"])
def test_a_tab_keeps_no_model_once_the_cache_lets_go(page, own_model):
    at = open_page(page, model=own_model)
    assert not at.exception, [e.value for e in at.exception]
    assert alive(LoadedModel, source=own_model) >= 1
    st.cache_resource.clear()
    assert alive(LoadedModel, source=own_model) == 0
    assert at is not None
