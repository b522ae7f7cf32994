"""`bertviz-lite bench --load`: a lecture hall at once, measured from outside the way browser tabs load the app.

It starts `streamlit run app.py` on a free loopback port (2 torch threads, offline) and opens sessions over
Streamlit's own websocket protocol, as a tab does: connect to /_stcore/stream (subprotocol "streamlit", an
Origin of the server's own address), send one BackMsg whose rerun_script holds the page and its query string,
and wait for script_finished. A session's latency runs from connecting to that message. Scenarios:

- one link, N tabs at the same moment (a lecture hall opening the link on the slide);
- M tabs at once, each with its own sentence of about 110 tokens;
- a soak: many distinct sentences, a few sessions at a time, the server's resident memory sampled throughout
  and after it idles.

It prints p50, p95 and max per scenario and the memory figures; it asserts nothing. Only loopback is used.
"""
from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

LECTURE_LINK = ("layers", "text=the+bank+of+the+river&layer=5&head=3&step=attn.probs&lecture=1")
WORDS = ("the river bank was quiet in the morning while students walked along the water talking about money "
         "interest rates and the old bridge that crossed to the other side of town where a small market sold "
         "bread fish and fruit").split()
MB = 1024 * 1024


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def resident_mb(pid: int) -> float:
    """The process's resident memory (VmRSS), in MB; Linux only."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def wait_healthy(url: str, timeout_s: float, alive=lambda: True) -> bool:
    """Wait until the app at `url` answers its health check; False after timeout_s or once `alive()` is False."""
    deadline = time.time() + timeout_s
    while time.time() < deadline and alive():
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


def warm(url: str, links: list[str], timeout_s: float = 300) -> list[tuple[str, float]]:
    """Open each link once, as a first visitor would, so that its model and trace are cached before anyone
    comes: the image runs this beside the server at start. Returns (link, seconds) for each."""
    if not wait_healthy(url, timeout_s):
        raise RuntimeError(f"no app answers at {url}")
    opened = []
    for link in links:
        page, _, query = link.partition("?")
        opened.append((link, asyncio.run(open_view(url, page, query, timeout_s))))
    return opened


class Server:
    """`streamlit run app.py` from the repository root, on loopback, until stopped."""

    def __init__(self, root: Path, threads: int = 2):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "BVL_THREADS": str(threads), "TOKENIZERS_PARALLELISM": "false"}
        self.proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless",
                                      "true", "--server.port", str(self.port), "--server.address", "127.0.0.1"],
                                     cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_healthy(self.url, 90, alive=lambda: self.proc.poll() is None):
            self.stop()
            raise RuntimeError("streamlit did not start")

    def rss_mb(self) -> float:
        return resident_mb(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def open_view(url: str, page: str, query: str, timeout_s: float = 120) -> float:
    """One tab: connect, ask for the page, wait until its script has finished; seconds taken."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect

    start = time.perf_counter()
    stream = url.replace("http://", "ws://") + "/_stcore/stream"
    async with connect(stream, subprotocols=["streamlit"], additional_headers={"Origin": url},
                       max_size=None, open_timeout=timeout_s) as ws:
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_name = page
        await ws.send(msg.SerializeToString())
        async with asyncio.timeout(timeout_s):
            while True:
                forward = ForwardMsg()
                forward.ParseFromString(await ws.recv())
                if forward.WhichOneof("type") == "delta" and forward.delta.new_element.WhichOneof("type") == "exception":
                    raise RuntimeError(forward.delta.new_element.exception.message)
                if forward.WhichOneof("type") == "script_finished":
                    return time.perf_counter() - start


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


def run(tabs: int = 40, own: int = 16, soak: int = 320, soak_at_once: int = 8, idle_s: float = 30,
        root: Path | None = None, progress=lambda message: None) -> dict:
    """Start the app, run the scenarios, stop it; every figure in one dict."""
    root = root or Path.cwd()
    if not (root / "app.py").is_file():
        raise FileNotFoundError(f"bench --load starts the app: run it from the repository root (no app.py in {root})")
    progress("starting the app")
    server = Server(root)
    try:
        memory = {"started_mb": server.rss_mb()}
        progress("first visit: loads the model")
        first = asyncio.run(crowd(server.url, [LECTURE_LINK], 1, "first visit"))
        memory["after_first_visit_mb"] = server.rss_mb()
        progress(f"one link, {tabs} tabs at once")
        same = asyncio.run(crowd(server.url, [LECTURE_LINK] * tabs, tabs, f"one link, {tabs} tabs"))
        progress(f"{own} tabs at once, each its own ~110-token sentence")
        views = [("layers", f"text={urllib.parse.quote_plus(sentence(i))}&layer=3&step=attn.probs")
                 for i in range(own)]
        distinct = asyncio.run(crowd(server.url, views, own, f"own sentences, {own} tabs"))
        progress(f"soak: {soak} further sentences, {soak_at_once} at a time")
        samples, soak_views = [], [("layers", f"text={urllib.parse.quote_plus(sentence(own + i, 60))}&layer={i % 12}")
                                   for i in range(soak)]
        for start in range(0, soak, soak_at_once * 10):
            asyncio.run(crowd(server.url, soak_views[start:start + soak_at_once * 10], soak_at_once, "soak"))
            samples.append(server.rss_mb())
        memory["soak_mb"] = samples
        progress(f"idle {idle_s:.0f} s")
        time.sleep(idle_s)
        memory["after_idle_mb"] = server.rss_mb()
    finally:
        server.stop()
    return {"scenarios": [first.summary(), same.summary(), distinct.summary()], "memory": memory}


def report(r: dict) -> str:
    lines = ["bertviz-lite bench --load: streamlit on loopback, 2 torch threads, sessions over the websocket "
             "protocol as browser tabs"]
    for s in r["scenarios"]:
        lines.append(f"  {s['name']:<28} p50 {s['p50_s']:6.2f} s   p95 {s['p95_s']:6.2f} s   max {s['max_s']:6.2f} s"
                     + (f"   ({s['errors']} failed)" if s["errors"] else ""))
    m = r["memory"]
    soak = " → ".join(f"{x:.0f}" for x in m["soak_mb"])
    lines.append(f"  memory (RSS): started {m['started_mb']:.0f} MB, after the first visit "
                 f"{m['after_first_visit_mb']:.0f} MB; soak {soak} MB; after idling {m['after_idle_mb']:.0f} MB")
    return "\n".join(lines)
