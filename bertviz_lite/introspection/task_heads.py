"""What each task head adds on top of the base encoder, from the config alone.

The task models are built on the "meta" device: shapes and counts without allocating a single weight, so the
comparison costs nothing even for bert-large.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from ..deprecation import renamed
from ..tasks import task_classes


@dataclass(frozen=True)
class TaskHeadModule:
    name: str  # top-level attribute of the task model, e.g. "classifier"
    description: str  # the module as PyTorch prints it, e.g. "Linear(in_features=768, out_features=2, bias=True)"
    parameters: int


@dataclass(frozen=True)
class TaskHead:
    task: str
    architecture: str  # class name, e.g. BertForSequenceClassification
    total: int  # unique parameters of the whole task model
    modules: tuple[TaskHeadModule, ...]  # the modules outside the base model
    tied: tuple[str, ...]  # the task head's parameters that share the embedding tensor instead of adding their own

    @property
    def head(self) -> tuple[TaskHeadModule, ...]:
        """The old spelling of `modules` ("head" now means an attention head only), kept for scripts (with a
        warning)."""
        renamed("TaskHead.head", "TaskHead.modules")
        return self.modules


def task_heads(config) -> list[TaskHead]:
    """base vs sequence classification vs masked LM, for `config`'s architecture."""
    result = []
    for task, auto in task_classes().items():
        with torch.device("meta"):
            model = auto.from_config(config)
        canonical = {id(p): n for n, p in model.named_parameters()}
        modules, tied = [], []
        children = [] if task == "base" else model.named_children()
        for name, module in children:
            if name == model.base_model_prefix:
                continue
            own = [(f"{name}.{n}", p) for n, p in module.named_parameters(remove_duplicate=False)]
            count = sum(p.numel() for full, p in own if canonical[id(p)] == full)
            tied += [f"{full} = {canonical[id(p)]}" for full, p in own if canonical[id(p)] != full]
            if own:
                modules.append(TaskHeadModule(name, _describe(module), count))
        total = sum(p.numel() for p in model.parameters())
        result.append(TaskHead(task, type(model).__name__, total, tuple(modules), tuple(tied)))
    return result


def _describe(module) -> str:
    text = repr(module)
    return text if len(text) <= 400 else text[:400] + " ..."
