"""Download a checkpoint's weights with a progress report, so that a page can show a real progress bar (bytes
of weights downloaded) instead of a spinner while a large model comes over a lecture hall's Wi-Fi.

`download_weights` fetches the weight file into the Hugging Face cache through huggingface_hub, with a tqdm class
that reports every chunk; transformers then finds the file in the cache and reads it at once. Only a single-file
checkpoint (model.safetensors, else pytorch_model.bin) is fetched this way; a sharded one loads as before.
"""
from __future__ import annotations

from collections.abc import Callable

from huggingface_hub import constants, hf_hub_download, try_to_load_from_cache
from huggingface_hub import errors as hub_errors

WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")  # transformers' order of preference
STEP_BYTES = 1024 * 1024  # huggingface_hub reports every 10 MB; a 91 MB model would move the bar 9 times

Report = Callable[[int, int | None], None]  # (bytes so far, bytes in all or None)


def weights_cached(source: str) -> bool:
    """Whether a weight file of Hub id `source` is already in the local cache."""
    return any(isinstance(try_to_load_from_cache(source, name), str) for name in WEIGHT_FILES)


def download_weights(source: str, report: Report) -> str | None:
    """Fetch the first weight file the repository has, calling report(done, total) as bytes arrive; the
    file's name, or None when it has neither (a sharded checkpoint: transformers fetches it itself)."""
    constants.DOWNLOAD_CHUNK_SIZE = min(constants.DOWNLOAD_CHUNK_SIZE, STEP_BYTES)  # read at each download
    for name in WEIGHT_FILES:
        try:
            hf_hub_download(source, name, tqdm_class=_reporting(report))
            return name
        except hub_errors.EntryNotFoundError:
            continue
    return None


def _reporting(report: Report):
    from tqdm.auto import tqdm

    class Reporting(tqdm):
        """Counts bytes even when huggingface_hub's progress bars are disabled (then tqdm itself does not)."""

        def __init__(self, *args, **kwargs):
            self.bytes_done = kwargs.get("initial", 0) or 0
            super().__init__(*args, **kwargs)

        def update(self, n=1):
            self.bytes_done += n or 0
            try:
                report(self.bytes_done, self.total)
            except Exception:  # a page that went away must not break the download
                pass
            return super().update(n)

    return Reporting
