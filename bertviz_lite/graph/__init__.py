"""The op graph: every block of an encoder as a small graph of named operations. A leaf package: the families
describe their blocks with it, and the step-through, the explanations and the diagram read it.

- `names.py`: one name per sub-step, and its words;
- `nodes.py`: a `Node` (operation, inputs, module, parameters) and a block's `Graph`;
- `ops.py`: the operations, each written once;
- `evaluate.py`: running a graph on the model's own modules.
"""
