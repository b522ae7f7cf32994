"""`bertviz-lite bench --site`: an exported lecture (issue 45's targets), measured as a lecturer and a hall meet it.

- the export of the default lecture pack (the bundled model, three sentences of about 16 tokens, every view): its
  time with and without loading the model, against the 60-s target;
- a sentence's own script (its sub-steps, tour, head and model views) by length (about 16, 32, 64 and 128 tokens),
  as written and as a static host sends it gzipped, against 10 MB for 16 tokens; the weights' scripts and
  plotly.js beside it (sent once, cached);
- in Chromium from disk (file://): the first view drawn (the stepper, a cold page), ◀ or ▶ to the next sub-step's
  figure drawn, a cell's explanation shown (a score; a linear map's, its weights' script read the first time and
  the second), each the median of several, against 1.5 s, 100 ms and 100 ms;
- one static server on loopback (Python's, threaded) and 100 tabs opening the lecture's stepper link at once, each
  fetching every file the page reads: per-tab p50 and p95.

It asserts nothing and prints its figures; Chromium and Playwright come with the test requirements
(requirements-dev.txt): without them the browser's rows say so."""
from __future__ import annotations

import gzip
import statistics
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
PACK_WORDS = ("she sat on the river bank and watched the kayakers paddle past",
              "the bank raised its interest rates again this spring after a long and difficult winter",
              "a small kayak floated slowly down the quiet river at dawn past the old mill")  # 16 to 18 tokens
LENGTH_WORDS = (12, 26, 56, 120)  # words giving about 16, 32, 64 and 128 tokens
TARGETS = {"export_s": 60.0, "sentence_mb_16": 10.0, "first_view_s": 1.5, "step_ms": 100.0, "explain_ms": 100.0}
MB = 1024 * 1024
FILLER = ("the old man walked slowly along the river bank while the children played near the water and the dogs "
          "barked at the ducks that swam past the little wooden boat as the sun went down").split()


def words(n: int) -> str:
    return " ".join(FILLER[k % len(FILLER)] for k in range(n))


def run(tabs: int = 100, progress=print) -> dict:
    """Every figure of the module's docstring, measured in a temporary folder that goes afterwards."""
    with tempfile.TemporaryDirectory(prefix="bvl-bench-site-") as work:
        return _measured(Path(work), tabs, progress)


def _measured(work: Path, tabs: int, progress) -> dict:
    from .. import BUNDLED_MODEL, load_model
    from ..export import site_content, write_site

    result = {}
    start = time.perf_counter()
    progress("loading the bundled model")
    loaded = load_model(BUNDLED_MODEL)
    loaded_at = time.perf_counter()
    out = work / "pack"
    progress("exporting the default lecture pack")
    write_site(out, site_content(loaded, list(PACK_WORDS)))
    done = time.perf_counter()
    result.update(export_s=done - start, export_without_load_s=done - loaded_at, tokens=_tokens(loaded, PACK_WORDS))
    result["sentence_bytes"] = [_sentence_sizes(out, i) for i in range(len(PACK_WORDS))]
    result["first_view_bytes"] = _first_view_bytes(out)
    result["weights_bytes"] = _folder_sizes(out / "weights")
    result["plotly_bytes"] = _sizes(out / "plotly.min.js")
    result["growth"] = _growth(loaded, work, progress)
    result["browser"] = _browser(out, progress)
    result["hall"] = _hall(out, tabs, progress)
    return result


def _tokens(loaded, texts) -> list[int]:
    return [len(loaded.tokenizer(text)["input_ids"]) for text in texts]


def _sizes(path: Path) -> dict:
    data = path.read_bytes()
    return {"bytes": len(data), "gzip": len(gzip.compress(data, 6))}


def _sentence_sizes(site: Path, i: int) -> dict:
    """A sentence's scripts together: what every view reads and its parts (each block, the tour, the views)."""
    sizes = [_sizes(p) for p in [site / "sentences" / f"{i}.js", *(site / "sentences").glob(f"{i}-*.js")]]
    return {"bytes": sum(s["bytes"] for s in sizes), "gzip": sum(s["gzip"] for s in sizes)}


