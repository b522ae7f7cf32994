"""Talking to the Hugging Face Hub: is it reachable, and what a failed download means in one sentence.

transformers retries an unreachable Hub for about 25 s before it gives up. A lecture hall with bad Wi-Fi cannot
wait that long, so `hub_reachable()` asks once with a short timeout and remembers the answer for a minute;
when the Hub is not reachable, models load with `local_files_only=True`, which answers at once from the cache.
"""
from __future__ import annotations

import os
import threading
import time

import huggingface_hub
from huggingface_hub import errors as hub_errors

PROBE_TIMEOUT_S = 4.0  # the issue allows 5 s to decide the Hub is unreachable
PROBE_MEMORY_S = 60.0  # how long an answer is trusted before asking again

_probe_lock = threading.Lock()
_last_probe: tuple[float, bool] | None = None  # (monotonic time, reachable)


def offline_by_choice() -> bool:
    """The user asked for offline mode (HF_HUB_OFFLINE=1 or TRANSFORMERS_OFFLINE=1)."""
    flags = (os.environ.get("HF_HUB_OFFLINE", ""), os.environ.get("TRANSFORMERS_OFFLINE", ""))
    asked = any(flag.strip().lower() in {"1", "true", "yes", "on"} for flag in flags)
    return asked or huggingface_hub.constants.HF_HUB_OFFLINE  # the latter is read once, when the hub imports


def _probe() -> bool:
    try:
        response = huggingface_hub.get_session().head(huggingface_hub.constants.ENDPOINT, timeout=PROBE_TIMEOUT_S)
        return response.status_code < 500
    except Exception:  # any transport failure means "not reachable"; the reason does not change what we do
        return False


def hub_reachable() -> bool:
    """True when the Hub answers within PROBE_TIMEOUT_S; remembered for PROBE_MEMORY_S, asked once at a time."""
    global _last_probe
    if offline_by_choice():
        return False
    with _probe_lock:
        now = time.monotonic()
        if _last_probe is None or now - _last_probe[0] > PROBE_MEMORY_S:
            _last_probe = (now, _probe())
        return _last_probe[1]


def forget_probe() -> None:
    """Ask the Hub again next time (after the network came back, or in tests)."""
    global _last_probe
    with _probe_lock:
        _last_probe = None


def _chain(error: BaseException):
    """The error and everything it was raised from, outermost first."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        yield error
        error = error.__cause__ or error.__context__


def is_not_cached(error: BaseException) -> bool:
    """The download failed only because we are offline and the files are not in the local cache."""
    return any(isinstance(e, (hub_errors.LocalEntryNotFoundError, hub_errors.OfflineModeIsEnabled))
               for e in _chain(error))


def explain(error: BaseException, source: str) -> str | None:
    """One sentence for a Hub failure that the user can act on, or None when the error is not a Hub one."""
    for e in _chain(error):
        if isinstance(e, hub_errors.GatedRepoError):
            return (f"'{source}' is a gated model: accept its terms on its Hub page, then log in "
                    f"(`hf auth login` or HF_TOKEN) and try again.")
        if isinstance(e, hub_errors.RepositoryNotFoundError):
            return (f"There is no model '{source}' on the Hugging Face Hub, or it is private: check the "
                    f"spelling (for example bert-base-uncased) or log in with a token that can read it.")
        if isinstance(e, hub_errors.RevisionNotFoundError):
            return f"'{source}' has no such revision on the Hugging Face Hub."
        if isinstance(e, hub_errors.HFValidationError):
            return (f"'{source}' is neither an existing local directory nor a valid Hub id "
                    f"(a Hub id looks like bert-base-uncased or google/electra-small-discriminator).")
        if isinstance(e, hub_errors.EntryNotFoundError):
            return f"'{source}' has no config.json on the Hub, so it is not a transformers model."
    return None
