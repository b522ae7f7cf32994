"""Rules for a hosted deployment (a Hugging Face Space, or BVL_HOSTED=1): what strangers may make the server do.

On a laptop the user owns the machine, so anything goes. On a shared server a visitor must not be able to read
the server's files (so no local directories) or make it download and hold a huge model (so a parameter budget,
checked from the config alone, before any weights are fetched).

>>> Limits.from_env({"SPACE_ID": "someone/bertviz-lite"})
Limits(allow_local_dirs=False, max_parameters=400000000)
>>> Limits.from_env({})
Limits(allow_local_dirs=True, max_parameters=None)
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

import torch

from ..errors import LoadError

DEFAULT_MAX_PARAMETERS = 400_000_000  # bert-large (335 M) fits; float32 weights of 400 M take 1.6 GB


def is_hosted(environ: Mapping[str, str] = os.environ) -> bool:
    """Running as a Hugging Face Space (which sets SPACE_ID) or told so with BVL_HOSTED=1."""
    flag = environ.get("BVL_HOSTED", "").strip().lower() in {"1", "true", "yes", "on"}
    return flag or bool(environ.get("SPACE_ID", "").strip())


@dataclass(frozen=True)
class Limits:
    allow_local_dirs: bool = True
    max_parameters: int | None = None  # None: no budget

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Limits:
        """No limits locally; hosted: no directories and BVL_MAX_PARAMETERS (default 400 M) parameters."""
        if not is_hosted(environ):
            return cls()
        budget = environ.get("BVL_MAX_PARAMETERS", "").replace("_", "").strip()
        return cls(allow_local_dirs=False,
                   max_parameters=int(budget) if budget.isdigit() else DEFAULT_MAX_PARAMETERS)

    def check_local(self, source: str) -> None:
        if not self.allow_local_dirs:
            raise LoadError(f"This hosted app does not open directories on its server ('{source}'): give a "
                            f"Hugging Face Hub id such as bert-base-uncased, or run bertviz-lite on your own "
                            f"machine to explore a local model.")

    def check_size(self, source: str, config, task_model) -> None:
        """Refuse a model above the budget; `task_model` is the Auto class whose parameters would load."""
        if self.max_parameters is None:
            return
        parameters = count_parameters(config, task_model)
        if parameters > self.max_parameters:
            raise LoadError(f"'{source}' has {parameters:,} parameters, more than this hosted app's limit of "
                            f"{self.max_parameters:,}: pick a smaller model, or run bertviz-lite on your own "
                            f"machine.")


    def check_pair(self, sources: tuple[str, str], configs: tuple, task_model) -> None:
        """Two models held at once (a comparison) must fit the budget together."""
        if self.max_parameters is None:
            return
        counts = [count_parameters(config, task_model) for config in configs]
        if sum(counts) > self.max_parameters:
            raise LoadError(f"Comparing '{sources[0]}' ({counts[0]:,} parameters) with '{sources[1]}' "
                            f"({counts[1]:,}) needs {sum(counts):,} parameters at once, more than this hosted app's "
                            f"limit of {self.max_parameters:,}: pick a smaller model for one side, or run "
                            f"bertviz-lite on your own machine.")


def count_parameters(config, task_model) -> int:
    """Unique parameters of `task_model.from_config(config)`, built on the meta device: no memory, no download."""
    with torch.device("meta"):
        model = task_model.from_config(config)
    return sum(p.numel() for p in model.parameters())  # parameters() yields a tied tensor once
