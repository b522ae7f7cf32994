"""The operations a sub-step can be, each in one place with its four parts: how it computes a sub-step, how it
explains one cell (its `recipe.Recipe`, which the app and a site's browser work out alike), how the tour tells of
it, and the figure that explains a cell (`record.Op`). A leaf: it imports
torch and numpy, never a trace, a page or a figure. Grouped by kind: `tables`, `sums`, `attention`, `norms`,
`activations`, `positions`; the head arithmetic they share is `heads`.

Every operation computes its node from the node's inputs (tensors without a batch dimension: (T, d) for token
vectors, (h, T, ·) per head), the model's own module where it applies one (a Linear, a LayerNorm, an Embedding, an
activation), and the tokens of the input. A family whose layer needs something no other family has defines its
own `Op` in its module (DeBERTa's relative positions, MPNet's buckets).

>>> [op.name for op in COMMON_OPS][:5]
['input', 'lookup', 'parameter', 'add', 'linear']
"""
from __future__ import annotations

from .activations import ACTIVATION, GATED_ACTIVATION
from .attention import MASK, SCALED_DOT, SOFTMAX, WEIGHTED_SUM
from .reading import mask_bias, visible
from .heads import head_name, key_head, merge_heads, shared_heads, split_heads
from .norms import LAYER_NORM, NORMS, RMS_NORM
from .positions import GATHER_BIAS, RELATIVE_DOT, ROTARY_ANGLES, ROTATION
from .record import Figure, Op, Series, Tokens
from .sums import ADD, LINEAR, MERGE_HEADS, RESIDUAL_ADD
from .tables import INPUT, LOOKUP, PARAMETER
from .telling import TELLING, tells
from .worked import MASKED_BELOW, Worked

COMMON_OPS = (INPUT, LOOKUP, PARAMETER, ADD, LINEAR, LAYER_NORM, RMS_NORM, ACTIVATION, GATED_ACTIVATION, SCALED_DOT,
              MASK, SOFTMAX, WEIGHTED_SUM, MERGE_HEADS, RESIDUAL_ADD, ROTARY_ANGLES, ROTATION, RELATIVE_DOT,
              GATHER_BIAS)

__all__ = ["ACTIVATION", "ADD", "COMMON_OPS", "Figure", "GATED_ACTIVATION", "GATHER_BIAS", "INPUT", "LAYER_NORM", "LINEAR",
           "LOOKUP", "MASK", "MASKED_BELOW", "MERGE_HEADS", "NORMS", "Op", "PARAMETER", "RELATIVE_DOT",
           "RESIDUAL_ADD", "RMS_NORM", "ROTARY_ANGLES", "ROTATION", "SCALED_DOT", "Series", "SOFTMAX", "TELLING", "Tokens", "WEIGHTED_SUM",
           "Worked", "head_name", "key_head", "mask_bias", "merge_heads", "shared_heads", "split_heads", "tells", "visible"]
