"""Two models side by side on one sentence: their configs (with what differs), their parameters by group, how
each tokenizer splits the text, and layers at the same relative depth.

Relative depth: layer n of L (counting from 1) sits at depth n / L. The layer of another model at that depth is
the nearest one, ties going to the shallower: layer 3 of 12 (depth 0.25) faces layer 1 of 6 (0.25 × 6 = 1.5) and
layer 5 of 22 (5.5). Our choice; the depth is said as a fraction wherever it is shown.

>>> [layer_at_depth(0.25, n) for n in (12, 6, 22)]
[3, 1, 5]
>>> depth_of(3, 12)
0.25
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError
from ..families import config_summary
from ..introspection.params import group_totals, parameter_group, parameter_table
from ..loading.loader import LoadedModel
from ..loading.readable_pieces import readable_pieces


def depth_of(layer: int, num_layers: int) -> float:
    """Relative depth of layer `layer` (counting from 1) of `num_layers`."""
    return layer / num_layers


def layer_at_depth(depth: float, num_layers: int) -> int:
    """The layer (counting from 1) nearest to `depth` in a model of `num_layers`, ties to the shallower one."""
    if not 0 < depth <= 1:
        raise InputError(f"A relative depth is a fraction above 0 and at most 1 ({depth} given).")
    return min(num_layers, max(1, math.ceil(depth * num_layers - 0.5)))


@dataclass(frozen=True)
class Tokenization:
    tokens: list[str]
    ids: list[int]


@dataclass(frozen=True, eq=False)
class ModelComparison:
    sources: tuple[str, str]
    configs: tuple[dict, dict]  # config_summary of each
    differences: list[str]  # the config_summary keys whose values differ
    totals: tuple[int, int]
    groups: tuple[dict[str, int], dict[str, int]]
    tokenizations: tuple[Tokenization, Tokenization]

    def to_json(self) -> dict:
        return {"models": [{"model": source, "config": config, "total": total, "groups": groups,
                            "tokens": tok.tokens, "ids": tok.ids}
                           for source, config, total, groups, tok in zip(self.sources, self.configs, self.totals,
                                                                          self.groups, self.tokenizations)],
                "differences": self.differences}


def tokenize(loaded: LoadedModel, text: str) -> Tokenization:
    """The text as the model's tokenizer splits it (special tokens included), at most the model's length."""
    if not str(text or "").strip():
        raise InputError("The text is empty: type a sentence, for example 'the bank of the river'.")
    ids = loaded.tokenizer(text, truncation=True, max_length=loaded.max_tokens)["input_ids"]
    return Tokenization(readable_pieces(loaded.tokenizer, loaded.tokenizer.convert_ids_to_tokens(ids)), list(ids))


def compare_models(a: LoadedModel, b: LoadedModel, text: str) -> ModelComparison:
    """Configs, parameter totals and groups, and tokenizations of `text`, for two loaded models."""
    configs = (config_summary(a.config), config_summary(b.config))
    differences = [key for key in configs[0] if configs[0][key] != configs[1].get(key)]
    tables = (parameter_table(a.model), parameter_table(b.model))
    return ModelComparison((a.source, b.source), configs, differences,
                           (int(tables[0].numel.sum()), int(tables[1].numel.sum())),
                           (by_role(a, group_totals(tables[0])), by_role(b, group_totals(tables[1]))),
                           (tokenize(a, text), tokenize(b, text)))


def by_role(loaded: LoadedModel, groups: dict[str, int]) -> dict[str, int]:
    """`groups` with the one that holds the layers named "encoder" whatever its module is called (DistilBERT's
    "transformer", ModernBERT's and EuroBERT's "layers"), so that two families' rows line up."""
    first = loaded.family.layer_modules(loaded.base)[0]
    name = next(n for n, module in loaded.model.named_modules() if module is first)
    layers = parameter_group(loaded.model, f"{name}.weight")
    return {"encoder" if g == layers else g: n for g, n in groups.items()}
