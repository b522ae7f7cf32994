"""The app as a process on loopback, for the benchmarks and the tests that drive it from outside:
`streamlit run app.py` started, waited for, measured (resident memory, CPU seconds) and stopped."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


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


def stop_process(proc: subprocess.Popen) -> None:
    """Ask a process to end; kill it if it has not after 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


class Server:
    """`streamlit run app.py` from the repository root, on loopback, until stopped; `wait=False` returns at once
    (then `wait_started`), so that several start side by side; `port` reuses one (a replica restarting);
    `environment`: more of its environment (the replicas' shared Redis)."""

    def __init__(self, root: Path, threads: int = 2, port: int | None = None, wait: bool = True,
                 environment: dict[str, str] | None = None):
        self.root, self.threads, self.environment = root, threads, dict(environment or {})
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "BVL_THREADS": str(threads), "TOKENIZERS_PARALLELISM": "false",
               **self.environment}
        self.proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless",
                                      "true", "--server.port", str(self.port), "--server.address", "127.0.0.1"],
                                     cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if wait:
            self.wait_started()

    def wait_started(self, timeout_s: float = 90) -> None:
        if not wait_healthy(self.url, timeout_s, alive=lambda: self.proc.poll() is None):
            self.stop()
            raise RuntimeError("streamlit did not start")

    def rss_mb(self) -> float:
        return resident_mb(self.proc.pid)

    def stop(self) -> None:
        stop_process(self.proc)

    def cpu_s(self) -> float:
        return cpu_s(self.proc.pid)

    def kill(self) -> None:
        """Gone at once, as a machine that fails: no goodbye to its tabs."""
        self.proc.kill()
        self.proc.wait(10)


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far; Linux only."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
