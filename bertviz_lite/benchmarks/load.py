"""`bertviz-lite bench --load`: a lecture hall at once, measured from outside the way browser tabs load the app.

It starts `streamlit run app.py` on a free loopback port (2 torch threads, offline: `app_process.py`) and opens
sessions over Streamlit's own websocket protocol, as a tab does (`tab.py`). A session's latency runs from
connecting to its script_finished message. Scenarios:

- the first page after `streamlit run app.py` on a fresh server, against a fresh import of torch and transformers;
- the cached lecture link opened by tabs one after another: the server's CPU seconds per cached view;
- one link, N tabs at the same moment (a lecture hall opening the link on the slide), then a larger burst;
- N tabs on the lecture link pressing the stepper's ▶ at the same moment (a fragment's rerun each, in line),
  five times, pooled;
- the head view's lecture link (the Attention page): its first visit, tabs in turn, and N tabs at once;
- the Interventions page's link (a head switched off): its first visit, and tabs in turn (cached);
- the tour's first chapter on the bundled model: its first visit, and N tabs at once;
- N tabs on a chapter that asks first (ask=1) choosing an answer at the same moment (a rerun each, counted for the
  hall);
- M tabs at once, each with its own sentence of about 110 tokens;
- a soak: many distinct sentences, a few sessions at a time, the server's resident memory sampled throughout
  and after it idles.

Machines differ by 2x and more, so every latency is also printed as a multiple of a raw eager forward of
bert-base at 128 tokens timed in the same run (before the server starts, with the same 2 threads), and per
burst: p50, p95, their ratio (near 1 when every tab finishes at the same moment, near 0.5 when tabs are served
in turn) and the server's CPU seconds per view. It asserts nothing. Only loopback is used.
"""
from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from .app_process import Server
from .balancer import Balanced
from .tab import open_view, press_button, press_next

LECTURE_LINK = ("layers", "model=bert-base-uncased&text=the+bank+of+the+river&layer=5&head=3&step=attn.probs"
                          "&lecture=1")  # the model named: a link naming none opens the bundled one offline
INTERVENE_LINK = ("intervene", "model=bert-base-uncased&text=the+bank+of+the+river&off=0.2&layer=1&head=2"
                                 "&lecture=1")  # a head switched off: a rerun of every layer, then cached
HEAD_VIEW_LINK = ("attention", "text=the+bank+of+the+river&layer=5&heads=3&lecture=1")  # BertViz's head view
TOUR_LINK = ("tour", "model=sentence-transformers%2Fall-MiniLM-L6-v2&text=the+quick+brown+fox+jumps+over+the+lazy+dog"
                     "&head=2&token=4&lecture=1")  # the tour's first chapter, on the bundled model
QUESTION_LINK = ("tour", TOUR_LINK[1] + "&chapter=8&ask=1")  # the tour's softmax chapter asks first (issue 57):
# which token 'fox' attends to most, four choices
WORDS = ("the river bank was quiet in the morning while students walked along the water talking about money "
         "interest rates and the old bridge that crossed to the other side of town where a small market sold "
         "bread fish and fruit").split()
MB = 1024 * 1024
PRESS_BURSTS = 5  # ▶ bursts in a row, pooled (see press_burst)


@dataclass
class Scenario:
    name: str
    latencies_s: list[float] = field(default_factory=list)
    errors: int = 0

    def summary(self) -> dict:
        lat = sorted(self.latencies_s)
        pick = lambda q: lat[min(len(lat) - 1, int(round(q * (len(lat) - 1))))] if lat else float("nan")  # noqa: E731
        return {"name": self.name, "sessions": len(lat) + self.errors, "errors": self.errors,
                "p50_s": pick(0.5), "p95_s": pick(0.95), "max_s": lat[-1] if lat else float("nan"),
                "mean_s": statistics.fmean(lat) if lat else float("nan")}


