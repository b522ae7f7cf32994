"""A sentence-transformers checkpoint's pipeline as its own files describe it (`modules.json`,
`1_Pooling/config.json`, `sentence_bert_config.json`): read when the model is loaded, applied by
`analyses/sentence_pooling.py`.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import torch

# the legacy config keys in the order sentence-transformers concatenates the pooled vectors
MODES = {"pooling_mode_cls_token": "cls", "pooling_mode_max_tokens": "max", "pooling_mode_mean_tokens": "mean",
         "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
         "pooling_mode_weightedmean_tokens": "weightedmean", "pooling_mode_lasttoken": "lasttoken"}
TRANSFORMER, POOLING, NORMALIZE = "Transformer", "Pooling", "Normalize"


@dataclass(frozen=True)
class PoolingMode:
    """One of sentence-transformers' pooling modes: its words, and the weight it gives each of T tokens (torch, so
    that a graph traced from it reads any T: export/analysis_graphs.py)."""

    words: str
    weights: Callable[[int, torch.dtype], torch.Tensor] | None  # (T, dtype) -> (T,); None for max, which selects


# The one table of pooling modes: `analyses/sentence_pooling.py` computes every mode from it (the sentence vector,
# its split into token pairs, the attributions' differentiable target), the loader accepts the modes it names.
POOLING_MODES = {
    "cls": PoolingMode("the first token's vector", lambda T, dtype: (torch.arange(T) == 0).to(dtype)),
    "max": PoolingMode("the maximum over tokens", None),
    "mean": PoolingMode("the mean over tokens", lambda T, dtype: torch.full((T,), 1.0 / T, dtype=dtype)),
    "mean_sqrt_len_tokens": PoolingMode("the sum over tokens divided by √T",
                                        lambda T, dtype: torch.full((T,), T ** -0.5, dtype=dtype)),
    "weightedmean": PoolingMode("the position-weighted mean over tokens",  # 1, 2, …, T over their sum
                                lambda T, dtype: torch.arange(1, T + 1, dtype=dtype) / (T * (T + 1) / 2)),
    "lasttoken": PoolingMode("the last token's vector", lambda T, dtype: (torch.arange(T) == T - 1).to(dtype)),
}


@dataclass(frozen=True)
class SentencePooling:
    modes: tuple[str, ...]  # pooled vectors, concatenated in this order
    normalize: bool  # a Normalize module follows: unit-length vectors
    max_tokens: int | None  # the Transformer module's max_seq_length (None: the model's own limit)

    def describe(self) -> str:
        words = " and ".join(POOLING_MODES[m].words for m in self.modes)
        return words + (", scaled to length 1" if self.normalize else "")


def read_sentence_pooling(find_file: Callable[[str], str | None]) -> SentencePooling | None:
    """The pipeline of a sentence-transformers checkpoint, or None for a plain transformers one or a pipeline
    with modules we do not recompute (a Dense layer, say). `find_file(name)` gives a local path or None."""
    modules = _read_json(find_file, "modules.json")
    if not isinstance(modules, list):
        return None
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    if kinds[:2] != [TRANSFORMER, POOLING] or any(k != NORMALIZE for k in kinds[2:]):
        return None
    config = _read_json(find_file, f"{modules[1].get('path', '')}/config.json".lstrip("/")) or {}
    modes = _modes(config)
    if not modes:
        return None
    st_config = _read_json(find_file, "sentence_bert_config.json") or {}
    max_tokens = st_config.get("max_seq_length")
    return SentencePooling(modes, NORMALIZE in kinds, int(max_tokens) if max_tokens else None)


def _modes(config: dict) -> tuple[str, ...]:
    """Modes from either the current `pooling_mode` key or the legacy booleans (default mean, as the library)."""
    if "pooling_mode" in config:
        mode = config["pooling_mode"]
        modes = (mode,) if isinstance(mode, str) else tuple(mode)
    else:
        modes = tuple(mode for key, mode in MODES.items() if config.get(key)) or ("mean",)
    return modes if all(m in POOLING_MODES for m in modes) else ()


def _read_json(find_file: Callable[[str], str | None], name: str):
    path = find_file(name)
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
