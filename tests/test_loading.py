"""Loading through every path: local directories of every family and task, the offline presets, and every
failure as one sentence."""
import os
import subprocess
import sys
import socket
import threading
import time

import pytest
import torch
from safetensors.torch import load_file

from bertviz_lite import BUNDLED_MODEL, LoadError, load_model, load_preset
from bertviz_lite.loading import hub
from bertviz_lite.loading.offline_tokenizer import build_tokenizer
from bertviz_lite.loading.presets import PRESETS
from bertviz_lite.loading.real_tokenizers import REAL_TOKENIZERS
from tiers import slow
from tiny_models import FAMILY_NAMES, FAMILY_SPECS, save_tiny_model


@pytest.mark.parametrize("model_type", FAMILY_SPECS)
@pytest.mark.parametrize("task", ["base", "sequence-classification", "masked-lm"])
def test_local_directory_loads_every_family_and_task(tiny_dirs, model_type, task):
    loaded = load_model(tiny_dirs[model_type], task)
    assert loaded.family.name == FAMILY_NAMES[model_type]
    assert loaded.weights_kind == "pretrained" and loaded.origin == "local directory"
    assert loaded.config._attn_implementation == "eager"
    assert not loaded.model.training
    assert all(p.dtype == torch.float32 for p in loaded.model.parameters())
    assert loaded.warning is None


def test_weights_come_from_the_checkpoint_and_new_head_is_reported(tiny_dirs):
    saved = load_file(os.path.join(tiny_dirs["bert"], "model.safetensors"))
    loaded = load_model(tiny_dirs["bert"], "sequence-classification")
    q = loaded.model.bert.encoder.layer[1].attention.self.query.weight
    assert torch.equal(q, saved["bert.encoder.layer.1.attention.self.query.weight"])
    assert {"classifier.weight", "classifier.bias"} <= set(loaded.new_parameters)
    assert not any(n.startswith("bert.encoder") for n in loaded.new_parameters)


@slow
def test_offline_every_preset_loads_bundled_or_random_init():
    for source in PRESETS:
        if source == "bert-large-uncased":
            continue  # 335 M parameters: its count is checked from the config in test_tree_params
        loaded = load_model(source)
        assert loaded.tokenizer.pad_token_id == loaded.config.pad_token_id
        if source == BUNDLED_MODEL:
            assert (loaded.weights_kind, loaded.warning, loaded.bundled) == ("pretrained", None, True)
            continue
        assert loaded.weights_kind == "random-init" and "Random weights" in loaded.warning
        if PRESETS[source].uncased_vocab or source in REAL_TOKENIZERS:
            assert loaded.vocabulary == ("real uncased" if PRESETS[source].uncased_vocab else "real")
            assert "tokens and ids are real" in loaded.warning and "stand-in" not in loaded.warning
        else:
            assert loaded.vocabulary == "stand-in"
            assert "stand-in vocabulary" in loaded.warning and "not the real model's" in loaded.warning


def test_random_init_is_repeatable():
    a = load_preset("albert-base-v2").model.state_dict()
    b = load_preset("albert-base-v2").model.state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("source,first,last", [
    ("bert-base-uncased", "[CLS]", "[SEP]"), ("roberta-base", "<s>", "</s>"), ("albert-base-v2", "[CLS]", "[SEP]")])
def test_stand_in_tokenizers_follow_family_conventions(source, first, last):
    family = load_preset(source).family  # bert-base has its real vocabulary offline; its stand-in is the fallback
    tok = build_tokenizer(family.tokenizer, 512)
    tokens = tok.convert_ids_to_tokens(tok("The cat sat. Sunflowers!")["input_ids"])
    assert tokens[0] == first and tokens[-1] == last
    marker = {"bert-base-uncased": "##", "roberta-base": "Ġ", "albert-base-v2": "▁"}[source]
    assert any(marker in t for t in tokens)
    if source != "roberta-base":
        assert tokens[1] == "the" or tokens[1] == "▁the"  # lower-cased


def test_unknown_hub_id_offline_names_the_fix():
    with pytest.raises(LoadError, match="not in the local cache.*prefetch"):
        load_model("some-user/no-such-model")


def test_missing_directory(tmp_path):
    with pytest.raises(LoadError, match="no directory"):
        load_model(str(tmp_path / "missing"))


def test_file_instead_of_directory(tmp_path):
    f = tmp_path / "weights.bin"
    f.write_bytes(b"x")
    with pytest.raises(LoadError, match="is a file"):
        load_model(str(f))


def test_directory_without_config(tmp_path):
    with pytest.raises(LoadError, match="no config.json"):
        load_model(str(tmp_path))


def test_directory_without_weights(tmp_path, tiny_dirs):
    (tmp_path / "config.json").write_text(open(os.path.join(tiny_dirs["bert"], "config.json")).read())
    with pytest.raises(LoadError, match="holds no weights"):
        load_model(str(tmp_path))


def test_directory_without_tokenizer(tmp_path):
    from transformers import AutoModel, BertConfig

    AutoModel.from_config(BertConfig(hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                                     intermediate_size=20, vocab_size=50)).save_pretrained(tmp_path)
    with pytest.raises(LoadError, match="tokenizer"):
        load_model(str(tmp_path))


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any directory")
def test_unreadable_directory(tmp_path, tiny_dirs):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        with pytest.raises(LoadError, match="permission denied"):
            load_model(str(locked))
    finally:
        locked.chmod(0o700)