def _first_view_bytes(site: Path) -> int:
    """What the stepper's first view of a layer reads of the sentence: its script, the layer's and the one before."""
    return sum((site / "sentences" / name).stat().st_size for name in ("0.js", "0-layers.1.js", "0-layers.2.js"))


def _folder_sizes(folder: Path) -> dict:
    sizes = [_sizes(p) for p in folder.iterdir()]
    return {"files": len(sizes), "bytes": sum(s["bytes"] for s in sizes), "gzip": sum(s["gzip"] for s in sizes),
            "largest": max(s["bytes"] for s in sizes)}


def _growth(loaded, work: Path, progress) -> list[dict]:
    """One sentence exported alone at each length: the time it adds and its script's size."""
    from ..export import site_content, write_site

    rows = []
    for n in LENGTH_WORDS:
        progress(f"exporting one sentence of {n} words")
        out = work / f"words-{n}"
        start = time.perf_counter()
        write_site(out, site_content(loaded, [words(n)]))
        rows.append({"tokens": _tokens(loaded, [words(n)])[0], "export_s": time.perf_counter() - start,
                     **_sentence_sizes(out, 0)})
    return rows


def why_no_browser() -> str | None:
    """Why the browser's figures cannot be measured here (no Playwright, no Chromium), or None."""
    import importlib.util

    if importlib.util.find_spec("playwright") is None:
        return "Playwright is not installed (pip install -r requirements-dev.txt)"
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def _browser(site: Path, progress) -> dict:
    if why := why_no_browser():
        return {"skipped": why}
    from playwright.sync_api import sync_playwright

    progress("timing the site in Chromium from disk")
    index = (site / "index.html").as_uri()
    link = "#/layers?" + urllib.parse.urlencode({"text": PACK_WORDS[0], "layer": 2, "head": 3, "step": "attn.scores"})
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        firsts = []
        for _ in range(3):  # a fresh page each time: plotly.js and the sentence's script read and run again
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            started = time.perf_counter()
            page.goto(index + link)
            page.wait_for_selector("#step-figure .main-svg")
            firsts.append(time.perf_counter() - started)
            page.close()
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(index + link)
        page.wait_for_selector("#step-figure .main-svg")
        steps = [_timed(page, "document.querySelector('button.next.step').click()", "#step-figure .main-svg")
                 for _ in range(10)]
        scores = [_timed(page, f"location.hash = {_js(link + f'&cell=1,{j}')}", ".formula") for j in range(1, 8)]
        linear = [_timed(page, f"location.hash = {_js(link.replace('attn.scores', 'ffn.in') + f'&cell=2,{j}')}",
                         ".formula") for j in (5, 6, 7, 8, 9)]
        browser.close()
    return {"first_view_s": statistics.median(firsts), "first_views_s": firsts,
            "step_ms": statistics.median(steps), "step_max_ms": max(steps),
            "explain_ms": statistics.median(scores), "explain_linear_first_ms": linear[0],
            "explain_linear_ms": statistics.median(linear[1:])}


def _js(text: str) -> str:
    import json

    return json.dumps(text)


def _timed(page, action: str, drawn: str) -> float:
    """ms from `action` until the page has redrawn `drawn` (the view is emptied first, so the wait sees the new one)."""
    return page.evaluate(f"""async () => {{
      const view = document.getElementById("view");
      const started = performance.now();
      const seen = new Promise((resolve) => {{
        const watch = new MutationObserver(() => {{
          const found = document.querySelector({_js(drawn)});
          if (found) {{ watch.disconnect(); resolve(); }}
        }});
        watch.observe(view, {{ childList: true, subtree: true }});
      }});
      document.querySelectorAll({_js(drawn)}).forEach((e) => e.remove());
      {action};
      await seen;
      await new Promise((r) => requestAnimationFrame(() => r()));
      return performance.now() - started;
    }}""")


