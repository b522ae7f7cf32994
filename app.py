"""bertviz-lite: the Streamlit shell. It registers the pages, draws the shared sidebar and keeps the URL in step
with what is on screen. Run: streamlit run app.py"""
import streamlit as st

from app_pages.shell import guarded, lecture, sidebar, state, turns
from bertviz_lite.serving.process import configured_threads, trimming_memory

configured_threads()
trimming_memory()
state.init_state()
with turns.in_line():  # everything a run draws, one tab after another (see serving/queue.py)
    st.set_page_config(page_title="bertviz-lite", page_icon=":material/search:", layout="wide",
                       initial_sidebar_state="collapsed" if state.lecture_mode() else "auto")
    lecture.apply_style()
    state.sync_url()
    page = st.navigation([
        st.Page("app_pages/overview.py", title="Overview", icon=":material/home:", url_path="", default=True),
        st.Page("app_pages/tour.py", title="Tour", icon=":material/school:", url_path="tour"),
        st.Page("app_pages/architecture.py", title="Architecture", icon=":material/account_tree:",
                url_path="architecture"),
        st.Page("app_pages/tokens.py", title="Tokens", icon=":material/abc:", url_path="tokens"),
        st.Page("app_pages/layers.py", title="Layers", icon=":material/layers:", url_path="layers"),
        st.Page("app_pages/attention.py", title="Attention", icon=":material/timeline:", url_path="attention"),
        st.Page("app_pages/similarity.py", title="Similarity", icon=":material/compare_arrows:", url_path="similarity"),
        st.Page("app_pages/contexts.py", title="Word in context", icon=":material/alt_route:", url_path="contexts"),
        st.Page("app_pages/compare.py", title="Compare models", icon=":material/splitscreen:", url_path="compare"),
        st.Page("app_pages/heads.py", title="Heads", icon=":material/grid_view:", url_path="heads"),
        st.Page("app_pages/rollout.py", title="Rollout", icon=":material/stacked_line_chart:", url_path="rollout"),
        st.Page("app_pages/contributions.py", title="Contributions", icon=":material/join_inner:",
                url_path="contributions"),
        st.Page("app_pages/lens.py", title="Logit lens", icon=":material/visibility:", url_path="lens"),
    ])
    sidebar.sidebar()
    lecture.go_to_pending_page()
    try:
        try:
            page.run()
        except guarded.PageEnds:  # the page said why it ends early; what goes under every page still does
            pass
        lecture.lecture_bar(page.url_path)
    finally:  # after the first page is drawn (the Overview needs no weights), warm the default view for the next
        turns.warm_default_view()
