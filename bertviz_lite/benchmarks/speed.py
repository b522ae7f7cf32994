"""`python -m bertviz_lite bench`: the speed and memory targets, measured side by side in one run.

The machines this runs on are shared and noisy, so every speed figure is a ratio to a raw eager forward pass
(with `output_attentions` and `output_hidden_states`) timed in the same loop, interleaved, median of N.
The model is bert-base-uncased's exact architecture with random weights (no network needed). The bundled
real model's first view is timed too: cold (its first load in this process, then trace + one layer) and warm.
"""
from __future__ import annotations

import statistics
import time

import torch
from transformers import AutoConfig

from ..loading.bundled import BUNDLED_MODEL, bundled_directory
from ..loading.loader import load_architecture, load_bundled, load_preset
from ..loading.offline_tokenizer import corpus_lines
from ..analyses.all_layers import all_layers
from .attributions import attributions_against_forward
from .attributions import report_rows as attribution_rows
from .outputs import outputs_against_forward, report_rows
from ..ops import MASK, NORMS, SOFTMAX
from ..stepthrough.trace import trace

TARGETS = {"first_view_ratio": 1.2, "switch_layer_ratio": 0.25, "explain_ratio": 0.05, "tour_ratio": 0.25,
           "trace_mb": 64.0,
           "analyses_ratio": 2.0,
           "family_first_view_ratio": 1.3, "compare_ratio": 1.1, "contexts_ratio": 0.1}
COMPARED = "distilbert-base-uncased"  # compared with the main model: what did distillation remove?
# today's layers, each against its own forward: presets by Hub id; a family with no preset (its published configs
# do not load natively) by model_type, with transformers' default config of the family
FAMILY_MODELS = ("answerdotai/ModernBERT-base", "microsoft/deberta-v3-base", "EuroBERT/EuroBERT-210m",
                 "nomic-ai/nomic-embed-text-v1.5", "gte", "jina_embeddings_v3")
MB = 1024 * 1024


def text_of_length(tokenizer, n_tokens: int) -> str:
    """A text of corpus words that tokenizes to exactly n_tokens (special tokens included)."""
    words = " ".join(corpus_lines()).split()
    chosen: list[str] = []

    def length() -> int:
        return len(tokenizer(" ".join(chosen))["input_ids"])

    while length() < n_tokens:
        chosen.append(words[len(chosen) % len(words)])
    while length() > n_tokens:
        chosen.pop()
    while length() < n_tokens:
        chosen.append("a")  # one token in every stand-in vocabulary
    return " ".join(chosen)