def sentence(i: int, tokens: int = 110) -> str:
    """A distinct sentence of about `tokens` word pieces: the shared words, rotated, with the number i in it."""
    words = [WORDS[(i * 7 + k) % len(WORDS)] for k in range(tokens - 8)]
    return " ".join(words[:5] + [f"number {i}"] + words[5:])


async def press_together(url: str, page: str, query: str, tabs: int, name: str,
                         button: str | None = None) -> Scenario:
    """`tabs` tabs on one lecture link, all pressing a button at the same moment: the Layers stepper's ▶, or where
    `button` says "choice_" the question's choices, one each in turn (choice_0, choice_1, …)."""
    scenario, together = Scenario(name), asyncio.Barrier(tabs)

    async def one(k: int) -> None:
        try:
            pressed = (press_next(url, page, query, together) if button is None
                       else press_button(url, page, query, together, f"{button}{k % 4}"))
            scenario.latencies_s.append(await pressed)
        except Exception:  # a failed tab is counted, not fatal: the report says how many
            scenario.errors += 1
            together.abort()  # no tab waits for one that will never press

    await asyncio.gather(*(one(k) for k in range(tabs)))
    return scenario


async def crowd(url: str, views: list[tuple[str, str]], at_once: int, name: str) -> Scenario:
    """Open every view, at most `at_once` at a time."""
    scenario, gate = Scenario(name), asyncio.Semaphore(at_once)

    async def one(page: str, query: str) -> None:
        async with gate:
            try:
                scenario.latencies_s.append(await open_view(url, page, query))
            except Exception:  # a failed tab is counted, not fatal: the report says how many
                scenario.errors += 1

    await asyncio.gather(*(one(page, query) for page, query in views))
    return scenario


def raw_forward_s(threads: int = 2, tokens: int = 128, repeats: int = 9) -> float:
    """Median seconds of a raw eager forward of bert-base-uncased's architecture (attentions and hidden states) at
    `tokens` tokens, in this process with `threads` torch threads: the unit every latency is also given in."""
    import torch

    from ..loading.loader import load_preset
    from .speed import text_of_length

    torch.set_num_threads(threads)
    loaded = load_preset("bert-base-uncased")
    enc = loaded.tokenizer(text_of_length(loaded.tokenizer, tokens), return_tensors="pt")
    times = []
    with torch.inference_mode():
        for _ in range(repeats + 2):
            start = time.perf_counter()
            loaded.model(**enc, output_attentions=True, output_hidden_states=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times[2:])  # the first two warm the allocator and kernels


def import_s() -> float:
    """Seconds a fresh interpreter takes to import torch and transformers, and nothing else (best of two: the
    first also reads the files from disk)."""
    def once() -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import torch, transformers"], check=True)
        return time.perf_counter() - start
    return min(once(), once())


def press_burst(server: Server, view: tuple[str, str], tabs: int, name: str, times: int = PRESS_BURSTS,
                button: str | None = None) -> dict:
    """`tabs` tabs press ▶ at once (timed from the press), `times` times: p50 and p95 over every press, and each
    burst's p50/p95 (`each`), which is the hall's figure: one burst's moves by ±0.05 from burst to burst with
    what else the server does in its first tenth of a second, so one burst alone says little, and pooled presses
    read lower than a burst does (a slow burst's tail lifts the pooled p95). The server's CPU per press counts
    the tab's opening too."""
    cpu, pooled, each = server.cpu_s(), Scenario(name), []
    for _ in range(times):
        one = asyncio.run(press_together(server.url, *view, tabs, name, button))
        pooled.latencies_s += one.latencies_s
        pooled.errors += one.errors
        summary = one.summary()
        each.append(summary["p50_s"] / summary["p95_s"])
    return {**pooled.summary(), "cpu_per_view_s": (server.cpu_s() - cpu) / (tabs * times), "each": each}


