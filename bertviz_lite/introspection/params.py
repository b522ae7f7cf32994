"""The named-parameter table and its groups, as the notebooks list them but with every figure checked.

Groups are the base model's top-level children (embeddings / encoder / pooler; transformer for DistilBERT;
embeddings_project for ELECTRA) and, for task models, the head modules (classifier, cls, ...).

>>> table = parameter_table(model)                 # doctest: +SKIP
>>> table.groupby("group", sort=False).numel.sum()  # doctest: +SKIP
embeddings    23837184
encoder       85054464
pooler          590592
"""
from __future__ import annotations

import pandas as pd
from torch import nn

COLUMNS = ["name", "shape", "numel", "trainable", "group", "share"]


def parameter_group(model: nn.Module, name: str) -> str:
    """The group of a parameter name: the base model's child it lives in, or the head module."""
    prefix = getattr(model, "base_model_prefix", "")
    parts = name.split(".")
    if prefix and parts[0] == prefix and hasattr(model, prefix) and len(parts) > 2:
        return parts[1]
    return parts[0]


def parameter_table(model: nn.Module) -> pd.DataFrame:
    """One row per named parameter (tied tensors once, under their first name), in checkpoint order."""
    rows = [(name, tuple(p.shape), p.numel(), p.requires_grad, parameter_group(model, name))
            for name, p in model.named_parameters()]
    table = pd.DataFrame(rows, columns=COLUMNS[:-1])
    table["share"] = table["numel"] / max(int(table["numel"].sum()), 1)
    return table


def group_totals(table: pd.DataFrame) -> dict[str, int]:
    """Parameters per group, in the order the groups first appear."""
    return {group: int(n) for group, n in table.groupby("group", sort=False)["numel"].sum().items()}
