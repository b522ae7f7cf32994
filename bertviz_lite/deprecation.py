"""Old spellings a user may hold (a notebook's `loaded.weights`, a saved link's `encoder.rel_norm`): each still
works, and says with a DeprecationWarning what to write instead. docs/api.md lists them."""
from __future__ import annotations

import warnings


def renamed(old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that `old` is an old spelling of `new`, pointing at the caller's caller (the line that wrote it)."""
    warnings.warn(f"{old} is an old spelling of {new}; write {new}", DeprecationWarning, stacklevel=stacklevel)
