"""Old spellings a user may hold (a notebook's `loaded.weights`, a saved link's `encoder.rel_norm`): each still
works, and says with a DeprecationWarning what to write instead, pointed at the user's own line (Python shows a
DeprecationWarning only where it is attributed to code outside the library). docs/api.md lists them."""
from __future__ import annotations

import sys
import warnings


def renamed(old: str, new: str) -> None:
    """Warn that `old` is an old spelling of `new`, attributed to the first caller outside bertviz_lite."""
    warnings.warn(f"{old} is an old spelling of {new}; write {new}", DeprecationWarning, stacklevel=_callers_level())


def _callers_level() -> int:
    """warnings.warn's stacklevel for the first frame outside this package, as counted from renamed()."""
    frame, level = sys._getframe(2), 2  # renamed()'s caller, at stacklevel 2
    while frame is not None and frame.f_globals.get("__name__", "").startswith("bertviz_lite."):
        frame, level = frame.f_back, level + 1
    return level
