"""The replicas tests' hall, made of `docker-compose -f deploy/compose.yaml up --scale app=3` instead of local
processes: HAProxy's own image on :8080 (stats on :8404) in front of the compose project's app containers.

`BVL_COMPOSE=deploy pytest tests/test_replicas.py` runs the hall, download and failover tests against it (the
value is the compose project's name, `deploy` when started from the repository root). It is run by hand, not in
CI: it needs Docker (here, the stand-in of ../shared/docker-standin.sh and a stand-in haproxy:2.6 image).
"""
from __future__ import annotations

import subprocess
import time

from bertviz_lite.benchmarks.balancer import replicas_up, stats_rows

BALANCER, STATS = "http://127.0.0.1:8080", "http://127.0.0.1:8404/stats;csv"
APP_PORT_HEX = ":1EB4"  # 7860, as /proc/net/tcp writes a local port


def docker(*args: str) -> str:
    return subprocess.run(["docker", *args], capture_output=True, text=True, check=True).stdout


class ComposeHall:
    """What tests/test_replicas.py asks of a hall: `url`, `replicas()` (HAProxy's stats rows of the replicas up at
    the start), `servers[i].kill()`, `restart(i)`, `wait_up(which, timeout_s)`.

    HAProxy's stats CSV leaves a server's address empty, so a row cannot be matched to its container: a kill takes
    the container that holds the one open tab's connection (the tests kill the replica serving their only tab),
    and `restart(i)` starts the container killed last, whatever `i`."""

    url = BALANCER

    def __init__(self, project: str):
        self.containers = docker("ps", "--filter", f"label=com.docker.compose.project={project}",
                                 "--filter", "label=com.docker.compose.service=app", "--format", "{{.Names}}").split()
        self.names = [r["svname"] for r in stats_rows(STATS)
                      if r["pxname"] == "replicas" and r["svname"] != "BACKEND" and r["status"].startswith("UP")]
        self.killed: str | None = None
        self.servers = [_Replica(self) for _ in self.names]

    def replicas(self) -> list[dict]:
        rows = {r["svname"]: r for r in stats_rows(STATS) if r["pxname"] == "replicas"}
        return [rows[name] for name in self.names]

    def kill_the_one_serving(self) -> None:
        """The container with the most connections open both now and half a second later: the tab's WebSocket
        lasts, a health check does not (an idle connection HAProxy keeps for reuse could tie; by hand, the run
        prints which container it killed)."""
        first = {c: _open_connections(c) for c in self.containers}
        time.sleep(0.5)
        lasting = {c: min(n, _open_connections(c)) for c, n in first.items()}
        self.killed = max(lasting, key=lasting.get)
        print(f"killing {self.killed} (open connections: {lasting})")
        docker("kill", self.killed)

    def restart(self, i: int) -> None:
        docker("start", self.killed)

    def wait_up(self, which, timeout_s: float) -> bool:
        return replicas_up(self.replicas, which, timeout_s)

    def stop(self) -> None:
        """The compose project was started by hand: it stays up."""


class _Replica:
    def __init__(self, hall: ComposeHall):
        self.hall = hall

    def kill(self) -> None:
        self.hall.kill_the_one_serving()


def _open_connections(container: str) -> int:
    """Established connections on the app's port in the container."""
    lines = docker("exec", container, "cat", "/proc/net/tcp").splitlines()[1:]
    return sum(f[1].endswith(APP_PORT_HEX) and f[3] == "01" for f in (line.split() for line in lines) if len(f) > 3)
