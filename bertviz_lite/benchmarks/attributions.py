"""`bench`'s figures for the attributions, each a ratio to a raw eager forward of the same model and sentence timed
in the same loop, interleaved, median of N: integrated gradients (its interpolations batched), gradient × input,
every method's ranking and the deletion curves of all of them (each curve's variants batched).

Integrated gradients and the deletion curves need many forward passes of the whole sentence by definition (32
interpolations forward and backward; K + 1 variants per method), so a multiple of one forward says more of the
method than of the code. Each is also timed against its floor in the same loop: one batched forward and backward of
its interpolations (IG), the batched forwards of the curves' inputs alone (the deletion curves); the targets are
on that ratio, what the code adds to the arithmetic it cannot avoid."""
from __future__ import annotations

import statistics
import time

import torch

from ..attributing.deletion import BATCH, faithfulness, method_scores, replaced_counts
from ..attributing.gradients import attribute, baseline_ids
from ..attributing.targets import Target, similarity_target

TARGETS = {"ig_floor_ratio": 1.2, "deletion_floor_ratio": 1.2}


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
    timers = {"raw": raw, "ig": lambda: attribute(target, "ig", steps), "ig_floor": ig_floor(target, steps),
              "grad_input": lambda: attribute(target, "grad-input"),
              "scores": lambda: method_scores(target, steps, with_value_zeroing=False),
              "deletion": lambda: faithfulness(target, scores), "deletion_floor": deletion_floor(target, len(scores))}
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
            "deletion_ratio": med["deletion"] / med["raw"], "ig_floor_ms": med["ig_floor"],
            "ig_floor_ratio": med["ig"] / med["ig_floor"], "deletion_floor_ms": med["deletion_floor"],
            "deletion_floor_ratio": med["deletion"] / med["deletion_floor"]}


def ig_floor(target: Target, steps: int):
    """What integrated gradients cannot do without: one forward and backward of its `steps` interpolations as one
    batch (what Captum's `internal_batch_size=steps` runs)."""
    ids = torch.from_numpy(target.trace.input_ids)[None]  # (1, T)
    with torch.no_grad():
        x, x0 = target.embed(ids), target.embed(baseline_ids(target)[None])  # (1, T, d) each
    alphas = torch.linspace(0, 1, steps)[:, None, None]  # (steps, 1, 1)

    def run():
        path = (x0 + alphas * (x - x0)).requires_grad_(True)  # (steps, T, d)
        torch.autograd.grad(target.forward(path).sum(), path)  # the inputs' gradient only, as Captum takes it

    return run


def deletion_floor(target: Target, methods: int):
    """What the deletion curves cannot do without: each method's K + 1 variants of the sentence through the target,
    in the curves' own batches, with nothing else (no ranking, no ids built)."""
    words = int((~target.special).sum())
    variants = torch.from_numpy(target.trace.input_ids)[None].repeat(len(replaced_counts(words)), 1)  # (K + 1, T)

    def run():
        for _ in range(methods):
            for start in range(0, len(variants), BATCH):
                target.of_ids(variants[start:start + BATCH])

    return run


def report_rows(r: dict) -> list[tuple[str, str, str]]:
    def verdict(key: str) -> str:
        return f"{r[key]:.2f} × its floor, target ≤ {TARGETS[key]:g}: {'met' if r[key] <= TARGETS[key] else 'NOT MET'}"

    raw, n = r["attribution_raw_ms"], r["attribution_tokens"]
    return [(f"raw eager forward (this loop), {n} tokens", f"{raw:.1f} ms", ""),
            (f"integrated gradients, {r['attribution_steps']} steps (batched), cosine with another sentence",
             f"{r['ig_ms']:.0f} ms = {r['ig_ratio']:.2f} × raw", verdict("ig_floor_ratio")),
            ("  its floor: one forward and backward of the interpolations, batched",
             f"{r['ig_floor_ms']:.0f} ms = {r['ig_floor_ms'] / raw:.2f} × raw", ""),
            ("gradient × input", f"{r['grad_input_ms']:.0f} ms = {r['grad_input_ms'] / raw:.2f} × raw", ""),
            ("every method's ranking but value zeroing (IG and gradient × input included)",
             f"{r['scores_ms']:.0f} ms = {r['scores_ms'] / raw:.2f} × raw", ""),
            (f"the deletion curves of all {r['attribution_methods']} methods (each batched)",
             f"{r['deletion_ms']:.0f} ms = {r['deletion_ratio']:.2f} × raw", verdict("deletion_floor_ratio")),
            ("  its floor: the curves' variants through the target, in their batches",
             f"{r['deletion_floor_ms']:.0f} ms = {r['deletion_floor_ms'] / raw:.2f} × raw", "")]
