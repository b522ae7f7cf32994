"""Serving the app: the Streamlit caches (`cache.py`, the one module that imports Streamlit), the rules for a
hosted deployment (`hosting.py`) and torch's threads per container (`threads.py`)."""
