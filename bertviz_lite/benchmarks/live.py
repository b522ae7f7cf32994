"""`bertviz-lite bench --live`: a live site (issue 46's targets), a sentence of the reader's own computed in the
browser.

- the export of the default lecture pack with `--live` (the model as ONNX, its parts, the runtime), and the live
  files' sizes: in all, the model's parts, the runtime's, the largest file;
- in Chromium, from one static server on loopback (Python's, threaded), at 1280×720 with a fresh profile:
  - the model's first fetch: a link to a 16-token sentence the export did not hold, from the address typed to its
    stepper drawn (the tokenizer, the runtime and the model fetched, the session started, the sentence computed);
  - a sentence typed once the model is read (Enter to the stepper's figure drawn): about 16 and 128 tokens, the
    median of 3 different sentences each, against 1 s and 5 s;
  - a reload with the model in the browser's cache (Cache API): a new page, the model read from the cache, its
    session started, the 16-token sentence computed and drawn;
  - the analyses of the last 128-token sentence, its numbers already computed: the address changed to its
    Contributions page (every layer's norm-based contributions, the graph of the package's functions run here) and
    to its Similarity with an exported sentence (the cosines and the split), to the page's first figure drawn;
  - the tab's memory (the renderer process's resident set) after the 128-token sentence.

It asserts nothing and prints its figures."""
from __future__ import annotations

import statistics
import tempfile
import threading
import time
import urllib.parse
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path

from .site import CHROMIUM, MB, PACK_WORDS, _Quiet, why_no_browser, words

TARGETS = {"typed_16_s": 1.0, "typed_128_s": 5.0}
ANALYSES = {  # a computed sentence's analysis pages: (view, its keys, its first figure drawn)
    "contributions_128_s": ("contributions", {}, "#figure-contributions-0 .main-svg"),
    "similarity_128_s": ("similarity", {"with": "1"}, "#yours-split .main-svg"),
}
FIRST = "a student in the back row asks what the word bank means in this sentence today"  # 18 tokens


def run(progress=print) -> dict:
    """Every figure of the module's docstring, measured in a temporary folder that goes afterwards."""
    with tempfile.TemporaryDirectory(prefix="bvl-bench-live-") as work:
        return _measured(Path(work), progress)


def _measured(work: Path, progress) -> dict:
    from .. import BUNDLED_MODEL, load_model
    from ..export import site_content, write_site

    progress("loading the bundled model")
    loaded = load_model(BUNDLED_MODEL)
    progress("exporting the default lecture pack with --live")
    started = time.perf_counter()
    out = write_site(work / "live", site_content(loaded, list(PACK_WORDS), live=True))
    result = {"export_s": time.perf_counter() - started, "sizes": _sizes(out / "live")}
    result["tokens"] = {name: len(loaded.tokenizer(text)["input_ids"]) for name, text in _sentences().items()}
    result["browser"] = _browser(out, progress)
    return result


def _sentences() -> dict[str, str]:
    return {"first": FIRST, **{f"short{k}": f"{words(12 + k)} number {k}" for k in range(3)},
            **{f"long{k}": f"{words(122)} number {k}" for k in range(3)}}


def _sizes(folder: Path) -> dict:
    files = {p.name: p.stat().st_size for p in folder.iterdir()}
    model = {k: v for k, v in files.items() if k.startswith("model.")}
    wasm = {k: v for k, v in files.items() if k.startswith("ort-wasm-simd-threaded.wasm.")}
    return {"total": sum(files.values()), "files": len(files), "largest": max(files.values()),
            "model": sum(model.values()), "model_parts": len(model), "wasm": sum(wasm.values()),
            "wasm_parts": len(wasm), "other": sum(files.values()) - sum(model.values()) - sum(wasm.values())}


def _browser(site: Path, progress) -> dict:
    if why := why_no_browser():
        return {"skipped": why}
    from playwright.sync_api import sync_playwright

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    index = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    sentences = _sentences()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            page = context.new_page()
            progress("the model's first fetch, in Chromium from a static server on loopback")
            first = _drawn(page, lambda: page.goto(f"{index}#/layers?{urllib.parse.urlencode({'text': FIRST})}"))
            progress("sentences typed once the model is read")
            short = [_drawn(page, lambda text=sentences[f"short{k}"]: _typed(page, text)) for k in range(3)]
            long = [_drawn(page, lambda text=sentences[f"long{k}"]: _typed(page, text)) for k in range(3)]
            memory = _renderer_rss()
            progress("the analyses of the last of them")
            last = sentences["long2"]
            analyses = {name: _page_drawn(page, f"{index}#/{view}?{urllib.parse.urlencode({'text': last, **keys})}",
                                          selector) for name, (view, keys, selector) in ANALYSES.items()}
            page.close()
            progress("a reload with the model in the browser's cache")
            again = context.new_page()
            reload = _drawn(again, lambda: again.goto(f"{index}#/layers?{urllib.parse.urlencode({'text': FIRST})}"))
            browser.close()
    finally:
        server.shutdown()
    return {"first_fetch_s": first, "typed_16_s": statistics.median(short), "typed_16_all": short,
            "typed_128_s": statistics.median(long), "typed_128_all": long, "reload_cached_s": reload,
            "renderer_rss": memory, **analyses}


