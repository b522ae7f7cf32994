"""The compare and contexts commands: JSON shapes as the issue gives them, listings, errors, the bench's rows."""
import json

import numpy as np

from bertviz_lite import BUNDLED_MODEL, load_model, trace, word_in_contexts
from cli_run import run_cli


def test_contexts_json(capsys):
    a, b = "i sat on the bank of the river", "i deposited money at the bank"
    code, out, _ = run_cli(capsys, "contexts", BUNDLED_MODEL, a, b, "--word", "bank", "--json")
    data = json.loads(out)
    assert code == 0 and data["word"] == "bank"
    assert data["tokens_a"][0] == "[CLS]" and "bank" in data["tokens_b"]
    loaded = load_model(BUNDLED_MODEL)
    np.testing.assert_allclose(data["layers"], word_in_contexts(trace(loaded, a), trace(loaded, b), "bank").cosines)
    assert len(data["layers"]) == 7


def test_contexts_listing_and_a_missing_word(capsys):
    code, out, _ = run_cli(capsys, "contexts", BUNDLED_MODEL, "the river bank", "the bank", "--word", "bank")
    assert code == 0 and "embeddings" in out and "layer 5" in out and "layer 6" not in out  # counted from 0
    code, _, err = run_cli(capsys, "contexts", BUNDLED_MODEL, "the river bank", "the bank", "--word", "river")
    assert code == 1 and "Words both sentences share: the, bank" in err and "Traceback" not in err


def test_compare_json_on_mixed_families(capsys, tiny_dirs, new_tiny_dirs):
    for a, b in ((tiny_dirs["bert"], tiny_dirs["roberta"]), (tiny_dirs["albert"], new_tiny_dirs["deberta-v2"]),
                 (tiny_dirs["distilbert"], new_tiny_dirs["modernbert"])):
        code, out, _ = run_cli(capsys, "compare", a, b, "the cat sat on the mat", "--json")
        data = json.loads(out)
        assert code == 0 and [m["model"] for m in data["models"]] == [a, b]
        assert "model_type" in data["differences"]
        for model, source in zip(data["models"], (a, b)):
            loaded = load_model(source)
            assert model["total"] == sum(p.numel() for p in loaded.model.parameters())
            assert sum(model["groups"].values()) == model["total"]
            assert model["tokens"] == trace(loaded, "the cat sat on the mat").tokens


def test_compare_listing_and_the_same_model_twice(capsys):
    code, out, _ = run_cli(capsys, "compare", "bert-base-uncased", "distilbert-base-uncased", "the bank")
    assert code == 0 and "← differs" in out and "109,482,240" in out and "66,362,880" in out
    code, _, err = run_cli(capsys, "compare", "bert-base-uncased", "bert-base-uncased", "the bank")
    assert code == 1 and "two different models" in err


def test_every_model_compares_its_stack_of_layers_as_the_encoder(tiny_loaded, new_tiny_loaded):
    """DistilBERT's "transformer" and ModernBERT's "layers" are the row "encoder", as BERT's is, and hold the
    layers' parameters: the same count as the layer modules themselves."""
    from bertviz_lite.analyses.compare import compare_models

    pairs = ((tiny_loaded["bert"], tiny_loaded["distilbert"]), (tiny_loaded["albert"], new_tiny_loaded["modernbert"]))
    for a, b in pairs:
        result = compare_models(a, b, "the cat sat")
        for loaded, groups in zip((a, b), result.groups):
            layers = {id(p): p.numel() for m in loaded.family.layer_modules(loaded.base) for p in m.parameters()}
            assert "encoder" in groups and groups["encoder"] >= sum(layers.values()), (loaded.source, groups)
            assert "transformer" not in groups and "layers" not in groups
