"""Serving the app: the Streamlit caches (`cache.py`, the one module that imports Streamlit), what a server process
does once (`process.py`), the warm-up (`warmup.py`), the rules for a hosted deployment (`hosting.py`), torch's
threads per container (`threads.py`), memory given back to the OS (`memory.py`) and the first-come-first-served
line of page runs (`queue.py`)."""