def _typed(page, text: str) -> None:
    page.fill("#your-sentence", text)
    page.press("#your-sentence", "Enter")


def _drawn(page, action) -> float:
    """Seconds from `action` until the stepper's figure of a sentence computed here is drawn."""
    page.evaluate("document.querySelectorAll('#step-figure').forEach((e) => e.remove())")
    started = time.perf_counter()
    action()
    page.wait_for_selector("h1 .computed-here", timeout=600_000)
    page.wait_for_selector("#step-figure .main-svg", timeout=600_000)
    return time.perf_counter() - started


def _page_drawn(page, url: str, selector: str) -> float:
    """Seconds from the address changed to `url` until `selector` is drawn."""
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(selector, timeout=600_000)
    return time.perf_counter() - started


def _renderer_rss() -> int | None:
    """The largest Chromium renderer's resident set (the one tab open), in bytes; None where /proc cannot say."""
    sizes = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            cmdline = (status.parent / "cmdline").read_bytes()
            if b"--type=renderer" in cmdline and b"chrom" in cmdline:
                rss = next(line for line in status.read_text().splitlines() if line.startswith("VmRSS:"))
                sizes.append(int(rss.split()[1]) * 1024)
        except (OSError, StopIteration):
            continue
    return max(sizes) if sizes else None


def report(r: dict) -> str:
    def verdict(value, key):
        return f"target ≤ {TARGETS[key]:g} s: {'met' if value <= TARGETS[key] else 'NOT MET'}"

    s = r["sizes"]
    rows = [
        (f"export of the default pack with --live ({len(PACK_WORDS)} sentences), model load excluded",
         f"{r['export_s']:.1f} s", ""),
        (f"the live files: {s['files']} files", f"{s['total'] / MB:.1f} MB; largest {s['largest'] / MB:.1f} MB",
         "each under 10 MB"),
        (f"  the model (every sub-step an output), {s['model_parts']} files", f"{s['model'] / MB:.1f} MB", ""),
        (f"  onnxruntime-web's WebAssembly, {s['wasm_parts']} parts", f"{s['wasm'] / MB:.1f} MB", ""),
        ("  the runtime's scripts, the tokenizer, the licences, the analyses' graphs", f"{s['other'] / MB:.2f} MB", ""),
    ]
    b = r["browser"]
    if "skipped" in b:
        rows.append(("Chromium", b["skipped"], ""))
    else:
        t = r["tokens"]
        rows += [
            (f"the model's first fetch: a link to a {t['first']}-token sentence, to its stepper drawn",
             f"{b['first_fetch_s']:.2f} s", "loopback"),
            (f"a typed sentence of {t['short0']} tokens, Enter to its stepper drawn (median of 3)",
             f"{b['typed_16_s']:.2f} s", verdict(b["typed_16_s"], "typed_16_s")),
            (f"a typed sentence of {t['long0']} tokens (median of 3)", f"{b['typed_128_s']:.2f} s",
             verdict(b["typed_128_s"], "typed_128_s")),
            ("a new page with the model in the browser's cache, to the 16-token stepper drawn",
             f"{b['reload_cached_s']:.2f} s", ""),
            (f"the {t['long0']}-token sentence's Contributions page, address to figure",
             f"{b['contributions_128_s']:.2f} s", ""),
            (f"the {t['long0']}-token sentence's Similarity with sentence 1, address to split",
             f"{b['similarity_128_s']:.2f} s", ""),
            (f"the tab's memory after the {t['long0']}-token sentence (renderer's resident set)",
             "unknown" if b["renderer_rss"] is None else f"{b['renderer_rss'] / MB:.0f} MB", ""),
        ]
    width = max(len(label) for label, _, _ in rows)
    return "\n".join(f"{label:<{width}}  {value}  {note}".rstrip() for label, value, note in rows)
