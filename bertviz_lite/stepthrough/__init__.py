"""The step-through: one sentence through the model, sub-step by sub-step, each checked against the model's own
numbers: the names of the sub-steps (`names.py`), their computation (`steps.py`) and the trace (`trace.py`)."""
