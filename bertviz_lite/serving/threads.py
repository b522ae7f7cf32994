"""Size torch's thread pool to the CPUs this process may use, not the host's; hand the interpreter lock over often.

In a container (a Space gets 2 vCPUs on a host with dozens) torch and OpenMP count the host's cores and start
that many threads, which then fight over a 2-CPU quota and run slower than 2 threads would. The CPUs a
process may really use are the smaller of its affinity mask and its cgroup CPU quota.

The server's Python threads share one interpreter lock as well, and a busy page run keeps it for Python's switch
interval (5 ms) before another thread may run. Every click a server receives starts a script thread, and starting
a thread waits for that thread to get the lock; so when forty tabs press ▶ at once, the server took about 6 ms per
click only to take them in (0.24 s for forty), and sent no finished page before it had taken in all of them.
A 0.2 ms interval hands the lock over sooner; `bench --load` reads the ▶ burst with it.
"""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")
SWITCH_INTERVAL_S = 0.0002  # how long a running thread keeps the interpreter lock when another waits for it


def cgroup_cpu_limit(root: Path = CGROUP) -> float | None:
    """CPUs allowed by the cgroup quota (v2 `cpu.max`, or v1 `cfs_quota_us / cfs_period_us`); None: no quota."""
    try:
        quota, period = (root / "cpu.max").read_text().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        quota = int((root / "cpu" / "cpu.cfs_quota_us").read_text())
        period = int((root / "cpu" / "cpu.cfs_period_us").read_text())
        return quota / period if quota > 0 and period > 0 else None
    except (OSError, ValueError):
        return None


def usable_cpus(root: Path = CGROUP) -> int:
    """The CPUs this process can keep busy: affinity, capped by the cgroup quota (rounded up), at least 1."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    limit = cgroup_cpu_limit(root)
    if limit is not None:
        cpus = min(cpus, math.ceil(limit))
    return max(1, cpus)


def configure_threads() -> int:
    """Give torch (and OpenMP through it) BVL_THREADS threads, or as many as usable_cpus(); returns the count.
    The interpreter lock is handed over every SWITCH_INTERVAL_S (see above).

    An explicit OMP_NUM_THREADS or BVL_THREADS wins: whoever set it knows the machine.
    """
    import torch

    sys.setswitchinterval(SWITCH_INTERVAL_S)
    chosen = os.environ.get("BVL_THREADS") or os.environ.get("OMP_NUM_THREADS") or ""
    threads = int(chosen) if chosen.strip().isdigit() and int(chosen) > 0 else usable_cpus()
    torch.set_num_threads(threads)
    return threads
