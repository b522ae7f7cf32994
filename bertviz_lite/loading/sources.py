"""Where a model is read from, decided in one place: a local directory; else the Hub (or, offline, its local
cache); else the copy a package bundles; else a built-in preset's exact architecture with random
weights. `first_that_reads` tries each in that order and goes on to the next only where the files are not there
(offline, or the network dropped after the Hub answered its probe).

>>> [where.kind for where in places("bert-base-uncased", online=False)]
['cache', 'preset']
>>> [where.kind for where in places("sentence-transformers/all-MiniLM-L6-v2", online=True)]
['hub', 'bundled', 'preset']
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from . import hub
from ..errors import LoadError
from .bundled import PACKAGE_NAMES, bundled_directory
from .failures import NotCached, not_available
from .limits import Limits
from .presets import PRESETS

WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin",
                "pytorch_model.bin.index.json")
BUNDLED_ORIGIN = "copy bundled with the {package} package"
T = TypeVar("T")


@dataclass(frozen=True)
class Where:
    """One place to read `source` from: its kind ("local", "hub", "cache", "bundled", "preset"), the path or Hub id
    the files are read at ("" for a preset), whether only local files may be read, and the origin in words."""
    kind: str
    path: str
    local_only: bool
    origin: str


def places(source: str, online: bool) -> list[Where]:
    """Where `source` (a Hub id or a path, stripped) may be read from, in the order to try."""
    if looks_local(source):
        return [Where("local", str(Path(source).expanduser()), True, "local directory")]
    found = [Where("hub", source, False, "Hugging Face Hub (or its cache)") if online
             else Where("cache", source, True, "Hugging Face cache")]
    if (directory := bundled_directory(source)) is not None:  # online too: the network can drop after the probe
        found.append(Where("bundled", str(directory), True, BUNDLED_ORIGIN.format(package=PACKAGE_NAMES[source])))
    if source in PRESETS:
        found.append(Where("preset", "", True, "built-in preset config"))
    return found


def first_that_reads(source: str, limits: Limits, read: Callable[[Where], T]) -> T:
    """`read(where)` of the first place that holds `source` (a place raises NotCached where the files are not
    there); local paths are checked against the hosting rules first. A LoadError says what to do if none does."""
    source = (source or "").strip()
    if not source:
        raise LoadError("Enter a model: a Hub id such as bert-base-uncased, or a local directory.")
    if looks_local(source):
        limits.check_local(source)
    for where in places(source, online=not looks_local(source) and hub.hub_reachable()):
        try:
            return read(where)
        except NotCached:
            if where.kind == "local":
                raise LoadError(f"'{where.path}' is missing files that its config refers to.") from None
    raise not_available(source, limits)


def looks_local(source: str) -> bool:
    return (os.path.exists(os.path.expanduser(source)) or os.path.isabs(source)
            or source.startswith((".", "~")) or "\\" in source)


def check_local_directory(path: Path) -> None:
    """A LoadError unless `path` is a readable directory with a config and weights (what save_pretrained writes)."""
    if not path.exists():
        raise LoadError(f"There is no directory '{path}': check the path, or give a Hub id.")
    if not path.is_dir():
        raise LoadError(f"'{path}' is a file: give the directory that holds config.json, the weights and the "
                        f"tokenizer (what save_pretrained writes).")
    if not os.access(path, os.R_OK | os.X_OK):
        raise LoadError(f"Cannot read the directory '{path}': permission denied.")
    if not (path / "config.json").is_file():
        raise LoadError(f"'{path}' has no config.json: give a directory written by save_pretrained.")
    if not any((path / name).is_file() for name in WEIGHT_FILES):
        raise LoadError(f"'{path}' holds no weights (model.safetensors or pytorch_model.bin).")
