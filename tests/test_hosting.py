"""Hosted mode (a Space, or BVL_HOSTED=1): no local directories, a parameter budget read from the config before
any weights are fetched; and `prefetch` for real, over HTTP from a local stand-in Hub into a temporary cache."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from transformers import AutoConfig, AutoModel, AutoModelForMaskedLM

from bertviz_lite import LoadError, load_model
from bertviz_lite.serving.hosting import DEFAULT_MAX_PARAMETERS, Limits, count_parameters, is_hosted
from bertviz_lite.loading.presets import preset_config

from local_hub import LocalHub
from tiers import slow

HOSTED = Limits.from_env({"BVL_HOSTED": "1"})
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("environ, hosted", [
    ({}, False), ({"SPACE_ID": "someone/bertviz-lite"}, True), ({"BVL_HOSTED": "1"}, True),
    ({"BVL_HOSTED": "true"}, True), ({"BVL_HOSTED": "0"}, False), ({"SPACE_ID": " "}, False)])
def test_hosted_is_decided_by_the_environment(environ, hosted):
    assert is_hosted(environ) is hosted
    limits = Limits.from_env(environ)
    assert limits.allow_local_dirs is not hosted
    assert limits.max_parameters == (DEFAULT_MAX_PARAMETERS if hosted else None)


def test_budget_can_be_set():
    assert Limits.from_env({"BVL_HOSTED": "1", "BVL_MAX_PARAMETERS": "150_000_000"}).max_parameters == 150_000_000
    assert Limits.from_env({"BVL_HOSTED": "1", "BVL_MAX_PARAMETERS": "lots"}).max_parameters == DEFAULT_MAX_PARAMETERS


def test_default_budget_admits_bert_large_and_counts_without_memory():
    config = AutoConfig.for_model(**preset_config("bert-large-uncased"))
    assert count_parameters(config, AutoModel) == 335_141_888 < DEFAULT_MAX_PARAMETERS
    # masked LM: no pooler, but a transform of the same size, its LayerNorm and the decoder's bias (the decoder
    # weight is the word-embedding matrix, counted once)
    assert count_parameters(config, AutoModelForMaskedLM) == 335_174_458


@pytest.mark.parametrize("source_of", [lambda dirs: dirs["bert"], lambda dirs: "./tests", lambda dirs: "/etc",
                                       lambda dirs: "~", lambda dirs: "bertviz_lite"])
def test_hosted_refuses_local_directories(tiny_dirs, source_of, monkeypatch):
    monkeypatch.chdir(ROOT)  # "bertviz_lite" is a directory there, though it also looks like a Hub id
    with pytest.raises(LoadError, match="does not open directories on its server"):
        load_model(source_of(tiny_dirs), limits=HOSTED)


def test_hosted_is_read_from_the_environment_by_default(tiny_dirs, monkeypatch):
    monkeypatch.setenv("SPACE_ID", "someone/bertviz-lite")
    with pytest.raises(LoadError, match="does not open directories"):
        load_model(tiny_dirs["bert"])
    monkeypatch.delenv("SPACE_ID")
    assert load_model(tiny_dirs["bert"]).weights_kind == "pretrained"


def test_budget_refuses_a_preset_with_its_exact_size():
    with pytest.raises(LoadError, match=r"'bert-base-uncased' has 109,482,240 parameters, more than this hosted "
                                        r"app's limit of 100,000,000"):
        load_model("bert-base-uncased", limits=Limits(allow_local_dirs=False, max_parameters=100_000_000))


def test_budget_counts_the_task_model(tiny_dirs):
    base = load_model(tiny_dirs["bert"]).model.num_parameters()
    allowed = Limits(max_parameters=base)
    assert load_model(tiny_dirs["bert"], "base", allowed).weights_kind == "pretrained"
    with pytest.raises(LoadError, match="more than this hosted app's limit"):
        load_model(tiny_dirs["bert"], "masked-lm", allowed)  # the MLM head adds a transform and a bias


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {key: value for key, value in os.environ.items() if key not in ("HF_HUB_OFFLINE", "SPACE_ID")}
    return subprocess.run([sys.executable, "-m", "bertviz_lite", *args], env={**environ, **env}, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@slow
def test_prefetch_downloads_into_a_cache_that_then_works_offline(tiny_dirs, tmp_path):
    home = str(tmp_path / "hf-home")
    with LocalHub({"tiny/bert": tiny_dirs["bert"]}) as hub:
        fetched = _cli("prefetch", "tiny/bert", HF_ENDPOINT=hub.url, HF_HOME=home)
        assert fetched.returncode == 0, fetched.stderr
        assert "tiny/bert: ready for offline use" in fetched.stdout
        assert "GET /tiny/bert/resolve/" in "\n".join(hub.requests)
    assert any(name.endswith("model.safetensors") for _, _, files in os.walk(home) for name in files)
    offline = _cli("params", "tiny/bert", "--json", HF_HOME=home, HF_HUB_OFFLINE="1")
    assert offline.returncode == 0, offline.stderr
    result = json.loads(offline.stdout)
    expected = load_model(tiny_dirs["bert"]).model.num_parameters()
    assert (result["weights"], result["total"]) == ("pretrained", expected)
    elsewhere = _cli("params", "tiny/bert", HF_HOME=str(tmp_path / "empty"), HF_HUB_OFFLINE="1")
    assert elsewhere.returncode == 1 and "not in the local cache" in elsewhere.stderr


@slow
def test_hosted_budget_is_checked_before_weights_are_downloaded(tiny_dirs, tmp_path):
    with LocalHub({"tiny/bert": tiny_dirs["bert"]}) as hub:
        refused = _cli("params", "tiny/bert", HF_ENDPOINT=hub.url, HF_HOME=str(tmp_path / "a"), BVL_HOSTED="1",
                       BVL_MAX_PARAMETERS="1000")
        asked = "\n".join(hub.requests)
        assert refused.returncode == 1
        assert "more than this hosted app's limit of 1,000" in refused.stderr
        assert "config.json" in asked and "model.safetensors" not in asked
        allowed = _cli("params", "tiny/bert", "--json", HF_ENDPOINT=hub.url, HF_HOME=str(tmp_path / "b"),
                       BVL_HOSTED="1")
        assert allowed.returncode == 0, allowed.stderr
        assert json.loads(allowed.stdout)["weights"] == "pretrained"


def test_hosted_offline_advice_does_not_tell_visitors_to_run_commands():
    with pytest.raises(LoadError, match="this hosted app offers the built-in presets") as error:
        load_model("someone/not-baked", limits=HOSTED)
    assert "prefetch" not in str(error.value)
