"""What a failure to load says: every step of a load runs guarded, and whatever transformers or the Hub raises
becomes NotCached (offline, and the files are not in the cache: the next place may still have the model) or a
LoadError of one sentence that says what to do."""
from __future__ import annotations

from transformers import PretrainedConfig

from . import hub
from ..errors import LoadError
from ..families import REMOTE_ONLY
from .limits import Limits


class NotCached(Exception):
    """Offline, and the files are not in the cache (a bundled copy or a preset may still load)."""


def guarded(source: str, what: str, load):
    """Run one loading step; turn whatever it raises into NotCached or a one-sentence LoadError."""
    try:
        return load()
    except LoadError:
        raise
    except Exception as error:  # transformers raises OSError, ValueError, KeyError...: all mean "cannot load"
        if hub.is_not_cached(error):
            raise NotCached() from error
        message = hub.explain(error, source) or explain_other(error, source, what)
        raise LoadError(message) from error


def declared_model_type(source: str) -> str | None:
    """The model_type a config.json declares, read as data (no class built, no code run); None if unreadable."""
    try:
        return PretrainedConfig.get_config_dict(source)[0].get("model_type")
    except Exception:  # noqa: BLE001 (any failure: the general message stands)
        return None


def explain_other(error: Exception, source: str, what: str) -> str:
    text = str(error)
    if "trust_remote_code" in text:
        declared = declared_model_type(source)
        if declared in REMOTE_ONLY:
            return f"'{source}': {REMOTE_ONLY[declared]}"
        return (f"'{source}' needs custom code from its repository, which bertviz-lite never runs; "
                f"pick a standard BERT-family model.")
    if "Unrecognized model" in text or "model_type" in text:
        return f"'{source}' is not a model transformers knows (its config.json has no known model_type)."
    if what == "tokenizer":
        return (f"'{source}' has no usable tokenizer (tokenizer.json or vocab files): save the tokenizer "
                f"next to the model with save_pretrained.")
    first_line = text.strip().splitlines()[0] if text.strip() else type(error).__name__
    return f"Could not load the {what} of '{source}': {first_line}"


def not_available(source: str, limits: Limits) -> LoadError:
    advice = (f"connect once and run `python -m bertviz_lite prefetch {source}`, or pick a built-in preset"
              if limits.allow_local_dirs else "this hosted app offers the built-in presets and the models "
              "baked into it; run bertviz-lite on your own machine for others")
    return LoadError(f"'{source}' is not in the local cache and the Hugging Face Hub cannot be reached: {advice}.")
