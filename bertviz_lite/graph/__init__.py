"""The op graph: every block of an encoder as a small graph of named operations (`ops/`, the one package it
reads): the families describe their blocks with it, and the step-through, the explanations and the diagram read it.

- `names.py`: one name per sub-step, and its words;
- `nodes.py`: a `Node` (operation, inputs, module, parameters) and a block's `Graph`;
- `evaluate.py`: running a graph on the model's own modules;
- `views.py`, `layout.py`: which steps a view shows together, and where a diagram's boxes go.
"""
