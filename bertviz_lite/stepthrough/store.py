"""Where a trace keeps the sub-steps it has computed: by global name, the least recently used dropped once they
pass a memory budget, safe to share between the threads of the app's sessions."""
from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np


class StepStore:
    def __init__(self, budget: int):
        self.budget = budget  # bytes
        self._arrays: OrderedDict[str, np.ndarray] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, name: str) -> np.ndarray | None:
        with self._lock:
            array = self._arrays.get(name)
            if array is not None:
                self._arrays.move_to_end(name)
            return array

    def put(self, name: str, array: np.ndarray) -> None:
        """Keep `array` (an array larger than the whole budget is not kept)."""
        with self._lock:
            if name in self._arrays:
                self._bytes -= self._arrays.pop(name).nbytes
            if array.nbytes > self.budget:
                return
            self._arrays[name] = array
            self._bytes += array.nbytes
            while self._bytes > self.budget:
                self._bytes -= self._arrays.popitem(last=False)[1].nbytes

    def clear(self) -> None:
        with self._lock:
            self._arrays.clear()
            self._bytes = 0

    def __contains__(self, name: str) -> bool:
        return name in self._arrays

    def __len__(self) -> int:
        return len(self._arrays)

    @property
    def nbytes(self) -> int:
        return self._bytes