def _hall(site: Path, tabs: int, progress) -> dict:
    """`tabs` tabs at once against one static server on loopback, each fetching what the stepper's page reads."""
    files = ["index.html", "fonts.css", "site.css", "plotly.min.js", "data.js", "site.js",  # as index.html loads them
             "sentences/0.js", "sentences/0-layers.1.js", "sentences/0-layers.2.js"]
    handler = partial(_Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    progress(f"{tabs} tabs at once on a static server on loopback")

    def tab(_) -> float:
        started = time.perf_counter()
        for name in files:
            with urllib.request.urlopen(base + name, timeout=120) as response:
                response.read()
        return time.perf_counter() - started

    try:
        with ThreadPoolExecutor(tabs) as pool:
            latencies = sorted(pool.map(tab, range(tabs)))
    finally:
        server.shutdown()
    pick = lambda q: latencies[min(len(latencies) - 1, round(q * (len(latencies) - 1)))]  # noqa: E731
    return {"tabs": tabs, "p50_s": pick(0.5), "p95_s": pick(0.95), "max_s": latencies[-1],
            "bytes_per_tab": sum((site / f).stat().st_size for f in files)}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # a hundred tabs' requests are not the figures
        pass


def report(r: dict) -> str:
    def verdict(value, key):
        return f"target ≤ {TARGETS[key]:g}: {'met' if value <= TARGETS[key] else 'NOT MET'}"

    first = r["sentence_bytes"][0]
    rows = [
        (f"export, the default lecture pack ({len(PACK_WORDS)} sentences of {', '.join(map(str, r['tokens']))} "
         f"tokens), model load included", f"{r['export_s']:.1f} s", verdict(r["export_s"], "export_s")),
        ("  of which the export itself", f"{r['export_without_load_s']:.1f} s", ""),
        ("  what the stepper's first view of layer 2 reads of them", f"{r['first_view_bytes'] / MB:.2f} MB", ""),
        (f"a sentence's scripts, {r['tokens'][0]} tokens (as written; gzip as a host sends it)",
         f"{first['bytes'] / MB:.2f} MB; gzip {first['gzip'] / MB:.2f} MB",
         verdict(first["bytes"] / MB, "sentence_mb_16")),
        (f"the weights' scripts, {r['weights_bytes']['files']} modules, read when a linear map's cell is explained",
         f"{r['weights_bytes']['bytes'] / MB:.1f} MB; gzip {r['weights_bytes']['gzip'] / MB:.1f} MB; largest "
         f"{r['weights_bytes']['largest'] / MB:.1f} MB", "once per site"),
        ("plotly.min.js (from the installed plotly)", f"{r['plotly_bytes']['bytes'] / MB:.1f} MB; gzip "
                                                      f"{r['plotly_bytes']['gzip'] / MB:.1f} MB", "once per site"),
    ]
    for g in r["growth"]:
        rows.append((f"  one sentence of {g['tokens']} tokens: its export, its script",
                     f"{g['export_s']:.1f} s; {g['bytes'] / MB:.2f} MB (gzip {g['gzip'] / MB:.2f})", ""))
    b = r["browser"]
    if "skipped" in b:
        rows.append(("Chromium", b["skipped"], ""))
    else:
        rows += [
            ("Chromium from disk: the stepper's first view drawn (median of 3 cold pages)",
             f"{b['first_view_s']:.2f} s", verdict(b["first_view_s"], "first_view_s")),
            ("▶ to the next sub-step's figure drawn (median of 10)", f"{b['step_ms']:.0f} ms (max {b['step_max_ms']:.0f})",
             verdict(b["step_ms"], "step_ms")),
            ("a score's cell explained (median of 7)", f"{b['explain_ms']:.0f} ms", verdict(b["explain_ms"], "explain_ms")),
            ("a linear map's cell: the first (its weights' script read), then the median of 4",
             f"{b['explain_linear_first_ms']:.0f} ms, then {b['explain_linear_ms']:.0f} ms",
             verdict(b["explain_linear_ms"], "explain_ms")),
        ]
    h = r["hall"]
    rows.append((f"{h['tabs']} tabs at once, one static server on loopback ({h['bytes_per_tab'] / MB:.1f} MB a tab, "
                 "uncompressed)", f"p50 {h['p50_s']:.2f} s, p95 {h['p95_s']:.2f} s, max {h['max_s']:.2f} s", ""))
    width = max(len(label) for label, _, _ in rows)
    return "\n".join(f"{label:<{width}}  {value}  {note}".rstrip() for label, value, note in rows)
