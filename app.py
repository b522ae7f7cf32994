"""bertviz-lite: the Streamlit shell. It registers the pages, draws the shared sidebar and keeps the URL in step
with what is on screen. Run: streamlit run app.py"""
import streamlit as st

from app_pages.shell import guarded, lecture, pages, sidebar, state, turns
from bertviz_lite.serving.process import configured_threads, trimming_memory

configured_threads()
trimming_memory()
state.init_state()
with turns.in_line():  # everything a run draws, one tab after another (see serving/queue.py)
    st.set_page_config(page_title="bertviz-lite", page_icon=":material/search:", layout="wide",
                       initial_sidebar_state="collapsed" if state.lecture_mode() else "auto")
    lecture.apply_style()
    state.sync_url()
    page = st.navigation([st.Page(p.script, title=p.title, icon=p.icon, url_path=p.path, default=p is pages.OVERVIEW)
                          for p in pages.PAGES])  # each page as pages.py declares it
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
