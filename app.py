"""Placeholder until the explorer pages land: says so plainly and shows what the backend already offers."""
import streamlit as st

st.set_page_config(page_title="bertviz-lite", layout="wide")
st.title("bertviz-lite")
st.info("The explorer pages are not built yet. The backend works today: see the README for the Python API "
        "and `python -m bertviz_lite params|trace|prefetch|bench`.")