def _time_ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def run(threads: int = 2, tokens: int = 128, long_tokens: int = 512, repeats: int = 9,
        model: str = "bert-base-uncased", families: tuple[str, ...] = FAMILY_MODELS,
        progress=lambda message: None) -> dict:
    """Measure and return every figure; nothing is asserted here. `progress(message)` hears of each step."""
    torch.set_num_threads(threads)
    progress(f"building {model}'s architecture")
    loaded = load_preset(model)
    text = text_of_length(loaded.tokenizer, tokens)
    progress(f"timing raw forward, first view and layer switch, {tokens} tokens, {repeats} interleaved runs")
    med = first_view_against_forward(loaded, text, repeats)

    progress(f"timing every chapter of the tour on a traced sentence, {tokens} tokens")
    tour = tour_chapters(loaded, text, repeats)

    progress(f"measuring what a {long_tokens}-token trace keeps")
    long_text = text_of_length(loaded.tokenizer, long_tokens)
    long = trace(loaded, long_text)
    layer_bytes = long.layer(0).nbytes
    long.layer(1)  # a second layer: what the trace keeps is its budget's worth, not more
    progress(f"timing head fingerprints + rollout + mixing ratios of all layers against a raw forward pass, "
             f"{long_tokens} tokens")
    analyses = analyses_against_forward(loaded, long_text, long, max(3, repeats // 3))
    progress(f"timing a comparison with {COMPARED} against both first views, and a word in two contexts")
    comparison = comparison_against_first_views(loaded, load_preset(COMPARED), text, repeats)
    progress(f"timing the similarity split, interventions at three layers and their views ({tokens} tokens), value "
             f"zeroing of one layer (64 tokens)")
    outputs = outputs_against_forward(loaded, text, text_of_length(loaded.tokenizer, tokens - 8),
                                      text_of_length(loaded.tokenizer, 64), repeats)
    progress("timing integrated gradients, gradient × input and every method's deletion curve (32 tokens)")
    attributions = attributions_against_forward(loaded, text_of_length(loaded.tokenizer, 32),
                                                text_of_length(loaded.tokenizer, 24), 32, repeats)
    progress("timing the bundled model's first view")
    bundled = bundled_first_view(tokens, repeats)
    today = [family_first_view(source, tokens, repeats, progress) for source in families]
    return {**bundled, **comparison, **outputs, **attributions, "families": today, **{
        "model": f"{model} architecture, random weights",
        "threads": threads, "tokens": tokens, "repeats": repeats,
        "raw_forward_ms": med["raw"], "first_view_ms": med["first"], "switch_layer_ms": med["switch"],
        "first_view_ratio": med["first"] / med["raw"], "switch_layer_ratio": med["switch"] / med["raw"],
        "explain_ms": med["explain"], "explain_ratio": med["explain"] / med["raw"],
        "explain_worst_ms": med["explain_worst"], "explain_worst_step": med["explain_worst_step"],
        **tour, "tour_ratio": tour["tour_worst_ms"] / med["raw"],
        "long_tokens": long_tokens,
        "trace_mb": long.nbytes / MB,
        "layer_steps_mb": layer_bytes / MB,
        "all_steps_up_front_mb": (long.nbytes + long.num_layers * layer_bytes) / MB,
        **analyses,
        "targets": TARGETS,
    }}


def first_view_against_forward(loaded, text: str, repeats: int) -> dict[str, float]:
    """Median ms of a raw eager forward (attentions + hidden states), a first view (trace + layer 0), a layer
    switch (another layer's step-through of a held trace, computed anew: nothing of it kept) and the explanation of
    one cell of a traced layer (a score, a softmax, a LayerNorm, the feed-forward's output, in turn),
    interleaved run by run."""
    from ..explaining import explain
    enc = loaded.tokenizer(text, return_tensors="pt")

    def raw_forward():
        with torch.inference_mode():
            out = loaded.model(**enc, output_attentions=True, output_hidden_states=True)
        assert out.attentions[0] is not None, "eager attention must return probabilities"

    def first_view():
        trace(loaded, text).layer(0)

    held = trace(loaded, text)
    layer_cycle = iter(range(1, 10**9))

    def switch_layer():
        held.store.clear()  # the layer is computed, not found
        held.layer(next(layer_cycle) % held.num_layers)

    explained = trace(loaded, text)
    explained.layer(0)  # a traced layer: the cell's step and inputs are at hand
    cells = cells_to_explain(explained)
    by_step = {name: [] for name, _, _ in cells}

    samples = {"raw": [], "first": [], "switch": [], "explain": []}
    for _ in range(2):  # warm-up: allocator, kernels, tokenizer caches
        raw_forward(), first_view(), switch_layer(), [explain(explained, *c) for c in cells]
    for n in range(repeats * len(cells)):
        if n % len(cells) == 0:
            samples["raw"].append(_time_ms(raw_forward))
            samples["first"].append(_time_ms(first_view))
            samples["switch"].append(_time_ms(switch_layer))
        cell = cells[n % len(cells)]
        took = _time_ms(lambda: explain(explained, *cell))
        samples["explain"].append(took)
        by_step[cell[0]].append(took)
    medians = {k: statistics.median(v) for k, v in samples.items()}
    worst = max(by_step, key=lambda name: statistics.median(by_step[name]))
    return {**medians, "explain_worst": statistics.median(by_step[worst]), "explain_worst_step": worst}


def tour_chapters(loaded, text: str, repeats: int) -> dict:
    """Median ms of a tour chapter on a traced sentence (its narration and its figure, as the page makes them),
    every chapter in turn, and the slowest chapter's median."""
    from ..analyses.similarity import vectors_of_trace
    from ..tour import chapter_figure, chapters, narrate

    t = trace(loaded, text)
    story = chapters(t, 0)
    t.layer(0)  # a traced sentence: the layer the tour walks through is stepped through once

    def chapter(c) -> None:
        vectors = vectors_of_trace(t)[0] if c.kind == "output" else None
        narrate(t, c, head=0, token=1, outputs=[])
        chapter_figure(t, c, 0, vectors)

    by_chapter = {c.title: [] for c in story}
    for c in story:  # warm-up
        chapter(c)
    for _ in range(repeats):
        for c in story:
            by_chapter[c.title].append(_time_ms(lambda: chapter(c)))
    medians = {title: statistics.median(v) for title, v in by_chapter.items()}
    worst = max(medians, key=medians.get)
    return {"tour_ms": statistics.median(medians.values()), "tour_worst_ms": medians[worst],
            "tour_worst_chapter": worst, "tour_chapters": len(story)}


def cells_to_explain(t) -> list[tuple[str, int | None, tuple[int, int]]]:
    """(step, head, cell) of four kinds in layer 0: the scores, the softmax, the first norm (LayerNorm or RMSNorm)
    and the feed-forward's output (a linear map of d_ff terms, the widest), each at the middle token."""
    graph, middle = t.graph("layers", 0), len(t.tokens) // 2
    first = {kind: next(n.key for n in graph if n.op in ops)
             for kind, ops in (("mask", (MASK,)), ("softmax", (SOFTMAX,)), ("norm", NORMS))}
    return [(graph.name(first["mask"]), 1, (middle, 1)), (graph.name(first["softmax"]), 1, (middle, 1)),
            (graph.name(first["norm"]), None, (middle, 17)), (graph.name("ffn.out"), None, (middle, 17))]


def comparison_against_first_views(a, b, text: str, repeats: int) -> dict:
    """The compare page's work (configs, counts and tokenizations of both, a trace of each and one layer's attention
    at the same depth) against both models' own first views (trace + layer 0 step-through), interleaved; and the
    word-in-context view on two held traces against a raw forward of the first model."""
    from ..analyses.compare import compare_models, layer_at_depth
    from ..analyses.contexts import word_in_contexts

    def first_views():
        trace(a, text).layer(0), trace(b, text).layer(0)

    def comparison():
        compare_models(a, b, text)
        for loaded in (a, b):
            t = trace(loaded, text)
            t.attention(layer_at_depth(0.5, t.num_layers) - 1)

    enc = a.tokenizer(text, return_tensors="pt")

    def raw_forward():
        with torch.inference_mode():
            a.model(**enc, output_attentions=True, output_hidden_states=True)

    word = text.split()[0]
    held = (trace(a, text), trace(a, " ".join(text.split()[::-1])))
    samples = {"first": [], "compare": [], "raw": [], "contexts": []}
    first_views(), comparison()  # warm-up
    for _ in range(repeats):
        samples["first"].append(_time_ms(first_views))
        samples["compare"].append(_time_ms(comparison))
        samples["raw"].append(_time_ms(raw_forward))
        samples["contexts"].append(_time_ms(lambda: word_in_contexts(*held, word)))
    med = {k: statistics.median(v) for k, v in samples.items()}
    return {"compared_with": b.source, "both_first_views_ms": med["first"], "compare_ms": med["compare"],
            "compare_ratio": med["compare"] / med["first"], "contexts_ms": med["contexts"],
            "contexts_ratio": med["contexts"] / med["raw"]}


def family_first_view(source: str, tokens: int, repeats: int, progress) -> dict:
    """A family beyond BERT's layer (its preset's exact architecture): first view and layer switch against its
    own raw forward, and what one layer's step-through costs against that layer's share of the forward."""
    progress(f"building {source}'s architecture")
    loaded = load_preset(source) if "/" in source else load_architecture(
        AutoConfig.for_model(source), f"{source} (transformers' default config)",
        origin="transformers' default config of the family")
    text = text_of_length(loaded.tokenizer, tokens)
    progress(f"timing {source}: raw forward, first view and layer switch, {tokens} tokens")
    med = first_view_against_forward(loaded, text, repeats)
    layers = loaded.config.num_hidden_layers
    return {"model": source, "raw_forward_ms": med["raw"], "first_view_ms": med["first"],
            "first_view_ratio": med["first"] / med["raw"], "switch_layer_ms": med["switch"],
            "layer_share_ratio": med["switch"] / (med["raw"] / layers)}


def analyses_against_forward(loaded, text: str, held, repeats: int) -> dict:
    """The three layer-wide analyses in one pass (`all_layers`) vs a raw eager forward, interleaved."""
    enc = loaded.tokenizer(text, return_tensors="pt")

    def raw_forward():
        with torch.inference_mode():
            loaded.model(**enc, output_attentions=True, output_hidden_states=True)

    samples = {"raw": [], "analyses": []}
    raw_forward(), all_layers(held)  # warm-up
    for _ in range(repeats):
        samples["raw"].append(_time_ms(raw_forward))
        samples["analyses"].append(_time_ms(lambda: all_layers(held)))
    raw, analyses = statistics.median(samples["raw"]), statistics.median(samples["analyses"])
    return {"long_raw_forward_ms": raw, "analyses_ms": analyses, "analyses_ratio": analyses / raw,
            "analyses_mb": all_layers(held).nbytes / MB}


def bundled_first_view(tokens: int, repeats: int) -> dict:
    """The bundled model: load + first view, once, cold; then the median first view of a new sentence, warm."""
    if bundled_directory(BUNDLED_MODEL) is None:
        return {}
    start = time.perf_counter()
    loaded = load_bundled(BUNDLED_MODEL)
    load_ms = (time.perf_counter() - start) * 1000
    text = text_of_length(loaded.tokenizer, tokens)
    cold_ms = load_ms + _time_ms(lambda: trace(loaded, text).layer(0))
    warm = [_time_ms(lambda: trace(loaded, text).layer(0)) for _ in range(repeats)]
    return {"bundled_load_ms": load_ms, "bundled_cold_view_ms": cold_ms, "bundled_warm_view_ms": statistics.median(warm)}


def report(r: dict) -> str:
    """The figures as aligned lines, each with its target where it has one."""
    def verdict(key):
        ok = r[key] <= TARGETS[key]
        return f"target ≤ {TARGETS[key]:g}: {'met' if ok else 'NOT MET'}"

    n, n_long = r["tokens"], r["long_tokens"]
    rows = [
        (f"raw eager forward (attentions + hidden states), {n} tokens", f"{r['raw_forward_ms']:.1f} ms", ""),
        ("first view: trace + layer 0 step-through",
         f"{r['first_view_ms']:.1f} ms = {r['first_view_ratio']:.2f} × raw", verdict("first_view_ratio")),
        ("switch layer: another layer's step-through",
         f"{r['switch_layer_ms']:.1f} ms = {r['switch_layer_ratio']:.2f} × raw", verdict("switch_layer_ratio")),
        ("explain one cell of a traced layer (median over four kinds)",
         f"{r['explain_ms']:.2f} ms = {r['explain_ratio']:.3f} × raw", verdict("explain_ratio")),
        (f"  the slowest kind: {r['explain_worst_step']}", f"{r['explain_worst_ms']:.2f} ms", ""),
        (f"a tour chapter on a traced sentence, median of {r['tour_chapters']}", f"{r['tour_ms']:.1f} ms", ""),
        (f"  the slowest: {r['tour_worst_chapter']}",
         f"{r['tour_worst_ms']:.1f} ms = {r['tour_ratio']:.3f} × raw", verdict("tour_ratio")),
        (f"array data the trace keeps, {n_long} tokens, two layers viewed", f"{r['trace_mb']:.1f} MB",
         verdict("trace_mb")),
        (f"one layer's sub-steps, {n_long} tokens (on request)", f"{r['layer_steps_mb']:.1f} MB", ""),
        (f"all sub-steps of all layers up front, {n_long} tokens", f"{r['all_steps_up_front_mb']:.0f} MB",
         "(what computing on request avoids)"),
        (f"raw eager forward, {n_long} tokens", f"{r['long_raw_forward_ms']:.0f} ms", ""),
        ("head fingerprints + rollout + mixing ratios, all layers",
         f"{r['analyses_ms']:.0f} ms = {r['analyses_ratio']:.2f} × raw", verdict("analyses_ratio")),
        (f"what the app caches of them, {n_long} tokens", f"{r['analyses_mb']:.1f} MB", ""),
    ]
    if "split_ms" in r:
        rows += report_rows(r)
    if "ig_ms" in r:
        rows += attribution_rows(r)
    if "bundled_load_ms" in r:
        rows += [
            (f"bundled {BUNDLED_MODEL}: load from its package", f"{r['bundled_load_ms']:.0f} ms", ""),
            (f"  cold first view: load + trace + layer 0, {n} tokens", f"{r['bundled_cold_view_ms']:.0f} ms", ""),
            (f"  warm view: trace + layer 0, {n} tokens", f"{r['bundled_warm_view_ms']:.1f} ms", ""),
        ]
    if "compare_ms" in r:
        rows += [
            (f"both first views, {r['model'].split()[0]} and {r['compared_with']}, {n} tokens",
             f"{r['both_first_views_ms']:.1f} ms", ""),
            ("  a comparison of the two (configs, counts, tokens, a head each)",
             f"{r['compare_ms']:.1f} ms = {r['compare_ratio']:.2f} × both", verdict("compare_ratio")),
            ("word in two contexts on two held traces", f"{r['contexts_ms']:.2f} ms = {r['contexts_ratio']:.3f} × raw",
             verdict("contexts_ratio")),
        ]
    for f in r.get("families", []):
        ok = f["first_view_ratio"] <= TARGETS["family_first_view_ratio"]
        rows += [
            (f"{f['model']}: raw eager forward, {n} tokens",
             f"{f['raw_forward_ms']:.1f} ms = {f['raw_forward_ms'] / r['raw_forward_ms']:.2f} × bert-base's", ""),
            ("  first view: trace + layer 0 step-through",
             f"{f['first_view_ms']:.1f} ms = {f['first_view_ratio']:.2f} × raw",
             f"target ≤ {TARGETS['family_first_view_ratio']:g}: {'met' if ok else 'NOT MET'}"),
            ("  one layer's step-through vs its share of the forward",
             f"{f['switch_layer_ms']:.1f} ms = {f['layer_share_ratio']:.2f} × (raw / L)", ""),
        ]
    head = (f"bertviz-lite bench: {r['model']}, {r['threads']} CPU threads, "
            f"median of {r['repeats']} interleaved runs")
    width = max(len(label) for label, _, _ in rows)
    return "\n".join([head] + [f"  {label:<{width}}  {value:>24}  {note}".rstrip() for label, value, note in rows])
