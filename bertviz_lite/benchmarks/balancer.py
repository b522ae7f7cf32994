"""Several replicas of the app behind HAProxy, on loopback, as `deploy/` runs them in containers: the tests of
sticky sessions and failover, and `bench --load --replicas N`, use it.

HAProxy reads `deploy/haproxy.cfg` itself; only its `server-template` line (compose's DNS) is replaced by one
`server` line per replica process, and the addresses come from the environment variables the file names.
"""
from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from .app_process import Server, free_port, stop_process

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def haproxy() -> str | None:
    """The haproxy program, or None where it is not installed."""
    return shutil.which("haproxy") or next((p for p in ("/usr/sbin/haproxy",) if os.path.exists(p)), None)


def loopback_config(ports: list[int]) -> str:
    """deploy/haproxy.cfg with its server-template line replaced by the replicas on loopback."""
    lines = []
    for line in CONFIG.read_text().splitlines():
        if line.strip().startswith("server-template"):
            lines += [f"    server replica{i} 127.0.0.1:{port}" for i, port in enumerate(ports)]
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


def stats_rows(url: str) -> list[dict]:
    """HAProxy's stats page as CSV (`.../stats;csv`): one dict per frontend, backend and server."""
    return list(csv.DictReader(io.StringIO(urllib.request.urlopen(url, timeout=5).read().decode().lstrip("# "))))


def replicas_up(replicas: Callable[[], list[dict]], which, timeout_s: float, poll_s: float = 0.3) -> bool:
    """Wait until the rows `which` of `replicas()` (stats rows of the servers) say UP; False after timeout_s."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        try:
            rows = replicas()
            if all(rows[i]["status"].startswith("UP") for i in which):
                return True
        except OSError:
            pass
        time.sleep(poll_s)
    return False


class Balanced:
    """`replicas` app servers and HAProxy in front; `url` is the balancer's. Stop it with `stop()`."""

    def __init__(self, root: Path, replicas: int = 3, threads: int = 2):
        program = haproxy()
        if program is None:
            raise RuntimeError("haproxy is not installed (Debian: apt-get install haproxy)")
        self.root, self.threads = root, threads
        self.servers = [Server(root, threads, wait=False) for _ in range(replicas)]
        for server in self.servers:
            server.wait_started()
        self.port, self.stats_port = free_port(), free_port()
        self.url, self.stats_url = f"http://127.0.0.1:{self.port}", f"http://127.0.0.1:{self.stats_port}/stats;csv"
        self._dir = tempfile.TemporaryDirectory()
        config = Path(self._dir.name) / "haproxy.cfg"
        config.write_text(loopback_config([s.port for s in self.servers]))
        env = {**os.environ, "BVL_BIND": f"127.0.0.1:{self.port}", "BVL_STATS_BIND": f"127.0.0.1:{self.stats_port}",
               "BVL_COOKIE_KEY": "bertviz-lite-tests"}
        self.proc = subprocess.Popen([program, "-db", "-f", str(config)], env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        if not self.wait_up(range(replicas), 30):
            self.stop()
            raise RuntimeError("haproxy did not see its replicas up")

    def replicas(self) -> list[dict]:
        """HAProxy's own figures for each replica, in order: status (UP/DOWN), scur (connections open now),
        stot (connections so far)."""
        mine = {r["svname"]: r for r in stats_rows(self.stats_url)
                if r["pxname"] == "replicas" and r["svname"].startswith("replica")}
        return [mine[f"replica{i}"] for i in range(len(self.servers))]

    def wait_up(self, which, timeout_s: float) -> bool:
        return replicas_up(self.replicas, which, timeout_s)

    def restart(self, i: int) -> None:
        """Replica i again, on its own port (as a container that restarts)."""
        self.servers[i] = Server(self.root, self.threads, port=self.servers[i].port)

    def rss_mb(self) -> float:
        return sum(s.rss_mb() for s in self.servers if s.proc.poll() is None)

    def cpu_s(self) -> float:
        return sum(s.cpu_s() for s in self.servers if s.proc.poll() is None)

    def stop(self) -> None:
        stop_process(self.proc)
        for server in self.servers:
            if server.proc.poll() is None:
                server.stop()
        self._dir.cleanup()
