"""The server's warm-up, in one place: views named by links (`BVL_WARM`, links separated by spaces, such as
`layers?model=bert-base-uncased&text=the+cat+sat&layer=3`) are loaded and traced in a background thread as the
server starts (`bertviz-lite serve`), into the same caches the pages read, so that the first visitors of the day
find their models loaded. A link without a text loads its model only. A failure is logged, never raised: the page
that needs the view meets it again and says what went wrong.

>>> views("layers?model=bert-base-uncased&text=the+cat+sat&layer=3 similarity?model=x%2Fy")
[View(source='bert-base-uncased', task='base', text='the cat sat', pair=None, layer=3), View(source='x/y', task='base', text=None, pair=None, layer=None)]
"""
from __future__ import annotations

import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass

from ..loading.presets import DEFAULT_MODEL
from .run_key import RunKey


@dataclass(frozen=True)
class View:
    source: str
    task: str
    text: str | None
    pair: str | None
    layer: int | None


def views(links: str) -> list[View]:
    """The views that space-separated links name (the app's own URL keys: model, task, text, pair, layer)."""
    found = []
    for link in links.split():
        query = urllib.parse.parse_qs(link.partition("?")[2])
        first = {key: values[0] for key, values in query.items()}
        layer = first.get("layer", "")
        found.append(View(first.get("model", DEFAULT_MODEL), first.get("task", "base"), first.get("text"),
                          first.get("pair") or None, int(layer) if layer.isdigit() else None))
    return found


def warm(view: View) -> None:
    from .cache import cached_layer, cached_model, cached_trace  # here, in the warm-up's thread: `bertviz-lite
    # serve` starts listening before streamlit, torch and transformers are imported

    if view.text is None:
        cached_model(view.source, view.task)
        return
    key = RunKey(view.source, view.task, view.text, view.pair)  # the key the page of the link builds
    if view.layer is None:
        cached_trace(key)
    else:
        cached_layer(key, view.layer)


def warm_in_background(wanted: list[View]) -> threading.Thread:
    """Warm every view, one after another, in a daemon thread; each logged on stderr."""
    def run() -> None:
        for view in wanted:
            started = time.perf_counter()
            try:
                warm(view)
                print(f"bertviz-lite: warmed {view.source} ({view.task}) in {time.perf_counter() - started:.1f} s",
                      file=sys.stderr, flush=True)
            except Exception as error:  # noqa: BLE001 (any failure: the page will explain it)
                print(f"bertviz-lite: warming {view.source} failed: {error}", file=sys.stderr, flush=True)

    thread = threading.Thread(target=run, name="bertviz-lite warm-up", daemon=True)
    thread.start()
    return thread
