"""The step-through: one sentence through the model, every block computed from its graph with the model's own
modules and checked against the model's own numbers: the blocks' graphs (`blocks.py`), one block's sub-steps
(`steps.py`), where a trace keeps them (`store.py`) and the trace (`trace.py`)."""
