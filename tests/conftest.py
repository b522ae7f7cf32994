"""The test session: no network, an empty Hugging Face cache, and the tiny random models of every family
(`tiny_models.py`) as session fixtures; for the tests that look at the app in a browser, the app as a process
(`server`) and Debian's Chromium (`browser`), one of each per test module.

No test touches the network: HF_HUB_OFFLINE is set for the whole session, and HF_HOME points at an empty temp
dir so the machine's own cache cannot make a test pass.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="bvl-hf-home-")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pytest  # noqa: E402

from tiny_models import FAMILY_SPECS, NEW_FAMILY_SPECS, save_tiny_model  # noqa: E402


@pytest.fixture(scope="session")
def tiny_dirs(tmp_path_factory) -> dict[str, str]:
    """model_type -> directory of a saved tiny checkpoint, one per supported family."""
    return {t: save_tiny_model(t, str(tmp_path_factory.mktemp(t))) for t in FAMILY_SPECS}


@pytest.fixture(scope="session")
def tiny_loaded(tiny_dirs):
    """model_type -> LoadedModel (task "base"), loaded through the local-directory path."""
    from bertviz_lite import load_model

    return {t: load_model(d) for t, d in tiny_dirs.items()}


@pytest.fixture(scope="session")
def new_tiny_dirs(tmp_path_factory) -> dict[str, str]:
    """model_type -> directory of a saved tiny checkpoint of each family beyond BERT's layer."""
    return {t: save_tiny_model(t, str(tmp_path_factory.mktemp(t))) for t in NEW_FAMILY_SPECS}


@pytest.fixture(scope="session")
def new_tiny_loaded(new_tiny_dirs):
    """model_type -> LoadedModel (task "base") of each family beyond BERT's layer."""
    from bertviz_lite import load_model

    return {t: load_model(d) for t, d in new_tiny_dirs.items()}


@pytest.fixture(scope="session")
def every_tiny_dir(tiny_dirs, new_tiny_dirs) -> dict[str, str]:
    """model_type -> directory of a saved tiny checkpoint, every supported family."""
    return {**tiny_dirs, **new_tiny_dirs}


@pytest.fixture(scope="session")
def bert_base():
    """bert-base-uncased's exact architecture with random weights: the offline default."""
    from bertviz_lite import load_model

    return load_model("bert-base-uncased")


@pytest.fixture(scope="module")
def server():
    """The app on a free loopback port (`streamlit run app.py`), its URL."""
    from bertviz_lite.benchmarks.app_process import Server

    app = Server(Path(__file__).resolve().parent.parent)
    yield app.url
    app.stop()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, under Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        try:
            yield chromium
        finally:
            chromium.close()
