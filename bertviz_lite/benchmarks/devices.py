"""`python -m bertviz_lite bench --devices`: where a GPU would help, measured rather than guessed.

For each model size and text length: the raw eager forward pass (attentions + hidden states, what a trace
costs) on the CPU and, where one is present, on a CUDA GPU; and, on the CPU, the time to build and serialise
the attention heatmap a page sends to the browser, which no GPU speeds up. Presets with random weights, so no
network is needed; timings are medians of interleaved runs in one process.
"""
from __future__ import annotations

import statistics
import time

import torch

from .speed import text_of_length
from ..loading.loader import load_preset

CASES = (("bert-base-uncased", 128), ("bert-base-uncased", 512), ("bert-large-uncased", 512))


def _median_ms(fn, repeats: int, sync=lambda: None) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        sync()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def _heatmap_ms(probs, tokens: list[str], repeats: int) -> float | None:
    try:
        from ..figures import attention_heatmap
    except ImportError:  # plotly missing (a bare GPU box): the forward passes are still measured
        return None
    return _median_ms(lambda: attention_heatmap(probs, tokens, "head 0", "attention").to_json(), repeats)


def run(repeats: int = 5, progress=lambda message: None) -> list[dict]:
    """Every case on every device; `progress(message)` hears of each step (a run takes about a minute)."""
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    rows = []
    for model_id, tokens in CASES:
        progress(f"{model_id}, {tokens} tokens: building the model")
        loaded = load_preset(model_id)
        encoded = loaded.tokenizer(text_of_length(loaded.tokenizer, tokens), return_tensors="pt")
        row = {"model": model_id, "tokens": tokens}
        for device in devices:
            model = loaded.model.to(device)
            inputs = {k: v.to(device) for k, v in encoded.items()}
            sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

            def forward():
                with torch.inference_mode():
                    return model(**inputs, output_attentions=True, output_hidden_states=True)

            forward(), forward()  # warm-up: kernels, allocator
            row[f"{device}_forward_ms"] = _median_ms(forward, repeats, sync)
            progress(f"{model_id}, {tokens} tokens: {device} forward {row[f'{device}_forward_ms']:.1f} ms")
        probs = forward().attentions[0][0, 0].float().cpu().numpy()  # (T, T): head 0 of layer 0
        row["heatmap_ms"] = _heatmap_ms(probs, loaded.tokenizer.convert_ids_to_tokens(encoded["input_ids"][0]),
                                        repeats)
        loaded.model.to("cpu")
        rows.append(row)
    return rows


def report(rows: list[dict]) -> str:
    threads = torch.get_num_threads()
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    lines = [f"bertviz-lite bench --devices: raw eager forward with attentions and hidden states, CPU with "
             f"{threads} threads" + (f" vs {gpu}" if gpu else " (no CUDA GPU here)") + ", random weights"]
    for r in rows:
        text = f"  {r['model']:<20} {r['tokens']:>4} tokens   CPU {r['cpu_forward_ms']:8.1f} ms"
        if "cuda_forward_ms" in r:
            text += f"   GPU {r['cuda_forward_ms']:7.1f} ms ({r['cpu_forward_ms'] / r['cuda_forward_ms']:.0f}× faster)"
        if r["heatmap_ms"] is not None:
            text += f"   heatmap figure to JSON (CPU) {r['heatmap_ms']:6.1f} ms"
        lines.append(text)
    return "\n".join(lines)
