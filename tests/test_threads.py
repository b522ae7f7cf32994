"""Threads follow the container's CPU quota, not the host's core count."""
import os
import sys

import pytest
import torch

from bertviz_lite.serving.threads import SWITCH_INTERVAL_S, cgroup_cpu_limit, configure_threads, usable_cpus


def write(root, name, text):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize("files, limit", [
    ({"cpu.max": "200000 100000\n"}, 2.0),
    ({"cpu.max": "150000 100000\n"}, 1.5),
    ({"cpu.max": "max 100000\n"}, None),
    ({"cpu/cpu.cfs_quota_us": "400000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 4.0),
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
    ({}, None),
])
def test_cgroup_quota_is_read_from_v1_or_v2(tmp_path, files, limit):
    for name, text in files.items():
        write(tmp_path, name, text)
    assert cgroup_cpu_limit(tmp_path) == limit


def test_usable_cpus_is_capped_by_the_quota(tmp_path):
    affinity = len(os.sched_getaffinity(0))
    write(tmp_path, "cpu.max", "150000 100000\n")
    assert usable_cpus(tmp_path) == min(affinity, 2)
    write(tmp_path, "cpu.max", "max 100000\n")
    assert usable_cpus(tmp_path) == affinity


def test_an_explicit_count_wins_and_the_interpreter_lock_is_handed_over_often(monkeypatch):
    before, switch = torch.get_num_threads(), sys.getswitchinterval()
    try:
        monkeypatch.setenv("BVL_THREADS", "1")
        assert configure_threads() == 1 and torch.get_num_threads() == 1
        monkeypatch.delenv("BVL_THREADS")
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
        assert configure_threads() == usable_cpus() == torch.get_num_threads()
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_S)
    finally:
        torch.set_num_threads(before)
        sys.setswitchinterval(switch)