def burst(server: Server, views: list[tuple[str, str]], at_once: int, name: str) -> dict:
    """The views at once (at most `at_once` open), with the server's CPU seconds per view over the burst."""
    cpu = server.cpu_s()
    summary = asyncio.run(crowd(server.url, views, at_once, name)).summary()
    return {**summary, "cpu_per_view_s": (server.cpu_s() - cpu) / len(views)}


def run(tabs: int = 40, many: int = 100, own: int = 16, alone: int = 10, soak: int = 320, soak_at_once: int = 8,
        idle_s: float = 30, root: Path | None = None, replicas: int = 0, progress=lambda message: None) -> dict:
    """Start the app, run the scenarios, stop it; every figure in one dict, with the two units it is compared
    with (a raw forward, and importing torch and transformers) measured in the same run. With `replicas`, that
    many app processes behind HAProxy (`balancer.Balanced`): the tabs reach them through it, CPU and memory are
    the replicas' together."""
    root = root or Path.cwd()
    if not (root / "app.py").is_file():
        raise FileNotFoundError(f"bench --load starts the app: run it from the repository root (no app.py in {root})")
    progress("timing a raw eager forward of bert-base at 128 tokens, 2 threads")
    units = {"raw_forward_s": raw_forward_s()}
    progress("timing a fresh import of torch and transformers")
    units["import_s"] = import_s()
    progress("starting the app and opening its first page" + (f" ({replicas} replicas behind HAProxy)" if replicas
                                                              else ""))
    started = time.perf_counter()
    if replicas:
        server = Balanced(root, replicas)
    else:
        server = Server(root)
    try:
        asyncio.run(open_view(server.url, "", ""))
        units["first_page_s"] = time.perf_counter() - started
        memory = {"started_mb": server.rss_mb()}
        progress("first visit of the lecture link: loads the model")
        scenarios = [burst(server, [LECTURE_LINK], 1, "first visit")]
        memory["after_first_visit_mb"] = server.rss_mb()
        progress(f"the cached lecture link, {alone} tabs one after another")
        scenarios.append(burst(server, [LECTURE_LINK] * alone, 1, f"cached view, {alone} in turn"))
        for n in (tabs, many):
            progress(f"one link, {n} tabs at once")
            scenarios.append(burst(server, [LECTURE_LINK] * n, n, f"one link, {n} tabs"))
        progress(f"{tabs} tabs on the lecture link press the stepper's ▶ at the same moment, {PRESS_BURSTS} times")
        scenarios.append(press_burst(server, LECTURE_LINK, tabs, f"▶ pressed by {tabs} tabs"))
        progress(f"the head view's lecture link: first visit, {alone} tabs in turn, {tabs} at once")
        scenarios.append(burst(server, [HEAD_VIEW_LINK], 1, "head view, first visit"))
        scenarios.append(burst(server, [HEAD_VIEW_LINK] * alone, 1, f"head view, {alone} in turn"))
        scenarios.append(burst(server, [HEAD_VIEW_LINK] * tabs, tabs, f"head view, {tabs} tabs"))
        progress(f"the interventions' lecture link: first visit, {alone} tabs in turn")
        scenarios.append(burst(server, [INTERVENE_LINK], 1, "interventions, first visit"))
        scenarios.append(burst(server, [INTERVENE_LINK] * alone, 1, f"interventions, {alone} in turn"))
        progress(f"the tour's first chapter: first visit (loads the bundled model), {tabs} tabs at once")
        scenarios.append(burst(server, [TOUR_LINK], 1, "tour, first visit"))
        scenarios.append(burst(server, [TOUR_LINK] * tabs, tabs, f"tour, {tabs} tabs"))
        progress(f"{tabs} tabs answer the tour's question at the same moment, {PRESS_BURSTS} times")
        scenarios.append(press_burst(server, QUESTION_LINK, tabs, f"hall: {tabs} tabs answer", button="choice_"))
        progress(f"{own} tabs at once, each its own ~110-token sentence")
        views = [("layers", f"model=bert-base-uncased&text={urllib.parse.quote_plus(sentence(i))}&layer=3"
                            "&step=attn.probs")
                 for i in range(own)]
        scenarios.append(burst(server, views, own, f"own sentences, {own} tabs"))
        memory["soak_mb"] = soak_memory(server, own, soak, soak_at_once, progress)
        progress(f"idle {idle_s:.0f} s")
        time.sleep(idle_s)
        memory["after_idle_mb"] = server.rss_mb()
    finally:
        server.stop()
    return {"units": units, "scenarios": scenarios, "memory": memory, "replicas": replicas}


