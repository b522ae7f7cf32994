"""Installed like a Python package, as a new user would: the wheel built from a copy of the repository, installed
into a fresh virtual environment, the `bertviz-lite` command and the API used from another directory; and an
editable install.

The dependencies come from this test's own environment through a .pth file, since installing torch afresh
takes minutes; pip installs with --no-index, so it must find every declared dependency already satisfied
there, and nothing is downloaded.
"""
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tiers import server

ROOT = Path(__file__).resolve().parent.parent
SKIP = shutil.ignore_patterns(".git", ".venv", "__pycache__", "build", "dist", "*.egg-info", ".pytest_cache")
NOTEBOOK_TOKENS = ["[CLS]", "this", "is", "a", "122", "##12", "##12", "##1", "test", "sentence", "[SEP]"]


def run(*args, cwd, env=None, timeout=300):
    out = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                         env={**os.environ, **(env or {})})
    assert out.returncode == 0, (args, out.stdout[-2000:], out.stderr[-2000:])
    return out


def fresh_venv(path: Path) -> Path:
    """A new virtual environment that sees this environment's packages, pip included, through a .pth file (its
    own pip and old setuptools would otherwise shadow them)."""
    run(sys.executable, "-m", "venv", "--without-pip", path, cwd=path.parent)
    site = Path(run(path / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                    cwd=path.parent).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "parent_env.pth").write_text("\n".join(sorted(ours)) + "\n")
    return path / "bin"


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A copy of the repository's files, as a fresh clone would have them."""
    copy = tmp_path_factory.mktemp("clone") / "bertviz-lite"
    shutil.copytree(ROOT, copy, ignore=SKIP)
    return copy


@server
def test_wheel_installs_and_works_from_another_directory(source, tmp_path):
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist", ".", cwd=source)
    (wheel,) = (tmp_path / "dist").glob("bertviz_lite-*.whl")
    bin_dir = fresh_venv(tmp_path / "venv")
    run(bin_dir / "python", "-m", "pip", "install", "--no-index", "-q", wheel, cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    offline = {"HF_HUB_OFFLINE": "1"}

    params = json.loads(run(bin_dir / "bertviz-lite", "params", "bert-base-uncased", "--json", cwd=elsewhere,
                            env=offline).stdout)
    assert params["total"] == 109_482_240  # the preset's config is in the wheel
    traced = json.loads(run(bin_dir / "bertviz-lite", "trace", "bert-base-uncased",
                            "this is a 12212121 test sentence", "--json", cwd=elsewhere, env=offline).stdout)
    assert traced["tokens"] == NOTEBOOK_TOKENS and traced["max_abs_diff"] <= 1e-5
    api = run(bin_dir / "python", "-c", "import bertviz_lite as bvl; t = bvl.trace(bvl.load_model("
              "'albert-base-v2'), 'the cat sat'); print(bvl.__file__); print(t.tokens[0])",
              cwd=elsewhere, env=offline).stdout.splitlines()
    assert str(tmp_path / "venv") in api[0] and api[1] == "[CLS]"  # the installed copy, with its vocabularies
    assert "usage: bertviz-lite" in run(bin_dir / "bertviz-lite", "--help", cwd=elsewhere).stdout
    run(bin_dir / "python", "-m", "pip", "check", cwd=tmp_path)


@server
def test_editable_install_runs_the_sources(source, tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv")
    run(bin_dir / "python", "-m", "pip", "install", "--no-deps", "-q", "-e", source, cwd=tmp_path)
    where = run(bin_dir / "python", "-c", "import bertviz_lite.loading.presets as p; print(p.__file__)",
                cwd=tmp_path).stdout.strip()
    assert where.startswith(str(source))
    out = run(bin_dir / "bertviz-lite", "params", "distilbert-base-uncased", "--json", cwd=tmp_path,
              env={"HF_HUB_OFFLINE": "1"}).stdout
    assert json.loads(out)["total"] == 66_362_880


def test_every_public_name_resolves_lazily():
    code = ("import sys, bertviz_lite as bvl\nassert 'torch' not in sys.modules\n"
            "import bertviz_lite.stepthrough.trace  # a submodule import must not hide the function trace\n"
            "values = [getattr(bvl, name) for name in bvl.__all__]\n"
            "assert callable(bvl.trace) and bvl.trace.__module__ == 'bertviz_lite.stepthrough.trace'\n"
            "print(len(values))")
    out = run(sys.executable, "-c", code, cwd=ROOT)
    assert int(out.stdout) == len(__import__("bertviz_lite").__all__) > 30
