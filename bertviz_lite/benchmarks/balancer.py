"""Several replicas of the app behind HAProxy, on loopback, as `deploy/` runs them in containers: the tests of
sticky sessions and failover, and `bench --load --replicas N`, use it. Where redis-server is installed the replicas
share a Redis for the hall's counts (`BVL_REDIS_URL`), as deploy/compose.yaml runs them.

HAProxy reads `deploy/haproxy.cfg` itself; only its `server-template` line (compose's DNS) is replaced by one
`server` line per replica process, and the addresses come from the environment variables the file names.
"""
from __future__ import annotations

import csv
import io
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from ..asking.hall import REDIS_URL
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


class Redis:
    """A redis-server on loopback, in memory only (no file written), until stopped; `url` for BVL_REDIS_URL."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = subprocess.Popen([redis_server(), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while not _answers(self.port):
            if time.time() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        stop_process(self.proc)


def redis_server() -> str | None:
    """The redis-server program, or None where it is not installed (Debian: apt-get install redis-server)."""
    return shutil.which("redis-server")


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class Balanced:
    """`replicas` app servers and HAProxy in front; `url` is the balancer's; `redis` the Redis they share where
    redis-server is installed (else None: each counts a hall's answers alone). Stop it with `stop()`."""

    def __init__(self, root: Path, replicas: int = 3, threads: int = 2):
        program = haproxy()
        if program is None:
            raise RuntimeError("haproxy is not installed (Debian: apt-get install haproxy)")
        self.root, self.threads = root, threads
        self.redis = Redis() if redis_server() else None
        shared = {REDIS_URL: self.redis.url} if self.redis else {}
        self.servers = [Server(root, threads, wait=False, environment=shared) for _ in range(replicas)]
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
        self.servers[i] = Server(self.root, self.threads, port=self.servers[i].port,
                                 environment=self.servers[i].environment)

    def rss_mb(self) -> float:
        return sum(s.rss_mb() for s in self.servers if s.proc.poll() is None)

    def cpu_s(self) -> float:
        return sum(s.cpu_s() for s in self.servers if s.proc.poll() is None)

    def stop(self) -> None:
        stop_process(self.proc)
        for server in self.servers:
            if server.proc.poll() is None:
                server.stop()
        if self.redis:
            self.redis.stop()
        self._dir.cleanup()