def soak_memory(server: Server, first: int, soak: int, at_once: int, progress) -> list[float]:
    """Many distinct sentences, `at_once` tabs at a time; the server's memory after every tenth of them."""
    progress(f"soak: {soak} further sentences, {at_once} at a time")
    samples, views = [], [("layers", f"text={urllib.parse.quote_plus(sentence(first + i, 60))}&layer={i % 12}")
                          for i in range(soak)]
    for start in range(0, soak, at_once * 10):
        asyncio.run(crowd(server.url, views[start:start + at_once * 10], at_once, "soak"))
        samples.append(server.rss_mb())
    return samples


def soak_thirds(samples: list[float]) -> tuple[float, float] | None:
    """(peak over the middle third, peak over the last third) of the soak's samples; None for fewer than 3.

    >>> soak_thirds([900, 1000, 1100, 1150, 1120, 1160])
    (1150, 1160)
    """
    n = len(samples)
    if n < 3:
        return None
    return max(samples[n // 3: 2 * n // 3]), max(samples[2 * n // 3:])


def report(r: dict) -> str:
    u, m = r["units"], r["memory"]
    raw = u["raw_forward_s"]
    where = f"{r['replicas']} replicas behind HAProxy" if r.get("replicas") else "streamlit"
    lines = [f"bertviz-lite bench --load: {where} on loopback, 2 torch threads each, sessions over the websocket "
             "protocol as browser tabs",
             f"  units, measured in this run: a raw eager forward of bert-base at 128 tokens {raw * 1000:.0f} ms; "
             f"importing torch and transformers {u['import_s']:.1f} s",
             f"  first page after `streamlit run app.py`: {u['first_page_s']:.1f} s = "
             f"{u['first_page_s'] / u['import_s']:.2f} × the import"]
    for s in r["scenarios"]:
        lines.append(f"  {s['name']:<26} p50 {s['p50_s']:6.2f} s ({s['p50_s'] / raw:5.1f}×)  "
                     f"p95 {s['p95_s']:6.2f} s ({s['p95_s'] / raw:5.1f}×)  p50/p95 {s['p50_s'] / s['p95_s']:.2f}  "
                     f"server CPU per view {s['cpu_per_view_s']:.3f} s ({s['cpu_per_view_s'] / raw:.2f}×)"
                     + (f"  ({s['errors']} failed)" if s["errors"] else ""))
        if "each" in s:
            lines.append(f"  {'':<26} {len(s['each'])} bursts pooled; each burst's p50/p95: "
                         + " ".join(f"{ratio:.2f}" for ratio in s["each"])
                         + f" (median {statistics.median(s['each']):.2f}; pooled, bursts that differ in speed read lower)")
    soak = " → ".join(f"{x:.0f}" for x in m["soak_mb"])
    first = m["after_first_visit_mb"]
    lines.append(f"  memory (RSS): started {m['started_mb']:.0f} MB, after the first visit {first:.0f} MB; soak "
                 f"{soak} MB (peak {max(m['soak_mb'], default=first) / first:.2f}×); after idling {m['after_idle_mb']:.0f} MB "
                 f"({m['after_idle_mb'] / first:.2f}×)")
    if thirds := soak_thirds(m["soak_mb"]):
        middle, last = thirds
        lines.append(f"  soak, levelling off: peak over its middle third {middle:.0f} MB, over its last third "
                     f"{last:.0f} MB ({last / middle:.2f}×)")
    return "\n".join(lines)