def test_unsupported_family_names_the_supported_ones(tmp_path):
    from transformers import GPT2Config, GPT2LMHeadModel

    GPT2LMHeadModel(GPT2Config(n_embd=16, n_layer=1, n_head=2, vocab_size=50)).save_pretrained(tmp_path)
    with pytest.raises(LoadError) as info:
        load_model(str(tmp_path))
    message = str(info.value)
    assert "'gpt2' models are not a supported encoder" in message
    assert all(name in message for name in FAMILY_NAMES.values())


def test_empty_source_and_unknown_task(tiny_dirs):
    with pytest.raises(LoadError, match="Enter a model"):
        load_model("   ")
    with pytest.raises(LoadError, match="Unknown task"):
        load_model(tiny_dirs["bert"], "question-answering")


def test_hub_errors_become_one_sentence():
    import httpx2
    from huggingface_hub import errors

    response = httpx2.Response(404, request=httpx2.Request("GET", "https://huggingface.co/x"))
    missing = OSError("wrapped")
    missing.__cause__ = errors.RepositoryNotFoundError("404", response=response)
    assert "no model 'x/y' on the Hugging Face Hub" in hub.explain(missing, "x/y")
    gated = errors.GatedRepoError("403", response=response)
    assert "gated model" in hub.explain(gated, "meta/x")
    assert hub.explain(ValueError("other"), "x") is None
    assert hub.is_not_cached(OSError("x")) is False


def test_hub_probe_gives_up_within_its_timeout(monkeypatch):
    """A Hub that accepts connections and never answers is declared unreachable in seconds, not 25 s."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(hub.huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(hub.huggingface_hub.constants, "ENDPOINT", f"http://127.0.0.1:{server.getsockname()[1]}")
    monkeypatch.setattr(hub, "PROBE_TIMEOUT_S", 1.0)
    hub.forget_probe()
    try:
        start = time.monotonic()
        assert hub.hub_reachable() is False
        assert time.monotonic() - start < 5.0
        assert accepted, "the probe did connect to the endpoint"
    finally:
        hub.forget_probe()
        server.close()


def test_offline_flag_skips_the_probe(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hub, "_probe", lambda: pytest.fail("probed although offline was asked for"))
    hub.forget_probe()
    assert hub.hub_reachable() is False


def test_a_network_lost_after_the_probe_still_falls_back_to_the_bundled_and_preset_models(monkeypatch):
    """The Hub answered its probe (remembered for a while), then the network went: huggingface_hub says the files
    are not in the cache, and the bundled copy and the preset's architecture still load, as offline."""
    from bertviz_lite import BUNDLED_MODEL
    from bertviz_lite.loading.loader import load_config

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # what huggingface_hub does now: refuse to download
    monkeypatch.setattr(hub, "hub_reachable", lambda: True)  # what the probe said a moment ago
    bundled = load_model(BUNDLED_MODEL)
    assert bundled.weights_kind == "pretrained" and bundled.bundled
    assert load_model("bert-base-uncased").weights_kind == "random-init"
    assert load_config("bert-base-uncased").hidden_size == 768


def test_prefetch_of_a_local_directory_checks_it_loads(tiny_dirs):
    from bertviz_lite import prefetch

    assert prefetch(tiny_dirs["electra"]).family.name == "ELECTRA"
    with pytest.raises(LoadError, match="cannot be reached"):
        prefetch("bert-base-uncased")


def test_save_tiny_model_is_loadable_again(tmp_path):
    """The fixture helper itself: a second seed gives different weights, so parity tests are not vacuous."""
    a = load_model(save_tiny_model("bert", str(tmp_path / "a"), seed=1)).model
    b = load_model(save_tiny_model("bert", str(tmp_path / "b"), seed=2)).model
    assert not torch.equal(a.embeddings.word_embeddings.weight, b.embeddings.word_embeddings.weight)


@slow
def test_stand_in_vocabulary_is_the_same_in_every_process():
    """Shared links must show the same ids: the shipped vocabulary, not a fresh (unordered) training run."""
    code = ("from bertviz_lite import load_preset; t = load_preset('roberta-base').tokenizer; "
            "print(t('this is a 12212121 test sentence')['input_ids'])")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout for _ in range(2)}
    assert len(runs) == 1 and runs.pop().startswith("[0, ")


@pytest.mark.parametrize("kind", ["wordpiece", "bpe", "unigram"])
def test_vocabulary_training_still_works(kind):
    from bertviz_lite.families import FAMILIES
    from bertviz_lite.loading.offline_tokenizer import _trained_model

    recipe = next(f.tokenizer for f in FAMILIES if f.tokenizer.kind == kind)
    vocab = _trained_model(recipe)["vocab"]
    tokens = [v[0] for v in vocab] if kind == "unigram" else sorted(vocab, key=vocab.get)
    assert tokens[: len(recipe.special_tokens)] == list(recipe.special_tokens) and len(tokens) > 300
