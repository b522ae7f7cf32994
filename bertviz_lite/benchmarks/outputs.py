"""`bench`'s figures for the views that say why the model gives its output, each a ratio to a raw eager forward of
the same model and sentence timed in the same loop, interleaved, median of N: the similarity split of two traced
sentences, an intervention at a layer (and its views), value zeroing of one layer at 64 tokens."""
from __future__ import annotations

import statistics
import time

import torch

from ..analyses.similarity_split import split_traces
from ..figures import matrices_side_by_side
from ..figures.outputs import pair_split_heatmap, shift_heatmap
from ..intervening.edits import Edits
from ..intervening.run import intervene
from ..intervening.value_zeroing import value_zeroing
from ..stepthrough.trace import trace

TARGETS = {"split_ratio": 0.05, "intervene_views_ratio": 0.05, "value_zeroing_ratio": 2.0}
INTERVENTION_SLACK = 1.2  # an intervention at layer l: ≤ 1.2 × (L − l) / L of a raw forward


def _ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def _raw_forward(loaded, text: str):
    enc = loaded.tokenizer(text, return_tensors="pt")

    def forward():
        with torch.inference_mode():
            loaded.model(**enc, output_attentions=True, output_hidden_states=True)

    return forward


def outputs_against_forward(loaded, text: str, other: str, short: str, repeats: int) -> dict:
    """Median ms of each, with the raw forward it is measured against (at `short`'s length for value zeroing)."""
    a, b = trace(loaded, text), trace(loaded, other)
    L, middle = a.num_layers, a.num_layers // 2
    held_short = trace(loaded, short)
    raw, raw_short = _raw_forward(loaded, text), _raw_forward(loaded, short)
    at = {layer: Edits(heads_off=((layer, 0),)) for layer in (0, middle, L - 1)}

    def split_figure():
        s = split_traces(a, b)
        pair_split_heatmap(s.pairs, s.tokens_a, s.tokens_b, "")

    timers = {"raw": raw, "raw_short": raw_short, "split": lambda: split_traces(a, b), "split_figure": split_figure, "value_zeroing": lambda: value_zeroing(held_short, 1),
              **{f"intervene_{layer}": (lambda e=e: intervene(a, e)) for layer, e in at.items()}}
    for fn in timers.values():  # warm-up
        fn()
    samples = {name: [] for name in [*timers, "views", "run_attention"]}
    for _ in range(repeats):
        for name, fn in timers.items():
            samples[name].append(_ms(fn))
        run = intervene(a, at[middle])  # a fresh run, as /intervene draws it: its views alone are timed
        samples["run_attention"].append(_ms(lambda: run.trace.attention(middle)))  # computed for the view
        samples["views"].append(_ms(lambda: views(a, run, middle)))
    med = {name: statistics.median(v) for name, v in samples.items()}
    return {"outputs_layers": L, "outputs_tokens": len(a.tokens), "outputs_short_tokens": len(held_short.tokens),
            "outputs_raw_ms": med["raw"], "split_ms": med["split"], "split_ratio": med["split"] / med["raw"],
            "split_figure_ms": med["split_figure"],
            "intervene": {layer: {"ms": med[f"intervene_{layer}"], "ratio": med[f"intervene_{layer}"] / med["raw"],
                                  "target": INTERVENTION_SLACK * (L - layer) / L} for layer in at},
            "run_attention_ms": med["run_attention"], "intervene_views_ms": med["views"], "intervene_views_ratio": med["views"] / med["raw"],
            "raw_short_ms": med["raw_short"], "value_zeroing_ms": med["value_zeroing"],
            "value_zeroing_ratio": med["value_zeroing"] / med["raw_short"]}


def views(t, run, layer: int) -> None:
    """The figures /intervene draws from a run at hand: the shift, and a head's attention before and after."""
    shift_heatmap(run.shift, run.trace.tokens, "", run.edits.unchanged_states)
    matrices_side_by_side({"before": t.attention(layer)[0], "after": run.trace.attention(layer)[0]}, t.tokens)


def report_rows(r: dict) -> list[tuple[str, str, str]]:
    """The rows `speed.report` prints for these figures."""
    def verdict(ok: bool, target: float) -> str:
        return f"target ≤ {target:.2g}: {'met' if ok else 'NOT MET'}"

    rows = [(f"raw eager forward (this loop), {r['outputs_tokens']} tokens", f"{r['outputs_raw_ms']:.1f} ms", ""),
            ("similarity split of two traced sentences",
             f"{r['split_ms']:.2f} ms = {r['split_ratio']:.3f} × raw",
             verdict(r["split_ratio"] <= TARGETS["split_ratio"], TARGETS["split_ratio"])),
            ("  with its figure", f"{r['split_figure_ms']:.1f} ms = {r['split_figure_ms'] / r['outputs_raw_ms']:.3f} × raw",
             "")]
    for layer, m in r["intervene"].items():
        rows.append((f"a head off in layer {layer} of {r['outputs_layers']}: rerun from there",
                     f"{m['ms']:.1f} ms = {m['ratio']:.2f} × raw", verdict(m["ratio"] <= m["target"], m["target"])))
    rows += [("  the intervened run's attention in that layer, for the view",
              f"{r['run_attention_ms']:.1f} ms = {r['run_attention_ms'] / r['outputs_raw_ms']:.3f} × raw", ""),
             ("  its figures: the shift, a head's attention before and after",
              f"{r['intervene_views_ms']:.1f} ms = {r['intervene_views_ratio']:.3f} × raw",
              verdict(r["intervene_views_ratio"] <= TARGETS["intervene_views_ratio"], TARGETS["intervene_views_ratio"])),
             (f"raw eager forward, {r['outputs_short_tokens']} tokens", f"{r['raw_short_ms']:.1f} ms", ""),
             (f"value zeroing of one layer, {r['outputs_short_tokens']} tokens (T runs, batched)",
              f"{r['value_zeroing_ms']:.1f} ms = {r['value_zeroing_ratio']:.2f} × raw",
              verdict(r["value_zeroing_ratio"] <= TARGETS["value_zeroing_ratio"], TARGETS["value_zeroing_ratio"]))]
    return rows
