"""`bench`'s figures for the attributions, each a ratio to a raw eager forward of the same model and sentence timed
in the same loop, interleaved, median of N: integrated gradients (its interpolations batched), gradient × input,
every method's ranking and the deletion curves of all of them (each curve's variants batched)."""
from __future__ import annotations

import statistics
import time

import torch

from ..attributing.deletion import faithfulness, method_scores
from ..attributing.gradients import attribute
from ..attributing.targets import similarity_target

TARGETS = {"ig_ratio": 6.0, "deletion_ratio": 4.0}


def _ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def attributions_against_forward(loaded, text: str, other: str, steps: int, repeats: int) -> dict:
    """Median ms of each against a raw forward of `text`."""
    target = similarity_target(loaded, text, other)
    enc = loaded.tokenizer(text, return_tensors="pt")

    def raw():
        with torch.inference_mode():
            loaded.model(**enc, output_attentions=True, output_hidden_states=True)

    scores = method_scores(target, steps)  # every method, the exact split included
    timers = {"raw": raw, "ig": lambda: attribute(target, "ig", steps), "grad_input": lambda: attribute(
        target, "grad-input"), "scores": lambda: method_scores(target, steps, with_value_zeroing=False),
              "deletion": lambda: faithfulness(target, scores)}
    for fn in timers.values():  # warm-up
        fn()
    samples = {name: [] for name in timers}
    for _ in range(repeats):
        for name, fn in timers.items():
            samples[name].append(_ms(fn))
    med = {name: statistics.median(v) for name, v in samples.items()}
    return {"attribution_tokens": len(target.tokens), "attribution_steps": steps, "attribution_methods": len(scores),
            "attribution_raw_ms": med["raw"], "ig_ms": med["ig"], "ig_ratio": med["ig"] / med["raw"],
            "grad_input_ms": med["grad_input"], "scores_ms": med["scores"], "deletion_ms": med["deletion"],
            "deletion_ratio": med["deletion"] / med["raw"]}


def report_rows(r: dict) -> list[tuple[str, str, str]]:
    def verdict(key: str) -> str:
        return f"target ≤ {TARGETS[key]:g}: {'met' if r[key] <= TARGETS[key] else 'NOT MET'}"

    raw, n = r["attribution_raw_ms"], r["attribution_tokens"]
    return [(f"raw eager forward (this loop), {n} tokens", f"{raw:.1f} ms", ""),
            (f"integrated gradients, {r['attribution_steps']} steps (batched), cosine with another sentence",
             f"{r['ig_ms']:.0f} ms = {r['ig_ratio']:.2f} × raw", verdict("ig_ratio")),
            ("gradient × input", f"{r['grad_input_ms']:.0f} ms = {r['grad_input_ms'] / raw:.2f} × raw", ""),
            ("every method's ranking but value zeroing (IG and gradient × input included)",
             f"{r['scores_ms']:.0f} ms = {r['scores_ms'] / raw:.2f} × raw", ""),
            (f"the deletion curves of all {r['attribution_methods']} methods (each batched)",
             f"{r['deletion_ms']:.0f} ms = {r['deletion_ratio']:.2f} × raw", verdict("deletion_ratio"))]
