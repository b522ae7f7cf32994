"""Introspection: what a model is made of, from its modules alone: the module tree (`tree.py`), the named
parameters (`params.py`) and what each task head adds (`task_heads.py`)."""
